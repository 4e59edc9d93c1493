"""Sample-and-hold parameter nodes (input-examples/parameter_sample_hold.mbd): the .frc columns
of force 1 are the held values of parameter nodes 10 (x of node 1, T = 0.035 s) and 11 (abstract
node 3, T = 0.05 s), printed at every step (dt = 0.01 s).

References:
 - sample instants: the first converged step at or after each next instant, t_next = t_sample + T
   advanced by T until past the step (the deck's rule), replayed here on the printed step times;
   the expected instants for T = 0.035 start 0, 0.04, 0.07, 0.11, 0.14, 0.18 (written out below);
 - held value of node 10 = X0 + V t_sample (free mass at constant speed: exact, 1e-12 m) and
   = the .mov x of node 1 at the sample step (1e-15);
 - held value of node 11 = the .abs value of node 3 at the sample step (1e-15), and
   sin(5 t_sample)/5 (x3' = cos 5t; 1e-4: the integrator's error at dt = 0.01, measured 5.0e-5);
 - a non-positive sample period is an input error (exit 2, at the number).
Tolerances (issue 23): each close() below is within 2-10x of the error observed when it was
set (Release build), stated in the comment beside it (a floor of a few ulps or 1e-15 where
the observed error is 0 or far below round-off); where a figure above is larger, it is the
bound the physics or the solver tolerance allows, not the tolerance checked.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, failures, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
deck = os.path.join(EXAMPLES, 'parameter_sample_hold.mbd')
X0, V = 0.5, 2.0
r = Run(exe, deck, work, 'psh')
t = r.times()
f = r.rows('frc', 1)
x1 = r.rows('mov', 1)[:, 1]
x3 = r.rows('abs', 3)[:, 1]
close('output steps', len(t), 101, 0)


def sample_steps(T):
    """Index of the held sample at each step."""
    out, nxt, held = [], None, 0
    for k, tk in enumerate(t):
        if nxt is None or tk >= nxt - 1e-9 * T:
            held = k
            nxt = tk if nxt is None else nxt
            while nxt <= tk + 1e-9 * T:
                nxt += T
        out.append(held)
    return np.array(out)


s10, s11 = sample_steps(0.035), sample_steps(0.05)
first = sorted(set(np.round(t[s10], 10)))[:6]
close('T = 0.035: first sample instants 0, 0.04, 0.07, 0.11, 0.14, 0.18',
      np.abs(np.array(first) - [0., 0.04, 0.07, 0.11, 0.14, 0.18]).max(), 0.0, 1e-12)
close('node 10: held x = X0 + V t_sample [m]', np.abs(f[:, 2] - (X0 + V * t[s10])).max(), 0.0, 4e-14)  # observed 8.9e-15
close('node 10: held x = .mov x at the sample step [m]', np.abs(f[:, 2] - x1[s10]).max(), 0.0, 1e-15)
close('node 11: held x3 = .abs x3 at the sample step', np.abs(f[:, 3] - x3[s11]).max(), 0.0, 1e-15)
close('node 11: held x3 vs sin(5 t_sample)/5', np.abs(f[:, 3] - np.sin(5 * t[s11]) / 5).max(), 0.0, 1e-4)
changes = int((np.diff(f[:, 2]) != 0).sum())
close('node 10: number of value changes over 1 s (samples after t0: 28)', changes, 28, 0)

bad = os.path.join(work, 'bad_period.mbd')
with open(deck) as src, open(bad, 'w') as out:
    out.write(src.read().replace('set: const real T = 0.035;', 'set: const real T = 0.;'))
b = Run(exe, bad, work, 'bad_period', expect_rc=2)
ok = 'error: the sample period must be positive' in b.stderr and 'bad_period.mbd:' in b.stderr
print(f"{'ok  ' if ok else 'FAIL'} sample period 0: exit 2 with a located message")
if not ok:
    print(b.stderr)
    failures.append('bad period')
finish()
