"""Parameter sweeps (mbsolve --sweep, issue 9), serial part; the MPI part is mpi_check.py.

Deck: input-examples/sweep_pendulum.mbd (damped pendulum, `set: ifndef` L, C, TH0, M, TF, DT).
What is checked, and against what:
1. Bad tables (unknown variable, a deck constant, wrong column count, non-numeric value) exit 2
   with file:line:col and the row and column named, before any case starts (the output
   directory is not even created); so do bad --report expressions. A spreadsheet export (byte-
   order mark, CRLF, spaces, comment lines) is read.
2. Physics of the reports: three cases at DT = 1e-3 against an independent RK4 integration
   (h = 1e-4) of M L^2 theta'' = -M G L sin(theta) - C theta': final angle (atan2 of the
   final position) within 1e-4 rad, final angular velocity within 2e-4 rad/s, and the largest
   hinge force |F| = sqrt(T^2 + (C theta'/L)^2), T = M (G cos(theta) + L theta'^2), within
   2e-4 N. (Measured: 3e-5, 5e-5 and 6e-5; at DT = 1e-4 the errors drop 100x: second order.)
   The other aggregates (initial, minimum, maxabs, mean, rms) against numpy over the .mov
   file of the same run (12 significant digits: 2e-11, measured up to 4.2e-12; the initial x
   1e-9, measured exact).
3. A 200-case sweep (pendulum_200.csv, TF = 1 s, DT = 1e-2) runs; every case ok with 100 steps;
   the summary lists the rows in order with the table's values; report x_end equals the last
   position in case-<row>.h5 (when h5py is available).
4. Killed and restarted: the first 80 rows of that sweep, SIGKILLed after 30 cases completed; its
   running case stops too (PR_SET_PDEATHSIG); the re-run reports the completed cases as
   skipped, runs only the others, leaves the completion records of the first run untouched
   (bytes and modification times), and its summary equals rows 1-80 of 3 (wall time excepted).
5. Failure isolation: a case killed with SIGSEGV (crashed), one with a solver failure (exit 3,
   failed) and one with bad input (DT = 0, exit 2, error) are recorded with their errors; the
   other cases run; exit status 3.
6. Job-array slices (--sweep-rows, SLURM_ARRAY_TASK_ID with --rows-per-task) and --sweep-merge:
   merge before the last slice reports the missing rows (exit 3); afterwards the merged
   summary equals a plain sweep's (wall time excepted).
   scripts/sweep_merge_h5.py stacks the cases' HDF5 files along a case axis (NaN past the end
   of a shorter case), equal to the case files.
7. SIGTERM stops the sweep (exit 143) with no case left running; the re-run completes it.
"""
import csv
import glob
import os
import shutil
import signal
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, close, failures, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
HERE = os.path.dirname(os.path.abspath(__file__))
DECK = os.path.join(EXAMPLES, 'sweep_pendulum.mbd')
TABLE200 = os.path.join(HERE, 'pendulum_200.csv')
REPORTS = ['--report', 'x_end=final(node 2, x)', '--report', 'Fmax=maximum(joint 2, F)']


def fail(what):
    print('FAIL', what)
    failures.append(what)


def sweep(table, out, *extra, env=None):
    cmd = [exe, '--sweep', table, '-f', DECK, '-o', out, '-D', 'TF=1'] + REPORTS + list(extra)
    return subprocess.run(cmd, capture_output=True, text=True, env=env)


def summary(path):
    """Rows of a summary without the wall_s column (the only one that may differ)."""
    with open(path) as f:
        rows = list(csv.reader(f))
    w = rows[0].index('wall_s')
    return [r[:w] + r[w + 1:] for r in rows]


def write(name, text):
    path = os.path.join(work, name)
    with open(path, 'w') as f:
        f.write(text)
    return path


shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)

