"""Static beams (`model: static`, beam3): linear cantilever, roll-up under an end couple and the
elastica (input-examples/beam_static_cantilever.mbd, beam_rollup.mbd, beam_elastica.mbd).

References (docs/references.md section 4, closed forms and the elastica table):
 - linear cantilever, 10 elements, P L^2/EI = 1e-3: tip force P -> deflection P L^3/(3 EI),
   rotation P L^2/(2 EI); end couple M -> deflection M L^2/(2 EI), rotation M L/EI.
   Tolerance 1e-6 relative (issue 10). What remains: the shear flexibility (3e-7 of the
   deflection at GA = 1e7 N) and the geometric nonlinearity (~1e-7 at this load); observed
   1.9e-7, 9e-8 (tip force) and 8e-8, <1e-9 (couple).
 - roll-up, 20 elements, couple ramped in 10 load steps to 2 pi EI/L: at every step the tip is
   at x = L sin(t)/t, y = L (1 - cos t)/t, t = M L/EI, up to the quadratic interpolation of the
   positions (regression/beam_rollup/check.py, which also checks 7 elements, 100 steps and the
   rotation): observed 2.16e-7 L at most (lambda = 0.8), tol 4.4e-7 L; at the full circle the
   tip is back at the root: observed 9e-16 L, tol 1e-14 L (before the rotation-vector
   interpolation: 3.4e-6 L both, tol 1e-3 L).
 - elastica, 20 elements, ALPHA = P L^2/EI = 1, 2, 3, 5, 10 in 10 load steps: tip deflection v/L
   and shortening dx/L within 1e-3 (issue 10; observed < 1e-5, mostly the shear flexibility
   P L/GA = ALPHA 1e-6 in v/L), tip rotation within 1e-3 rad.
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
close('tip force: deflection', -tip[2], P * L**3 / (3 * EI), 1e-6, relative=True)
close('tip force: rotation', -tip[6], P * L**2 / (2 * EI), 1e-6, relative=True)
M = 1e-3
r = Run(exe, os.path.join(EXAMPLES, 'beam_static_cantilever.mbd'), work, 'end_couple',
        {'FP': 0, 'CM': M})
tip = r.rows('mov', 20)[-1]
close('end couple: deflection', tip[2], M * L**2 / (2 * EI), 1e-6, relative=True)
close('end couple: rotation', tip[6], M * L / EI, 1e-6, relative=True)

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
      1e-14)

# Elastica.
TABLE = {1: (0.3017207738, 0.05643323628, 0.4613519497),
         2: (0.4934574804, 0.1606417208, 0.7817498316),
         3: (0.6032534411, 0.2544201846, 0.9860169467),
         5: (0.7137915236, 0.3876283607, 1.215368118),
         10: (0.8106090249, 0.5549955978, 1.430285539)}
for alpha, (v, dx, rot) in TABLE.items():
    r = Run(exe, os.path.join(EXAMPLES, 'beam_elastica.mbd'), work, f'elastica_{alpha}',
            {'ALPHA': alpha})
    tip = r.rows('mov', 40)[-1]
    close(f'elastica alpha = {alpha}: v/L', -tip[2] / L, v, 1e-3)
    close(f'elastica alpha = {alpha}: dx/L', (L - tip[1]) / L, dx, 1e-3)
    close(f'elastica alpha = {alpha}: tip rotation [rad]', -tip[6], rot, 1e-3)
finish()
