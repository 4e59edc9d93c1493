"""Initial assembly moves a misplaced node onto the joint's constraint manifold.

Deck: misplaced_pendulum.mbd (node 2 given at (1.05, 0.1, 0), 1 m link as a node-frame offset).
References (closed form): after assembly the node is 1 m from the pivot and its axis 1 points
along the link (orientation angle = atan2(y, x)); the assembly is regularized, so the node moves
less than 0.1 m. The run then keeps the link length to 1e-10 m at every step and starts from
rest (|v| at step 0 below 1e-9 m/s).

Deck: velocity_assembly.mbd (velocity part of the assembly; closed forms in the deck): a hinged
node given inadmissible velocities gets the closest admissible ones, v = (0, 2, 0),
w = (0, 0, 2) (least squares with unit velocity stiffness), tolerance 1e-8, and a driven point
given at rest gets the drive's rate (1, 0.1, 0) while its free rotation keeps w0 = (0, 0.4, 0):
1e-13 (the joint gives its rows' time derivative from the drives' derivatives, measured 0; it was
a forward difference in time with ~4e-10 round-off); after one step the driven point's velocity
is 0.5 * 2 cos(2 h) to 1e-6 (no start jump).

Deck: loads_in_assembly.mbd (`use: rigid bodies, gravity, forces, in assembly;`, Kp = 100): a
free node settles at x0 + (5 / Kp, 0, -m g / Kp) (closed form in the deck) to 1e-12; the same
deck without the `use` card leaves it at x0.
Tolerances (issue 23): each close() below is within 2-10x of the error observed when it was
set (Release build), stated in the comment beside it (a floor of a few ulps or 1e-15 where
the observed error is 0 or far below round-off); where a figure above is larger, it is the
bound the physics or the solver tolerance allows, not the tolerance checked.
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
close('assembled link length [m]', math.hypot(x, y), 1.0, 2e-14)  # observed 4.3e-15
close('node axis 1 along the link [deg]', mov[0, 6], math.degrees(math.atan2(y, x)), 2e-13)  # observed 4.4e-14
# regularized: the node moves less than its distance to the circle's far side; 0.05 m is the
# distance along the radius, the rotation penalty adds a tangential part: accept up to 0.1 m
close('assembly displacement [m] (at most 0.1)', math.hypot(x - 1.05, y - 0.1), 0.05, 0.05)
close('speed at step 0 [m/s]', math.hypot(mov[0, 7], mov[0, 8]), 0.0, 1e-9)
close('max link length error over the run [m]', max(abs(math.hypot(a, b) - 1.0) for a, b in mov[:, 1:3]), 0.0, 2e-14)  # observed 4.9e-15

r = Run(exe, 'velocity_assembly.mbd', work, 'vel')
m2, m3 = r.rows('mov', 2), r.rows('mov', 3)
for i, ref in enumerate((0.0, 2.0, 0.0)):
    close(f'hinged node: assembled velocity[{i}] [m/s]', m2[0, 7 + i], ref, 1e-8)
for i, ref in enumerate((0.0, 0.0, 2.0)):
    close(f'hinged node: assembled angular velocity[{i}] [rad/s]', m2[0, 10 + i], ref, 1e-15)  # observed 0 and 8.3e-17
for i, ref in enumerate((1.0, 0.1, 0.0)):
    close(f'driven point: assembled velocity[{i}] [m/s] (drive rate)', m3[0, 7 + i], ref, 1e-13)
for i, ref in enumerate((0.0, 0.4, 0.0)):
    close(f'driven point: free angular velocity[{i}] kept [rad/s]', m3[0, 10 + i], ref, 1e-12)
close('driven point: v_x after one step [m/s]', m3[1, 7], math.cos(2e-3), 1e-6)

r = Run(exe, 'loads_in_assembly.mbd', work, 'loads')
m2 = r.rows('mov', 2)
for i, ref in enumerate((0.3 + 5.0 / 100.0, 0.4, 1.0 - 2.0 * 9.81 / 100.0)):
    close(f'loads in assembly: node position[{i}] [m]', m2[0, 1 + i], ref, 1e-12)
with open('loads_in_assembly.mbd') as f:
    text = f.read()
path = os.path.join(work, 'no_loads_in_assembly.mbd')
with open(path, 'w') as f:
    f.write(text.replace('use: rigid bodies, gravity, forces, in assembly;', ''))
r = Run(exe, path, work, 'noloads')
m2 = r.rows('mov', 2)
for i, ref in enumerate((0.3, 0.4, 1.0)):
    close(f'without use ... in assembly: node position[{i}] unchanged [m]', m2[0, 1 + i], ref, 1e-12)
finish()
