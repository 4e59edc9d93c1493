"""Smooth-step drive caller and scalar function from a plain C module (modules/smooth_step):
input-examples/module_smooth_step.mbd. Two free masses m = 2 kg pushed along x by
F(t) = F1 p(s), p(s) = s^3 (10 - 15 s + 6 s^2), s = (t - T0)/tau clamped to [0, 1],
T0 = 0.5 s, tau = 1 s, F1 = 4 N (mass 1: the drive caller; mass 2: the scalar function).
Closed forms (integrating p twice; P(1) = 1/2, Q(1) = 1/7):
    v = F1 tau/m P(s),     P(s) = 5/2 s^4 - 3 s^5 + s^6
    x = F1 tau^2/m Q(s),   Q(s) = 1/2 s^5 - 1/2 s^6 + s^7/7         (t <= T0 + tau)
and uniform acceleration F1/m afterwards. Checks:
  - the forces written in .frc equal F(t) at every output time (2e-14 N, measured 4.0e-15) and
    the two agree;
  - x(t), v(t) of both masses against the closed forms at dt = 1e-3: 1e-6 m and 1e-6 m/s (measured 4.0e-7, 3.7e-7; the
    method is second order: the errors at dt = 5e-4 are 4 +- 1e-5 times smaller, measured
    4.0000021).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
deck = os.path.join(EXAMPLES, 'module_smooth_step.mbd')
T0, TAU, F1, M = 0.5, 1.0, 4.0, 2.0


def exact(t):
    s = np.clip((t - T0) / TAU, 0, 1)
    F = F1 * s**3 * (10 - 15 * s + 6 * s**2)
    v = F1 * TAU / M * (2.5 * s**4 - 3 * s**5 + s**6)
    x = F1 * TAU**2 / M * (0.5 * s**5 - 0.5 * s**6 + s**7 / 7)
    after = t > T0 + TAU
    ta = t[after] - (T0 + TAU)
    v[after] = F1 * TAU / M * 0.5 + F1 / M * ta
    x[after] = F1 * TAU**2 / M / 7 + F1 * TAU / M * 0.5 * ta + 0.5 * F1 / M * ta**2
    return F, x, v


errs = {}
for dt in (1e-3, 5e-4):
    r = Run(exe, deck, work, f'smooth_step_{dt:g}', {'DT': dt})
    t = r.times()
    F, x, v = exact(t)
    e = []
    for label in (1, 2):
        frc = r.rows('frc', label)
        mov = r.rows('mov', label)
        if dt == 1e-3:
            close(f'force {label}: max |F - F1 p(s)| [N]', np.abs(frc[:, 2] - F).max(), 0.0, 2e-14)
            close(f'mass {label}: max |x - closed form| [m]', np.abs(mov[:, 1] - x).max(), 0.0, 1e-6)
            close(f'mass {label}: max |v - closed form| [m/s]', np.abs(mov[:, 7] - v).max(), 0.0, 1e-6)
        e.append(np.abs(mov[:, 7] - v).max())
    errs[dt] = max(e)
    if dt == 1e-3:
        close('drive caller and scalar function give the same force',
              np.abs(r.rows('frc', 1)[:, 2] - r.rows('frc', 2)[:, 2]).max(), 0.0, 0.0)
close('second order: v error ratio for dt halved', errs[1e-3] / errs[5e-4], 4.0, 1e-5)
finish()
