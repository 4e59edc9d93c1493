"""Roll-up of a cantilever under an end couple (beam3, static nodes, `model: static`): the decks
are written by rollup.py (NE elements, the couple about z ramped to 2 pi EI/L in NSTEPS load
steps, EI = GJ = 1, EA = GA = 1e6, L = 1), here NE = 20 and 7, NSTEPS = 100 and 10. The load
steps are predicted with `implicit euler` (the previous step's configuration): with `ms, 0.6`
(input-examples/beam_rollup.mbd) Newton diverges at lambda = 0.8 with 7 elements and 10 steps,
with this beam and the one before it; MBDyn (`ms, 0.6`, tolerance 1e-7) passes it.

At every load step lambda (t = 2 pi lambda = M L/EI), the tip (node 2 NE) is checked against
 - the circle of the continuous beam (docs/references.md section 4): x = L sin(t)/t,
   y = L (1 - cos t)/t, rotation t. The rotation is exact whatever NE (the interpolation of the
   rotation vectors, elements/beams/beam_element.cpp): observed <= 3.6e-15 rad, tol 3e-14 rad
   (before: 2.1e-5 rad at the full circle with 20 elements, 1.5e-3 with 7). The position is
   not: the quadratic interpolation of positions makes each element's chord 2 h cos(th/sqrt(3))
   instead of the arc's 2 h sin(th)/th (th = t h/L, h = L/(2 NE); beam_element.cpp), as in
   MBDyn. Observed max over the steps: 2.18e-7 L (NE = 20; before 3.5e-6 L), 1.47e-5 L
   (NE = 7; before 2.4e-4 L); tol 2x these. At the full circle the tip is back at the root
   (the chords' errors cancel): observed <= 1.3e-15 L, tol 1e-14 L;
 - the exact solution of the discretised beam, in closed form: node rotations exact, the tip at
   sum over the elements e of 2 h cos(th/sqrt(3)) (cos a_e, sin a_e), a_e = (2 e + 1) th (the
   strains vanish at both evaluation points of every element). Observed <= 1.3e-15 L, tol
   1e-14 L: any change of the beam's interpolation, strains or update shows here.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import close, finish  # noqa: E402
import rollup  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]


def discrete_tip(ne, t):
    h = 1.0 / (2 * ne)
    th = t * h
    c = 2 * h * math.cos(th / math.sqrt(3))
    return (sum(c * math.cos((2 * e + 1) * th) for e in range(ne)),
            sum(c * math.sin((2 * e + 1) * th) for e in range(ne)))


CIRCLE_TOL = {20: 2 * 2.18e-7, 7: 2 * 1.47e-5}
for ne in (20, 7):
    for nsteps in (100, 10):
        rows = rollup.run_rows(exe, work, ne, nsteps)
        if len(rows) < nsteps + 1:
            sys.exit(f'NE = {ne}, {nsteps} steps: {len(rows)} output rows')
        circle = discrete = rotation = 0.0
        for i in range(1, nsteps + 1):
            t = 2 * math.pi * i / nsteps
            r = rows[i]
            circle = max(circle, math.hypot(r[1] - math.sin(t) / t, r[2] - (1 - math.cos(t)) / t,
                                            r[3]))
            x, y = discrete_tip(ne, t)
            discrete = max(discrete, math.hypot(r[1] - x, r[2] - y, r[3]))
            rotation = max(rotation, rollup.angle_error(r, t))
        what = f'{ne} elements, {nsteps} steps'
        close(f'{what}: max tip rotation error [rad]', rotation, 0, 3e-14)
        close(f'{what}: max tip distance from the circle / L', circle, 0, CIRCLE_TOL[ne])
        close(f'{what}: full circle, tip distance from the root / L',
              math.hypot(*rows[nsteps][1:4]), 0, 1e-14)
        close(f'{what}: max tip distance from the discrete closed form / L', discrete, 0, 1e-14)
finish()
