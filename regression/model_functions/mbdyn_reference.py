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
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbdyn_ref import write_reference  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DECK = os.path.join(HERE, '..', '..', 'input-examples', 'model_functions.mbd')
EVERY, STEPS = 100, 2000

mbdyn = sys.argv[1]
with open(DECK) as f:
    text = f.read()
start = text.index('    # MBDyn\'s `node distance`')
text = text[:start] + text[text.index('end: elements;'):]
text = text.replace('forces: 7;', 'forces: 6;')
write_reference(mbdyn, text, 'mf',
                ['MBDyn results for input-examples/model_functions.mbd, written by mbdyn_reference.py'],
                (('mov', (2, 3, 4, 5)), ('frc', (5, 6))), EVERY, STEPS,
                os.path.join(HERE, 'mbdyn_reference.txt'))
