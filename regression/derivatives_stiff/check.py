"""Derivatives phase of a stiff model (the benchmark deck cantilever_100, 20 steps).

With y fixed, the derivatives phase iterates with dr/dy' + dCoef dr/dy, which is not the
residual's derivative: it converges linearly with a rate of about dCoef^2 lambda_max(K)/m, here
~1.6 at the default dCoef = 1e-6, so it diverges (mbsolve used to stop with "derivatives phase
did not converge"; MBDyn runs the deck). mbsolve then repeats the phase with MBDyn's update
(y += dCoef dy', the matrix is then exact) and says so in a warning that gives how far the
initial state moved.

Checks:
1. the default run (dCoef 1e-6) completes, with the warning; the deck with DCOEF = 1e-9 (rate
   ~1.6e-6: the fixed-y phase converges) completes without it;
2. independent reference: the 1e-9 run, whose initial state is the deck's. The two tip
   histories differ by the O(dCoef) change of the initial momenta that MBDyn's update makes
   (the warning prints 8.1e-6 N s at the tip node, mass 0.005 kg: a velocity kick below
   1.6e-3 m/s, whose displacement over 0.02 s is below 3.2e-5 m). Tolerance 1e-5 m (the
   deflection is 5.2e-3 m); observed 4.1e-7 m.
Tolerances (issue 23): each close() below is within 2-10x of the error observed when it was
set (Release build), stated in the comment beside it (a floor of a few ulps or 1e-15 where
the observed error is 0 or far below round-off); where a figure above is larger, it is the
bound the physics or the solver tolerance allows, not the tolerance checked.
"""
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import close, finish  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
exe, work = sys.argv[1], sys.argv[2]
deck = os.path.join(HERE, 'cantilever_stiff.mbd')


def run(prefix, *extra):
    cmd = [exe, '-f', deck, '-o', os.path.join(work, prefix), *extra]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f'{" ".join(cmd)}\nexit {p.returncode}\n{p.stdout}{p.stderr}')
    return p.stdout + p.stderr


def tip(prefix):
    m = np.loadtxt(os.path.join(work, prefix + '.mov'))
    return m[m[:, 0] == 200][:, 1:4]


out_default = run('default')
out_small = run('small', '-D', 'DCOEF=1e-9')
close('default dCoef: warning about MBDyn\'s update', 0 if "converged only with MBDyn's update" in out_default else 1, 0, 0)
close('dCoef 1e-9: no such warning (fixed-y phase converged)', 0 if "MBDyn's update" not in out_small else 1, 0, 0)
a, b = tip('default'), tip('small')
close('output steps', len(a), 21, 0)
deflection = float(np.abs(b[:, 1]).max())
close('tip deflection of the reference run is not small [m]', 0 if deflection > 1e-3 else 1, 0, 0)
close('tip position, default vs dCoef 1e-9 run [m]', float(np.abs(a - b).max()), 0.0, 2e-6)  # observed 4.1e-7
finish()
