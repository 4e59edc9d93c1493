"""Writes mbdyn_reference.txt, MBDyn's results for input-examples/gimbal_rotor.mbd, which
check.py compares with mbsolve's. Run by hand where MBDyn is installed:
    /usr/bin/python3 mbdyn_reference.py /path/to/mbdyn
MBDyn's gimbal starts its angles theta, phi at zero and its initial assembly does not converge
from there to the bent start (phi = PSI): "Initial assembly iterations reached maximum number"
(also with 50 iterations). The deck's configuration is consistent, so MBDyn runs it with
`skip initial joint assembly;` added to the control data (the only change); its first steps
then carry a multiplier transient (the couple starts at zero), which check.py skips.
Kept: every 100th output step (t = 0, 0.1, ..., 4 s) of the .mov line of OUT (label 3) and the
.jnt lines of the axial rotation and the gimbal (labels 2 and 4), as MBDyn writes them; the
steps are counted, not timed (MBDyn's last step lands at 4.001 s).
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DECK = os.path.join(HERE, '..', '..', 'input-examples', 'gimbal_rotor.mbd')
EVERY, STEPS = 100, 4000

mbdyn = sys.argv[1]
version = subprocess.run([mbdyn, '-v'], capture_output=True, text=True).stdout.splitlines()
with tempfile.TemporaryDirectory() as work:
    with open(DECK) as f:
        text = f.read()
    anchor = '    output precision: 12;\n'
    assert anchor in text
    deck = os.path.join(work, 'gimbal_rotor.mbd')
    with open(deck, 'w') as f:
        f.write(text.replace(anchor, anchor + '    skip initial joint assembly;\n'))
    subprocess.run([mbdyn, '-f', deck, '-o', os.path.join(work, 'gimbal')],
                   check=True, capture_output=True, cwd=work)
    out = ['# MBDyn results for input-examples/gimbal_rotor.mbd (with skip initial joint assembly),',
           '# written by mbdyn_reference.py',
           '# ' + ' '.join(v for v in version[:2] if v),
           f'# every {EVERY}th output step: step, file, then the line as MBDyn writes it']
    for ext, labels in (('mov', (3,)), ('jnt', (2, 4))):
        seen = {lab: 0 for lab in labels}
        with open(os.path.join(work, 'gimbal.' + ext)) as f:
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
