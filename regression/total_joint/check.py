"""Total joint and total pin joint, status by status (input-examples/total_joint.mbd).

References: closed-form motions (derived in the deck's header), no external data.
 - FALLER (total pin joint, y inactive, orientation imposed as (0, 0, W1 t)): free fall
   y = 1 - g t^2/2, x = 0.5, z = 0, rotation W1 t about z, and a joint that transmits no force.
   The two-step method integrates a quadratic exactly, so the tolerance is 1e-9 m (Newton
   tolerance and round-off); the position-level components and the rotation are met to 1e-9
   as well; the reaction must stay below 1e-6 N / N m.
 - SLIDER (total joint, position frame turned by PSI): relative position
   (X0 + V1 t, A sin(2 pi F t), Z0 + V3 t): velocity-level components 1 and 3 are linear in
   time, which the method integrates exactly (1e-9 m); component 2 is imposed at position level
   (1e-9 m). Orientation: rotations 1, 2 held (1e-9 rad), angular velocity W2 about axis 3
   imposed at velocity level, so the angle W2 t is integrated: second-order error, 1e-5 rad at
   dt = 1e-3 over 2 s. Joint force on GROUND = m (g - a(t)) with a the closed-form acceleration,
   to 1e-4 N (measured 2.7e-5 N at dt = 1e-3, 6.7e-6 N at 5e-4: second order, checked with a
   second run at dt = 5e-4, ratio 4 +- 0.4). The joint couple is zero (rotation about a principal
   axis at constant rate): 1e-6 N m.
Start transient. The derivatives phase starts the reactions right (SLIDER 7.2e-5 N off at step 0),
but the first step is the one-step Crank-Nicolson start of `ms`: with the motion imposed at
position level its accelerations, hence the reactions, come out near the half-step (midpoint)
values, off by about (h/2) m |j| with j the imposed jerk, A (2 pi F)^3 at t = 0, and the two-step
formula's parasitic root (rho = 0.6) damps that within about 25 steps. So the reactions are
checked (a) from t = 0 against that first-order bound: SLIDER peak <= (h/2) m A (2 pi F)^3 =
1.24e-2 N (measured 1.212e-2 at t = 0.003 s), the peak halving with h (dt = 5e-4: 6.04e-3, ratio
2 +- 0.1), FALLER (no force) <= 2e-5 (measured 1.06e-5 at t = 0.003 s, 5.3e-6 at dt = 5e-4); and
(b) from t = T_SKIP = 0.025 s (was 0.05) with the tolerances above, FALLER tightened from 1e-6 to
1e-7 (measured 9.6e-9 from 0.025 s on, 2.1e-8 at dt = 5e-4).
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
T_SKIP = 0.025
G, W1, V1, V3, A, F, W2, X0, Z0, PSI = 9.81, 0.5, 0.3, -0.2, 0.1, 1.0, 2.0, 0.4, 0.1, np.pi / 6
M_SLIDER = 1.0
P1 = np.array([0.2, -0.5, 0.0])
c, s = np.cos(PSI), np.sin(PSI)
RP = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def wrap_deg(a):
    return (a + 180.0) % 360.0 - 180.0


DT = 1e-3  # the deck's time step


def slider_force_error(r, t):
    js = r.rows('jnt', 3)
    acc = np.stack([0 * t, -A * (2 * np.pi * F) ** 2 * np.sin(2 * np.pi * F * t), 0 * t], axis=1) @ RP.T
    return np.abs(js[:, 7:10] - M_SLIDER * (np.array([0, -G, 0]) - acc)).max(axis=1)


r = Run(exe, os.path.join(EXAMPLES, 'total_joint.mbd'), work, 'total_joint')
t = r.times()
close('deck time step [s]', t[1] - t[0], DT, 1e-12)
fall = r.rows('mov', 2)
slide = r.rows('mov', 3)

# FALLER
close('FALLER max |y - (1 - g t^2/2)| [m]', np.abs(fall[:, 2] - (1 - G * t ** 2 / 2)).max(), 0, 3e-14)  # observed 5.3e-15
close('FALLER max |x - 0.5| + |z| [m]', np.abs(fall[:, 1] - 0.5).max() + np.abs(fall[:, 3]).max(), 0, 1e-9)
close('FALLER max |angle z - W1 t| [deg]', np.abs(wrap_deg(fall[:, 6] - np.degrees(W1 * t))).max(), 0, 2e-10)  # observed 5.0e-11
close('FALLER max |angles x, y| [deg]', np.abs(fall[:, 4:6]).max(), 0, 1e-7)
jf = r.rows('jnt', 2)
late = t >= T_SKIP - 1e-12
close('FALLER max |joint force, couple| from t = 0 (start transient)', np.abs(jf[:, 1:13]).max(), 0, 2e-5)
close('FALLER max |joint force, couple| (t >= T_SKIP)', np.abs(jf[late, 1:13]).max(), 0, 4e-8)  # observed 9.6e-9

# SLIDER
rel = np.stack([X0 + V1 * t, A * np.sin(2 * np.pi * F * t), Z0 + V3 * t], axis=1)
p = P1 + rel @ RP.T
close('SLIDER max |p - closed form| [m]', np.abs(slide[:, 1:4] - p).max(), 0, 2e-11)  # observed 5.0e-12
close('SLIDER max |angles x, y| [deg]', np.abs(slide[:, 4:6]).max(), 0, 1e-16)  # observed 1.6e-17
err = np.abs(wrap_deg(slide[:, 6] - np.degrees(W2 * t))).max()
close('SLIDER max |angle z - W2 t| [rad]', np.radians(err), 0, 4e-6)  # observed 7.9e-7
js = r.rows('jnt', 3)
ef = slider_force_error(r, t)
bound = DT / 2 * M_SLIDER * A * (2 * np.pi * F) ** 3
close('SLIDER max |joint force on GROUND - m (g - a)| from t = 0 [N] (start transient; tol (h/2) m |j|)',
      ef.max(), 0, bound)
close('SLIDER max |joint force on GROUND - m (g - a)| [N] (t >= T_SKIP)', ef[late].max(), 0, 1e-4)
# The same at half the step: the start transient is first order, the rest second order.
r2 = Run(exe, os.path.join(EXAMPLES, 'total_joint.mbd'), work, 'total_joint_half', {'DT': DT / 2})
t2 = r2.times()
ef2 = slider_force_error(r2, t2)
close('SLIDER start transient peak ratio dt / (dt/2) (first order: 2)', ef.max() / ef2.max(), 2.0, 3e-4)  # observed 1.99995
close('SLIDER force error ratio dt / (dt/2) for t >= T_SKIP (second order: 4)',
      ef[late].max() / ef2[t2 >= T_SKIP - 1e-12].max(), 4.0, 0.06)  # observed 3.983
jf2 = r2.rows('jnt', 2)
close('FALLER max |joint force, couple| at dt/2 (t >= T_SKIP)', np.abs(jf2[t2 >= T_SKIP - 1e-12, 1:13]).max(), 0,
      1e-7)
close('SLIDER max |local force - Rp^T F| [N]', np.abs(js[:, 1:4] - js[:, 7:10] @ RP).max(), 0, 4e-10)  # observed 9.2e-11
close('SLIDER max |joint couple| [N m]', np.abs(js[:, 10:13]).max(), 0, 4e-10)  # observed 9.9e-11
# The relative kinematics the joint writes: position, velocity (in Rp), angular velocity.
close('SLIDER max |jnt relative position - closed form| [m]', np.abs(js[:, 13:16] - rel).max(), 0, 2e-13)  # observed 5.0e-14
vel = np.stack([V1 + 0 * t, A * 2 * np.pi * F * np.cos(2 * np.pi * F * t), V3 + 0 * t], axis=1)
close('SLIDER max |jnt relative velocity - closed form| [m/s]', np.abs(js[:, 19:22] - vel).max(), 0, 1e-5)
close('SLIDER max |jnt relative angular velocity z - W2| [rad/s]', np.abs(js[:, 24] - W2).max(), 0, 1e-9)
finish()
