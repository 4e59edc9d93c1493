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
from mbdyn_ref import example_reference, replace_once  # noqa: E402


def without_node_distance(text):
    """MBDyn here lacks the node distance drive (a module): its force card goes."""
    start = text.index("    # MBDyn's `node distance`")
    text = text[:start] + text[text.index('end: elements;'):]
    return replace_once(text, 'forces: 7;', 'forces: 6;')


example_reference(os.path.dirname(os.path.abspath(__file__)), 'model_functions', 'mf',
                  ['MBDyn results for input-examples/model_functions.mbd, written by mbdyn_reference.py'],
                  (('mov', (2, 3, 4, 5)), ('frc', (5, 6))), 100, 2000, edit=without_node_distance)
