"""DC motor module (modules/dc_motor) spinning up a flywheel: input-examples/module_dc_motor.mbd.

Model (derived in the deck's header): J w' = k i, L i' = V - R i - k w, w(0) = i(0) = 0,
V = 12 V, R = 2 ohm, L = 0.05 H, k = 0.5 N m/A, J = 0.1 kg m^2. The exact solution of this
linear 2x2 system, x(t) = x_ss + expm(A t) (x0 - x_ss) with x_ss = (V/k, 0), is computed here
with numpy's eigen-decomposition (independent of mbsolve). Checks:
  - w(t) and i(t) against the exact solution over 6 s: max error 2e-4 rad/s and 5e-4 A at
    dt = 1e-3 (measured 4.5e-5 and 3.5e-4: the current carries the fast mode, -38.7 1/s, and
    peaks at 4.7 A); second-order method: the dt = 5e-4 error is 3.98-4.02x smaller (measured
    3.995);
  - steady no-load speed V/k = 24 rad/s: w(6 s) within the exact transient (exp(-6/0.775))
    plus 1e-4; current -> 0;
  - time constant: the time w reaches (1 - 1/e) V/k equals the exact one (1e-7 s, measured
    2.7e-8) and is within 0.2% of the small-inductance estimate J R / k^2 = 0.8 s (measured
    0.055%: the inductance's lag);
  - energy balance: int V i dt = int R i^2 dt + L i^2/2 + J w^2/2 to 1e-5 relative (trapezoidal
    rule on the output steps; its own error is O(dt^2));
  - the rotor's angular velocity in .mov equals the motor's w (1e-14 rad/s, a few ulps of
    24 rad/s; measured 0), and the motor torque is k i (5e-15 N m, measured 8.9e-16);
  - private data: with a viscous friction couple -B w fed by the motor's datum "omega"
    (B = 0.05 N m s), the same comparison with A = [[-B/J, k/J], [-k/L, -R/L]] (2e-4 rad/s,
    5e-4 A) and the steady speed V k / (k^2 + R B);
  - initial value of the own unknown (`initial current, 30`): i(0) = 30 A and the exact solution
    from (0, 30) (5e-4 rad/s, 5e-3 A, measured 1.7e-4, 1.3e-3: the jump excites the fast mode).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
deck = os.path.join(EXAMPLES, 'module_dc_motor.mbd')
V, R, L, K, J = 12.0, 2.0, 0.05, 0.5, 0.1

def system(b):
    """Eigen-decomposition of x' = A x + c for x = (w, i), with viscous friction b, and x_ss."""
    A = np.array([[-b / J, K / J], [-K / L, -R / L]])
    w_ss = V * K / (K**2 + R * b)
    lam, P = np.linalg.eig(A)
    return lam, P, np.linalg.inv(P), np.array([w_ss, b * w_ss / K])


def exact(t, b=0.0, i0=0.0):
    """(w, i) at the times t, from w(0) = 0, i(0) = i0."""
    lam, P, Pinv, x_ss = system(b)
    out = np.empty((len(t), 2))
    for n, tt in enumerate(t):
        out[n] = x_ss + np.real(P @ np.diag(np.exp(lam * tt)) @ Pinv @ (np.array([0.0, i0]) - x_ss))
    return out


lam = system(0.0)[0]
errs = {}
for dt in (1e-3, 5e-4):
    r = Run(exe, deck, work, f'dc_motor_{dt:g}', {'DT': dt})
    usr = r.rows('usr', 1)
    t = r.times()
    i, w, torque, volt = usr[:, 1], usr[:, 2], usr[:, 3], usr[:, 4]
    ex = exact(t)
    errs[dt] = (np.abs(w - ex[:, 0]).max(), np.abs(i - ex[:, 1]).max())
    if dt == 1e-3:
        close('max |w - exact| [rad/s]', errs[dt][0], 0.0, 2e-4)
        close('max |i - exact| [A]', errs[dt][1], 0.0, 5e-4)
        slow = -max(np.real(lam))  # dominant decay rate
        close('w(6 s) vs no-load speed V/k [rad/s]', w[-1], V / K, V / K * 3 * np.exp(-slow * 6) + 1e-4)
        close('i(6 s) [A]', i[-1], 0.0, 0.01)
        # time to (1 - 1/e) of V/k, interpolated; exact one from a fine grid of the closed form
        target = (1 - np.exp(-1)) * V / K
        k = int(np.argmax(w >= target))
        t63 = t[k - 1] + (target - w[k - 1]) / (w[k] - w[k - 1]) * (t[k] - t[k - 1])
        tf = np.linspace(0, 2, 200001)
        wf = exact(tf)[:, 0]
        kf = int(np.argmax(wf >= target))
        t63_exact = tf[kf - 1] + (target - wf[kf - 1]) / (wf[kf] - wf[kf - 1]) * (tf[kf] - tf[kf - 1])
        close('time constant t63 [s] vs exact', t63, t63_exact, 1e-7)  # observed 2.7e-8
        close('time constant t63 vs J R / k^2 (small-L estimate)', t63, J * R / K**2, 2e-3,
              relative=True)  # observed 5.5e-4
        # energy: supplied = dissipated + magnetic + kinetic
        supplied = np.trapz(volt * i, t)
        dissipated = np.trapz(R * i**2, t)
        stored = 0.5 * L * i[-1] ** 2 + 0.5 * J * w[-1] ** 2
        close('energy balance (supplied vs dissipated + stored) [J]', supplied, dissipated + stored, 1e-5,
              relative=True)
        mov = r.rows('mov', 2)
        close('max |rotor w_z (.mov) - motor w| [rad/s]', np.abs(mov[:, 12] - w).max(), 0.0, 1e-14)  # obs. 0
        close('max |torque - k i| [N m]', np.abs(torque - K * i).max(), 0.0, 5e-15)  # observed 8.9e-16
# Viscous friction B w on the rotor through a couple driven by the motor's private datum
# "omega": J w' = k i - B w; steady speed V k / (k^2 + R B) = 17.142857 rad/s for B = 0.05.
B = 0.05
r = Run(exe, deck, work, 'dc_motor_friction', {'B_FRICTION': B})
usr = r.rows('usr', 1)
ex = exact(r.times(), B)
close('friction (private datum): max |w - exact| [rad/s]', np.abs(usr[:, 2] - ex[:, 0]).max(), 0.0, 2e-4)
close('friction (private datum): max |i - exact| [A]', np.abs(usr[:, 1] - ex[:, 1]).max(), 0.0, 5e-4)
close('friction: w(6 s) vs V k / (k^2 + R B)', usr[-1, 2], V * K / (K**2 + R * B), 1e-3)
# Initial value of the own unknown (the module's `initial` callback): i(0) = 30 A.
r = Run(exe, deck, work, 'dc_motor_i0', {'I0': 30.0})
usr = r.rows('usr', 1)
ex = exact(r.times(), 0.0, 30.0)
close('initial current: i(0) [A]', usr[0, 1], 30.0, 1e-12)
close('initial current: max |w - exact| [rad/s]', np.abs(usr[:, 2] - ex[:, 0]).max(), 0.0, 5e-4)
close('initial current: max |i - exact| [A]', np.abs(usr[:, 1] - ex[:, 1]).max(), 0.0, 5e-3)
ratio_w = errs[1e-3][0] / errs[5e-4][0]
print(f'error ratio dt=1e-3 / dt=5e-4: w {ratio_w:.3f}, i {errs[1e-3][1] / errs[5e-4][1]:.3f}')
close('second order: w error ratio for dt halved', ratio_w, 4.0, 0.02)  # observed 3.9945
finish()
