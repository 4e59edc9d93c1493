"""Writes mbdyn_reference.txt, MBDyn's results for input-examples/joint_orientation_description.mbd
(the deck as it is), which check.py compares with mbsolve's. Run by hand where MBDyn is installed:
    /usr/bin/python3 mbdyn_reference.py /path/to/mbdyn
Kept: every 100th output step (t = 0, 0.1, ..., 1 s) of the .jnt lines of the 17 joints with an
orientation output (labels 10-13, 20-23, 30-32, 40-42, 50-52), as MBDyn writes them.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbdyn_ref import write_reference  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DECK = os.path.join(HERE, '..', '..', 'input-examples', 'joint_orientation_description.mbd')
LABELS = (10, 11, 12, 13, 20, 21, 22, 23, 30, 31, 32, 40, 41, 42, 50, 51, 52)
EVERY, STEPS = 100, 1000

with open(DECK) as f:
    text = f.read()
write_reference(sys.argv[1], text, 'od',
                ['MBDyn results for input-examples/joint_orientation_description.mbd,',
                 'written by mbdyn_reference.py'],
                (('jnt', LABELS),), EVERY, STEPS, os.path.join(HERE, 'mbdyn_reference.txt'))
