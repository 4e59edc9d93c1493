"""Writes mbdyn_reference.txt, MBDyn's results for input-examples/model_functions.mbd, which
check.py compares with mbsolve's. Run by hand where MBDyn is installed:
    /usr/bin/python3 mbdyn_reference.py /path/to/mbdyn
Kept: every 100th output step (t = 0, 0.1, ..., 2 s) of the .mov lines of nodes 2 to 5 and the
.frc lines of the probe forces 5 and 6, as MBDyn writes them. MBDyn's accumulated time falls
just short of 2 s after 2000 steps, so it writes one more step: the steps are counted, not
timed. The `node distance` probe (force 7) is left out: MBDyn builds that drive caller from a
module this MBDyn has not compiled in; the rest of the deck runs as written.
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DECK = os.path.join(HERE, '..', '..', 'input-examples', 'model_functions.mbd')
EVERY, STEPS = 100, 2000

mbdyn = sys.argv[1]
version = subprocess.run([mbdyn, '-v'], capture_output=True, text=True).stdout.splitlines()
with open(DECK) as f:
    text = f.read()
start = text.index('    # MBDyn\'s `node distance`')
text = text[:start] + text[text.index('end: elements;'):]
text = text.replace('forces: 7;', 'forces: 6;')
with tempfile.TemporaryDirectory() as work:
    deck = os.path.join(work, 'model_functions.mbd')
    with open(deck, 'w') as f:
        f.write(text)
    subprocess.run([mbdyn, '-f', deck, '-o', os.path.join(work, 'mf')],
                   check=True, capture_output=True, cwd=work)
    out = ['# MBDyn results for input-examples/model_functions.mbd, written by mbdyn_reference.py',
           '# ' + ' '.join(v for v in version[:2] if v),
           f'# every {EVERY}th output step: step, file, then the line as MBDyn writes it']
    for ext, labels in (('mov', (2, 3, 4, 5)), ('frc', (5, 6))):
        seen = {lab: 0 for lab in labels}
        with open(os.path.join(work, 'mf.' + ext)) as f:
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
