"""Writes mbdyn_reference.txt, MBDyn's .abs, .gen and .prm lines for input-examples/
scalar_output.mbd, which check.py compares with mbsolve's. Run by hand where MBDyn is installed:
    /usr/bin/python3 mbdyn_reference.py /path/to/mbdyn
The one change to the deck (variant(), shared with check.py, which runs mbsolve on the same text):
MBDyn's genel distance does not converge with an algebraic node (node 4 runs off to 1e79 in its
first step), so genel 5 becomes a clamp of node 4 to drive 3; its .gen value is then the load of
force 1 on node 4 minus the internal force 4's 0.25, as the distance's in the example.
Kept: every 5th output step (t = 0, 0.05, ..., 2 s) of the .abs lines of nodes 1-4, the .gen
lines of genels 1, 4, 5, the .prm lines of parameters 10, 11, 12, the .drv lines of drive
callers 1, 2, the .trc lines of drive callers 2, 3 and the .frc lines of the abstract forces
1-4, as MBDyn writes them.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
from mbdyn_ref import write_reference  # noqa: E402

DECK = os.path.join(HERE, '..', '..', 'input-examples', 'scalar_output.mbd')
EVERY, STEPS = 5, 200
DISTANCE = 'genel: 5, distance, 1, abstract, algebraic, 4, abstract, const, 0.5;'
CLAMP = 'genel: 5, clamp, 4, abstract, reference, 3;'


def variant():
    """The example's text with genel 5 a clamp (the deck MBDyn and check.py run)."""
    with open(DECK) as f:
        text = f.read()
    assert DISTANCE in text
    return text.replace(DISTANCE, CLAMP)


if __name__ == '__main__':
    write_reference(sys.argv[1], variant(), 'scalar_output',
                    ['MBDyn results for input-examples/scalar_output.mbd (genel 5 a clamp),',
                     'written by mbdyn_reference.py'],
                    (('abs', (1, 2, 3, 4)), ('gen', (1, 4, 5)), ('prm', (10, 11, 12)),
                     ('drv', (1, 2)), ('trc', (2, 3)), ('frc', (1, 2, 3, 4))),
                    EVERY, STEPS, os.path.join(HERE, 'mbdyn_reference.txt'))
