"""Absolute DAE on Bricard's orthogonal 6R linkage (input-examples/reduced_bricard.mbd): a moving
mechanism with one redundant constraint equation at every configuration (Grubler count 0,
mobility 1).

Before: the iteration matrix's dependent row left a round-off pivot that KLU did not call
singular, so the redundancy check never ran and Newton stopped in the first steps (t = 0.002 s,
residual 2e-9 > 1e-9). Now a pivot-ratio estimate below 1e-13 also triggers the check
(solvers/dae/simulation.cpp, newton()), which drops one equation of joint 6 (axis 2
orthogonality) with the redundancy warning.

Reference (independent of the DAE): the relative-coordinate path, `mbsolve --analysis
reduced-dynamics` (tree of five hinges, cut at joint 6, one redundant cut equation dropped; RK4
at DT = 1e-3 s; it differs from DT = 5e-4 by 3.5e-10 m: tolerance 1e-9 m).

Checks (Newton tolerance 1e-9, ms 0.6 as in the deck, t = 1 s):
 - the warning names joint 6 and one dependent equation; every run reaches t = 1 s;
 - node positions (nodes 2-6) against the reduced path: dt = 1e-3 -> 9.1e-6 m, dt = 5e-4 ->
   2.3e-6 m (tolerances 1.2e-5 / 3e-6): second order, ratio 3.9997 (tolerance 4 +- 1e-3);
 - the linkage moves: node 4 travels more than 0.5 m.
"""
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, failures, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
deck = os.path.join(EXAMPLES, 'reduced_bricard.mbd')


def expect(what, cond):
    print(f"{'ok  ' if cond else 'FAIL'} {what}")
    if not cond:
        failures.append(what)


def last_positions(prefix):
    """Last row of every node in prefix.mov: label -> (x, y, z)."""
    d = {}
    for line in open(prefix + '.mov'):
        w = line.split()
        if w and not w[0].startswith('#'):
            d[int(w[0])] = np.array([float(v) for v in w[1:4]])
    return d


def reduced(dt):
    prefix = os.path.join(work, f'reduced_{dt:g}')
    p = subprocess.run([exe, '--quiet', '--analysis', 'reduced-dynamics', '-f', deck, '-o', prefix,
                        '-D', f'DT={dt}'], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit('reduced-dynamics run failed: ' + p.stdout + p.stderr)
    return last_positions(prefix)


ref = reduced(1e-3)
ref2 = reduced(5e-4)
close('reduced path: positions at t = 1 s, DT 1e-3 vs 5e-4 [m]',
      max(np.abs(ref[k] - ref2[k]).max() for k in range(2, 7)), 0.0, 1e-9)  # observed 3.5e-10
expect('node 4 moved more than 0.5 m', np.linalg.norm(ref[4] - np.array([1.0, 1.0, 1.0])) > 0.5)

errs = []
for dt, tol in ((1e-3, 1.2e-5), (5e-4, 3e-6)):
    r = Run(exe, deck, work, f'dae_{dt:g}', {'DT': dt})
    expect(f'dt {dt:g}: warning names joint 6 and one dependent equation',
           'redundant constraints: 1 of' in r.stderr and 'joint 6 (revolute hinge): axis 2 orthogonality;' in r.stderr)
    close(f'dt {dt:g}: final time [s]', r.times()[-1], 1.0, 1e-9)
    d = last_positions(r.prefix)
    e = max(np.abs(d[k] - ref[k]).max() for k in range(2, 7))
    close(f'dt {dt:g}: max |x(DAE) - x(reduced)| at t = 1 s, nodes 2-6 [m]', e, 0.0, tol)
    errs.append(e)
close('error ratio dt 1e-3 / 5e-4 (second order: 4)', errs[0] / errs[1], 4.0,
      1e-3)  # observed 3.9997
finish()
