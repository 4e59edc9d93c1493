"""Static beams (`model: static`, beam3): linear cantilever, roll-up under an end couple and the
elastica (input-examples/beam_static_cantilever.mbd, beam_rollup.mbd, beam_elastica.mbd).

References (docs/references.md section 4, closed forms and the elastica table):
 - linear cantilever, 10 elements, P L^2/EI = 1e-3: tip force P -> deflection P L^3/(3 EI),
   rotation P L^2/(2 EI); end couple M -> deflection M L^2/(2 EI), rotation M L/EI.
   What remains: the shear flexibility (3e-7 of the deflection at GA = 1e7 N) and the geometric
   nonlinearity (~1e-7 at this load); observed (relative) 1.86e-7, 9.2e-8 (tip force) and
   8.3e-8, 4.3e-16 (couple: the rotation is exact); tolerances 1e-6, 3e-7, 3e-7, 2e-15 (issue 10
   asked for 1e-6).
 - roll-up, 20 elements, couple ramped in 10 load steps to 2 pi EI/L: at every step the tip is
   at x = L sin(t)/t, y = L (1 - cos t)/t, t = M L/EI, up to the quadratic interpolation of the
   positions (regression/beam_rollup/check.py, which also checks 7 elements, 100 steps and the
   rotation): observed 2.16e-7 L at most (lambda = 0.8), tol 4.4e-7 L; at the full circle the
   tip is back at the root: observed 9e-16 L, tol 4e-15 L (round-off; before the rotation-vector
   interpolation: 3.4e-6 L both, tol 1e-3 L).
 - elastica, 20 elements, ALPHA = P L^2/EI = 1, 2, 3, 5, 10 in 10 load steps: tip deflection v/L
   and shortening dx/L, tip rotation [rad]: tolerance 3 times the error observed per ALPHA
   (OBSERVED below; issue 10 asked for 1e-3). v/L is off by ~ALPHA 1e-6, the shear flexibility
   P L/GA; dx/L by 4.4e-9 .. 3.8e-7 and the rotation by 5.7e-9 .. 4.3e-7 (the discretization).
The tip is node 20 (cantilever) or 40; .mov columns 2-4 position, 5-7 rotation vector
(`default orientation: orientation vector`).
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
L, EI = 1.0, 1.0

# Linear cantilever.
P = 1e-3
r = Run(exe, os.path.join(EXAMPLES, 'beam_static_cantilever.mbd'), work, 'tip_force', {'FP': P})
tip = r.rows('mov', 20)[-1]
close('tip force: deflection', -tip[2], P * L**3 / (3 * EI), 1e-6, relative=True)  # obs. 1.86e-7
close('tip force: rotation', -tip[6], P * L**2 / (2 * EI), 3e-7, relative=True)  # observed 9.2e-8
M = 1e-3
r = Run(exe, os.path.join(EXAMPLES, 'beam_static_cantilever.mbd'), work, 'end_couple',
        {'FP': 0, 'CM': M})
tip = r.rows('mov', 20)[-1]
close('end couple: deflection', tip[2], M * L**2 / (2 * EI), 3e-7, relative=True)  # obs. 8.3e-8
close('end couple: rotation', tip[6], M * L / EI, 2e-15, relative=True)  # observed 4.3e-16

# Roll-up: every load step against the circular arc.
r = Run(exe, os.path.join(EXAMPLES, 'beam_rollup.mbd'), work, 'rollup')
tip = r.rows('mov', 40)
t_load = r.times()
if len(t_load) != len(tip) or len(tip) != 11:
    sys.exit(f'roll-up: expected 11 output steps, got {len(tip)} (.out: {len(t_load)})')
worst = 0.0
for lam, row in zip(t_load[1:], tip[1:]):
    t = lam * 2 * math.pi
    x, y = L * math.sin(t) / t, L * (1 - math.cos(t)) / t
    worst = max(worst, math.hypot(row[1] - x, row[2] - y))
close('roll-up: max tip position error over the load steps / L', worst / L, 0, 4.4e-7)
close('roll-up: full circle, tip distance from the root / L', math.hypot(*tip[-1][1:4]) / L, 0,
      4e-15)  # observed 9.0e-16

# Elastica.
TABLE = {1: (0.3017207738, 0.05643323628, 0.4613519497),
         2: (0.4934574804, 0.1606417208, 0.7817498316),
         3: (0.6032534411, 0.2544201846, 0.9860169467),
         5: (0.7137915236, 0.3876283607, 1.215368118),
         10: (0.8106090249, 0.5549955978, 1.430285539)}
# Errors observed per ALPHA (v/L, dx/L, rotation [rad]); the tolerances are 3 times these.
OBSERVED = {1: (9.95e-7, 4.41e-9, 5.70e-9), 2: (1.97e-6, 1.87e-8, 3.35e-8),
            3: (2.93e-6, 4.33e-8, 7.88e-8), 5: (4.81e-6, 1.16e-7, 1.88e-7),
            10: (9.43e-6, 3.75e-7, 4.25e-7)}
for alpha, (v, dx, rot) in TABLE.items():
    tol_v, tol_dx, tol_rot = (3 * e for e in OBSERVED[alpha])
    r = Run(exe, os.path.join(EXAMPLES, 'beam_elastica.mbd'), work, f'elastica_{alpha}',
            {'ALPHA': alpha})
    tip = r.rows('mov', 40)[-1]
    close(f'elastica alpha = {alpha}: v/L', -tip[2] / L, v, tol_v)
    close(f'elastica alpha = {alpha}: dx/L', (L - tip[1]) / L, dx, tol_dx)
    close(f'elastica alpha = {alpha}: tip rotation [rad]', -tip[6], rot, tol_rot)
finish()
