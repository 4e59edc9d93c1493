"""Node accelerations through the sparse, regularized projection
(input-examples/dae_spring_mounted_pendulum.mbd).

The deck's projection system (solvers/dae/accelerations.cpp) is singular: the massless MOUNT
node's rotations enter no constraint and have no inertia, so it is solved regularized (eps =
1e-12 max|M|; the dense minimum-norm solve it replaced gave the same XPP to 2.9e-9 m/s^2 on this
deck). Reference, independent of the projection: the time derivative of BOB's velocity, by
central differences of the .mov velocities, (V[k+1] - V[k-1]) / (2 DT). It differs from XPP by
the integration and differencing errors, O(DT^2) (the mount's 100 rad/s mode dominates):
measured max |XPP - dV/dt| = 0.0196 / 0.0062 / 0.0017 m/s^2 at DT = 1e-3 / 5e-4 / 2.5e-4
(|XPP| up to 10.3 m/s^2). Checked: <= 0.03 and 0.01 m/s^2 at DT = 1e-3 and 5e-4, ratio >= 2.5.
Step 0: the spring is unloaded, so the massless mount can give no reaction and BOB starts in
free fall: XPP = (0, -9.81, 0) to 1e-10 (observed 1.9e-11).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
DECK = os.path.join(EXAMPLES, 'dae_spring_mounted_pendulum.mbd')
BOB = 3


def error(dt):
    r = Run(exe, DECK, work, f'smp_{dt:g}', {'DT': dt})
    mov = r.rows('mov', BOB)
    v, a = mov[:, 7:10], mov[:, 13:16]
    fd = (v[2:] - v[:-2]) / (2 * dt)
    return np.abs(fd - a[1:-1]).max(), a[0]


e1, a0 = error(1e-3)
e2, _ = error(5e-4)
close('max |XPP - dV/dt| at DT 1e-3 [m/s^2]', e1, 0.0, 0.03)
close('max |XPP - dV/dt| at DT 5e-4 [m/s^2]', e2, 0.0, 0.01)
close('error ratio DT / (DT/2) >= 2.5 (second order)', min(e1 / e2, 2.5), 2.5, 0.0)
close('step 0 XPP: free fall [m/s^2]', np.abs(a0 - np.array([0.0, -9.81, 0.0])).max(), 0.0,
      1e-10)  # observed 1.9e-11
finish()
