"""Long companion of regression/reduced_singular (label long, about 2 minutes): the N four-bar to
t = 10 s by reduced RK4 at DT 5e-4, 1e-4, 5e-5 and 2e-5, B0 against the parallelogram ODE
(regression/reduced_singular/nfb.py). Measured B0 errors at 10 s / max over the run:
  DT 5e-4: 7.2e-8 / 2.3e-7 m, 1e-4: 7.3e-8 / 2.1e-7, 5e-5: 5.5e-8 / 1.6e-7, 2e-5: 2.9e-7 / 1.0e-6
(before SingularStepper: 4.8e-8 m at 10 s for 5e-4, 8.6e-4 m for 1e-4). Tolerances: 1e-6 m at
10 s and over the run, crank 0's branch invariant within 1e-4 1/s^2 (measured 3.2e-7 .. 5.2e-5),
except DT 2e-5: 3e-6 m over the run and 1e-3 1/s^2 (4.4e-4): the steps nearest a passage are
DT/16 = 1.25e-6 s (6e-6 rad) from it, where an RK4 error delta moves the state by ~delta/sigma
along the direction the constraints barely hold there (it decays after the passage; B0 at
10 s is 2.9e-7 m off).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'reduced_singular'))
sys.path.insert(0, os.path.join(HERE, '..'))
from mbs_check import finish  # noqa: E402
import nfb  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
ref = nfb.reference()
for dt in (5e-4, 1e-4, 5e-5):
    nfb.check(exe, work, ref, dt, 1e-6, 1e-6, 1e-4)
nfb.check(exe, work, ref, 2e-5, 1e-6, 3e-6, 1e-3)
finish()