# 1. bad tables
bad = {
    'unknown variable': ('L,X\n1,0\n', 'bad_unknown.csv:1:3:', 'header, column 2: unknown variable \'X\''),
    'wrong column count': ('L,C\n1,0\n2\n', 'bad_columns.csv:3:2:', 'row 2: 1 columns, the header has 2'),
    'extra column': ('L,C\n1,0,7\n', 'bad_extra.csv:2:5:', 'row 1: 3 columns, the header has 2 (column 3 is extra)'),
    'non-numeric': ('L,C\n1,0\n2,0.1\n3,abc\n', 'bad_number.csv:4:3:', 'row 3, column 2 (\'C\'): \'abc\' is not a number'),
    'constant': ('G\n9\n', 'bad_const.csv:1:1:', 'unknown variable \'G\''),
}
for i, (what, (text, where, msg)) in enumerate(bad.items()):
    name = where.split(':')[0]
    out = os.path.join(work, f'bad{i}')
    p = sweep(write(name, text), out)
    if p.returncode != 2:
        fail(f'bad table ({what}): exit {p.returncode}, expected 2')
    if where not in p.stderr or msg not in p.stderr:
        fail(f'bad table ({what}): message lacks {where!r} / {msg!r}: {p.stderr!r}')
    if os.path.exists(out):
        fail(f'bad table ({what}): {out} was created (a case may have started)')
print('bad tables: exit 2 with file:line:col, row and column, no output directory')
ok_table = write('ok.csv', 'L,C\n1,0\n')
# a spreadsheet export: byte-order mark, CRLF line ends, spaces, a comment line
with open(os.path.join(work, 'excel.csv'), 'wb') as f:
    f.write(b'\xef\xbb\xbfL , C\r\n# comment\r\n 1.5, 0.1 \r\n\r\n')
p = sweep(os.path.join(work, 'excel.csv'), os.path.join(work, 'excel'))
if p.returncode != 0 or summary(os.path.join(work, 'excel', 'summary.csv'))[1][:4] != ['1', '1.5', '0.1', 'ok']:
    fail(f'spreadsheet-style table: exit {p.returncode} {p.stdout} {p.stderr}')
bad_reports = {'a=final(joint 2, "nope")': 'joint 2 has no private datum \'nope\'',
               'a=final(node 7, x)': 'the deck has no structural node 7',
               'a=maximum(joint 2, Q)': 'unknown joint field \'Q\'',
               'a=final(node 2, x) +': '--report:1:21: error'}
for i, (rep, msg) in enumerate(bad_reports.items()):
    out = os.path.join(work, f'badrep{i}')
    p = subprocess.run([exe, '--sweep', ok_table, '-f', DECK, '-o', out, '--report', rep], capture_output=True, text=True)
    if p.returncode != 2 or msg not in p.stderr or os.path.exists(out):
        fail(f'bad report {rep!r}: exit {p.returncode}, {p.stderr!r}, expected {msg!r} before any case')

# 2. physics of the reports against RK4
G, MASS, TH0, TF = 9.81, 1.0, np.pi / 2, 2.0


def rk4(L, C, h=1e-4):
    def f(s):
        return np.array([s[1], -G / L * np.sin(s[0]) - C / (MASS * L * L) * s[1]])
    s, fmax = np.array([TH0, 0.0]), 0.0
    for _ in range(int(round(TF / h))):
        k1 = f(s)
        k2 = f(s + h / 2 * k1)
        k3 = f(s + h / 2 * k2)
        k4 = f(s + h * k3)
        s = s + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        fmax = max(fmax, np.hypot(MASS * (G * np.cos(s[0]) + L * s[1] ** 2), C * s[1] / L))
    return s, fmax


aggs = ['th=atan2(final(node 2, x), -final(node 2, y))', 'w=final(node 2, wz)', 'F=maximum(joint 2, F)',
        'x0=initial(node 2, x)', 'ymin=minimum(node 2, y)', 'vymax=maxabs(node 2, vy)',
        'vxmean=mean(node 2, vx)', 'speedrms=rms(node 2, speed)', 'twice=2*final(node 2, x)/L',
        'rz=final(joint 2, "rz")', 'X1=final(node 2, "X[1]")']
