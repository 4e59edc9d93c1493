"""Progress line and end-of-run summary (issue 5 item 4).

Deck: input-examples/pendulum.mbd with DT = 1e-5, TF = 1.5 (150000 steps, about a second).
Run under `script` (a pseudo-terminal, so stdout is a tty): the output must hold progress lines
(carriage-return separated) with the simulated time, the final time, a percentage that never
decreases, steps, iterations per step and an ETA; at most 10 refreshes per second of wall time
(+1); then the summary (steps, rejected, iterations, factorizations, wall time, time per step,
output files). Run with stdout to a pipe: no progress line, the summary only. With --quiet:
nothing on stdout.
"""
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, close, failures, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
deck = os.path.join(EXAMPLES, 'pendulum.mbd')
prefix = os.path.join(work, 'progress')
args = [exe, '-f', deck, '-o', prefix, '-D', 'DT=1e-5', '-D', 'TF=1.5', '--format', 'hdf5']


def check(what, ok, detail=''):
    print(f"{'ok  ' if ok else 'FAIL'} {what}{': ' + detail if detail else ''}")
    if not ok:
        failures.append(what)


script = shutil.which('script')
if script is None:
    sys.exit('`script` (Debian package bsdutils) is needed to run mbsolve on a pseudo-terminal')
t0 = time.time()
p = subprocess.run([script, '-qec', ' '.join(args), '/dev/null'], capture_output=True, text=True)
wall = time.time() - t0
close('tty run: exit code', p.returncode, 0, 0)
out = p.stdout.replace('\r\n', '\n')
lines = [s for s in re.split(r'[\r\n]', out) if s.strip()]
prog = [s for s in lines if s.startswith('t = ')]
pct = [float(m.group(1)) for s in prog for m in [re.search(r'(\d+\.\d)%', s)] if m]
print(f'{len(prog)} progress refreshes in {wall:.2f} s; last: {prog[-1].strip() if prog else "-"}')
check('tty: progress lines shown', len(prog) >= 2)
check('tty: at most 10 refreshes per second', len(prog) <= 10 * wall + 1, f'{len(prog)} in {wall:.2f} s')
check('tty: percentage never decreases', all(b >= a for a, b in zip(pct, pct[1:])))
check('tty: progress names final time, steps, it/step, ETA',
      bool(prog) and all(k in prog[0] for k in ('/ 1.5 s', 'steps', 'it/step', 'ETA')), prog[0] if prog else '')
summary = [s for s in lines if s.startswith('mbsolve:')]
check('tty: summary with steps, rejected, iterations, factorizations',
      any(re.match(r'mbsolve: 150000 steps, 0 rejected, \d+ iterations, \d+ factorizations, [\d.]+ s', s)
          for s in summary), ' | '.join(summary))
check('tty: summary with time per step', any('ms per step' in s for s in summary))
check('tty: summary lists the files', any('output files:' in s and prefix + '.h5' in s for s in summary))

p = subprocess.run(args, capture_output=True, text=True)
close('pipe run: exit code', p.returncode, 0, 0)
check('pipe: no progress line', '\r' not in p.stdout and 't = ' not in p.stdout, repr(p.stdout[:200]))
check('pipe: summary printed', 'steps, 0 rejected' in p.stdout)

p = subprocess.run(args + ['--quiet'], capture_output=True, text=True)
check('--quiet: nothing on stdout', p.returncode == 0 and p.stdout == '', repr(p.stdout[:200]))
finish()
