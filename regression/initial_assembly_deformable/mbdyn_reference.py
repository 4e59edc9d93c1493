"""Writes mbdyn_reference.txt, MBDyn's results for input-examples/initial_assembly_deformable.mbd,
which check.py compares with mbsolve's. Run by hand where MBDyn is installed:
    /usr/bin/python3 mbdyn_reference.py /path/to/mbdyn
Kept: every 100th output step (t = 0, 0.1, ..., 1 s; step 0 is the pose after the initial
assembly) of the .mov lines of the three bodies (labels 2, 3, 4), as MBDyn writes them.
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DECK = os.path.join(HERE, '..', '..', 'input-examples', 'initial_assembly_deformable.mbd')
EVERY, STEPS, LABELS = 100, 1000, (2, 3, 4)

mbdyn = sys.argv[1]
version = subprocess.run([mbdyn, '-v'], capture_output=True, text=True).stdout.splitlines()
with tempfile.TemporaryDirectory() as work:
    subprocess.run([mbdyn, '-f', os.path.abspath(DECK), '-o', os.path.join(work, 'ia')],
                   check=True, capture_output=True, cwd=work)
    out = ['# MBDyn results for input-examples/initial_assembly_deformable.mbd, written by '
           'mbdyn_reference.py',
           '# ' + ' '.join(v for v in version[:2] if v),
           f'# every {EVERY}th output step: step, then the .mov line as MBDyn writes it']
    seen = {lab: 0 for lab in LABELS}
    with open(os.path.join(work, 'ia.mov')) as f:
        for line in f:
            w = line.split()
            lab = int(w[0])
            if lab not in seen:
                continue
            k = seen[lab]
            seen[lab] += 1
            if k % EVERY == 0 and k <= STEPS:
                out.append(f'{k} ' + ' '.join(w))
with open(os.path.join(HERE, 'mbdyn_reference.txt'), 'w') as f:
    f.write('\n'.join(out) + '\n')
