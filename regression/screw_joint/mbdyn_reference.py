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
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbdyn_ref import example_reference  # noqa: E402

example_reference(os.path.dirname(os.path.abspath(__file__)), 'screw_joint', 'screw',
                  ['MBDyn results for input-examples/screw_joint.mbd, written by mbdyn_reference.py'],
                  (('mov', (2, 3)), ('jnt', (2, 5))), 100, 3000)
