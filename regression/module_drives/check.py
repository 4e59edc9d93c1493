"""MBDyn's module drive callers min, max, switch, multi step, derivative, run inside the engine
(input-examples/module_drives.mbd, dt = 1e-3 s, 2900 steps; MBDyn's own executable here has none
of these modules compiled in, so the references are the closed forms of the deck's header):
  force 1 x  min(2t, 1, 3 - t)                                                          TOL_F
  force 1 y  max(sin(2 pi t), 0.5)                                                      TOL_F
  force 1 z  switch(floor t) of {t, 10 + t, 20 + t}                                     TOL_F
  force 2 x  multi step: 0, 1 from 0.5 s, 3 from 1 s, -2 from 2 s                       exact
  force 2 y  derivative of 2 sin(pi t): 2 pi cos(pi t)                                  TOL_F
             (a `drive caller:` card ending in `output trace, value, yes, derivative, no`)
  force 2 z  switch(round 0.79 t) of {5, t^2, 3 cos t}                                  TOL_F
  mass       x, v of a 1 kg point pushed by F = min(t, 0.5) from rest (closed form)     see below
Step times that fall within 1e-9 s of a switch or step instant (where the side taken depends on
the rounding of the accumulated time) are left out of the switch and step columns; there are
at most 2 per instant.
Tolerances (issue 23): each close() below is within 2-10x of the error observed when it was
set (Release build), stated in the comment beside it (a floor of a few ulps or 1e-15 where
the observed error is 0 or far below round-off); where a figure above is larger, it is the
bound the physics or the solver tolerance allows, not the tolerance checked.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
r = Run(exe, os.path.join(EXAMPLES, 'module_drives.mbd'), work, 'module_drives')
t = r.times()
close('output steps (0 .. 2900)', len(t), 2901, 0)
f1, f2 = r.rows('frc', 1)[:, 2:5], r.rows('frc', 2)[:, 2:5]
# The drives' values are printed with 16 digits: observed errors at most 3.6e-15.
TOL_F = 2e-14


def away(instants):
    """Step times not within 1e-9 s of any of `instants`."""
    keep = np.ones(len(t), dtype=bool)
    for x in instants:
        near = np.abs(t - x) < 1e-9
        close(f'step times within 1e-9 s of {x}', float(near.sum()), 0.0, 2)
        keep &= ~near
    return keep


close('min(2t, 1, 3 - t): max error',
      np.abs(f1[:, 0] - np.minimum(np.minimum(2 * t, 1.0), 3 - t)).max(), 0.0, TOL_F)
close('max(sin 2 pi t, 0.5): max error',
      np.abs(f1[:, 1] - np.maximum(np.sin(2 * np.pi * t), 0.5)).max(), 0.0, TOL_F)
k = away([1.0, 2.0])
close('switch floor(t): max error', np.abs(f1[k, 2] - (10 * np.floor(t[k]) + t[k])).max(), 0.0,
      TOL_F)
k = away([0.5, 1.0, 2.0])
steps = np.select([t < 0.5, t < 1.0, t < 2.0], [0.0, 1.0, 3.0], -2.0)
close('multi step: steps that differ', float(np.sum(f2[k, 0] != steps[k])), 0.0, 0)
close('derivative of 2 sin(pi t): max error',
      np.abs(f2[:, 1] - 2 * np.pi * np.cos(np.pi * t)).max(), 0.0, TOL_F)
s = 0.79 * t
k = away([0.5 / 0.79, 1.5 / 0.79])
branch = np.floor(s + 0.5)  # round half away from zero (s >= 0)
ref = np.select([branch == 0, branch == 1], [5.0, t ** 2], 3 * np.cos(t))
close('switch round(0.79 t): branches used', float(len(np.unique(branch[k]))), 3.0, 0)
close('switch round(0.79 t): max error', np.abs(f2[k, 2] - ref[k]).max(), 0.0, TOL_F)

# The mass: F = min(t, 0.5) is piecewise linear with its kink on a step, so the trapezoidal
# rule (crank nicolson) integrates v (a piecewise quadratic of bounded slope change) exactly up
# to round-off (observed 8.2e-14 m/s over 2900 steps), and x' = v with the trapezoidal rule's
# error dt^3/12 v'' per step: v'' = F' = 1 until 0.5 s, 0 after, so x runs ahead of the closed
# form by 0.5 dt^2 / 12 = 4.1667e-8 m from 0.5 s on (observed to 5.5e-14: the round-off of v
# summed over the steps).
m = r.rows('mov', 2)
tt = t - 0.5
x = np.where(t <= 0.5, t ** 3 / 6, 1 / 48 + tt / 8 + tt ** 2 / 4)
v = np.where(t <= 0.5, t ** 2 / 2, 1 / 8 + tt / 2)
dt = 1e-3
late = t >= 0.5
close('mass: x - closed form after 0.5 s, max (m)', (m[late, 1] - x[late]).max(),
      0.5 * dt ** 2 / 12, 1e-15)  # observed 2.1e-16
close('mass: x - closed form after 0.5 s, min (m)', (m[late, 1] - x[late]).min(),
      0.5 * dt ** 2 / 12, 2e-13)
close('mass: max |v - closed form| (m/s)', np.abs(m[:, 7] - v).max(), 0.0, 5e-13)
close('mass: max |y|, |z| (moves along x only)', np.abs(m[:, 2:4]).max(), 0.0, 1e-14)
finish()
