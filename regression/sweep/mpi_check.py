"""The 200-case pendulum sweep under `mpirun -n 2` and serially gives identical summaries.

Called by CTest (regression.sweep_mpi, only when mbsolve is built with MBS_MPI) as
    /usr/bin/python3 mpi_check.py <mbsolve> <scratch directory> <mpiexec>
Compared: every column of DIR/summary.csv except wall_s (row, L, C, status, exit, steps, the
reports x_end and Fmax printed with 17 significant digits, error): the cases are the same
computations whichever rank runs them, so the numbers must agree bit for bit. Also checked:
both ranks ran cases (rank 0 runs cases itself while handing out rows), and the summary is
written once (by rank 0). Then the same sweep under mpirun is stopped with SIGTERM after 40
cases and restarted: nothing is left running, and the restart completes the same summary.
"""
import csv
import glob
import os
import shutil
import signal
import subprocess
import sys
import time

exe, work, mpiexec = sys.argv[1], sys.argv[2], sys.argv[3]
HERE = os.path.dirname(os.path.abspath(__file__))
DECK = os.path.join(HERE, '..', '..', 'input-examples', 'sweep_pendulum.mbd')
TABLE = os.path.join(HERE, 'pendulum_200.csv')
ARGS = ['--sweep', TABLE, '-f', DECK, '-D', 'TF=1', '--report', 'x_end=final(node 2, x)',
        '--report', 'Fmax=maximum(joint 2, F)']
# As root (CI containers) OpenMPI refuses to start without --allow-run-as-root; two ranks on a
# machine that reports fewer slots need --oversubscribe.
MPI = [mpiexec, '--oversubscribe', '--bind-to', 'none'] + (['--allow-run-as-root'] if os.geteuid() == 0 else [])


def summary(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    w = rows[0].index('wall_s')
    return [r[:w] + r[w + 1:] for r in rows]


shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
serial, mpi = os.path.join(work, 'serial'), os.path.join(work, 'mpi')
t0 = time.time()
p = subprocess.run([exe] + ARGS + ['-o', serial], capture_output=True, text=True)
t1 = time.time()
q = subprocess.run(MPI + ['-n', '2', exe] + ARGS + ['-o', mpi], capture_output=True, text=True)
t2 = time.time()
print(p.stdout, q.stdout, q.stderr)
print(f'serial {t1 - t0:.2f} s, mpirun -n 2 {t2 - t1:.2f} s')
bad = []
if p.returncode != 0 or q.returncode != 0:
    bad.append(f'exit status serial {p.returncode}, mpirun {q.returncode}')
if 'on 2 MPI ranks' not in q.stdout:
    bad.append('the MPI run did not report 2 ranks')
if q.stdout.count('summary ') != 1:
    bad.append('the summary line was printed by more than one rank')
a, b = summary(os.path.join(serial, 'summary.csv')), summary(os.path.join(mpi, 'summary.csv'))
if len(a) != 201 or any(r[3] != 'ok' for r in a[1:]):
    bad.append('the serial sweep did not complete 200 ok cases')
if a != b:
    diff = [(x, y) for x, y in zip(a, b) if x != y][:5]
    bad.append(f'summaries differ, e.g. {diff}')
# Which rank ran a case is in its completion record (rank=), not in the summary.
ranks = {}
for row in range(1, 201):
    with open(os.path.join(mpi, f'case-{row}.done')) as f:
        r = [ln.split('=', 1)[1].strip() for ln in f if ln.startswith('rank=')][0]
    ranks[r] = ranks.get(r, 0) + 1
print('cases per rank:', ranks)
if sorted(ranks) != ['0', '1']:
    bad.append(f'cases per rank {ranks}: both ranks must run cases')

# Stopped and restarted under MPI: SIGTERM to mpirun (forwarded to the ranks) after 40 cases;
# no case may be left running, and the re-run must complete with the same summary.
stopped = os.path.join(work, 'stopped')
proc = subprocess.Popen(MPI + ['-n', '2', exe] + ARGS + ['-o', stopped], stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, text=True)
deadline = time.time() + 120


def count_done(d):
    return len(glob.glob(os.path.join(d, 'case-*.done')))


while time.time() < deadline and proc.poll() is None and count_done(stopped) < 40:
    time.sleep(0.01)
proc.send_signal(signal.SIGTERM)
out, err = proc.communicate(timeout=60)
n_done = count_done(stopped)
time.sleep(0.5)
left = 0
for c in glob.glob('/proc/[0-9]*/cmdline'):
    try:
        left += (stopped + '/case-').encode() in open(c, 'rb').read()
    except OSError:
        pass
r = subprocess.run(MPI + ['-n', '2', exe] + ARGS + ['-o', stopped], capture_output=True, text=True)
print(f'SIGTERM to mpirun after {n_done} cases: {out.strip()}; restart: {r.stdout.strip()}')
if left:
    bad.append(f'{left} cases still running after SIGTERM to mpirun')
if r.returncode != 0 or f'{n_done} already completed' not in r.stdout or \
        summary(os.path.join(stopped, 'summary.csv')) != a:
    bad.append(f'restart after SIGTERM: exit {r.returncode}, {r.stdout} {r.stderr}')

for msg in bad:
    print('FAIL', msg)
if bad:
    sys.exit(1)
print('ok   200 cases: serial and mpirun -n 2 summaries identical (wall time excepted); stop + restart under MPI')
