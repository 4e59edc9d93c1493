"""Interrupted runs of the relative-coordinate path (--analysis reduced-dynamics, inverse-dynamics
and a `problem: reduced dynamics;` deck): the same signal handling as the DAE run
(regression/interrupt, README "Exit codes").

Decks: input-examples/reduced_pendulum.mbd with TF = 1e5 s (hours of RK4 steps) and a copy of
input-examples/four_bar.mbd (inverse dynamics, the crank driven) with its final time raised to
1e5 s. Each case starts mbsolve, waits until .out lists steps, then signals it. Expected:
  SIGINT / SIGTERM / SIGHUP -> exit 130 / 143 / 129 within 10 s; .out ends with
             '# run stopped: interrupted (SIGINT) at t = T' (terminated (SIGTERM), hung up
             (SIGHUP)), T the time of its last step line; .mov holds exactly one complete row of
             node 2 per output step of .out (the files were closed after a whole step);
  inverse dynamics, SIGINT -> exit 130, the same for .out, and .act has one complete line per
             output step;
  `problem: reduced dynamics;` (no --analysis), SIGTERM -> exit 143;
  two signals -> exit 4 (forced stop), .out ends with the reason '..., forced by a second signal';
  three signals -> exit 5 within 2 s.
Before this test the reduced path had no handler: SIGINT ended it with the default action
(killed by the signal, .out and .mov cut in the middle of a block).
"""
import os
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, close, failures, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
pendulum = os.path.join(EXAMPLES, 'reduced_pendulum.mbd')

# four_bar.mbd's final time is a const: a copy with a long one (includes: none).
with open(os.path.join(EXAMPLES, 'four_bar.mbd')) as f:
    text = f.read()
four_bar = os.path.join(work, 'four_bar_long.mbd')
with open(four_bar, 'w') as f:
    f.write(text.replace('set: const real TF  = 2.0;', 'set: const real TF  = 1.e5;'))
# A `problem: reduced dynamics;` deck: the pendulum with its problem changed.
with open(pendulum) as f:
    text = f.read()
problem_deck = os.path.join(work, 'pendulum_problem.mbd')
with open(problem_deck, 'w') as f:
    f.write(re.sub(r'problem:\s*initial value;', 'problem: reduced dynamics;', text))

REASON = {signal.SIGINT: 'interrupted (SIGINT)', signal.SIGTERM: 'terminated (SIGTERM)',
          signal.SIGHUP: 'hung up (SIGHUP)'}


def start(name, deck, analysis, defines=()):
    prefix = os.path.join(work, name)
    for ext in ('out', 'mov', 'act', 'lam'):
        if os.path.exists(prefix + '.' + ext):
            os.remove(prefix + '.' + ext)
    cmd = [exe, '--quiet', '-f', deck, '-o', prefix]
    if analysis:
        cmd += ['--analysis', analysis]
    for d in defines:
        cmd += ['-D', d]
    return prefix, subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def out_steps(prefix):
    try:
        with open(prefix + '.out', 'rb') as f:
            return f.read().count(b'\nStep ')
    except OSError:
        return 0


def wait_for_steps(prefix, p, n, timeout=60.0):
    t_end = time.time() + timeout
    while time.time() < t_end and p.poll() is None:
        if out_steps(prefix) >= n:
            return True
        time.sleep(0.05)
    return False


def out_log(prefix):
    """(times of the output steps, time of the last step line, last non-empty line) of .out."""
    t, t_last, last = [], None, ''
    with open(prefix + '.out') as f:
        for line in f:
            w = line.split()
            if w and w[0] == 'Step':
                t_last = float(w[2])
                if w[-1] == '1':
                    t.append(float(w[2]))
            if line.strip():
                last = line.strip()
    return t, t_last, last


def complete_rows(path, label, width):
    """Rows of entity `label` in path, and whether every line of the file has `width` columns
    for that label (a file cut in the middle of a block has a short last line)."""
    n, ok = 0, True
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == str(label):
                n += 1
            if w[0] == str(label) and len(w) != width:
                ok = False
    return n, ok, line.endswith('\n')


