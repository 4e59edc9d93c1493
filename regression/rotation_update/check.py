"""Orientation accuracy at large rotation per step (omega dt = 0.01 ... 0.5).

Deck: input-examples/rotation_update.mbd: five independent bodies turning at W = 30 rad/s, no
gravity, no loads: SPIN (free body, steady spin about its principal axis of largest inertia, axis
skewed by euler123(20, -35, 50) deg), SYM (torque-free symmetric top, J = diag(1, 1, 1.5)), ASYM
(torque-free asymmetric top, J = diag(1, 2, 3)), CRANK (revolute hinge, free), DRIVEN (axial
rotation at constant W). `method: ms, RHO`, tolerance 1e-12; .mov with orientation matrices.

References:
  - SPIN, CRANK, DRIVEN: R(t) = exp(t W e x) R0, exactly W dt per step.
  - SYM: R(t) = exp(t [H/A] x) R0 exp(t s [e3] x), s = -(C - A) w3 / A (regular precession).
  - ASYM: Euler's equations and the unit quaternion integrated here with scipy's DOP853, rtol
    1e-13, atol 1e-14 (its own error ~1e-11 rad over 1 s, far below the errors checked).
  - The scheme itself, in closed form, for a uniform spin about a fixed axis. mbsolve integrates
    the CGR parameters g of the rotation from R_{k-1} over the whole step (core/struct_node.hpp):
    with the previous step seen backwards g_{k-2} = -g, and g' = (1 + g.g/4) W on the axis, the
    corrector g = a1 0 + a2 g_{k-2} + b0 g'_k + b1 W + b2 g'_{k-2} is, in a steady spin,
        (b0 + b2) W/4 g^2 - (1 + a2) g + (b0 + b1 + b2) W = 0,
    whose small root gives the per-step angle 2 atan(g/2) (Crank-Nicolson, the first step:
    a2 = b2 = 0, b0 = b1 = dt/2). Expanding: angle - W dt = c (W dt)^3 + O((W dt)^5),
    c = (b0 + b2) / (4 (1 + a2) dt) - 1/12: 1/24 for Crank-Nicolson, 0.04948 for rho = 0.6,
    1/6 for rho = 0 (BDF2), 1/24 for rho = 1.

Checks (rho = 0.6 unless said; observed values when written in brackets):
  A. Per-step angle of SPIN, CRANK, DRIVEN against the scheme's closed form: step 1 (Crank-
     Nicolson) and steps 30..N (two-step, after the start transient, which decays like
     a2^k = 3^-k) to 5e-14 rad [<= 5.4e-15: round-off]; the same at rho = 0 and 1 for omega dt
     = 0.3. This pins the update itself: MBDyn's (g corrected about the predicted rotation)
     turns 0.301081 rad in the first step at omega dt 0.3, this one 0.3011562.
  B. Per-step angle against the exact W dt: max |angle - W dt| / (W dt)^3 <= 0.06 over every
     step and omega dt [0.0521 .. 0.0562: the first two-step steps; steady 0.0495 .. 0.0534].
  C. Orientation after 1 s (N = 1 / dt steps) against the exact one, |rotation vector of
     R R_exact^T| / (W dt)^2: SPIN, CRANK, DRIVEN <= 1.7 [1.484 .. 1.600], SYM <= 1.7 [1.449 ..
     1.476], ASYM <= 2.0 [1.650 .. 1.758]. (The angle error grows linearly in time: N c (W dt)^3 =
     c W t (W dt)^2; so a crank at omega dt = 0.3 is 0.69 rad ahead after 5 s.)
  D. Per-step rotation of the tops against the exact one (R_k R_{k-1}^T vs R_ex,k R_ex,k-1^T),
     max over the steps / (W dt)^3: SYM <= 0.08 [0.065 .. 0.072], ASYM <= 2 [1.16 .. 1.51; its
     median is 0.43 .. 0.47 and the maximum grows along the run: the angular velocity's own
     phase error (Euler's equations) enters the comparison of later steps, so this is not a
     local error of the update].
  E. Convergence with dt (omega dt 0.05 -> 0.1): median per-step error order 3 +- 0.02
     [2.995 .. 3.003], orientation after 1 s order 2 +- 0.1 [1.979 .. 2.003], for every body.
  F. The tops against MBDyn 1.7.3 on the same deck (MBDyn's orientation error after 1 s, measured
     once, docs/rotation-update.md): mbsolve's error / MBDyn's <= 1 for SYM [0.88 .. 0.99] and
     ASYM [0.36 .. 0.97] at every omega dt (MBDyn's own update corrects about the predicted
     rotation; on a fixed-axis spin it is the better one, by 0.01% .. 21%, not checked here).
Runtime: about 11 s.
"""
import math
import os
import sys

