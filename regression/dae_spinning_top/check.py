"""A heavy symmetric top started spinning and precessing on a spherical hinge
(input-examples/dae_spinning_top.mbd, issue 23): a consistent start without moving the deck's
state, and the motion of an independent formulation.

Checked:
 - the DAE run prints no derivatives-phase warning, and its first output step holds the deck's
   state: orientation Euler 123 (TH0, 0, 0), angular velocity S e3 + P z, to the 16 printed
   digits (observed 3.6e-15 deg, 1.8e-15 rad/s; tol 1e-14);
 - reference: the relative-coordinate model of the same deck (--analysis reduced-dynamics: RK4
   on the spherical hinge's three joint coordinates) at DT = 1e-5; its own error, against
   DT = 2e-5: observed 6.2e-15 rad and 1.2e-13 rad/s (tol 5e-14, 1e-12);
 - DAE at DT = 1e-4 against it at t = 0.1 s: orientation 6.7e-6 rad (tol 1.5e-5), angular
   velocity 4.0e-6 rad/s (tol 1e-5): the two-step method's own error, which falls by 4.00 at
   DT = 5e-5 (second order: tol 4 +- 0.01; an error of the start would not fall);
 - the conserved quantities (no moment about the vertical through the fixed point, none about
   the symmetry axis): the angular momentum about z drifts by 1.6e-13 kg m^2/s over the 0.1 s
   at DT = 1e-4 (tol 1e-12); the axial spin w . e3 (constant for a symmetric top) by 2.9e-13
   rad/s in the reference (tol 2e-12), and by 4.83e-7 rad/s in the DAE at DT = 1e-4 (tol 1e-6),
   again the method's error: 4.00 times less at DT = 5e-5 (tol 4 +- 0.01).
"""
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
from mbs_check import EXAMPLES, Run, close, euler123, expect, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
deck = os.path.join(EXAMPLES, 'dae_spinning_top.mbd')
TH0, S, P, M, L, JT, JA = 0.3, 50.0, 1.5, 1.0, 0.1, 0.002, 0.004
TOP = 2


def angle(a, b):
    """Rotation angle between two orientation matrices (small angles: from the skew part)."""
    d = a.T @ b
    axial = 0.5 * np.array([d[2, 1] - d[1, 2], d[0, 2] - d[2, 0], d[1, 0] - d[0, 1]])
    return math.asin(min(1.0, np.linalg.norm(axial)))


def state(run):
    rows = np.array(run.rows('mov', TOP))
    return rows, euler123(rows[-1, 4:7]), rows[-1, 10:13]


ref = Run(exe, deck, work, 'ref', {'DT': 1e-5}, extra=('--analysis', 'reduced-dynamics'))
ref2 = Run(exe, deck, work, 'ref2', {'DT': 2e-5}, extra=('--analysis', 'reduced-dynamics'))
_, R_ref, w_ref = state(ref)
_, R_ref2, w_ref2 = state(ref2)
close('reference: orientation, DT 1e-5 vs 2e-5 at t = 0.1 s [rad]', angle(R_ref, R_ref2), 0, 5e-14)
close('reference: angular velocity, DT 1e-5 vs 2e-5 [rad/s]', np.abs(w_ref - w_ref2).max(), 0, 1e-12)

errors = {}
for dt in (1e-4, 5e-5):
    run = Run(exe, deck, work, f'dae_{dt:g}', {'DT': dt}, quiet=False)
    rows, R, w = state(run)
    tag = f'DT {dt:g}'
    expect(f'{tag}: no derivatives-phase warning', 'derivatives phase' not in run.stderr,
           run.stderr[:600])
    close(f'{tag}: orientation at t = 0 [deg]', np.abs(rows[0, 4:7] - [math.degrees(TH0), 0, 0]).max(), 0, 1e-14)
    w0 = [0.0, -S * math.sin(TH0), S * math.cos(TH0) + P]
    close(f'{tag}: angular velocity at t = 0 [rad/s]', np.abs(rows[0, 10:13] - w0).max(), 0, 1e-14)
    errors[dt] = (angle(R, R_ref), np.abs(w - w_ref).max())
    spin = [r[10:13] @ euler123(r[4:7])[:, 2] for r in rows]
    errors[dt] += (max(spin) - min(spin),)
    if dt == 1e-4:
        # The angular momentum about z through the fixed point.
        Lz = [(euler123(r[4:7]) @ np.diag([JT + M * L * L, JT + M * L * L, JA]) @
               euler123(r[4:7]).T @ r[10:13])[2] for r in rows]
        close('DT 1e-4: drift of the angular momentum about z [kg m^2/s]', max(Lz) - min(Lz), 0, 1e-12)
ref_rows = np.array(ref.rows('mov', TOP))
ref_spin = [r[10:13] @ euler123(r[4:7])[:, 2] for r in ref_rows]
close('reference: drift of the axial spin [rad/s]', max(ref_spin) - min(ref_spin), 0, 2e-12)
close('DT 1e-4: drift of the axial spin [rad/s]', errors[1e-4][2], 0, 1e-6)
close('axial spin drift ratio DT 1e-4 : 5e-5', errors[1e-4][2] / errors[5e-5][2], 4.0, 0.01)
close('DT 1e-4 vs reference at t = 0.1 s: orientation [rad]', errors[1e-4][0], 0, 1.5e-5)
close('DT 1e-4 vs reference at t = 0.1 s: angular velocity [rad/s]', errors[1e-4][1], 0, 1e-5)
close('orientation error ratio DT 1e-4 : 5e-5 (second order)', errors[1e-4][0] / errors[5e-5][0], 4.0, 0.01)
close('angular velocity error ratio DT 1e-4 : 5e-5', errors[1e-4][1] / errors[5e-5][1], 4.0, 0.01)
finish()
