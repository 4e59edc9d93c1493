"""Writes mbdyn_reference.txt, MBDyn's results for input-examples/initial_assembly_deformable.mbd,
which check.py compares with mbsolve's. Run by hand where MBDyn is installed:
    /usr/bin/python3 mbdyn_reference.py /path/to/mbdyn
Kept: every 100th output step (t = 0, 0.1, ..., 1 s; step 0 is the pose after the initial
assembly) of the .mov lines of the three bodies (labels 2, 3, 4), as MBDyn writes them.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbdyn_ref import example_reference  # noqa: E402

example_reference(os.path.dirname(os.path.abspath(__file__)), 'initial_assembly_deformable', 'ia',
                  ['MBDyn results for input-examples/initial_assembly_deformable.mbd, written by '
                   'mbdyn_reference.py'],
                  (('mov', (2, 3, 4)),), 100, 1000)
