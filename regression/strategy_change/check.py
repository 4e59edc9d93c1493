"""`strategy: change` (the time step from a drive caller, MBDyn's ChangeStep) on the pendulum of
input-examples/strategy_change.mbd: 1 ms to t = 0.5 s, a ramp to 4 ms at t = 1 s, clamped by
the max time step 3 ms; min time step 0.5 ms.

Checks:
- the step sequence (the .out, column 3, output precision 17): steps 1 and 2 are the time step;
  step n + 1 is max(min(drive(t_n), 3e-3), 5e-4) at the time t_n of step n, exactly (the drive
  written out here with the formula of elements/drives/basic_drives.cpp); the last step lands on
  the final time 2 s;
- MBDyn (1.7.3, /work/mbdyn/bin/mbdyn, mbdyn_reference.txt written by mbdyn_reference.py): the
  same 1073 steps; step sizes at the sampled steps after step 0 (4.3e-18 s, tolerance 2e-17;
  at step 0 MBDyn's .out writes 0, mbsolve the time step), times 3.5e-14 s (2e-13: MBDyn adds
  the steps up, mbsolve counts steps of a constant size from where it changed), positions and
  velocities of the mass 4.4e-9 m, 6.9e-7 m/s (tolerances 3e-8, 1e-6);
- the motion: the energy 1/2 m v^2 + m g y (0 at release), 5.0e-4 J (tolerance 2e-3, MBDyn's
  the same); the position at t = 0.5 s against the exact solution (docs/references.md, section
  1), 5.2e-6 m (3e-5);
- the card's limits, as MBDyn: a time step below the min time step is an input error (exit 2)
  at the time step; a drive <= 0 gives the min time step; without a min time step the run stops
  (exit 3) where MBDyn goes on backwards in time.
"""
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, failures, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))
deck = os.path.join(EXAMPLES, 'strategy_change.mbd')
DT0, DTMIN, DTMAX, TF, G = 1e-3, 5e-4, 3e-3, 2.0, 9.81


def drive(t):
    """The deck's piecewise linear drive: (0, 1e-3), (0.5, 1e-3), (1, 4e-3), held outside."""
    if t <= 0.5:
        return 1e-3
    if t >= 1.0:
        return 4e-3
    return 1e-3 + (4e-3 - 1e-3) / (1.0 - 0.5) * (t - 0.5)


def steps(prefix):
    """(step, time, dt) of each Step line of the .out."""
    out = []
    with open(prefix + '.out') as f:
        for line in f:
            w = line.split()
            if w and w[0] == 'Step':
                out.append((int(w[1]), float(w[2]), float(w[3])))
    return out


r = Run(exe, deck, work, 'strategy_change')
s = steps(r.prefix)
mov = r.rows('mov', 2)
close('number of steps (MBDyn: 1073)', len(s) - 1, 1073, 0)
close('step 1 size', s[1][2], DT0, 0)
close('step 2 size (no new step after the first, as MBDyn)', s[2][2], DT0, 0)
bad = [n for n in range(2, len(s) - 2) if s[n + 1][2] != max(min(drive(s[n][1]), DTMAX), DTMIN)]
close('steps 3..last-1 that are not the clamped drive at the time reached', len(bad), 0, 0)
close('last step ends at the final time', s[-1][1], TF, 1e-15)

# MBDyn's run
ref_out, ref_mov = {}, {}
for line in open(os.path.join(here, 'mbdyn_reference.txt')):
    if line.startswith('#'):
        continue
    w = line.split()
    k = int(w[0])
    if w[1] == 'out':
        ref_out[k] = (float(w[4]), float(w[5]))
    else:
        ref_mov[k] = np.array([float(v) for v in w[3:]])
last = max(ref_out)  # MBDyn's last step ends after the final time, mbsolve's on it
# Step 0 (the derivatives phase): MBDyn's .out writes the step 0 there, mbsolve the time step.
dts = [abs(s[k][2] - ref_out[k][1]) for k in ref_out if k not in (0, last)]
ts = [abs(s[k][1] - ref_out[k][0]) for k in ref_out if k != last]
dx = [np.abs(mov[k, 1:4] - ref_mov[k][0:3]).max() for k in ref_mov if k != last]
dv = [np.abs(mov[k, 7:10] - ref_mov[k][6:9]).max() for k in ref_mov if k != last]
close('max |dt - MBDyn| at the sampled steps [s]', max(dts), 0.0, 2e-17)
close('max |t - MBDyn| at the sampled steps [s]', max(ts), 0.0, 2e-13)
close('max |x - MBDyn| of the mass [m]', max(dx), 0.0, 3e-8)
close('max |v - MBDyn| of the mass [m/s]', max(dv), 0.0, 1e-6)

E = 0.5 * (mov[:, 7] ** 2 + mov[:, 8] ** 2) + G * mov[:, 2]
close('max |energy| [J] (0 at release)', np.abs(E).max(), 0.0, 2e-3)
close('x(t = 0.5) - exact [m]', mov[500, 1], 0.391048791550546, 3e-5)
close('y(t = 0.5) - exact [m]', mov[500, 2], -0.920369948785192, 3e-5)

# The card's limits, on variants of the deck.
text = open(deck).read()


def variant(name, old, new, rc, define=None):
    assert old in text, old
    path = os.path.join(work, name + '.mbd')
    with open(path, 'w') as f:
        f.write(text.replace(old, new))
    return Run(exe, path, work, name, define, expect_rc=rc)


v = variant('below_min', 'min time step: 5.e-4;', 'min time step: 2.e-3;', 2)
line = next(i for i, l in enumerate(text.split('\n'), 1) if l.strip().startswith('time step:'))
want = f'below_min.mbd:{line}:'
ok = want in v.stderr and 'is less than the min time step 0.002' in v.stderr
print(f"{'ok  ' if ok else 'FAIL'} time step below the min time step: exit 2 at {want}")
if not ok:
    print(v.stderr)
    failures.append('below_min')

drive_card = text[text.index('drive caller: STEP_DRIVE'):]
drive_card = drive_card[:drive_card.index(';') + 1]
v = variant('negative', drive_card, 'drive caller: STEP_DRIVE, const, -1.e-3;', 0, {'TF': 0.01})
sv = steps(v.prefix)
close('negative drive: steps (1e-3, 1e-3, then 16 of the min time step)', len(sv) - 1, 18, 0)
close('negative drive: max |dt - 5e-4| after step 2', max(abs(x[2] - DTMIN) for x in sv[3:]), 0, 0)

neg = text.replace(drive_card, 'drive caller: STEP_DRIVE, const, -1.e-3;')
path = os.path.join(work, 'no_min.mbd')
with open(path, 'w') as f:
    f.write(neg.replace('min time step: 5.e-4;', ''))
v = Run(exe, path, work, 'no_min', {'TF': 0.01}, expect_rc=3)
ok = re.search(r"'strategy: change': the drive gives the time step -0.001 at t = 0.002", v.stderr)
print(f"{'ok  ' if ok else 'FAIL'} negative drive without a min time step: exit 3, message")
if not ok:
    print(v.stderr)
    failures.append('no_min')
finish()
