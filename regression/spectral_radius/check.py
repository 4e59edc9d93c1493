"""Numerical dissipation of the two-step method far above the step's resolution (w h = 1e4),
measured on a mechanical model: the engine must damp the mode exactly as the formula says.

Deck: regression/spectral_radius/stiff_pendulum.mbd (next to this script: a test device, not a
user example): a 1 kg point mass on a 1 m revolute-hinged link under g = 1 m/s^2, released at
rest at theta0 = 1e-4 rad, so theta'' = -w^2 theta with w = 1 rad/s; time step h = 1e4 s
(w h = 1e4), 40 steps, `method: ms, RHO, RHO` with RHO = 0, 0.6, 1. (No spring element runs in
the engine yet: the linear oscillator is the small-amplitude pendulum, its stiffness g/L.)

Reference (derived, in this script): the same linear oscillator integrated by an independent
implementation of docs/formulation.md section 3: first step Crank-Nicolson (as the engine), then the
constant-step closed forms a1 = 4(1-rho)/(3-rho), a2 = (3 rho-1)/(3-rho),
b0 = 2h/((1+rho)(3-rho)), b1 = 4 rho h/(...), b2 = 2 rho^2 h/(...), each step solved exactly
(linear). Compared quantity: the energy-norm amplitude a_k = sqrt(theta^2 + (theta'/w)^2)
relative to a_0, theta = atan2(x, -y) and theta' = omega_z from the .mov file. Also printed: the
exact spectral radius at w h = 1e4 (largest root of (1 - b0 l) z^2 - (a1 + b1 l) z - (a2 + b2 l),
l = i w h): 0.00714, 0.60643, 1, which the per-step ratio approaches like 1/k (double root at
infinity; see solvers/dae/test/integrator_test.cpp, which checks the formula itself, including
|ratio - rho| < 1e-3 at w h = 1e8).

Tolerances (observed when written in brackets):
  all steps, all rho: |a_k - model_k| <= 1e-6 model_k + 1e-12 [2e-8 relative: the pendulum's
      nonlinearity, ~2 theta0^2 (2e-6 at theta0 = 1e-3); the engine's round-off floor is
      a ~ 1e-20, reached by rho = 0 after 7 steps; the largest, 5.2e-7, with rho = 0];
  rho = 1: max |a_k - 1| < 1e-7 [2.1e-8] (no dissipation);
  rho = 0.6: per-step ratio a_40/a_39 within 2e-9 of the model's [0.6148633, 4.0e-10 from the
      model; still 8e-3 above the exact radius: the 1/k approach], and a_40 < 1e-7 [3.7e-8];
  rho = 0 (BDF2): a_2 < 1e-3 [2.5e-4], a_4 < 1e-7 [2.25e-8].

`method: hope, RHO, RHO` (MBDyn's alternating method) on the same device, RHO = 0.6 and 1: the
deck is copied with `ms` replaced by `hope`; the model alternates Crank-Nicolson (odd steps) and
MBDyn's constant-step hope formula y_k = a1 y_{k-1} + a2 y_{k-2} + b0 y'_k + b1 y'_{k-1}, A =
4 rho/(3 + rho), a1 = (4 - A)/3, a2 = (A - 1)/3, b0 = h (4 - A)/6, b1 = h A/2 (even steps),
written here from MBDyn's published coefficients. Tolerance: |a_k - model_k| <= 1e-6 model_k +
1e-12 [7.2e-8 relative]; rho = 0.6: two-step ratio a_40/a_38 within 2e-7 of rho [4.9e-8] (stiff
limit: -1 then -rho per pair of steps); rho = 1: max |a_k - 1| < 1e-7 [2.0e-8].
Runtime: < 1 s.
"""
import cmath
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
deck = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'stiff_pendulum.mbd')
WH, NSTEPS, MASS = 1e4, 40, 2


def closed_form(rho, h=1.0):
    d = (1 + rho) * (3 - rho)
    return (4 * (1 - rho) / (3 - rho), (3 * rho - 1) / (3 - rho), 2 * h / d, 4 * rho * h / d, 2 * rho ** 2 * h / d)


def model(rho, wh, n):
    """Amplitudes a_0..a_n of u' = S u, u = (theta, theta'/w), S = [[0, w], [-w, 0]], h = 1."""
    S, I = np.array([[0.0, wh], [-wh, 0.0]]), np.eye(2)
    u1 = np.array([1.0, 0.0])
    d1 = S @ u1
    u = np.linalg.solve(I - 0.5 * S, u1 + 0.5 * d1)        # Crank-Nicolson first step
    u2, d2, u1, d1 = u1, d1, u, S @ u
    amps = [1.0, np.linalg.norm(u)]
    a1, a2, b0, b1, b2 = closed_form(rho)
    for _ in range(n - 1):
        u = np.linalg.solve(I - b0 * S, a1 * u1 + a2 * u2 + b1 * d1 + b2 * d2)
        u2, d2, u1, d1 = u1, d1, u, S @ u
        amps.append(np.linalg.norm(u))
    return np.array(amps)


