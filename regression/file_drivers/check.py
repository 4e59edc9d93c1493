"""File drivers (input-examples/file_drivers.mbd, fixed step dt = 0.01 s from 0 to 3 s; the data
files file_drivers_fixed.dat and file_drivers_variable.dat beside it; semantics in
core/file_driver.hpp):
  each probe force column against the samples read from the data files, on the step times the
  .out file prints (the exact doubles):
    linear (fixed and variable step): the samples' piecewise linear interpolation (np.interp),
      which is sin t_j at the sample times, and within h^2/8 of sin t in between   1e-15 .. 1e-14
    const: the sample at or before t; outside the file: 0 (pad zeros) or the first / last
      sample (pad zeros, no)                                      exact (2e-16: 16 printed digits)
  the mass (M = 2 kg, pushed by the variable-step sin samples): x and v against the exact double
    integral of the piecewise linear force                       1e-3 m (the O(dt) error at jumps)
  MBDyn 1.7.3's run of the same deck (mbdyn_reference.txt, every 3rd step): forces (off the
    fixed-step sample times, where the two programs' step times fall on either side) and motion
  bad input: a bad number in the data file, a missing file, socket drivers, bailout, an undefined
    driver or column, more drivers than declared: exit 2 at the file:line:col
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
HERE = os.path.dirname(os.path.abspath(__file__))
deck = os.path.join(EXAMPLES, 'file_drivers.mbd')


def samples(name):
    with open(os.path.join(EXAMPLES, name)) as f:
        return np.array([[float(v) for v in line.split()] for line in f
                         if line.strip() and not line.startswith('#')])


fixed = samples('file_drivers_fixed.dat')        # sin t, cos t at t = 0.1 + 0.05 j
var = samples('file_drivers_variable.dat')       # t_j, sin t_j, t_j^2
T0, DT, N = 0.1, 0.05, len(fixed)
TF = T0 + DT * np.arange(N)
TV = var[:, 0]
close('fixed-step samples are sin and cos of t0 + j dt: max error',
      np.abs(fixed - np.column_stack([np.sin(TF), np.cos(TF)])).max(), 0.0, 1e-15)  # 3.3e-16: ulps


# MBDyn's rules (fixedstep.cc, varstep.cc), in the same double arithmetic as the run.
def fixed_ref(t, col, linear=True, pad=True):
    tt = t - T0
    if tt < 0:
        return 0.0 if pad else fixed[0, col]
    if tt > DT * (N - 1):
        return 0.0 if pad else fixed[-1, col]
    if linear:
        return float(np.interp(t, TF, fixed[:, col]))
    return fixed[min(N - 1, math.floor(tt / DT)), col]


def var_ref(t, col, linear=True, pad=True):
    if t <= TV[0]:
        return 0.0 if pad else var[0, col]
    if t >= TV[-1]:
        return 0.0 if pad else var[-1, col]
    if linear:
        return float(np.interp(t, TV, var[:, col]))
    return var[np.searchsorted(TV, t, side='right') - 1, col]


r = Run(exe, deck, work, 'fd')
t = r.times()
close('output steps (0 .. 300)', len(t), 301, 0)
f1, f2 = r.rows('frc', 1), r.rows('frc', 2)
cols = {
    'file 1 (fixed, linear, pad zeros) = F1x': (f1[:, 2], lambda s: fixed_ref(s, 0), 1e-14),
    'file 2 (variable, linear, pad zeros) = F1y': (f1[:, 3], lambda s: var_ref(s, 1), 1e-15),
    'file 3 (fixed, const, pad zeros no) = F1z':
        (f1[:, 4], lambda s: fixed_ref(s, 0, False, False), 2e-16),
    'file 4 (variable, const, pad zeros no) = F2x':
        (f2[:, 2], lambda s: var_ref(s, 1, False, False), 2e-16),
    'file 1 channel 2, amplitude 2 = F2y': (f2[:, 3], lambda s: 2 * fixed_ref(s, 1), 1e-14),
    'file 2 channel 2 = F2z': (f2[:, 4], lambda s: var_ref(s, 2), 8e-15),
}
# Observed: const columns 5.6e-17 (the samples themselves, printed with 16 digits); variable-step
# linear 1.1e-16 (sin) and 8.9e-16 (t^2); fixed-step linear 3.3e-15 and 3.6e-15 (x 2): MBDyn's
# weights (t2 - t)/dt and (t - t1)/dt, with t1 = t0 + j dt, are each off by up to ulp(t)/dt
# (4.4e-15 at t = 2) where np.interp's are not.
for name, (got, ref, tol) in cols.items():
    close(name + ': max error', np.abs(got - np.array([ref(s) for s in t])).max(), 0.0, tol)
# The sample times that fall on step times (every 5th step from t = 0.1): sin t_j itself, and the
# interpolation stays within the linear-interpolation bound h^2/8 max|sin''| of sin t inside.
on = [k for k in range(len(t)) if 0.1 < t[k] < 2.1 and abs((t[k] - T0) / DT - round((t[k] - T0) / DT)) < 1e-9]
close('F1x at the sample times: max |F - sin t|',  # observed 3.3e-15 (the weights, above)
      max(abs(f1[k, 2] - math.sin(t[k])) for k in on), 0.0, 1e-14)
inside = (t > 0.1) & (t < 2.1)
close('F1x inside the file: max |F - sin t| <= dt^2/8', np.abs(f1[inside, 2] - np.sin(t[inside])).max(),
      0.0, DT ** 2 / 8)
close('padding: F1x before 0.1 s and after 2.1 s', np.abs(f1[~((t >= 0.1) & (t <= 2.1)), 2]).max(),
      0.0, 0)
close('padding: F1y before t_0 and after t_9', np.abs(f1[(t <= TV[0]) | (t >= TV[-1]), 3]).max(),
      0.0, 0)


# The mass: x'' = F / M, F = 0 for t <= t_0 and t >= t_9, linear between the samples; exact
# double integral, piece by piece from rest.
def exact_motion(ts, M=2.0):
    out = []
    for s in ts:
        x = v = 0.0
        for j in range(len(TV) - 1):
            if s <= TV[j]:
                break
            tau = min(s, TV[j + 1]) - TV[j]
            f0, slope = var[j, 1], (var[j + 1, 1] - var[j, 1]) / (TV[j + 1] - TV[j])
            x += v * tau + (f0 * tau ** 2 / 2 + slope * tau ** 3 / 6) / M
            v += (f0 * tau + slope * tau ** 2 / 2) / M
        if s > TV[-1]:
            x += v * (s - TV[-1])
        out.append((x, v))
    return np.array(out)


mass = r.rows('mov', 2)
ex = exact_motion(t)
# Observed with ms 0.6, dt 0.01: 3.3e-4 m in x (of 1.36 m) and 6.7e-4 m/s in v (of 0.88 m/s),
# the O(dt) error of the force's jumps at t_0 (0 -> 0.2 N) and t_9 (0.6 N -> 0), which fall inside
# steps (MBDyn's run of the deck has the same errors).
close('mass x vs exact double integral: max error', np.abs(mass[:, 1] - ex[:, 0]).max(), 0.0, 1e-3)
close('mass v vs exact integral: max error', np.abs(mass[:, 7] - ex[:, 1]).max(), 0.0, 3e-3)

# MBDyn's run of the same deck.
ref = np.loadtxt(os.path.join(HERE, 'mbdyn_reference.txt'))
idx = np.arange(0, len(t), 3)
# MBDyn accumulates t += h: its times drift from k h by up to 2e-14 (observed).
close('MBDyn: same step times (every 3rd)', np.abs(t[idx] - ref[:, 0]).max(), 0.0, 1e-13)
ours = np.column_stack([f1[idx, 2:5], f2[idx, 2:5], mass[idx, 1], mass[idx, 7]])
# MBDyn accumulates its step times (t = 0.09999999999999999 at step 10), mbsolve computes
# t0 + k h (0.1): at the steps that fall on a fixed-step sample time the two land on either side
# of it, where the const column and the padding jump; those steps are left out (a sample time
# every 5 steps, so 14 of the 101 kept steps: 0.15, 0.3, ..., 2.1). The variable-step times are no step
# times, so the mass sees the same force in both.
tie = (np.abs((ref[:, 0] - T0) / DT - np.round((ref[:, 0] - T0) / DT)) < 1e-6) & \
    (ref[:, 0] > T0 - 1e-6) & (ref[:, 0] < T0 + (N - 1) * DT + 1e-6)
off = ~tie
close('MBDyn: steps compared off the sample times', int(off.sum()), 87, 0)
# Observed 4.4e-14: the 2e-14 time drift times the slopes (up to 5 for t^2); motion: x 1.5e-14,
# v 1.1e-12.
close('MBDyn: probe forces, max difference', np.abs(ours[off, :6] - ref[off, 1:7]).max(), 0.0,
      2e-13)
close('MBDyn: mass x, max difference', np.abs(ours[:, 6] - ref[:, 7]).max(), 0.0, 1e-13)
close('MBDyn: mass v, max difference', np.abs(ours[:, 7] - ref[:, 8]).max(), 0.0, 1e-11)

# Bad input, each refused at its location with exit status 2.
BAD_DATA = '# initial time: 0\n# time step: 0.1\n1 2\n3 abc\n'
bad = os.path.join(work, 'bad')
os.makedirs(bad, exist_ok=True)
with open(os.path.join(bad, 'bad.dat'), 'w') as f:
    f.write(BAD_DATA)
with open(os.path.join(bad, 'good.dat'), 'w') as f:
    f.write('0 1 2\n1 3 4\n')
HEAD = ('begin: data; problem: initial value; end: data;\n'
        'begin: initial value; final time: 1.; time step: 0.1; end: initial value;\n'
        'begin: control data; structural nodes: 1; joints: 1; forces: 1; file drivers: 1;\n'
        'end: control data;\n'
        'begin: nodes; structural: 1, static, null, eye, null, null; end: nodes;\n')
TAIL = ('begin: elements; joint: 1, clamp, 1, node, node;\n'
        'force: 1, absolute, 1, position, null, single, 1., 0., 0., {drive};\nend: elements;\n')
cases = [
    ('bad number in the data file', 'file: 1, fixed step, count, 2, initial time, from file, '
     'time step, from file, "bad.dat";', 'file, 1', ['bad.dat:4:3: error', 'expected a number',
                                                     'bad.mbd:7:1']),
    ('missing data file', 'file: 1, variable step, 2, "none.dat";', 'file, 1',
     ['bad.mbd:7:28: error', 'none.dat', 'does not exist']),
    ('socket driver', 'file: 1, socket, 2;', 'file, 1',
     ["bad.mbd:7:10: error: 'socket' file drivers are not supported"]),
    ('bailout', 'file: 1, variable step, 2, bailout, upper, "good.dat";', 'file, 1',
     ['bad.mbd:7:28: error', "'bailout, upper'"]),
    ('undefined driver', 'file: 1, variable step, 2, "good.dat";', 'file, 9',
     ['bad.mbd:10:66: error: file driver 9 is not defined']),
    ('column beyond the channels', 'file: 1, variable step, 2, "good.dat";', 'file, 1, 3',
     ['bad.mbd:10:69: error: column 3 of file driver 1, which has 2 channel(s)']),
    ('more drivers than declared', 'file: 1, variable step, 2, "good.dat"; '
     'file: 2, variable step, 2, "good.dat";', 'file, 1', ['bad.mbd:7:40: error', 'file drivers']),
]
for what, drivers, drive, expect in cases:
    with open(os.path.join(bad, 'bad.mbd'), 'w') as f:
        f.write(HEAD + 'begin: drivers;\n' + drivers + '\nend: drivers;\n' +
                TAIL.format(drive=drive))
    b = Run(exe, os.path.join(bad, 'bad.mbd'), bad, 'out', expect_rc=2)
    missing = [e for e in expect if e not in b.stderr]
    close(f'bad input, {what}: expected text missing from the message', len(missing), 0, 0)
    if missing:
        print(b.stderr)
finish()