def check_stopped(name, prefix, reason):
    t, t_last, last = out_log(prefix)
    ok = last.startswith('# run stopped: ' + reason + ' at t = ')
    if ok:
        t_stop = float(last.rsplit('=', 1)[1])
        ok = t_last is not None and abs(t_stop - t_last) <= 1e-9 * max(1.0, abs(t_last))
    print(f"{'ok  ' if ok else 'FAIL'} {name}: .out ends with the reason at its last step: {last}"
          f" (last step at t = {t_last})")
    if not ok:
        failures.append(f'{name} .out')
    return t


def signal_case(name, deck, analysis, sig, code, defines=(), act=False):
    prefix, p = start(name, deck, analysis, defines)
    if not wait_for_steps(prefix, p, 2000):
        p.kill()
        out, err = p.communicate()
        sys.exit(f'{name}: the run wrote no steps in 60 s (exit {p.returncode}): {err}')
    t0 = time.time()
    p.send_signal(sig)
    try:
        p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        sys.exit(f'{name}: mbsolve did not stop within 30 s of the signal')
    close(f'{name}: exit code', p.returncode, code, 0)
    close(f'{name}: seconds to stop', time.time() - t0, 0.0, 10.0)  # wall-clock bound (machine load)
    t = check_stopped(name, prefix, REASON[sig])
    rows, ok, nl = complete_rows(prefix + '.mov', 2, 13)
    close(f'{name}: .mov rows of node 2 - .out output steps', rows - len(t), 0, 0)
    close(f'{name}: .mov rows complete (13 columns, final newline)', 0 if ok and nl else 1, 0, 0)
    if act:
        n, ok, nl = complete_rows(prefix + '.act', 2, 2)
        close(f'{name}: .act lines of joint 2 - .out output steps', n - len(t), 0, 0)
        close(f'{name}: .act lines complete', 0 if ok and nl else 1, 0, 0)


LONG = ('TF=1e5',)
signal_case('sigint', pendulum, 'reduced-dynamics', signal.SIGINT, 130, LONG)
signal_case('sigterm', pendulum, 'reduced-dynamics-implicit', signal.SIGTERM, 143, LONG)
signal_case('sighup', pendulum, 'reduced-dynamics', signal.SIGHUP, 129, LONG)
signal_case('inverse_sigint', four_bar, 'inverse-dynamics', signal.SIGINT, 130, act=True)
signal_case('problem_sigterm', problem_deck, None, signal.SIGTERM, 143, LONG)


def signal_while_stopped(name, sigs, code):
    """All of `sigs` arrive while the process is stopped (different signals: pending signals of
    one kind merge into one)."""
    prefix, p = start(name, pendulum, 'reduced-dynamics', LONG)
    if not wait_for_steps(prefix, p, 2000):
        p.kill()
        sys.exit(f'{name}: the run wrote no steps in 60 s')
    p.send_signal(signal.SIGSTOP)
    for sig in sigs:
        p.send_signal(sig)
    p.send_signal(signal.SIGCONT)
    t0 = time.time()
    try:
        _, err = p.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        _, err = p.communicate()
    close(f'{name}: exit code', p.returncode, code, 0)
    close(f'{name}: seconds to exit', time.time() - t0, 0.0, 2.0)  # wall-clock bound (machine load)
    return prefix, err


prefix, err = signal_while_stopped('double_signal', (signal.SIGINT, signal.SIGTERM), 4)
_, _, last = out_log(prefix)
ok = last.startswith('# run stopped: ') and 'forced by a second signal' in last
print(f"{'ok  ' if ok else 'FAIL'} double_signal: .out ends with the reason: {last}")
if not ok:
    failures.append('double_signal .out')
signal_while_stopped('triple_signal', (signal.SIGHUP, signal.SIGINT, signal.SIGTERM), 5)
finish()
