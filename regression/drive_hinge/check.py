"""Drive hinges imposing large and single-axis rotations (input-examples/drive_hinge.mbd).

References: closed form, no external data. The drive hinge imposes R_body = Rh exp(theta(t));
 - orientations: both bodies' orientation matrices equal Rh exp(theta(t)) to 2e-12 (a
   position-level constraint, met to the Newton tolerance; measured 5.0e-13), the .jnt rotation
   vector likewise;
 - SPINNER's moment on GROUND about z is -Jzz theta''(t) = 4.5 Jzz sin(3t), other components 0;
 - TUMBLER's moment on GROUND is -(J w' + w x J w), J = R Jc R^T, with w = vee(R' R^T) and w'
   taken by central differences of the closed-form R(t) (steps 1e-5 and 1e-4 s: their error is
   below 1e-7 N m).
Moments are multipliers of an index-3 formulation: second-order accurate in dt, so they are
compared from t = 0.05 s on (past the start-up transient), at dt = 1e-3 to 1e-5 N m for SPINNER
(measured 3.2e-6 N m; its moment peaks at 1.8 N m; Mx, My 1e-18, measured 3.3e-20) and 1e-6 N m
for TUMBLER (measured 3.0e-7; its local moment Rh^T M to 5e-12, measured 1.0e-12).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, expm, finish, skew  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
T_SKIP = 0.05
JZZ = 0.4
J_TUMBLER = np.diag([0.2, 0.3, 0.4])


def euler123(a, b, c):
    rx = expm(np.array([a, 0, 0]))
    ry = expm(np.array([0, b, 0]))
    rz = expm(np.array([0, 0, c]))
    return rx @ ry @ rz


RH = euler123(0.1, 0.2, 0.3)


def r_tumbler(t):
    return RH @ expm(np.array([0.4 * np.sin(2 * t), 0.3 * (1 - np.cos(t)), 1.2 * t]))


def omega(t, h=1e-5):
    rd = (r_tumbler(t + h) - r_tumbler(t - h)) / (2 * h)
    w = rd @ r_tumbler(t).T
    return np.array([w[2, 1], w[0, 2], w[1, 0]])


r = Run(exe, os.path.join(EXAMPLES, 'drive_hinge.mbd'), work, 'drive_hinge')
t = r.times()
late = t >= T_SKIP
tum = r.rows('mov', 2)
spin = r.rows('mov', 3)

err_t = max(np.abs(tum[k, 4:13].reshape(3, 3) - r_tumbler(tk)).max() for k, tk in enumerate(t))
close('TUMBLER max |R - Rh exp(theta(t))|', err_t, 0, 2e-12)  # observed 5.0e-13
err_s = max(np.abs(spin[k, 4:13].reshape(3, 3) - expm(np.array([0, 0, 0.5 * np.sin(3 * tk)]))).max()
            for k, tk in enumerate(t))
close('SPINNER max |R - exp(theta(t))|', err_s, 0, 2e-12)  # observed 5.1e-13

js = r.rows('jnt', 5)
mz = 4.5 * JZZ * np.sin(3 * t)
close('SPINNER max |Mz - 4.5 Jzz sin 3t| [N m] (t >= T_SKIP)', np.abs(js[late, 12] - mz[late]).max(), 0, 1e-5)
close('SPINNER max |Mx|, |My| [N m] (t >= T_SKIP)', np.abs(js[late, 10:12]).max(), 0, 1e-18)  # observed 3.3e-20
close('SPINNER max |joint force| [N]', np.abs(js[:, 1:4]).max() + np.abs(js[:, 7:10]).max(), 0, 1e-12)

jt = r.rows('jnt', 4)
err = 0.0
for k in np.nonzero(late)[0]:
    tk = t[k]
    R = r_tumbler(tk)
    J = R @ J_TUMBLER @ R.T
    w = omega(tk)
    wd = (omega(tk + 1e-4) - omega(tk - 1e-4)) / 2e-4
    m_ref = -(J @ wd + np.cross(w, J @ w))
    err = max(err, np.abs(jt[k, 10:13] - m_ref).max())
close('TUMBLER max |M - (-(J w\' + w x J w))| [N m] (t >= T_SKIP)', err, 0, 1e-6)  # observed 3.0e-7
close('TUMBLER max |local moment - Rh^T M| [N m]', np.abs(jt[:, 4:7] - jt[:, 10:13] @ RH).max(), 0, 5e-12)  # observed 1.0e-12
# The relative rotation vector the joint writes is theta(t) itself (|theta| < pi here).
theta = np.stack([0.4 * np.sin(2 * t), 0.3 * (1 - np.cos(t)), 1.2 * t], axis=1)
close('TUMBLER max |jnt rotation vector - theta(t)|', np.abs(jt[:, 16:19] - theta).max(), 0, 2e-12)  # observed 5.0e-13
finish()
