"""The IFToMM A01 pendulum built with the distance (without and with offsets), revolute rotation,
cardano pin, cardano hinge and cardano rotation joints (input-examples/pendulum_joints.mbd).

References:
 - docs/references.md, section 1 (closed form, elliptic functions): the mass at
   t = 0.5, 1, 2 s, to 2e-5 m at the deck's dt = 5e-4 s (measured 5.0e-6 m; 2e-5 at dt = 1e-3:
   second order, as the revolute-hinge pendulum of regression/pendulum).
 - Energy: released at rest from the horizontal, v^2 = 2 g (-y), so the link tension is
   T = m v^2 / L + m g (-y) / L = 3 m g (-y). The distance joint's force (.jnt column 2) must be
   T to 1e-4 N from t = T_SKIP = 0.1 s (measured 1.4e-5; T_SKIP: index-3 multiplier start, see
   regression/hinges); the others' reaction force magnitude likewise.
 - The six models solve the same constrained equations of the point mass: their positions
   agree to 3e-12 m over the run (round-off and Newton tolerance; measured 5.6e-13).
 - The cardano cases leave the link's spin free: it stays 0 (|omega . link| <= 1e-15 rad/s;
   measured 0).
 - Distance .jnt extras: the global force is F e (5e-14 N, measured 1.1e-14), the unit vector
   equals the mass position (L = 1; 2e-15, measured 2.2e-16) and the length is 1 (1e-12,
   measured 0).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
G, M = 9.81, 1.0
T_SKIP = 0.1
REF = {0.5: (0.391048791550546, -0.920369948785192), 1.0: (-0.986291751131875, -0.165010853125541),
       2.0: (0.793566195343322, -0.608483930443792)}

r = Run(exe, os.path.join(EXAMPLES, 'pendulum_joints.mbd'), work, 'pendulum_joints')
t = r.times()
late = t >= T_SKIP
mov = {lab: r.rows('mov', lab) for lab in (11, 12, 13, 14, 15, 16)}
for tk, (xr, yr) in REF.items():
    k = int(np.argmin(np.abs(t - tk)))
    for lab, m in mov.items():
        close(f'node {lab} x(t = {tk})', m[k, 1], xr, 2e-5)
        close(f'node {lab} y(t = {tk})', m[k, 2], yr, 2e-5)
for lab in (12, 13, 14, 15, 16):
    close(f'max |node {lab} - node 11| over the run [m]', np.abs(mov[lab][:, 1:4] - mov[11][:, 1:4]).max(), 0,
          3e-12)  # observed <= 5.6e-13
for lab in (13, 14, 15):
    m = mov[lab]
    # Link direction = mass position (pivot at the origin, L = 1); spin = omega . link.
    spin = np.einsum('ij,ij->i', m[:, 10:13], m[:, 1:4])
    close(f'node {lab} max |spin about the link| [rad/s]', np.abs(spin).max(), 0, 1e-15)  # observed 0

tension = 3 * M * G * (-mov[11][:, 2])
d = r.rows('jnt', 11)
close('distance: max |F - 3 m g (-y)| (t >= T_SKIP) [N]', np.abs(d[late, 1] - tension[late]).max(), 0, 1e-4)
close('distance: max |F_global - F e| (the pull on the ground, towards the mass) [N]',
      np.abs(d[late, 7:10] - d[late, 1:2] * d[late, 13:16]).max(), 0, 5e-14)  # observed 1.1e-14
close('distance: max |unit vector - mass position|', np.abs(d[:, 13:16] - mov[11][:, 1:4]).max(), 0,
      2e-15)  # observed 2.2e-16
close('distance: max |length - 1| [m]', np.abs(d[:, 16] - 1).max(), 0, 1e-12)
for lab in (12, 13, 14, 15, 16):
    j = r.rows('jnt', lab)
    close(f'joint {lab}: max ||F| - 3 m g (-y)| (t >= T_SKIP) [N]',
          np.abs(np.linalg.norm(j[late, 7:10], axis=1) - tension[late]).max(), 0, 1e-4)
finish()
