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
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbdyn_ref import example_reference, replace_once  # noqa: E402

ANCHOR = '    output precision: 12;\n'
example_reference(os.path.dirname(os.path.abspath(__file__)), 'gimbal_rotor', 'gimbal',
                  ['MBDyn results for input-examples/gimbal_rotor.mbd (with skip initial joint assembly),',
                   'written by mbdyn_reference.py'],
                  (('mov', (3,)), ('jnt', (2, 4))), 100, 4000,
                  edit=lambda t: replace_once(t, ANCHOR, ANCHOR + '    skip initial joint assembly;\n'))
