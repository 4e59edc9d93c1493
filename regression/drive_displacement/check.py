"""Drive displacement and drive displacement pin (input-examples/drive_displacement.mbd).

References: closed form, no external data.
 - SHAKER (pin): x(t) = X0 + (A sin(2 pi F t), C t^2, 0); FOLLOWER (relative to the clamped,
   turned BASE): x(t) = x_BASE + R_BASE (f1 + (0, B sin t, V t)). Position-level constraints:
   met to the Newton tolerance: 2e-12 m (measured 5.0e-13), the .jnt displacement alike.
 - Reactions: the force on the ground side (.jnt columns 8-10) is m (g - a(t)), a = x''(t) in
   closed form; BASE's local force is R_BASE^T of the global one. Multipliers of an index-3
   formulation are second order in dt: 3e-4 N at dt = 1e-3 for SHAKER (measured 1.2e-4 N, whose
   horizontal force peaks at 16 N), 4e-7 N for FOLLOWER (measured 9.9e-8), compared from
   t = 0.05 s on (past the start-up transient); BASE's local force 5e-12 N (1.1e-12). No
   moments: the forces act at the nodes, so the bodies keep their orientation (3e-8 deg for
   SHAKER, measured 7.5e-9: nothing but the Newton tolerance turns it; 1e-16 deg for FOLLOWER,
   2.9e-17) and the joints report no couple.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
T_SKIP = 0.05
G, M1, M2, A, F, C, B, V, PSI = 9.81, 2.0, 1.5, 0.2, 1.0, 0.1, 0.3, 0.1, np.pi / 6
X0 = np.array([0.0, 1.0, 0.5])
X_BASE = np.array([0.1, 0.2, 0.0])
F1 = np.array([0.5, 0.0, 0.0])
c, s = np.cos(PSI), np.sin(PSI)
R_BASE = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
GV = np.array([0, 0, -G])

r = Run(exe, os.path.join(EXAMPLES, 'drive_displacement.mbd'), work, 'drive_displacement')
t = r.times()
late = t >= T_SKIP
z = 0 * t
w = 2 * np.pi * F

shaker = r.rows('mov', 2)
x_ref = X0 + np.stack([A * np.sin(w * t), C * t ** 2, z], axis=1)
a_ref = np.stack([-A * w ** 2 * np.sin(w * t), 2 * C + z, z], axis=1)
close('SHAKER max |x - closed form| [m]', np.abs(shaker[:, 1:4] - x_ref).max(), 0, 2e-12)  # observed 5.0e-13
close('SHAKER max |orientation| [deg]', np.abs(shaker[:, 4:7]).max(), 0, 3e-8)  # observed 7.5e-9
j2 = r.rows('jnt', 2)
close('SHAKER max |F on ground - m (g - a)| [N] (t >= T_SKIP)',
      np.abs(j2[late, 7:10] - M1 * (GV - a_ref[late])).max(), 0, 3e-4)
close('SHAKER max |local F - F| [N]', np.abs(j2[:, 1:4] - j2[:, 7:10]).max(), 0, 1e-12)
close('SHAKER max |jnt displacement - d(t)| [m]', np.abs(j2[:, 13:16] - (x_ref - X0)).max(), 0, 2e-12)  # observed 5.0e-13

fol = r.rows('mov', 3)
d = np.stack([z, B * np.sin(t), V * t], axis=1)
x_ref = X_BASE + (F1 + d) @ R_BASE.T
a_ref = np.stack([z, -B * np.sin(t), z], axis=1) @ R_BASE.T
close('FOLLOWER max |x - closed form| [m]', np.abs(fol[:, 1:4] - x_ref).max(), 0, 2e-12)  # observed 5.0e-13
close('FOLLOWER max |orientation| [deg]', np.abs(fol[:, 4:7]).max(), 0, 1e-16)  # observed 2.9e-17
j3 = r.rows('jnt', 3)
close('FOLLOWER max |F on BASE - m (g - a)| [N] (t >= T_SKIP)',
      np.abs(j3[late, 7:10] - M2 * (GV - a_ref[late])).max(), 0, 4e-7)  # observed 9.9e-8
close('FOLLOWER max |local F - R_BASE^T F| [N]', np.abs(j3[:, 1:4] - j3[:, 7:10] @ R_BASE).max(), 0, 5e-12)  # observed 1.1e-12
close('max |joint couples| [N m]', np.abs(j2[:, 10:13]).max() + np.abs(j3[:, 10:13]).max(), 0, 1e-12)
finish()
