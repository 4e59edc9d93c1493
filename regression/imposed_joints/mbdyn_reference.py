"""Writes mbdyn_reference.txt, MBDyn's results for input-examples/imposed_joints.mbd, which
check.py compares with mbsolve's. Run by hand where MBDyn is installed:
    /usr/bin/python3 mbdyn_reference.py /path/to/mbdyn
The deck runs unchanged (MBDyn warns that the three imposed joints are deprecated).
Kept: every 100th output step (t = 0, 0.1, ..., 2 s) of the .mov and .jnt lines of labels 2, 3
and 4, as MBDyn writes them; the steps are counted, not timed.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbdyn_ref import example_reference  # noqa: E402

example_reference(os.path.dirname(os.path.abspath(__file__)), 'imposed_joints', 'imposed',
                  ['MBDyn results for input-examples/imposed_joints.mbd written by mbdyn_reference.py'],
                  (('mov', (2, 3, 4)), ('jnt', (2, 3, 4))), 100, 2000)