import numpy as np
from scipy.integrate import solve_ivp

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, euler123, expm, finish, rot  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
DECK = os.path.join(EXAMPLES, 'rotation_update.mbd')
W = 30.0
SPIN, SYM, ASYM, CRANK, DRIVEN = 2, 3, 4, 5, 6
NAMES = {SPIN: 'SPIN', SYM: 'SYM', ASYM: 'ASYM', CRANK: 'CRANK', DRIVEN: 'DRIVEN'}
AXIAL = (SPIN, CRANK, DRIVEN)
WDTS = (0.01, 0.05, 0.1, 0.2, 0.3, 0.5)


def angle(R):
    """Rotation angle of R in [0, pi], accurate near 0."""
    s = 0.5 * math.sqrt((R[2, 1] - R[1, 2]) ** 2 + (R[0, 2] - R[2, 0]) ** 2 + (R[1, 0] - R[0, 1]) ** 2)
    return math.atan2(s, 0.5 * (np.trace(R) - 1.0))


# ---- exact motions ----
R0_SPIN = euler123(np.array([20.0, -35.0, 50.0]))
WB_SYM = W * np.array([0.4, 0.0, 0.9165151389911680])
A_SYM, C_SYM = 1.0, 1.5
H_SYM = np.diag([A_SYM, A_SYM, C_SYM]) @ WB_SYM
J_ASYM = np.array([1.0, 2.0, 3.0])
WB_ASYM = W * np.array([0.4, 0.3, 0.8660254037844386])


def spin_exact(t):
    return [expm(x * W * R0_SPIN[:, 2]) @ R0_SPIN for x in t]


def sym_exact(t):
    s = -(C_SYM - A_SYM) * WB_SYM[2] / A_SYM
    return [expm(x * H_SYM / A_SYM) @ expm(x * s * np.array([0.0, 0.0, 1.0])) for x in t]


def crank_exact(t):
    return [rot(2, W * x) for x in t]


def asym_exact(t):
    """Quaternion q = (q0, qv), q' = 1/2 q (0, w_b); J w_b' = (J w_b) x w_b; R0 = I."""
    def rhs(_, s):
        q0, qv, w = s[0], s[1:4], s[4:]
        return np.concatenate([[-0.5 * qv @ w], 0.5 * (q0 * w + np.cross(qv, w)), np.cross(J_ASYM * w, w) / J_ASYM])

    sol = solve_ivp(rhs, (0.0, t[-1]), np.concatenate([[1.0, 0.0, 0.0, 0.0], WB_ASYM]), method='DOP853',
                    rtol=1e-13, atol=1e-14, t_eval=t)
    out = []
    for q in sol.y[:4].T:
        w_, x, y, z = q / np.linalg.norm(q)
        out.append(np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w_ * z), 2 * (x * z + w_ * y)],
                             [2 * (x * y + w_ * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w_ * x)],
                             [2 * (x * z - w_ * y), 2 * (y * z + w_ * x), 1 - 2 * (x * x + y * y)]]))
    return out


EXACT = {SPIN: spin_exact, SYM: sym_exact, ASYM: asym_exact, CRANK: crank_exact, DRIVEN: crank_exact}


# ---- the scheme's per-step angle in a steady spin (closed form, see the docstring) ----
def ms_coefficients(rho):
    """Constant-step coefficients (dt = 1) of solvers/dae/integrator.cpp at alpha = 1."""
    r1 = (1 - rho) ** 2
    D = 4.0 - r1
    beta = (3 * r1 + 4 * (2 * rho - 1)) / D
    delta = 0.5 * r1 / D
    return beta, delta + 0.5, 0.5 * beta + 0.5 - 2 * delta, 0.5 * beta + delta  # a2, b0, b1, b2


def scheme_angle(th, a2, b0, b1, b2):
    """Small root of (b0 + b2) th/4 g^2 - (1 + a2) g + (b0 + b1 + b2) th = 0 -> 2 atan(g/2)."""
    p, q = (b0 + b2) * th / 4, 1 + a2
    g = 2 * (b0 + b1 + b2) * th / (q + math.sqrt(q * q - 4 * p * (b0 + b1 + b2) * th))
    return 2 * math.atan(g / 2)


CN = (0.0, 0.5, 0.5, 0.0)