for L, C in [(1.0, 0.0), (2.0, 0.5), (0.5, 0.2)]:
    prefix = os.path.join(work, f'phys_{L}_{C}')
    cmd = [exe, '-f', DECK, '-o', prefix, '--format', 'text', '-D', f'L={L}', '-D', f'C={C}', '-D', 'DT=1e-3']
    for a in aggs:
        cmd += ['--report', a]
    p = subprocess.run(cmd, capture_output=True, text=True)
    rep = {ln.split()[1]: float(ln.split('=')[1]) for ln in p.stdout.splitlines() if ln.startswith('report: ')}
    if p.returncode != 0 or len(rep) != len(aggs):
        fail(f'L={L} C={C}: exit {p.returncode}, reports {rep}, {p.stderr}')
        continue
    s, fmax = rk4(L, C)
    close(f'L={L} C={C}: final angle [rad] vs RK4', rep['th'], s[0], 1e-4)
    close(f'L={L} C={C}: final angular velocity [rad/s] vs RK4', rep['w'], s[1], 2e-4)
    close(f'L={L} C={C}: max hinge force [N] vs RK4', rep['F'], fmax, 2e-4)
    mov = np.array([[float(v) for v in ln.split()] for ln in open(prefix + '.mov') if ln.split()[0] == '2'])
    x, y, vx, vy = mov[:, 1], mov[:, 2], mov[:, 7], mov[:, 8]
    speed = np.sqrt(mov[:, 7] ** 2 + mov[:, 8] ** 2 + mov[:, 9] ** 2)
    close(f'L={L} C={C}: initial x = L sin(TH0)', rep['x0'], L * np.sin(TH0), 1e-9)
    close(f'L={L} C={C}: minimum y vs .mov', rep['ymin'], y.min(), 2e-11)
    close(f'L={L} C={C}: maxabs vy vs .mov', rep['vymax'], np.abs(vy).max(), 2e-11)
    close(f'L={L} C={C}: mean vx vs .mov', rep['vxmean'], vx.mean(), 2e-11)
    close(f'L={L} C={C}: rms speed vs .mov', rep['speedrms'], np.sqrt((speed ** 2).mean()), 2e-11)
    close(f'L={L} C={C}: 2 x_end / L (a -D variable in the expression)', rep['twice'], 2 * x[-1] / L, 2e-11)
    # private data: the hinge's rz is the rotation since the start (TH0), node "X[1]" is x
    close(f'L={L} C={C}: joint 2 "rz" = final angle - TH0', rep['rz'], rep['th'] - TH0, 2e-11)
    close(f'L={L} C={C}: node 2 "X[1]" vs .mov x', rep['X1'], x[-1], 2e-11)

# 3. the 200-case sweep
full = os.path.join(work, 'full')
t0 = time.time()
p = sweep(TABLE200, full)
print(f'200-case serial sweep: {time.time() - t0:.2f} s')
ref = summary(os.path.join(full, 'summary.csv'))
if p.returncode != 0:
    fail(f'200-case sweep: exit {p.returncode}: {p.stdout} {p.stderr}')
table = [r for r in csv.reader(open(TABLE200)) if r and not r[0].startswith('#')]
if ref[0] != ['row', 'L', 'C', 'status', 'exit', 'steps', 'x_end', 'Fmax', 'error'] or len(ref) != 201:
    fail(f'summary header/length: {ref[0]}, {len(ref)} lines')
for i, r in enumerate(ref[1:], start=1):
    if r[:3] != [str(i)] + table[i] or r[3:6] != ['ok', '0', '100']:
        fail(f'summary row {i}: {r}')
        break
try:
    import h5py
    for row in (1, 77, 200):
        with h5py.File(os.path.join(full, f'case-{row}.h5'), 'r') as h:
            X = h['nodes/X'][...]
            k = list(h['nodes/labels'][...]).index(2)
            close(f'row {row}: x_end report vs case-{row}.h5', float(ref[row][6]), float(X[-1, k, 0]), 0.0)
except ImportError:
    print('h5py not available: report vs HDF5 not compared')

# 4. killed and restarted
# (the first 80 rows of the table: enough to kill in the middle, and the restart has 40+ to run)
t80 = write('t80.csv', ''.join(open(TABLE200).readlines()[1:82]))
killed = os.path.join(work, 'killed')
cmd = [exe, '--sweep', t80, '-f', DECK, '-o', killed, '-D', 'TF=1'] + REPORTS
proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
deadline = time.time() + 120
while len(glob.glob(os.path.join(killed, 'case-*.done'))) < 30 and time.time() < deadline and proc.poll() is None:
    time.sleep(0.01)
proc.send_signal(signal.SIGKILL)
proc.wait()


def running_cases(d, describe=False):
    """Processes whose command line names a case of d (with their state and command line)."""
    found = []
    for c in glob.glob('/proc/[0-9]*/cmdline'):
        try:
            cmd = open(c, 'rb').read()
            if (d + '/case-').encode() in cmd:
                pid = c.split('/')[2]
                state = [ln for ln in open(f'/proc/{pid}/status') if ln.startswith('State')][0].strip()
                found.append(f'pid {pid} {state} {cmd[:200]!r}')
        except (OSError, IndexError):
            pass
    return found if describe else len(found)


