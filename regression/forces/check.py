"""Structural forces and couples against closed-form solutions.

Decks: input-examples/forces.mbd and point_mass.mbd, absolute_couple.mbd, follower_force.mbd,
internal.mbd in this folder (each states its model and closed form). References are independent
closed forms of rigid-body mechanics (Newton-Euler for constant loads), derived in the decks:
  forces.mbd        constant absolute force at the centre of mass of a free body:
                    x = x0 + v0 t + F t^2/(2m); follower couple C about the spin axis 3 (a
                    principal axis): omega_z = w0 + C t/J3, angle psi = w0 t + C t^2/(2 J3)
  point_mass.mbd    `absolute displacement` force on a displacement-only node:
                    x = x0 + v0 t + F t^2/(2m)
  absolute_couple   constant absolute couple along a principal axis d of a body at rest:
                    omega = d C t/J2, R = rot(d, C t^2/(2 J2)) R0
  follower_force    follower force F0 e1 at the centre of mass of a body spinning at constant W:
                    v = v0 + F0/(m W) (sin Wt, 1 - cos Wt, 0)
  internal.mbd      every internal load type between free bodies: total momentum sum(m v) is
                    constant
Tolerances (dt = 1e-3, Newton tolerance 1e-10): the two-step method is exact for quadratic
trajectories, so positions, velocities and angular velocities under constant loads match to
round-off (forces.mbd: observed 4.4e-16 m, 3.1e-14 m/s, 2.2e-16 rad/s, tolerances 4e-15, 1.5e-13,
2e-15; omega_x, omega_y 8.4e-18, tolerance 1e-16) or to what the Newton tolerance leaves (point
mass 3.3e-12 m and m/s, tolerance 1.5e-11; absolute couple 6.0e-13 rad/s, tolerance 3e-12).
Orientations are integrated to second order (observed: psi error 4e-6 deg in forces.mbd, 2.5e-8
rad in absolute_couple; halving dt divides them by 4), so they get 1e-5 deg and 1e-7 rad. The
follower force turns with the numerically integrated orientation, so its velocity error is second
order too: observed 4.8e-7 (1.2e-7 at dt/2), tolerance 1e-6, and the order (log2 of the error
ratio for dt and dt/2) must be 2 +- 5e-5 (observed 1.9999914); its spin stays W to 1e-16 (observed
2.3e-18). Momentum: drift <= 1e-10 (observed 1.5e-11). The .frc columns (MBDyn's: label, node,
F(3), point of application(3); couples label, node, C(3); internal forms both nodes) are checked
against the same closed forms: to 2e-12 where the reference is computed here from deck data (12
significant digits of output; observed 4.9e-13, 5.0e-13) and 2e-11 for the internal force
(observed 5.0e-12), copies of the node positions 1e-12 (observed 0), the constant couple of
forces.mbd 1e-16 (observed 9.8e-19).
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]


def deck(name):
    return os.path.join(HERE, name)


def euler123(deg):
    """Cardan angles in degrees (the .mov columns 5-7) to the rotation matrix Rx Ry Rz."""
    a, b, c = np.radians(deg)
    rx = np.array([[1, 0, 0], [0, np.cos(a), -np.sin(a)], [0, np.sin(a), np.cos(a)]])
    ry = np.array([[np.cos(b), 0, np.sin(b)], [0, 1, 0], [-np.sin(b), 0, np.cos(b)]])
    rz = np.array([[np.cos(c), -np.sin(c), 0], [np.sin(c), np.cos(c), 0], [0, 0, 1]])
    return rx @ ry @ rz


def axis_rotation(d, angle):
    k = np.array([[0, -d[2], d[1]], [d[2], 0, -d[0]], [-d[1], d[0], 0]])
    return np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * k @ k


def rotation_error(Ra, Rb):
    """Angle [rad] of Ra^T Rb from its skew part (accurate for small angles)."""
    e = Ra.T @ Rb
    return np.linalg.norm([e[2, 1] - e[1, 2], e[0, 2] - e[2, 0], e[1, 0] - e[0, 1]]) / 2


def maxabs(a):
    return float(np.abs(a).max())


# --- free body: constant absolute force, follower couple about the spin axis
r = Run(exe, os.path.join(EXAMPLES, 'forces.mbd'), work, 'forces')
mov, t = r.rows('mov', 1), r.times()
m, J3, W0, C3 = 2.0, 1.2, 0.3, 0.6
x0, v0, F = np.array([0, 0, 1.0]), np.array([1, 0, 0.5]), np.array([0, 3, -1.0])
close('forces.mbd: max |x - closed form| [m]',
      maxabs(mov[:, 1:4] - (x0 + np.outer(t, v0) + np.outer(t ** 2, F) / (2 * m))), 0, 4e-15)  # 4.4e-16
close('forces.mbd: max |v - closed form| [m/s]', maxabs(mov[:, 7:10] - (v0 + np.outer(t, F) / m)), 0,
      1.5e-13)  # observed 3.1e-14
close('forces.mbd: max |omega_z - (w0 + C t/J3)| [rad/s]', maxabs(mov[:, 12] - (W0 + C3 * t / J3)), 0,
      2e-15)  # observed 2.2e-16
close('forces.mbd: max |omega_x|, |omega_y| [rad/s]', maxabs(mov[:, 10:12]), 0, 1e-16)  # observed 8.4e-18
psi = np.degrees(np.angle(np.exp(1j * (W0 * t + C3 * t ** 2 / (2 * J3)))))
close('forces.mbd: max |psi - closed form| [deg]', maxabs(mov[:, 6] - psi), 0, 1e-5)
frc_f, frc_c = r.rows('frc', 1), r.rows('frc', 2)
close('forces.mbd: .frc force 1 = (node 1, F)', maxabs(frc_f[:, 1:5] - np.r_[1, F]), 0, 1e-12)
close('forces.mbd: .frc force 1 point = node position [m]', maxabs(frc_f[:, 5:8] - mov[:, 1:4]), 0, 1e-12)
close('forces.mbd: .frc couple 2 = (node 1, 0, 0, C) global', maxabs(frc_c[:, 1:5] - [1, 0, 0, C3]), 0,
      1e-16)  # observed 9.8e-19

# --- point mass on a displacement-only node
r = Run(exe, deck('point_mass.mbd'), work, 'point_mass')
mov, t = r.rows('mov', 1), r.times()
m, x0, v0, F = 1.5, np.array([1, -2, 0.5]), np.array([0.4, 0.2, -1]), np.array([2, -1, 0.75])
close('point mass: max |x - closed form| [m]',
      maxabs(mov[:, 1:4] - (x0 + np.outer(t, v0) + np.outer(t ** 2, F) / (2 * m))), 0, 1.5e-11)  # 3.3e-12
close('point mass: max |v - closed form| [m/s]', maxabs(mov[:, 7:10] - (v0 + np.outer(t, F) / m)), 0,
      1.5e-11)  # observed 3.3e-12
frc = r.rows('frc', 1)
close('point mass: .frc = (node 1, F, node position)', maxabs(frc[:, 1:8] - np.c_[np.ones(len(t)), np.tile(F, (len(t), 1)),
                                                                                   mov[:, 1:4]]), 0, 1e-12)

# --- absolute couple along a principal axis of a tilted body at rest
r = Run(exe, deck('absolute_couple.mbd'), work, 'absolute_couple')
mov, t = r.rows('mov', 1), r.times()
C, J2 = 0.45, 0.9
R0 = euler123(np.degrees([0.3, -0.5, 0.7]))
d = R0[:, 1]
close('absolute couple: max |omega - d C t/J2| [rad/s]', maxabs(mov[:, 10:13] - np.outer(C * t / J2, d)), 0,
      3e-12)  # observed 6.0e-13
rot_err = max(rotation_error(axis_rotation(d, C * tt ** 2 / (2 * J2)) @ R0, euler123(row[4:7]))
              for tt, row in zip(t, mov))
close('absolute couple: max orientation error [rad]', rot_err, 0, 1e-7)
close('absolute couple: node stays put [m]', maxabs(mov[:, 1:4] - [0.5, 0.2, -0.1]), 0, 1e-12)
frc = r.rows('frc', 1)
close('absolute couple: .frc = (node 1, C d)', maxabs(frc[:, 1:5] - np.r_[1, C * d]), 0, 2e-12)  # 4.9e-13

# --- follower force on a spinning body: rotating force, closed-form velocity; order 2 in dt
W, F0, m, v0 = 2.0, 1.2, 2.0, np.array([0.5, 0, 0.1])
verr = {}
for dt in (1e-3, 5e-4):
    r = Run(exe, deck('follower_force.mbd'), work, f'follower_force_{dt:g}', {'DT': dt})
    mov, t = r.rows('mov', 1), r.times()
    k = F0 / (m * W)
    v = v0 + k * np.c_[np.sin(W * t), 1 - np.cos(W * t), 0 * t]
    x = np.outer(t, v0) + k * np.c_[(1 - np.cos(W * t)) / W, t - np.sin(W * t) / W, 0 * t]
    verr[dt] = maxabs(mov[:, 7:10] - v)
    if dt == 1e-3:
        close('follower force: max |v - closed form| [m/s]', verr[dt], 0, 1e-6)
        close('follower force: max |x - closed form| [m]', maxabs(mov[:, 1:4] - x), 0, 1.5e-6)
        close('follower force: spin stays W [rad/s]', maxabs(mov[:, 10:13] - [0, 0, W]), 0, 1e-16)  # 2.3e-18
        frc = r.rows('frc', 1)
        Fg = F0 * np.c_[np.cos(W * t), np.sin(W * t), 0 * t]
        close('follower force: .frc F = F0 (cos Wt, sin Wt, 0) [N]', maxabs(frc[:, 2:5] - Fg), 0, 4e-6)
        close('follower force: .frc point = node position [m]', maxabs(frc[:, 5:8] - mov[:, 1:4]), 0, 1e-12)
close('follower force: order of the velocity error (log2 of the dt, dt/2 ratio)',
      np.log2(verr[1e-3] / verr[5e-4]), 2.0, 5e-5)  # observed 1.9999914

# --- internal loads: total linear momentum is conserved
r = Run(exe, deck('internal.mbd'), work, 'internal')
masses = {1: 2.0, 2: 1.5, 3: 0.8, 4: 1.2}
P = sum(mass * r.rows('mov', n)[:, 7:10] for n, mass in masses.items())
close('internal: max |sum(m v) - sum(m v)(0)| [kg m/s]', maxabs(P - P[0]), 0, 1e-10)
t = r.times()
f1 = r.rows('frc', 1)
Fa = np.outer(2 * np.sin(3 * t), [1.0, 0.5, -0.3])
close('internal: .frc absolute internal F1 = drive, F2 = -F1 [N]',
      max(maxabs(f1[:, 2:5] - Fa), maxabs(f1[:, 9:12] + Fa)), 0, 2e-11)
c4 = r.rows('frc', 4)
Ca = np.outer(np.sin(4 * t), [0, 0.1, 0.2])
close('internal: .frc absolute internal couple = (1, C, 2, -C) [N m]',
      maxabs(c4[:, 1:] - np.c_[np.ones(len(t)), Ca, 2 * np.ones(len(t)), -Ca]), 0, 2e-12)  # 5.0e-13
f6 = r.rows('frc', 6)
close('internal: .frc displacement force points = node positions [m]',
      max(maxabs(f6[:, 5:8] - r.rows('mov', 3)[:, 1:4]), maxabs(f6[:, 12:15] - r.rows('mov', 4)[:, 1:4])), 0, 1e-12)
finish()
