"""Spherical and revolute pins against closed forms.

1. input-examples/conical_pendulum.mbd: steady conical motion of a mass on a 1 m link with a
   spherical pin, half-angle 30 deg, W^2 = g / (L cos(alpha)) (closed form). Checks over 2 s at
   dt = 1e-3: height -L cos(alpha) and radius L sin(alpha) to 2e-9 m (measured 2.6e-10,
   4.5e-10); the azimuth after 2 s equals W t to 3e-5 rad (second-order phase error, measured
   7.5e-6); link tension m g / cos(alpha) to 1e-6
   relative from t = 0, and to 2e-8 from t = 0.025 s (see below); the node's spin stays W
   (2e-5 rad/s: discretization).
2. pendulum_pin.mbd: the IFToMM A01 pendulum built on a revolute pin; position at t = 1 s
   against docs/references.md section 1 to 2e-5 m (dt = 1e-3: the hinge version's error
   there is 7e-6 m).
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
G, L, M = 9.81, 1.0, 1.0
alpha = math.radians(30.0)
W = math.sqrt(G / (L * math.cos(alpha)))

r = Run(exe, os.path.join(EXAMPLES, 'conical_pendulum.mbd'), work, 'cone')
mov = r.rows('mov', 1)
t = r.times()
close('max |height + L cos(alpha)| [m]', np.abs(mov[:, 3] + L * math.cos(alpha)).max(), 0.0, 2e-9)  # 2.6e-10
close('max |radius - L sin(alpha)| [m]', np.abs(np.hypot(mov[:, 1], mov[:, 2]) - L * math.sin(alpha)).max(), 0.0,
      2e-9)  # observed 4.5e-10
phi = np.unwrap(np.arctan2(mov[:, 2], mov[:, 1]))
close('azimuth after 2 s [rad]', phi[-1], W * t[-1], 3e-5)  # observed 7.5e-6
close('max |spin - W| [rad/s]', np.abs(mov[:, 12] - W).max(), 0.0, 2e-5)
jnt = r.rows('jnt', 1)
# The tension from t = 0: the derivatives phase has the centripetal reaction (constraint rows at
# acceleration level: step 0 is 1.5e-11 off), so the old start transient (the static multiplier,
# 25 % off, decaying with the parasitic root -rho over 0.1 s) is gone. What is left is the
# one-step (Crank-Nicolson) first step's: 6.0e-7 at t = 0.006 s, decaying to the steady 1.9e-9 by
# t = 0.03 s (measured; at dt = 5e-4 the peak is 1.5e-7, second order). Tolerances: 1e-6 from
# t = 0 (the old one, which applied from t = 0.1 s only), 2e-8 from t = 0.025 s (measured 4.1e-9).
ten = np.abs(np.linalg.norm(jnt[:, 7:10], axis=1) / (M * G / math.cos(alpha)) - 1)
close('max |link tension / (m g / cos alpha) - 1| from t = 0', ten.max(), 0.0, 1e-6)
close('max |link tension / (m g / cos alpha) - 1| from t = 0.025 s', ten[t >= 0.025 - 1e-12].max(), 0.0, 2e-8)

r = Run(exe, 'pendulum_pin.mbd', work, 'pin')
mov = r.rows('mov', 2)
close('revolute pin pendulum x(t=1)', mov[-1, 1], -0.986291751131875, 2e-5)
close('revolute pin pendulum y(t=1)', mov[-1, 2], -0.165010853125541, 2e-5)
finish()