deadline = time.time() + 30
while running_cases(killed) and time.time() < deadline:
    time.sleep(0.05)
if running_cases(killed):
    fail(f'a case of the killed sweep is still running: {running_cases(killed, True)}')
done = {f: (open(f, 'rb').read(), os.stat(f).st_mtime_ns) for f in glob.glob(os.path.join(killed, 'case-*.done'))}
h5_mtime = {f: os.stat(f).st_mtime_ns for f in (d[:-5] + '.h5' for d in done)}
n_done = len(done)
if not 30 <= n_done < 80:
    fail(f'kill test: {n_done} cases were complete at the kill (wanted 30 ... 79)')
p = sweep(t80, killed)
expect = f'{n_done} already completed, running {80 - n_done} on'
if p.returncode != 0 or expect not in p.stdout:
    fail(f'restart: exit {p.returncode}, expected "{expect}" in: {p.stdout} {p.stderr}')
for f, (text, mtime) in done.items():
    if open(f, 'rb').read() != text or os.stat(f).st_mtime_ns != mtime:
        fail(f'restart rewrote {f}, completed before the kill')
        break
for f, mtime in h5_mtime.items():
    if os.stat(f).st_mtime_ns != mtime:
        fail(f'restart re-ran {f}, completed before the kill')
        break
if summary(os.path.join(killed, 'summary.csv')) != ref[:81]:
    fail('the restarted sweep\'s summary differs from the uninterrupted one')
print(f'kill test: {n_done} cases complete at SIGKILL; restart ran {80 - n_done}, summary identical')

# 5. failure isolation: row 2 runs long and is killed with SIGSEGV, row 3 fails (solver),
# row 4 has bad input
iso = os.path.join(work, 'isolation')
t = write('isolation.csv', 'L,TF,DT,M\n1,1,0.01,1\n1,1000,0.01,1\n1,20,0.5,1\n1,1,0,1\n2,1,0.01,1\n')
proc = subprocess.Popen([exe, '--sweep', t, '-f', DECK, '-o', iso] + REPORTS, stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, text=True)
victim, deadline = None, time.time() + 60
while victim is None and time.time() < deadline:
    for c in glob.glob('/proc/[0-9]*/cmdline'):
        try:
            if (iso + '/case-2\0').encode() in open(c, 'rb').read():
                victim = int(c.split('/')[2])
        except OSError:
            pass
    time.sleep(0.01)
if victim:
    time.sleep(0.2)
    os.kill(victim, signal.SIGSEGV)
out, err = proc.communicate(timeout=120)
s = summary(os.path.join(iso, 'summary.csv'))
st = {int(r[0]): (r[5], r[6], r[-1]) for r in s[1:]}
if proc.returncode != 3:
    fail(f'isolation: exit {proc.returncode}, expected 3')
# Row 2's exit column is the signal: 11, or 6 under AddressSanitizer (its SEGV handler aborts).
checks = {1: ('ok', '0', ''), 2: ('crashed', None, 'killed by signal'), 3: ('failed', '3', 'solver failure'),
          4: ('error', '2', 'time step must not be zero'), 5: ('ok', '0', '')}
for row, (status, code, msg) in checks.items():
    got = st.get(row)
    if not got or got[0] != status or (code and got[1] != code) or msg not in got[2]:
        fail(f'isolation row {row}: {got}, expected {status}, {code}, "{msg}"')
print('isolation:', {k: v[0] for k, v in st.items()})

# 6. slices and merge (12 rows: 1-5, then tasks 1 and 2 of 4 rows each = rows 5-8 and 9-12)
t12 = write('t12.csv', ''.join(open(TABLE200).readlines()[1:14]))
plain, sliced = os.path.join(work, 'plain12'), os.path.join(work, 'sliced12')
sweep(t12, plain)
p1 = sweep(t12, sliced, '--sweep-rows', '1:5')
env = dict(os.environ, SLURM_ARRAY_TASK_ID='1')
p2 = sweep(t12, sliced, '--rows-per-task', '4', env=env)
if p1.returncode or p2.returncode or 'running 5 on' not in p1.stdout or '1 already completed, running 3' not in p2.stdout:
    fail(f'slices: {p1.returncode} {p1.stdout} / {p2.returncode} {p2.stdout}')