def spectral_radius(rho, wh):
    a1, a2, b0, b1, b2 = closed_form(rho)
    lam = 1j * wh
    A, B, C = 1 - b0 * lam, -(a1 + b1 * lam), -(a2 + b2 * lam)
    s = cmath.sqrt(B * B - 4 * A * C)
    return max(abs((-B + s) / (2 * A)), abs((-B - s) / (2 * A)))


for rho in (0.0, 0.6, 1.0):
    r = Run(exe, deck, work, f'stiff_pendulum_rho{rho:g}', {'RHO': rho, 'WH': WH, 'NSTEPS': NSTEPS})
    mov = r.rows('mov', MASS)
    theta, theta_dot = np.arctan2(mov[:, 1], -mov[:, 2]), mov[:, 12]
    a = np.hypot(theta, theta_dot)      # w = 1
    a = a / a[0]
    m = model(rho, WH, NSTEPS)
    close(f'rho={rho:g}: number of output steps', len(a), NSTEPS + 1, 0)
    excess = (np.abs(a - m) - (1e-6 * m + 1e-12)).max()
    worst = np.argmax(np.abs(a - m) / np.maximum(m, 1e-12))
    print(f'rho={rho:g}: amplitudes a_1..a_5 = {", ".join(f"{v:.6g}" for v in a[1:6])}; a_{NSTEPS} = {a[-1]:.4g} '
          f'(model {m[-1]:.4g}); largest relative deviation from the model {abs(a[worst] / m[worst] - 1):.3g} '
          f'at step {worst}; exact spectral radius at w h = 1e4: {spectral_radius(rho, WH):.9f}')
    close(f'rho={rho:g}: max(|a_k - model_k| - (1e-6 model_k + 1e-12)) <= 0', max(excess, 0.0), 0.0, 0.0)
    if rho == 1.0:
        close('rho=1: max |a_k - 1| (no dissipation)', np.abs(a - 1).max(), 0.0, 1e-7)
    elif rho == 0.6:
        ratio, mratio = a[-1] / a[-2], m[-1] / m[-2]
        print(f'rho=0.6: per-step ratio at step {NSTEPS}: {ratio:.9f} (model {mratio:.9f}, rho 0.6, '
              f'exact radius {spectral_radius(0.6, WH):.9f})')
        close(f'rho=0.6: per-step ratio a_{NSTEPS}/a_{NSTEPS - 1} vs model', ratio, mratio, 2e-9)
        close(f'rho=0.6: a_{NSTEPS} < 1e-7 (damped)', a[-1], 0.0, 1e-7)
    else:
        close('rho=0: a_2 (first BDF2 step) < 1e-3', a[2], 0.0, 1e-3)
        close('rho=0: a_4 < 1e-7', a[4], 0.0, 1e-7)


def hope_model(rho, wh, n):
    S, I = np.array([[0.0, wh], [-wh, 0.0]]), np.eye(2)
    A = 4 * rho / (3 + rho)
    a1, a2, b0, b1 = (4 - A) / 3, (A - 1) / 3, (4 - A) / 6, A / 2
    u1, u2 = np.array([1.0, 0.0]), None
    d1, d2 = S @ u1, None
    amps = [1.0]
    for k in range(1, n + 1):
        if k % 2 == 1:
            u = np.linalg.solve(I - 0.5 * S, u1 + 0.5 * d1)
        else:
            u = np.linalg.solve(I - b0 * S, a1 * u1 + a2 * u2 + b1 * d1)
        u2, d2, u1, d1 = u1, d1, u, S @ u
        amps.append(np.linalg.norm(u))
    return np.array(amps)


with open(deck) as f:
    text = f.read()
assert 'method: ms, RHO, RHO;' in text
hope_deck = os.path.join(work, 'stiff_pendulum_hope.mbd')
with open(hope_deck, 'w') as f:
    f.write(text.replace('method: ms, RHO, RHO;', 'method: hope, RHO, RHO;'))
for rho in (0.6, 1.0):
    r = Run(exe, hope_deck, work, f'stiff_pendulum_hope_rho{rho:g}', {'RHO': rho, 'WH': WH, 'NSTEPS': NSTEPS})
    mov = r.rows('mov', MASS)
    a = np.hypot(np.arctan2(mov[:, 1], -mov[:, 2]), mov[:, 12])
    a = a / a[0]
    m = hope_model(rho, WH, NSTEPS)
    close(f'hope rho={rho:g}: number of output steps', len(a), NSTEPS + 1, 0)
    dev = np.abs(a - m) / np.maximum(m, 1e-12)
    print(f'hope rho={rho:g}: a_1..a_4 = {", ".join(f"{v:.6g}" for v in a[1:5])}; a_{NSTEPS} = {a[-1]:.4g} '
          f'(model {m[-1]:.4g}); largest relative deviation {dev.max():.3g}')
    excess = (np.abs(a - m) - (1e-6 * m + 1e-12)).max()
    close(f'hope rho={rho:g}: max(|a_k - model_k| - (1e-6 model_k + 1e-12)) <= 0', max(excess, 0.0), 0.0, 0.0)
    if rho == 0.6:
        close('hope rho=0.6: two-step ratio a_40/a_38', a[-1] / a[-3], 0.6, 2e-7)
    else:
        close('hope rho=1: max |a_k - 1| (no dissipation)', np.abs(a - 1).max(), 0.0, 1e-7)
finish()
