"""Axial rotation joints: constant and ramped imposed speeds (input-examples/axial_rotation.mbd).

References: closed form, no external data.
 - UNBALANCED turns about global y by OMEGA t. The speed is imposed at velocity level, so the
   angle is integrated: a second-order phase error, 2e-4 rad at dt = 1e-3 over 2 s (20 rad;
   measured 9.9e-5, 2.5e-5 and 6.2e-6 rad at dt = 1e-3, 5e-4, 2.5e-4). Hinge point and axis are
   position-level constraints, met to round-off: 1e-15 (measured 1e-21), the imposed speed too
   (4e-18).
   Reported (MBDyn's AxialRotationJoint: the reaction on node 2, the rotor; docs/reactions.md):
   force on the rotor = -m (g - c''), c'' = -OMEGA^2 (c - axis point); couple -S x g with
   S = m (c - axis point) (the rotor turns at constant speed about a principal axis of its
   inertia about the node, so w x J w = 0 and J w' = 0). c is taken at the simulated angle, so
   that the phase error above does not enter. Multipliers are second order in dt: force to
   1e-3 N (forces near 60 N; measured 4.5e-4 N at dt = 1e-3, 1.1e-4 N at 5e-4), couple to
   8e-9 N m (measured 1.9e-9), compared from t = 0.05 s on (past the start-up transient of the
   multipliers).
 - SPOOLUP turns about global z by 2 t + 1.5 t^2 (angle integrated: 4e-5 rad, measured 1.7e-5);
   the couple on the rotor is Jzz omega' = 0.6 N m (1e-11, measured 2.0e-12), the force -m g
   (6e-8 N, measured 1.4e-8); the axis 1e-15 (1.9e-21); the .jnt omega column 4e-15 (8.9e-16).
 - The .jnt extras: the relative rotation Rz(angle) of the hinge frames, as a matrix (9 columns:
   the deck's `default orientation: orientation matrix`, which the joints follow as in MBDyn),
   its angle atan2(R21, R11) against the closed form as the node's, and the drive value.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish, rot  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
T_SKIP = 0.05
G, OMEGA, E, M1 = 9.81, 10.0, 0.1, 3.0
GV = np.array([0, 0, -G])


def angle_error(mov, axis, angle):
    """Largest |simulated - closed-form| angle about `axis` (radians), and the largest deviation
    of the rotor's axis from `axis` (the node's orientation matrix is .mov columns 5-13)."""
    R = mov[:, 4:13].reshape(-1, 3, 3)
    i, j = [(1, 2), (2, 0), (0, 1)][axis]
    sim = np.arctan2(R[:, j, i], R[:, i, i])
    e = np.abs(np.angle(np.exp(1j * (sim - angle)))).max()
    return e, np.abs(R[:, :, axis] - np.eye(3)[axis]).max()


def wrap_deg(a):
    return (a + 180.0) % 360.0 - 180.0


def relative_angle(jnt):
    """The angle (degrees) of the relative rotation Rz(angle) in .jnt columns 14-22 (row by row)."""
    return np.degrees(np.arctan2(jnt[:, 16], jnt[:, 13]))


r = Run(exe, os.path.join(EXAMPLES, 'axial_rotation.mbd'), work, 'axial_rotation')
t = r.times()
late = t >= T_SKIP

ub = r.rows('mov', 2)
e, tilt = angle_error(ub, 1, OMEGA * t)
close('UNBALANCED max |angle - OMEGA t| [rad]', e, 0, 2e-4)
close('UNBALANCED max |rotor axis - y|', tilt, 0, 1e-15)  # observed 1.0e-21
close('UNBALANCED max |x - axis point| [m]', np.abs(ub[:, 1:4] - [0, 0.5, 0]).max(), 0, 1e-15)  # observed 1.3e-21
close('UNBALANCED max |w - (0, OMEGA, 0)| [rad/s]', np.abs(ub[:, 16:19] - [0, OMEGA, 0]).max(), 0, 1e-15)  # observed 4.1e-18
ecc = E * ub[:, [4, 7, 10]]  # the node's x axis, at the simulated angle
j2 = r.rows('jnt', 2)
f_ref = -(M1 * GV + M1 * OMEGA ** 2 * ecc)
close('UNBALANCED max |F on rotor + m (g - c\'\')| [N] (t >= T_SKIP)',
      np.abs(j2[late, 7:10] - f_ref[late]).max(), 0, 1e-3)
m_ref = -np.cross(M1 * ecc, GV)
close('UNBALANCED max |M on rotor + S x g| [N m] (t >= T_SKIP)',
      np.abs(j2[late, 10:13] - m_ref[late]).max(), 0, 8e-9)  # observed 1.9e-9
close('UNBALANCED max |relative angle (matrix columns) - OMEGA t| [rad]',
      np.radians(np.abs(wrap_deg(relative_angle(j2) - np.degrees(OMEGA * t))).max()), 0, 2e-4)
close('UNBALANCED max |omega column - OMEGA|', np.abs(j2[:, 22] - OMEGA).max(), 0, 1e-9)

sp = r.rows('mov', 3)
e, tilt = angle_error(sp, 2, 2 * t + 1.5 * t ** 2)
close('SPOOLUP max |angle - (2 t + 1.5 t^2)| [rad]', e, 0, 4e-5)
close('SPOOLUP max |rotor axis - z|', tilt, 0, 1e-15)  # observed 1.9e-21
j3 = r.rows('jnt', 3)
close('SPOOLUP max |M on rotor - (0, 0, 0.6)| [N m] (t >= T_SKIP)',
      np.abs(j3[late, 10:13] - [0, 0, 0.6]).max(), 0, 1e-11)  # observed 2.0e-12
close('SPOOLUP max |F on rotor + m g| [N] (t >= T_SKIP)', np.abs(j3[late, 7:10] + GV).max(), 0, 6e-8)  # observed 1.4e-8
close('SPOOLUP max |omega column - (2 + 3 t)|', np.abs(j3[:, 22] - (2 + 3 * t)).max(), 0, 4e-15)  # observed 8.9e-16
finish()
