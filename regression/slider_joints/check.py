"""Sliding and driven bodies (input-examples/slider_joints.mbd) against closed forms derived in
the deck's header: in line (with and without offset) + prismatic on an incline, in plane (with and
without offset), distance
with a drive (winch), linear and angular velocity, linear and angular acceleration.

Tolerances (dt = 1e-3 s over 1 s, Newton tolerance 1e-10):
 - uniformly accelerated motions (blocks, puck): the two-step method integrates a quadratic
   exactly, so positions to 4e-13 m and velocities to 1e-11 m/s (measured 8.8e-14, 2.3e-12: the
   Newton tolerance), angles to 1e-12 deg (1.9e-13); the pusher's fall 5e-13 m (1.1e-13);
 - motions with a sine drive: positions to 1e-6 m (pusher, measured 1.2e-7; accel 2e-7, 5.4e-8;
   spinner 3.6e-7), integrated velocities to 1e-6 (1.2e-7) and the winch's (index-3: velocities
   through the integration formula) to 5e-6 (second-order errors, at most ~A OM^3 dt^2 =
   5.4e-6; measured 9e-7); velocities imposed exactly: 1e-15 m/s, 5e-15 rad/s (round-off);
 - reactions from t = T_SKIP = 0.05 s (the derivatives phase of an index-3 formulation leaves the
   multipliers a transient that the algebraic spectral radius damps): normal forces to 2e-7 N in
   line (measured 4.8e-8) and 1e-7 N in plane (2.6e-8), the prismatic couples 2e-14 N m
   (3.4e-15); the sine-driven ones (second-order error of the multipliers, ~A OM^4 dt^2 m):
   winch tension and pusher force 5e-6 N (1.6e-6), spinner couple 5e-7 N m (1.1e-7); the
   acceleration joints' reactions are exact: 1e-11 N (2.6e-12), 4e-12 N m (8.1e-13);
 - the imposed values written by the velocity and distance joints: 1e-15 .. 5e-15 (round-off,
   measured 1.1e-16 .. 8.9e-16).
The velocity and acceleration joints report MBDyn's reaction (LinearVelocityJoint, ...: drvj.cc,
accj.cc, docs/reactions.md): minus the force (couple) they put on the node, i.e. -m a (-J w').
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
ALPHA, H, MB, MP, VZ, MW, LW0, MU, JS = math.radians(30.0), 0.1, 2.0, 1.0, 0.4, 0.5, 1.0, 3.0, 0.2
V0, W0, A, OM, G = 0.5, 2.0, 0.2, 3.0, 9.81
T_SKIP = 0.05
CA, SA = math.cos(ALPHA), math.sin(ALPHA)
d = np.array([CA, -SA, 0.0])     # down the slope
n = np.array([SA, CA, 0.0])      # incline normal

r = Run(exe, os.path.join(EXAMPLES, 'slider_joints.mbd'), work, 'slider_joints')
t = r.times()
late = t >= T_SKIP
s = 0.5 * G * SA * t ** 2
v = G * SA * t

# Blocks and puck: uniform acceleration g sin(ALPHA) down the slope.
for lab, p0, name in ((2, np.zeros(3), 'BLOCK1'), (3, H * n, 'BLOCK2'), (4, np.array([0.0, -1.0, 0.0]), 'PUCK'),
                      (10, np.array([0.0, -1.0, 0.0]) + H * n, 'PUCK2')):
    m = r.rows('mov', lab)
    p = p0 + np.outer(s, d)
    vel = np.outer(v, d)
    if name.startswith('PUCK'):
        p[:, 2] = VZ * t
        vel[:, 2] = VZ
    close(f'{name} max |position - closed form| [m]', np.abs(m[:, 1:4] - p).max(), 0, 4e-13)  # observed <= 8.8e-14
    close(f'{name} max |velocity - closed form| [m/s]', np.abs(m[:, 7:10] - vel).max(), 0, 1e-11)  # observed <= 2.3e-12
    close(f'{name} max |angles| [deg]', np.abs(m[:, 4:7]).max(), 0, 1e-12)  # observed <= 1.9e-13
# Reactions on the ground: -m g cos(ALPHA) n; the line frame's axis 1 is n.
for lab, name in ((2, 'in line'), (4, 'in line with offset')):
    j = r.rows('jnt', lab)
    close(f'{name}: max |F - (-m g cos(ALPHA) n)| [N]', np.abs(j[late, 7:10] + MB * G * CA * n).max(), 0, 2e-7)
    close(f'{name}: max |f - (-m g cos(ALPHA), 0, 0)| [N]',
          np.abs(j[late, 1:4] - np.array([-MB * G * CA, 0, 0])).max(), 0, 2e-7)
for lab in (3, 5):
    j = r.rows('jnt', lab)
    close(f'prismatic {lab}: max |couple| [N m]', np.abs(j[late, 1:13]).max(), 0, 2e-14)  # observed 3.4e-15
for lab, name in ((6, 'in plane'), (12, 'in plane with offset')):
    j = r.rows('jnt', lab)
    close(f'{name}: max |F - (-m g cos(ALPHA) n)| [N]', np.abs(j[late, 7:10] + MP * G * CA * n).max(), 0, 1e-7)
    close(f'{name}: max |f1 + m g cos(ALPHA)| [N]', np.abs(j[late, 1] + MP * G * CA).max(), 0, 1e-7)

# Winch: y = -LW(t), tension m (g + A OM^2 sin(OM t)).
LW = LW0 + A * np.sin(OM * t)
m = r.rows('mov', 5)
close('WINCH max |y + LW(t)| [m]', np.abs(m[:, 2] + LW).max(), 0, 4e-15)  # observed 6.7e-16
close('WINCH max |vy + LW\'(t)| [m/s]', np.abs(m[:, 8] + A * OM * np.cos(OM * t)).max(), 0, 5e-6)
close('WINCH max |x|, |z| [m]', max(np.abs(m[:, 1]).max(), np.abs(m[:, 3]).max()), 0, 1e-15)  # observed 1e-43
j = r.rows('jnt', 7)
close('distance: max |F - m (g + A OM^2 sin(OM t))| [N]',
      np.abs(j[late, 1] - MW * (G + A * OM ** 2 * np.sin(OM * t[late]))).max(), 0, 5e-6)  # observed 1.6e-6
close('distance: max |length column - LW(t)| [m]', np.abs(j[:, 16] - LW).max(), 0, 4e-15)  # observed 6.7e-16

# Pusher: vx = V0 + A sin(OM t); force m A OM cos(OM t) on the node (reported: its opposite);
# free fall in y.
m = r.rows('mov', 6)
close('PUSHER max |x - closed form| [m]', np.abs(m[:, 1] - (2.0 + V0 * t + A * (1 - np.cos(OM * t)) / OM)).max(), 0, 1e-6)
close('PUSHER max |vx - closed form| [m/s]', np.abs(m[:, 7] - (V0 + A * np.sin(OM * t))).max(), 0, 1e-15)  # observed 1.1e-16
close('PUSHER max |y + g t^2/2| [m]', np.abs(m[:, 2] + 0.5 * G * t ** 2).max(), 0, 5e-13)  # observed 1.1e-13
j = r.rows('jnt', 8)
close('linear velocity: max |F_x + m A OM cos(OM t)| [N]',
      np.abs(j[late, 7] + MU * A * OM * np.cos(OM * t[late])).max(), 0, 5e-6)  # observed 1.6e-6
close('linear velocity: max |f_1 - F_x| [N]', np.abs(j[:, 1] - j[:, 7]).max(), 0, 1e-12)
close('linear velocity: direction columns 14-16 = (1, 0, 0)', np.abs(j[:, 13:16] - [1., 0., 0.]).max(), 0, 0)
close('linear velocity: max |imposed value column 17 - v(t)| [m/s]', np.abs(j[:, 16] - (V0 + A * np.sin(OM * t))).max(), 0, 1e-15)  # 1.1e-16

# Spinner: wz = W0 + A sin(OM t); couple JS wz'.
m = r.rows('mov', 7)
ang = np.unwrap(np.radians(m[:, 6]))
close('SPINNER max |angle - closed form| [rad]', np.abs(ang - (W0 * t + A * (1 - np.cos(OM * t)) / OM)).max(), 0, 1e-6)
close('SPINNER max |wz - closed form| [rad/s]', np.abs(m[:, 12] - (W0 + A * np.sin(OM * t))).max(), 0, 5e-15)  # observed 1.3e-15
close('SPINNER max |wx|, |wy| [rad/s]', np.abs(m[:, 10:12]).max(), 0, 1e-12)
j = r.rows('jnt', 9)
close('angular velocity: max |M_z + JS A OM cos(OM t)| [N m]',
      np.abs(j[late, 12] + JS * A * OM * np.cos(OM * t[late])).max(), 0, 5e-7)  # observed 1.1e-7
close('angular velocity: direction columns 14-16 = R z = (0, 0, 1) (spin about z)', np.abs(j[:, 13:16] - [0., 0., 1.]).max(), 0, 1e-12)
close('angular velocity: max |imposed value column 17 - w(t)| [rad/s]', np.abs(j[:, 16] - (W0 + A * np.sin(OM * t))).max(), 0, 5e-15)  # 8.9e-16

# Accelerations: ax = A sin(OM t) from vx(0) = V0; wz' = A sin(OM t) from wz(0) = W0.
gain = A * (1 - np.cos(OM * t)) / OM
m = r.rows('mov', 8)
close('ACCEL max |vx - closed form| [m/s]', np.abs(m[:, 7] - (V0 + gain)).max(), 0, 1e-6)
close('ACCEL max |x - closed form| [m]',
      np.abs(m[:, 1] - (4.0 + V0 * t + A * (t - np.sin(OM * t) / OM) / OM)).max(), 0, 2e-7)  # observed 5.4e-8
j = r.rows('jnt', 10)
close('linear acceleration: max |F_x + m A sin(OM t)| [N]', np.abs(j[late, 7] + MU * A * np.sin(OM * t[late])).max(), 0, 1e-11)  # observed 2.6e-12
close('linear acceleration: max |imposed value column - a(t)|', np.abs(j[:, 13] - A * np.sin(OM * t)).max(), 0, 1e-15)  # 1.1e-16
m = r.rows('mov', 9)
close('WACCEL max |wz - closed form| [rad/s]', np.abs(m[:, 12] - (W0 + gain)).max(), 0, 1e-6)
j = r.rows('jnt', 11)
close('angular acceleration: max |M_z + JS A sin(OM t)| [N m]', np.abs(j[late, 12] + JS * A * np.sin(OM * t[late])).max(), 0, 4e-12)  # observed 8.1e-13
finish()
