"""Writes mbdyn_reference.txt, MBDyn's results for input-examples/imposed_joints.mbd, which
check.py compares with mbsolve's. Run by hand where MBDyn is installed:
    /usr/bin/python3 mbdyn_reference.py /path/to/mbdyn
The deck runs unchanged (MBDyn warns that the three imposed joints are deprecated).
Kept: every 100th output step (t = 0, 0.1, ..., 2 s) of the .mov and .jnt lines of labels 2, 3
and 4, as MBDyn writes them; the steps are counted, not timed.
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DECK = os.path.join(HERE, '..', '..', 'input-examples', 'imposed_joints.mbd')
EVERY, STEPS = 100, 2000

mbdyn = sys.argv[1]
version = subprocess.run([mbdyn, '-v'], capture_output=True, text=True).stdout.splitlines()
with tempfile.TemporaryDirectory() as work:
    deck = os.path.abspath(DECK)
    subprocess.run([mbdyn, '-f', deck, '-o', os.path.join(work, 'imposed')],
                   check=True, capture_output=True, cwd=work)
    out = ['# MBDyn results for input-examples/imposed_joints.mbd written by mbdyn_reference.py',
           '# ' + ' '.join(v for v in version[:2] if v),
           f'# every {EVERY}th output step: step, file, then the line as MBDyn writes it']
    for ext, labels in (('mov', (2, 3, 4)), ('jnt', (2, 3, 4))):
        seen = {lab: 0 for lab in labels}
        with open(os.path.join(work, 'imposed.' + ext)) as f:
            for line in f:
                w = line.split()
                lab = int(w[0])
                if lab not in seen:
                    continue
                k = seen[lab]
                seen[lab] += 1
                if k % EVERY == 0 and k <= STEPS:
                    out.append(f'{k} {ext} ' + ' '.join(w))
with open(os.path.join(HERE, 'mbdyn_reference.txt'), 'w') as f:
    f.write('\n'.join(out) + '\n')