# ---- runs ----
def run(wdt, rho):
    dt = wdt / W
    r = Run(exe, DECK, work, f'rot_{wdt:g}_{rho:g}', {'DT': dt, 'RHO': rho, 'TF': 1.0})
    t = r.times()
    res = {}
    for n in NAMES:
        R = r.rows('mov', n)[:, 4:13].reshape(-1, 3, 3)
        Rx = EXACT[n](t)
        steps = np.array([angle(R[k] @ R[k - 1].T) for k in range(1, len(t))])
        local = np.array([angle((R[k] @ R[k - 1].T) @ (Rx[k] @ Rx[k - 1].T).T) for k in range(1, len(t))])
        res[n] = dict(steps=steps, local=local, final=angle(R[-1] @ Rx[-1].T), n=len(t) - 1)
    return res


results = {wdt: run(wdt, 0.6) for wdt in WDTS}
MS06 = ms_coefficients(0.6)
print(f'rho = 0.6: a2, b0, b1, b2 = {MS06}; c = {(MS06[1] + MS06[3]) / (4 * (1 + MS06[0])) - 1 / 12:.6f}')

for wdt, res in results.items():
    th_cn, th_ms = scheme_angle(wdt, *CN), scheme_angle(wdt, *MS06)
    print(f'omega dt = {wdt:g}: scheme per-step angle - W dt: Crank-Nicolson {th_cn - wdt:.6e}, '
          f'ms 0.6 {th_ms - wdt:.6e} rad')
    for n in AXIAL:
        s = res[n]['steps']
        close(f'A: wdt {wdt:g} {NAMES[n]} step 1 angle vs the scheme (Crank-Nicolson) [rad]', s[0], th_cn, 5e-14)
        close(f'A: wdt {wdt:g} {NAMES[n]} steps 30..N max |angle - scheme| [rad]',
              np.abs(s[29:] - th_ms).max(), 0.0, 5e-14)
        close(f'B: wdt {wdt:g} {NAMES[n]} max |angle - W dt| / (W dt)^3', np.abs(s - wdt).max() / wdt ** 3, 0.0, 0.06)
        close(f'C: wdt {wdt:g} {NAMES[n]} orientation error after 1 s / (W dt)^2', res[n]['final'] / wdt ** 2, 0.0, 1.7)
    close(f'C: wdt {wdt:g} SYM orientation error after 1 s / (W dt)^2', res[SYM]['final'] / wdt ** 2, 0.0, 1.7)
    close(f'C: wdt {wdt:g} ASYM orientation error after 1 s / (W dt)^2', res[ASYM]['final'] / wdt ** 2, 0.0, 2.0)
    close(f'D: wdt {wdt:g} SYM max per-step error / (W dt)^3', res[SYM]['local'].max() / wdt ** 3, 0.0, 0.08)
    close(f'D: wdt {wdt:g} ASYM max per-step error / (W dt)^3', res[ASYM]['local'].max() / wdt ** 3, 0.0, 2.0)

# MBDyn 1.7.3, rotation_update.mbd at rho 0.6, orientation error after 1 s [rad] (SYM, ASYM).
MBDYN_FINAL = {0.01: (1.4830e-4, 1.7714e-4), 0.05: (3.8011e-3, 4.9418e-3), 0.1: (1.5661e-2, 2.2153e-2),
               0.2: (6.4602e-2, 1.1047e-1), 0.3: (1.4748e-1, 2.9950e-1), 0.5: (4.0970e-1, 1.2104)}
for wdt, (sym_m, asym_m) in MBDYN_FINAL.items():
    close(f'F: wdt {wdt:g} SYM orientation error after 1 s / MBDyn 1.7.3', results[wdt][SYM]['final'] / sym_m, 0.0, 1.0)
    close(f'F: wdt {wdt:g} ASYM orientation error after 1 s / MBDyn 1.7.3', results[wdt][ASYM]['final'] / asym_m, 0.0, 1.0)

for n in NAMES:
    a, b = results[0.05][n], results[0.1][n]
    close(f'E: {NAMES[n]} order of the per-step error (omega dt 0.05 -> 0.1)',
          math.log2(np.median(b['local']) / np.median(a['local'])), 3.0, 0.02)
    close(f'E: {NAMES[n]} order of the orientation error after 1 s', math.log2(b['final'] / a['final']), 2.0, 0.1)

for rho in (0.0, 1.0):
    res = run(0.3, rho)
    th = scheme_angle(0.3, *ms_coefficients(rho))
    for n in AXIAL:
        close(f'A: rho {rho:g} wdt 0.3 {NAMES[n]} steps 30..N max |angle - scheme| [rad]',
              np.abs(res[n]['steps'][29:] - th).max(), 0.0, 5e-14)
finish()
