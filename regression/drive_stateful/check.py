"""Drive callers with memory between steps, run inside the engine
(input-examples/stateful_drives.mbd, fixed step dt = 0.01 s, 2000 steps), each column of the
.frc recomputed from its formula (docs/deck-language.md 7; semantics in
elements/drives/stateful_drives.cpp):
  sample and hold of sin(2 pi t) every 10 steps: sin(2 pi t_s), t_s = 0.1 floor(k / 10)  1e-13
  discrete filter y_k = 0.9 y_(k-1) + 0.1: y_k = 1 - 0.9^(k+1)                          1e-13
  closest next, increment 0.025: 1 exactly at the first step at or after each multiple    exact
    (MBDyn's state machine replayed on the printed step times; 801 marks in 20 s)
  frequency sweep: sin(2 pi (1 + t) t)                                                   1e-12
  postponed references (drive callers defined after their use): (1 + 2 t)(1 - cos(pi t))  1e-12
  random (A = 2, mean 0.5): within [-1.5, 2.5]; mean 0.5 and variance 4/3 over the 2001
    samples to 4 sigma (sigma_mean = A / sqrt(3 N), sigma_var = A^2 sqrt(4/45 / N)); held 5
    steps for the `steps, 5` column (and 401 samples for its statistics); the same seed gives
    the same sequence in a second run, another seed a different one.
Tolerances (issue 23): each close() below is within 2-10x of the error observed when it was
set (Release build), stated in the comment beside it (a floor of a few ulps or 1e-15 where
the observed error is 0 or far below round-off); where a figure above is larger, it is the
bound the physics or the solver tolerance allows, not the tolerance checked.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
deck = os.path.join(EXAMPLES, 'stateful_drives.mbd')
r = Run(exe, deck, work, 'stateful')
t = r.times()
k = np.arange(len(t))
close('output steps (0 .. 2000)', len(t), 2001, 0)
f1, f2 = r.rows('frc', 1), r.rows('frc', 2)
close('postponed: max |F3x - (1 + 2 t)(1 - cos(pi t))|',
      np.abs(r.rows('frc', 3)[:, 2] - (1 + 2 * t) * (1 - np.cos(np.pi * t))).max(), 0.0, 1.5e-13)  # observed 2.8e-14

sh = np.sin(2 * np.pi * 0.1 * (k // 10))
close('sample and hold: max error', np.abs(f1[:, 3] - sh).max(), 0.0, 1e-13)
close('discrete filter: max error', np.abs(f1[:, 4] - (1 - 0.9 ** (k + 1))).max(), 0.0, 3e-15)  # observed 5.6e-16
# The schedule 0, 0.025, 0.05, ... meets the step times exactly every 5 steps: which side of
# a tie the accumulated sums fall is decided by round-off, so the reference replays MBDyn's
# state machine (MyClosestNext::Set at each new step, then time >= next) in the same double
# arithmetic, on the step times the .out file prints (20 digits: the exact doubles).
first, nxt, must = [], 0.0, False
for tk in t:
    if must:
        while True:
            nxt += 0.025
            if not tk >= nxt:
                break
        must = False
    elif tk >= nxt:
        must = True
    first.append(tk >= nxt)
first = np.array(first)
close('closest next: steps that differ from the schedule', float(np.sum(f2[:, 2] != first)), 0.0, 0)
close('closest next: number of marked steps (one per 0.025 s)', float(f2[:, 2].sum()), 801.0, 0)
close('frequency sweep: max error', np.abs(f2[:, 3] - np.sin(2 * np.pi * (1 + t) * t)).max(), 0.0,
      1e-12)

A, M = 2.0, 0.5
for name, x in (('random (every step)', f1[:, 2]), ('random (held 5 steps)', f2[::5, 4])):
    n = len(x)
    close(f'{name}: min >= mean - A', float(x.min() >= M - A), 1.0, 0)
    close(f'{name}: max < mean + A', float(x.max() < M + A), 1.0, 0)
    close(f'{name}: mean over {n} samples', x.mean(), M, 4 * A / np.sqrt(3 * n))
    close(f'{name}: variance', x.var(), A * A / 3, 4 * A * A * np.sqrt(4 / 45 / n))
held = f2[:, 4].reshape(-1)[:2000].reshape(-1, 5)
close('random (held 5 steps): constant within each block of 5 steps',
      np.abs(held - held[:, :1]).max(), 0.0, 0)
again = Run(exe, deck, work, 'stateful_again')
close('same seed: same sequence', np.abs(again.rows('frc', 1)[:, 2] - f1[:, 2]).max(), 0.0, 0)
other = Run(exe, deck, work, 'stateful_seed', {'SEED': 11})
close('another seed: a different sequence (steps that coincide)',
      float(np.sum(other.rows('frc', 1)[:, 2] == f1[:, 2])), 0.0, 0)
finish()
