"""Writes mbdyn_reference.txt, MBDyn's results for input-examples/dae_governor.mbd, which
check.py compares with mbsolve's. Run by hand where MBDyn is installed:
    /usr/bin/python3 mbdyn_reference.py /path/to/mbdyn
MBDyn's derivatives phase does not converge with the deck's `derivatives tolerance: 1e-10`
("Initial derivatives calculation 1 does not converge"), so MBDyn runs it with 1e-6 and 10
iterations (the only change; its update y += dCoef dy' then moves the initial state a little).
Kept: every 100th output step (t = 0, 0.01, ..., 0.1 s) of the .mov lines of ARM1 and SLEEVE
(labels 3 and 5), as MBDyn writes them.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbdyn_ref import example_reference, replace_once  # noqa: E402

example_reference(os.path.dirname(os.path.abspath(__file__)), 'dae_governor', 'governor',
                  ['MBDyn results for input-examples/dae_governor.mbd (derivatives tolerance 1e-6,',
                   'derivatives max iterations 10), written by mbdyn_reference.py'],
                  (('mov', (3, 5)),), 100, 1000,
                  edit=lambda t: replace_once(t, '    derivatives tolerance: 1e-10;\n',
                                              '    derivatives tolerance: 1e-6;\n'
                                              '    derivatives max iterations: 10;\n'))
