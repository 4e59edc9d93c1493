"""Driven planar four-bar (input-examples/four_bar.mbd): closed-form loop-closure kinematics.

Reference (closed form, the deck's header): crank angle phi = PHI + W t, B = LA (cos phi,
sin phi); C is the apex of the triangle B-C-D (sides LB, LC) on the upper branch. The rocker node
sits at the midpoint of DC, so C = 2 x_rocker - D; the coupler node at the midpoint of BC.
The crank is driven by an imposed angular velocity (axial rotation): its angle is integrated by
the two-step method, with a second-order error (2.45e-5 rad after 2 s at dt = 1e-3, 6.1e-6 at
5e-4, 1.5e-6 at 2.5e-4: measured). So:
 - C from the rocker and from the coupler against the closed form at the crank's actual angle
   (read from the crank node) over the whole run (2 s, two revolutions): 2e-10 m (observed
   6.2e-11 and 5.2e-11 m: the Newton tolerance); this checks the loop closure (the in line joint
   at C and the hinges) independently of the drive;
 - crank angle - (PHI + W t): 5e-5 rad at dt = 1e-3 (observed 2.45e-5), and the error ratio
   between dt = 1e-3 and 5e-4 within 4 +- 3e-4 (second order; observed 3.99992);
 - the header's tabulated C at t = 0.25, 0.5, 1, 2 s: 5e-6 m, one bound for all eight values
   (the crank-angle error times the lever arm, at most ~0.4 m/rad; observed 2.9e-8 .. 1.39e-6 m,
   the largest at t = 2 s, where the crank-angle error is largest);
 - the rocker angle range 87.134 .. 138.590 deg: 1e-3 deg, the rounding of the header's values
   (up to 5e-4 deg; observed 1.7e-5 and 3.3e-4);
 - the motion stays in the plane: |z| of the moving nodes <= 1e-15 m (observed 0).
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
LA, LB, LC, LD = 0.2, 0.6, 0.5, 0.6
W, PHI = 2 * math.pi, math.radians(30.0)


def point_c(phi):
    xb, yb = LA * np.cos(phi), LA * np.sin(phi)
    ebd = np.hypot(LD - xb, yb)
    bet = np.arctan2(-yb, LD - xb)
    alf = np.arccos((LB ** 2 + ebd ** 2 - LC ** 2) / (2 * LB * ebd))
    return np.stack([xb + LB * np.cos(bet + alf), yb + LB * np.sin(bet + alf)], axis=1), np.stack([xb, yb], axis=1)


def run(dt, prefix):
    r = Run(exe, os.path.join(EXAMPLES, 'four_bar.mbd'), work, prefix, {'DT': dt})
    t = r.times()
    crank = r.rows('mov', 2)
    ang = np.radians(crank[:, 6])
    err = (ang - (PHI + W * t) + np.pi) % (2 * np.pi) - np.pi
    return r, t, ang, err


r, t, ang, err = run(1e-3, 'four_bar')
_, _, _, err2 = run(5e-4, 'four_bar_half')
coupler = r.rows('mov', 3)
rocker = r.rows('mov', 4)
C_rocker = 2 * rocker[:, 1:3] - np.array([LD, 0.0])
Ca, Ba = point_c(ang)
close('max |C (rocker) - closed form at the crank angle| [m]', np.abs(C_rocker - Ca).max(), 0, 2e-10)  # 6.2e-11
close('max |C (coupler) - closed form at the crank angle| [m]', np.abs(2 * coupler[:, 1:3] - Ba - Ca).max(), 0,
      2e-10)  # observed 5.2e-11
close('max |crank angle - (PHI + W t)| at dt = 1e-3 [rad]', np.abs(err).max(), 0, 5e-5)
close('crank angle error ratio dt = 1e-3 / 5e-4 (second order)', np.abs(err[-1]) / np.abs(err2[-1]), 4.0,
      3e-4)  # observed 3.99992
close('max |z| of the moving nodes [m]', max(np.abs(coupler[:, 3]).max(), np.abs(rocker[:, 3]).max()), 0,
      1e-15)  # observed 0
for tk, cx, cy in ((0.25, 0.422833906478, 0.467559809336), (0.5, 0.234005427346, 0.340658146516),
                   (1.0, 0.620805641835, 0.499566937725), (2.0, 0.620805641835, 0.499566937725)):
    k = int(np.argmin(np.abs(t - tk)))
    close(f'C_x at t = {tk} s [m]', C_rocker[k, 0], cx, 5e-6)
    close(f'C_y at t = {tk} s [m]', C_rocker[k, 1], cy, 5e-6)
ang_r = np.degrees(np.arctan2(C_rocker[:, 1], C_rocker[:, 0] - LD))
close('rocker angle min [deg]', ang_r.min(), 87.134, 1e-3)
close('rocker angle max [deg]', ang_r.max(), 138.590, 1e-3)
finish()
