"""Initial assembly moves a misplaced node onto the joint's constraint manifold.

Deck: misplaced_pendulum.mbd (node 2 given at (1.05, 0.1, 0), 1 m link as a node-frame offset).
References (closed form): after assembly the node is 1 m from the pivot and its axis 1 points
along the link (orientation angle = atan2(y, x)); the assembly is regularized, so the node moves
less than 0.1 m. The run then keeps the link length to 1e-10 m at every step and starts from
rest (|v| at step 0 below 1e-9 m/s).
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
r = Run(exe, 'misplaced_pendulum.mbd', work, 'asm')
mov = r.rows('mov', 2)
x, y = mov[0, 1], mov[0, 2]
close('assembled link length [m]', math.hypot(x, y), 1.0, 1e-10)
close('node axis 1 along the link [deg]', mov[0, 6], math.degrees(math.atan2(y, x)), 1e-8)
# regularized: the node moves less than its distance to the circle's far side; 0.05 m is the
# distance along the radius, the rotation penalty adds a tangential part: accept up to 0.1 m
close('assembly displacement [m] (at most 0.1)', math.hypot(x - 1.05, y - 0.1), 0.05, 0.05)
close('speed at step 0 [m/s]', math.hypot(mov[0, 7], mov[0, 8]), 0.0, 1e-9)
close('max link length error over the run [m]', max(abs(math.hypot(a, b) - 1.0) for a, b in mov[:, 1:3]), 0.0, 1e-10)
finish()
