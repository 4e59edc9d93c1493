"""Writes mbdyn_reference.txt, MBDyn's results for input-examples/strategy_change.mbd, which
check.py and solvers/dae/test/step_change_test.cpp compare with mbsolve's run. Run by hand where MBDyn is installed:
    /usr/bin/python3 mbdyn_reference.py /path/to/mbdyn
Kept: every 10th step (0, 10, ...), steps 1, 2, 3, 501, 502, 742 and the last, as
"step out <the .out Step line>" and "step mov <the .mov line of the mass, node 2>", as MBDyn
writes them.
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DECK = os.path.join(HERE, '..', '..', 'input-examples', 'strategy_change.mbd')
EVERY = 10
EXTRA = (1, 2, 3, 501, 502, 742)  # the first steps, the ramp's first steps, a clamped one

mbdyn = sys.argv[1]
version = subprocess.run([mbdyn, '-v'], capture_output=True, text=True).stdout.splitlines()
with tempfile.TemporaryDirectory() as work:
    subprocess.run([mbdyn, '-f', os.path.abspath(DECK), '-o', os.path.join(work, 'sc')],
                   check=True, capture_output=True, cwd=work)
    steps = [line.split() for line in open(os.path.join(work, 'sc.out'))
             if line.startswith('Step ')]
    movs = [line.split() for line in open(os.path.join(work, 'sc.mov'))
            if line.split() and line.split()[0] == '2']
    assert len(steps) == len(movs), (len(steps), len(movs))
    out = ['# MBDyn results for input-examples/strategy_change.mbd, written by mbdyn_reference.py',
           '# ' + ' '.join(v for v in version[:2] if v),
           f'# every {EVERY}th step, steps {EXTRA} and the last: step, file, then the line as MBDyn writes it']
    for k, (s, m) in enumerate(zip(steps, movs)):
        if k % EVERY == 0 or k in EXTRA or k == len(steps) - 1:
            out.append(f'{k} out ' + ' '.join(s))
            out.append(f'{k} mov ' + ' '.join(m))
with open(os.path.join(HERE, 'mbdyn_reference.txt'), 'w') as f:
    f.write('\n'.join(out) + '\n')
