"""Writes mbdyn_reference.txt, MBDyn's results for input-examples/file_drivers.mbd, which check.py
compares with mbsolve's run. Run by hand where MBDyn is installed:
    /usr/bin/python3 mbdyn_reference.py /path/to/mbdyn
Kept: every 3rd step (0, 3, ..., 300) as "t F1x F1y F1z F2x F2y F2z x v": the step time (the
.out Step line), the probe forces 1 and 2 (.frc) and the position and velocity along x of the
mass, node 2 (.mov), as MBDyn writes them.
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DECK = os.path.join(HERE, '..', '..', 'input-examples', 'file_drivers.mbd')
EVERY = 3

mbdyn = sys.argv[1]
p = subprocess.run([mbdyn, '-v'], capture_output=True, text=True)
version = [v for v in (p.stdout + p.stderr).splitlines() if v.strip()]
with tempfile.TemporaryDirectory() as work:
    out = os.path.join(work, 'out')
    subprocess.run([mbdyn, '-f', DECK, '-o', out], check=True, capture_output=True)
    with open(out + '.out') as f:
        t = [w[2] for w in (line.split() for line in f) if w and w[0] == 'Step']
    frc = {1: [], 2: []}
    with open(out + '.frc') as f:
        for line in f:
            w = line.split()
            if int(w[0]) in frc:
                frc[int(w[0])].append(w[2:5])
    mov = []
    with open(out + '.mov') as f:
        for line in f:
            w = line.split()
            if int(w[0]) == 2:
                mov.append((w[1], w[7]))
assert len(t) == len(frc[1]) == len(frc[2]) == len(mov), (len(t), len(frc[1]), len(mov))
with open(os.path.join(HERE, 'mbdyn_reference.txt'), 'w') as f:
    f.write('# MBDyn (%s) on input-examples/file_drivers.mbd, written by mbdyn_reference.py\n'
            % (version[0].strip() if version else 'unknown version'))
    f.write('# t F1x F1y F1z F2x F2y F2z x v (every %d steps)\n' % EVERY)
    for k in range(0, len(t), EVERY):
        f.write(' '.join([t[k], *frc[1][k], *frc[2][k], *mov[k]]) + '\n')
