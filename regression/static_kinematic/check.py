"""Kinematic (and kineto-static) analysis of a fully driven slider-crank in a static model
(input-examples/static_kinematic.mbd).

Reference (closed form): theta = TH0 + W t; slider x = R cos(theta) + sqrt(L^2 - R^2 sin(theta)^2),
xdot its time derivative; the static torque the drive holds against the crank's weight,
M_z = -MC g (R/2) cos(theta) on the ground (the first end of the joint); the slider's weight is
held by the in-line joint, so the distance joint carries no force.

Tolerances (one revolution, 629 steps at h = 1e-3):
 - slider x against the closed form at the crank angle of the run (.mov Euler angle about z),
   every step: 3e-14 m (observed 5.9e-15): the constraints are solved to round-off each step;
 - the crank angle against TH0 + W t: the imposed angular velocity is integrated into the
   rotation by the integration formula (incremental rotation parameters), second order: below
   5e-5 rad at h = 1e-3 (observed 3.1e-5), error ratio h = 1e-3 / 5e-4 4 +- 4e-3 (3.9991);
 - slider y, z: 1e-12 m;
 - the .mov velocity of the slider against xdot: 1e-4 m/s at h = 1e-3, and second order: the
   ratio of the errors at h = 1e-3 and 5e-4 4 +- 2e-3 (observed 3.9995; these velocities are the
   integration formula's derivatives of the solved positions: there is no inertia);
 - the drive's reaction moment z (.jnt column 7) against MC g (R/2) cos(theta), theta of the
   run: 1e-13 N m (observed 2.3e-14; MBDyn's AxialRotationJoint reports the couple on node 2, the crank, which
   holds up the crank's weight: docs/reactions.md);
 - the distance joint's force (column 2): 1e-9 N.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
R, L, W, TH0, MC, G = 0.1, 0.3, 10.0, np.radians(30.0), 1.0, 9.81
deck = os.path.join(EXAMPLES, 'static_kinematic.mbd')

verr, aerr = {}, {}
for dt in (1e-3, 5e-4):
    run = Run(exe, deck, work, f'kin_{dt:g}', {'DT': dt})
    t = run.times()
    th_exact = TH0 + W * t
    th = np.radians(run.rows('mov', 2)[:, 6])  # crank: rotation about z only, Euler 123 (deg)
    aerr[dt] = np.max(abs(np.angle(np.exp(1j * (th - th_exact)))))
    s = run.rows('mov', 3)
    root = np.sqrt(L**2 - (R * np.sin(th_exact))**2)
    xd = -R * W * np.sin(th_exact) - R**2 * W * np.sin(th_exact) * np.cos(th_exact) / root
    verr[dt] = np.max(abs(s[:, 7] - xd))
    if dt == 1e-3:
        close('output steps (one revolution)', len(s), 630, 0)
        x = R * np.cos(th) + np.sqrt(L**2 - (R * np.sin(th))**2)
        close('max |x_slider - closed form at the crank angle| [m]', np.max(abs(s[:, 1] - x)), 0.0, 3e-14)  # 5.9e-15
        close('max |y|, |z| of the slider [m]', np.max(abs(s[:, 2:4])), 0.0, 1e-12)
        mz = run.rows('jnt', 2)[:, 6]
        close('max |drive moment z - MC g R/2 cos(theta)| [N m]', np.max(abs(mz - MC * G * R / 2 * np.cos(th))),
              0.0, 1e-13)  # observed 2.3e-14
        close('max |distance joint force| [N]', np.max(abs(run.rows('jnt', 3)[:, 1])), 0.0, 1e-9)
close('max crank angle error at h = 1e-3 [rad]', aerr[1e-3], 0.0, 5e-5)
close('crank angle error ratio h = 1e-3 / 5e-4 (second order: 4)', aerr[1e-3] / aerr[5e-4], 4.0, 4e-3)  # 3.9991
close('max |xdot_slider - closed form| at h = 1e-3 [m/s]', verr[1e-3], 0.0, 1e-4)
close('velocity error ratio h = 1e-3 / 5e-4 (second order: 4)', verr[1e-3] / verr[5e-4], 4.0, 2e-3)  # 3.9995
finish()
