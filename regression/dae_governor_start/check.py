"""A centrifugal governor started spinning off its steady state (input-examples/dae_governor.mbd,
issue 23): a consistent start without moving the deck's positions.

The derivatives phase replaces the constraint rows by their acceleration-level form
(solvers/dae/constraint_rows.cpp) and iterates until that form is met to the derivatives
tolerance. Its violation cannot go below the round-off of the velocities divided by dCoef
(about 1.5e-8 .. 4e-8 here, w = 5 rad/s, dCoef = 1e-6): with `derivatives tolerance: 1e-10`
the phase used to fall back on MBDyn's update, moving the arms by 2.4e-5 and leaving the sleeve
6.5e-7 m off the reference at t = 0.1 s whatever the step (1e-4, 5e-5, 2.5e-5). It now accepts
that floor (AccelerationConstraints::floor()). Checked:
 - the DAE run prints no derivatives-phase warning, and its first output step holds the deck's
   state: sleeve height ZS (closed form) and the arm velocity W E, exactly as printed (0);
 - reference: the relative-coordinate model of the same deck (--analysis reduced-dynamics: RK4
   on the one joint coordinate, the loops closed by Newton to 1e-12) at DT = 1e-5; its own
   error, against DT = 2e-5: observed 2.2e-16 m (sleeve), tol 2e-15;
 - DAE at DT = 1e-4 against it at t = 0.1 s: sleeve height 1.237e-8 m (tol 2.5e-8), arm
   orientation 1.0e-7 rad (tol 2e-7); this is the two-step method's own error: at DT = 5e-5
   both fall by 3.9997 (second order: tol 4 +- 3e-3; an error of the start does not fall);
 - MBDyn 1.7.3 on the same deck (derivatives tolerance 1e-6, which it meets; it fails at 1e-10),
   every 100th step: sleeve height 7.5e-11 m (tol 3e-10), arm orientation 5.3e-10 rad (tol 2e-9).
"""
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
from mbs_check import EXAMPLES, Run, close, euler123, expect, finish  # noqa: E402
from mbdyn_ref import read_reference  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
deck = os.path.join(EXAMPLES, 'dae_governor.mbd')
W, TH0, H, E, LB, LL = 5.0, 0.5, 1.0, 0.05, 0.25, 0.25
ZS = H - LB * math.cos(TH0) - math.sqrt(LL ** 2 - (LB * math.sin(TH0)) ** 2)
ARM, SLEEVE = 3, 5


def rotation(rows):
    return np.array([euler123(r[4:7]) for r in rows])


def angle(Ra, Rb):
    """Largest rotation angle between matching orientation matrices (small angles: from the
    skew part of Ra^T Rb, |axial| = sin angle, accurate where acos of the trace is not)."""
    worst = 0.0
    for a, b in zip(Ra, Rb):
        d = a.T @ b
        axial = 0.5 * np.array([d[2, 1] - d[1, 2], d[0, 2] - d[2, 0], d[1, 0] - d[0, 1]])
        worst = max(worst, math.asin(min(1.0, np.linalg.norm(axial))))
    return worst


ref = Run(exe, deck, work, 'ref', {'DT': 1e-5}, extra=('--analysis', 'reduced-dynamics'))
ref2 = Run(exe, deck, work, 'ref2', {'DT': 2e-5}, extra=('--analysis', 'reduced-dynamics'))
rs, ra = np.array(ref.rows('mov', SLEEVE)), np.array(ref.rows('mov', ARM))
close('reference: sleeve height, DT 1e-5 vs 2e-5 at t = 0.1 s [m]',
      abs(rs[-1, 3] - ref2.rows('mov', SLEEVE)[-1][3]), 0, 2e-15)

errors = {}
for dt in (1e-4, 5e-5):
    run = Run(exe, deck, work, f'dae_{dt:g}', {'DT': dt}, quiet=False)
    s, a = np.array(run.rows('mov', SLEEVE)), np.array(run.rows('mov', ARM))
    tag = f'DT {dt:g}'
    expect(f'{tag}: no derivatives-phase warning', 'derivatives phase' not in run.stderr,
           run.stderr[:600])
    close(f'{tag}: sleeve height at t = 0 = ZS [m]', s[0, 3], ZS, 0)
    close(f'{tag}: arm velocity at t = 0 = W E [m/s]', a[0, 8], W * E, 0)
    errors[dt] = (abs(s[-1, 3] - rs[-1, 3]), angle(rotation(a[-1:]), rotation(ra[-1:])))
close('DT 1e-4 vs reference at t = 0.1 s: sleeve height [m]', errors[1e-4][0], 0, 2.5e-8)
close('DT 1e-4 vs reference at t = 0.1 s: arm orientation [rad]', errors[1e-4][1], 0, 2e-7)
close('sleeve error ratio DT 1e-4 : 5e-5 (second order)', errors[1e-4][0] / errors[5e-5][0], 4.0, 3e-3)
close('arm error ratio DT 1e-4 : 5e-5 (second order)', errors[1e-4][1] / errors[5e-5][1], 4.0, 3e-3)

md = read_reference(os.path.join(HERE, 'mbdyn_reference.txt'))
run = Run(exe, deck, work, 'dae')
s, a = np.array(run.rows('mov', SLEEVE)), np.array(run.rows('mov', ARM))
steps = md[('mov', SLEEVE)][:, 0].astype(int)
close('MBDyn samples', len(steps), 11, 0)
close('vs MBDyn: sleeve height [m]', np.abs(s[steps, 3] - md[('mov', SLEEVE)][:, 3]).max(), 0, 3e-10)
close('vs MBDyn: arm orientation [rad]',
      angle(rotation(a[steps]), rotation(md[('mov', ARM)])), 0, 2e-9)
finish()
