"""Andrews' squeezing mechanism (input-examples/andrews.mbd) against the published reference of
docs/references.md, section 3 (Hairer & Wanner II, sec. VII.7; IVP test set, PSIDE with
rtol 1e-14): the seven angles q = (beta, Theta, gamma, Phi, delta, Omega, epsilon) at t = 0.03 s.

The deck models every body as a node with 6 unknowns and closes the loops with joints; the test
set's relative angles are recovered from the bodies' absolute angles about z (Euler 123, third
angle, unwrapped over the output samples, every 5 steps):
    beta = a1, Theta = a2 - a1, gamma = a3, Phi = a4 - a5, delta = a5, Omega = a6 - a7, eps = a7.
Tolerance: 1e-6 relative on each angle at t = 0.03 s, with the deck's step dt = 1e-6 s (the
crank turns 2.5 times in 0.03 s and reaches 1140 rad/s). Measured largest relative errors
(gamma; second order): 2.3e-6 at dt = 4e-6, 5.7e-7 at 2e-6, 1.4e-7 at 1e-6. The angular
velocities against the published qdot (relative angles likewise): 1e-4 relative (largest
measured 4.0e-4, 9.9e-5, 2.5e-5 at the same steps; an index-3 formulation gets velocities through
the integration formula). The motion stays in the plane: |z| <= 1e-12 m. The spring is a rod
with a linear elastic law (EA = C0 L0).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
NAMES = ('beta', 'Theta', 'gamma', 'Phi', 'delta', 'Omega', 'epsilon')
Q_REF = (15.81077119629904, -15.75637105984298, 0.04082224013073101, -0.5347301163226948,
         0.5244099658805304, 0.5347301163226948, 1.048080741042263)
QD_REF = (1139.920302151208, -1424.379294994111, 11.03291221937134, 19.29337464421385,
          0.5735699284790808, -19.29337464421385, 0.3231791658026955)

r = Run(exe, os.path.join(EXAMPLES, 'andrews.mbd'), work, 'andrews')
t = r.times()
close('final time [s]', t[-1], 0.03, 1e-12)
a, w, z = {}, {}, 0.0
for k in range(1, 8):
    m = r.rows('mov', k)
    a[k] = np.unwrap(np.radians(m[:, 6]))
    w[k] = m[:, 12]
    z = max(z, np.abs(m[:, 3]).max())
q = (a[1], a[2] - a[1], a[3], a[4] - a[5], a[5], a[6] - a[7], a[7])
qd = (w[1], w[2] - w[1], w[3], w[4] - w[5], w[5], w[6] - w[7], w[7])
for name, val, ref in zip(NAMES, q, Q_REF):
    close(f'{name}(0.03)', val[-1], ref, 1e-6, relative=True)
for name, val, ref in zip(NAMES, qd, QD_REF):
    close(f'{name}\'(0.03)', val[-1], ref, 1e-4, relative=True)
close('max |z| of the nodes [m]', z, 0, 1e-12)
finish()