if not os.path.exists(os.path.join(sliced, 'summary-rows-5-8.csv')):
    fail('slice 5-8 wrote no summary-rows-5-8.csv')
m = subprocess.run([exe, '--sweep-merge', sliced], capture_output=True, text=True)
if m.returncode != 3 or 'missing rows: 9 10 11 12' not in m.stdout:
    fail(f'merge with missing rows: exit {m.returncode}: {m.stdout} {m.stderr}')
env['SLURM_ARRAY_TASK_ID'] = '2'
sweep(t12, sliced, '--rows-per-task', '4', env=env)
env['SLURM_ARRAY_TASK_ID'] = '3'
p4 = sweep(t12, sliced, '--rows-per-task', '4', env=env)
if p4.returncode != 0 or 'nothing to do' not in p4.stdout:
    fail(f'task past the table: {p4.returncode} {p4.stdout}')
m = subprocess.run([exe, '--sweep-merge', sliced], capture_output=True, text=True)
if m.returncode != 0 or summary(os.path.join(sliced, 'summary.csv')) != summary(os.path.join(plain, 'summary.csv')):
    fail(f'merged summary differs from the plain sweep\'s: exit {m.returncode} {m.stdout} {m.stderr}')
if summary(os.path.join(plain, 'summary.csv'))[1:] != ref[1:13]:
    fail('the 12-row sweep differs from the first 12 rows of the 200-row one')
print('slices + merge: identical to a plain sweep')

# 6b. one HDF5 file with a case dimension (scripts/sweep_merge_h5.py), cases of unequal length
try:
    import h5py
    uneven = os.path.join(work, 'uneven')
    sweep(write('uneven.csv', 'L,TF\n1,0.5\n2,1\n'), uneven)
    merge_h5 = os.path.join(HERE, '..', '..', 'scripts', 'sweep_merge_h5.py')
    m = subprocess.run(['/usr/bin/python3', merge_h5, uneven], capture_output=True, text=True)
    with h5py.File(os.path.join(uneven, 'cases.h5'), 'r') as h:
        X, n = h['nodes/X'][...], h['case/n_rows'][...]
        ok = m.returncode == 0 and X.shape == (2, 101, 2, 3) and list(n) == [51, 101] and list(h['case/L'][...]) == [1, 2]
        ok = ok and np.isnan(X[0, 51:]).all() and not np.isnan(X[0, :51]).any()
        for i in (0, 1):
            with h5py.File(os.path.join(uneven, f'case-{i + 1}.h5'), 'r') as c:
                ok = ok and np.array_equal(X[i, :n[i]], c['nodes/X'][...])
    if not ok:
        fail(f'sweep_merge_h5.py: {m.returncode} {m.stdout} {m.stderr}')
    print('sweep_merge_h5.py: cases stacked, the shorter one padded with NaN')
except ImportError:
    print('h5py not available: sweep_merge_h5.py not checked')

# 7. SIGTERM: the sweep stops its running case, records nothing for it, exits 143; a re-run
# completes (12 rows, stopped after 3)
term = os.path.join(work, 'term12')
proc = subprocess.Popen([exe, '--sweep', t12, '-f', DECK, '-o', term, '-D', 'TF=1'] + REPORTS,
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
deadline = time.time() + 60
while len(glob.glob(os.path.join(term, 'case-*.done'))) < 3 and time.time() < deadline:
    time.sleep(0.005)
proc.send_signal(signal.SIGTERM)
out, err = proc.communicate(timeout=60)
n_term = len(glob.glob(os.path.join(term, 'case-*.done')))
if proc.returncode != 143 or 'stopped by a signal' not in out or running_cases(term):
    fail(f'SIGTERM: exit {proc.returncode}, {out} {err}, {running_cases(term)} cases running')
p = sweep(t12, term)
if p.returncode != 0 or f'{n_term} already completed' not in p.stdout or \
        summary(os.path.join(term, 'summary.csv')) != summary(os.path.join(plain, 'summary.csv')):
    fail(f'restart after SIGTERM: {p.returncode} {p.stdout} {p.stderr}')
print(f'SIGTERM: exit 143 after {n_term} cases, restart completes')

finish()
