"""A free flexible beam tumbling in space (input-examples/beam_free_flight.mbd: 3 beam3, 7 nodes
with lumped bodies, no constraints, no loads, large rigid rotation plus bending vibration).

References: the conservation laws of a free system (no external load; the beam's nodal forces
and moments are equal and opposite with their arms, docs/deck-language.md 5.3 / the element's file
comment):
 - total momentum P = sum beta_i constant, and the centre of mass x_c = sum m_i x_i / M moving
   on the straight line x_c(0) + t P/M (the bodies sit on the nodes). Both are kept exactly by
   the linear two-step method (momentum is a linear invariant); tolerances 3e-14 (P, absolute,
   |P| = 0.42 kg m/s) and 5e-15 m (x_c), observed 5.7e-15 and 1.2e-15 (round-off).
 - angular momentum about the origin H = sum (gamma_i + x_i x beta_i): not a linear invariant
   (x x beta); its drift is the method's O(dt^2) error: at dt = 1e-3, max |H - H0|/|H0| < 1e-4
   (observed 1.9e-5), and halving dt divides it by 4 (ratio within 3.95 .. 4.05; observed 3.987).
 - the beam holds together: every node spacing stays within 0.1% of L/6 (observed 0.031%: the
   centrifugal stretch and the vibration).
.mov: position 2-4; .ine: beta 2-4, gamma 5-7 (global).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
L, MU = 1.2, 2.0
H_NODE = L / 6
MASS = [0.5, 1, 1, 1, 1, 1, 0.5]
MASS = [m * MU * H_NODE for m in MASS]


def run(dt):
    r = Run(exe, os.path.join(EXAMPLES, 'beam_free_flight.mbd'), work, f'free_{dt:g}', {'DT': dt})
    x = [r.rows('mov', k)[:, 1:4] for k in range(7)]
    ine = [r.rows('ine', k) for k in range(7)]
    P = sum(i[:, 1:4] for i in ine)
    H = sum(i[:, 4:7] + np.cross(xk, i[:, 1:4]) for xk, i in zip(x, ine))
    t = r.times()
    return t, x, P, H


t, x, P, H = run(1e-3)
close('total momentum: max |P(t) - P(0)| [kg m/s]', np.abs(P - P[0]).max(), 0, 3e-14)  # 5.7e-15
M = sum(MASS)
xc = sum(m * xk for m, xk in zip(MASS, x)) / M
line = xc[0] + np.outer(t, P[0] / M)
close('centre of mass on its straight line: max error [m]', np.abs(xc - line).max(), 0,
      5e-15)  # observed 1.2e-15
dH1 = np.abs(H - H[0]).max() / np.linalg.norm(H[0])
close('angular momentum drift at dt = 1e-3 (relative)', dH1, 0, 1e-4)
_, _, _, H2 = run(5e-4)
dH2 = np.abs(H2 - H2[0]).max() / np.linalg.norm(H2[0])
close('angular momentum drift ratio dt = 1e-3 / 5e-4 (second order)', dH1 / dH2, 4.0,
      0.05)  # observed 3.987
spacing = np.array([np.linalg.norm(x[k + 1] - x[k], axis=1) for k in range(6)])
close('node spacing: max |d - L/6| / (L/6)', np.abs(spacing / H_NODE - 1).max(), 0,
      1e-3)  # observed 3.1e-4
finish()
