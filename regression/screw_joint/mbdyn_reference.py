"""Writes mbdyn_reference.txt, MBDyn's results for input-examples/screw_joint.mbd, which
check.py compares with mbsolve's. Run by hand where MBDyn is installed (it needs a build with
MBDYN_DEVEL, where joint.cc reads the screw joint):
    /usr/bin/python3 mbdyn_reference.py /path/to/mbdyn
Kept: every 100th output step (t = 0, 0.1, ..., 3 s) of the .mov lines of the nuts (labels 2
and 3) and the .jnt lines of the screws (labels 2 and 5), as MBDyn writes them. MBDyn's last
step lands at 3.001 s (its accumulated time is 2.99999999999978 s after 3000 steps), so the
steps are counted, not timed.
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DECK = os.path.join(HERE, '..', '..', 'input-examples', 'screw_joint.mbd')
EVERY, STEPS = 100, 3000

mbdyn = sys.argv[1]
version = subprocess.run([mbdyn, '-v'], capture_output=True, text=True).stdout.splitlines()
with tempfile.TemporaryDirectory() as work:
    subprocess.run([mbdyn, '-f', os.path.abspath(DECK), '-o', os.path.join(work, 'screw')],
                   check=True, capture_output=True, cwd=work)
    out = ['# MBDyn results for input-examples/screw_joint.mbd, written by mbdyn_reference.py',
           '# ' + ' '.join(v for v in version[:2] if v),
           f'# every {EVERY}th output step: step, file, then the line as MBDyn writes it']
    for ext, labels in (('mov', (2, 3)), ('jnt', (2, 5))):
        seen = {lab: 0 for lab in labels}
        with open(os.path.join(work, 'screw.' + ext)) as f:
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
