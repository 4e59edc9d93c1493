"""Beams in the initial assembly (input-examples/beam_initial_assembly.mbd).

A straight cantilever (10 beam3, clamped at node 0) whose tip is tied by a spherical hinge to a
ground point D = 1e-4 m off the tip: with `use: beams, in assembly;` the assembly leaves the
nodes on the static deflection of a cantilever under a tip force P,
    y(x) = P (3 L x^2 - x^3) / (6 EI) + P x / GA,  P = D / (L^3 / (3 EI) + L / GA),
    tip rotation about z P L^2 / (2 EI)
(closed form of docs/references.md section 4 plus the constant shear; the beams'
elastic forces balanced by the hinge's reaction). Reference: that closed form; errors of the
model against it (assembly springs 1e-6, membrane tension of the stretched beam 1.4e-6 relative):
observed 5.6e-7 D for the nodes' y (tolerance 2e-6 D) and 1.34e-6 relative for the tip rotation
(tolerance 5e-6). The stretch itself (x of the nodes) is 1.76e-9 m (tolerance 1e-8 m).
The assembled state is the first .mov row (t = 0; the derivatives phase keeps the positions of
dynamic nodes). Without the `use:` line (MBDyn's default: beams are not in the assembly) only
the tip node moves: node 10 stays at its deck position and the tip reaches y = D (observed
exactly, the constraint is linear in the tip's y; tolerance 1e-15 m, 1e-11 D), while the closed
form puts node 10 0.31 D away -- the feature is what moves it.
"""
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
L, D, H, EI, GA = 1.0, 1e-4, 0.05, 1e3, 1e7
P = D / (L**3 / (3 * EI) + L / GA)
deck = os.path.join(EXAMPLES, 'beam_initial_assembly.mbd')


def first_rows(run):
    return {k: run.rows('mov', k)[0] for k in range(0, 21)}


r = Run(exe, deck, work, 'with_beams')
mov = first_rows(r)
err_y = err_x = 0.0
for k in range(21):
    x = k * H
    y = P * (3 * L * x**2 - x**3) / (6 * EI) + P * x / GA
    err_y = max(err_y, abs(mov[k][2] - y))
    err_x = max(err_x, abs(mov[k][1] - x))
close('max |y - closed form| over the 21 nodes [m]', err_y, 0, 2e-6 * D)  # observed 5.6e-7 D
close('max |x - x0| over the nodes [m] (stretch ~ 0.6 D^2/L)', err_x, 0, 1e-4 * D)
# Rotation of the tip about z (.mov columns 5-7: euler123 angles in degrees; small, planar).
close('tip rotation about z [rad]', np.radians(mov[20][6]), P * L**2 / (2 * EI), 5e-6,
      relative=True)  # observed 1.34e-6

text = open(deck, encoding='utf-8').read()
no_use = os.path.join(work, 'no_use.mbd')
with open(no_use, 'w', encoding='utf-8') as f:
    # (stopped after the assembly: the kinked beam would then start a violent dynamic run)
    text = re.sub(r'\n\s*use: beams, in assembly;', '', text)
    f.write(text.replace('begin: initial value;', 'begin: initial value;\n    abort after: assembly;'))
r0 = Run(exe, no_use, work, 'without_beams')
mov0 = first_rows(r0)
close('without the beams: node 10 moved [m]', abs(mov0[10][2]), 0, 1e-15)  # observed 0
close('without the beams: tip y [m]', mov0[20][2], D, 1e-15)  # observed 0
finish()
