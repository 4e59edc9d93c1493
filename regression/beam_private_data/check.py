"""Beam private data through `element` drive callers (input-examples/beam_private_data.mbd).

Three couples on a free probe node take, as their value, beam private data (a `linear, 0., 1.`
drive of the datum): pI.Mz of beam 1, pII.Fy of beam 4 and pI.kz of beam 2. Reference: the beams'
own .act output of the same step (f, m of point I then II in the section frame), independent of
the private-data path; with the linear elastic law Mz = EJ kz (EJ = 10 N m^2).
Tolerance 4e-15 relative to the largest value over the run (16 significant digits written;
observed 0, 0 and 8.4e-16: the product EJ kz).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
EJ = 10.0
r = Run(exe, os.path.join(EXAMPLES, 'beam_private_data.mbd'), work, 'private_data')
c = {k: r.rows('frc', k)[:, -1] for k in (91, 92, 93)}
act = {k: r.rows('act', k) for k in (1, 2, 4)}
if len(c[91]) < 100:
    sys.exit('too few output steps')


def rel(a, b):
    return np.abs(a - b).max() / np.abs(b).max()


close('pI.Mz of beam 1 vs .act column 7', rel(c[91], act[1][:, 6]), 0, 4e-15)  # observed 0
close('pII.Fy of beam 4 vs .act column 9', rel(c[92], act[4][:, 8]), 0, 4e-15)  # observed 0
close('EJ pI.kz of beam 2 vs .act column 7 (Mz)', rel(EJ * c[93], act[2][:, 6]), 0,
      4e-15)  # observed 8.4e-16
finish()
