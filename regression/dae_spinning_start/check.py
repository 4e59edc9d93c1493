"""Rotors spinning at the initial time: centripetal reactions from output step 0 on
(input-examples/dae_spinning_start.mbd).

Reference: closed form. Each rotor turns uniformly about global z (no gravity, no torque about
the axis), so its joint carries the constant centripetal force M W^2 R along the radial
direction e_r (axis -> centre of mass) and no couple. The .jnt global force (columns 8-10) is the
one MBDyn reports (docs/reactions.md): the total joint's on the ground side, along +e_r; the
revolute hinges' on the rotor (node 2), along -e_r:
    HINGED (joint 2): 1.0 kg * (2 rad/s)^2 * 0.6 m = 2.4 N,
    OFFSET (joint 3) and TOTAL (joint 4): 1.5 kg * (3 rad/s)^2 * 0.4 m = 5.4 N.
Step 0 is the derivatives phase: it solves for the multipliers at the given positions and
velocities, with the constraints at acceleration level (solvers/dae/constraint_rows.hpp), so the
reaction must be the closed form to the accuracy of its velocity terms (one-sided differences,
~1e-9 relative): tolerance 1e-8 relative for HINGED (measured 3.4e-10 .. 2.7e-9 at DT 1e-3 ..
2.5e-4; 2.05e-9 at 5e-4), 3e-10 for OFFSET and TOTAL (measured 6.4e-11 at DT 1e-3 and 5e-4).
Before the fix the phase gave 0 N there and the first steps oscillated by the full value
(10.8, 0.86, 8.9 N for 5.4 N).
Steps 1..end: the two-step method's second-order error of the multipliers, no oscillation:
max |F . e_r - M W^2 R| / (M W^2 R) <= 4e-6 at DT = 1e-3 (measured 8.6e-7 HINGED, 2.25e-6
OFFSET/TOTAL) and a ratio 4 +- 0.03 (HINGED, measured 3.991) or 4 +- 1.5e-3 (OFFSET/TOTAL,
measured 3.9997) between DT and DT/2; the force across e_r stays below 2e-13 N (HINGED, measured
4.0e-14), 3e-7 N (OFFSET, 7.6e-8), 1e-6 N (TOTAL, 1.7e-7), and the couple below 1e-16 N m
(HINGED, 7.2e-18: round-off, left at 1e-16), 1e-7 N m (OFFSET, TOTAL: 2.9e-8, 5.7e-8). The
rotation angle is W t to 1e-6 rad over 0.5 s (the method's phase error, measured 4.0e-7 and
6.7e-7 rad at DT = 1e-3).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, euler123, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
DECK = os.path.join(EXAMPLES, 'dae_spinning_start.mbd')
# joint label -> (node label, reference force M W^2 R, angular speed, radial direction from node)
ROTORS = {2: (2, 1.0 * 2.0 ** 2 * 0.6, 2.0, 'position'), 3: (3, 1.5 * 3.0 ** 2 * 0.4, 3.0, 'x axis'),
          4: (4, 1.5 * 3.0 ** 2 * 0.4, 3.0, 'x axis')}
NAMES = {2: 'HINGED', 3: 'OFFSET', 4: 'TOTAL'}
SIDE = {2: -1.0, 3: -1.0, 4: 1.0}  # +1: the reported force points along +e_r
# Tolerances per rotor (the docstring gives the measured values): step 0 relative reaction,
# error ratio DT / (DT/2), force across e_r [N], couple [N m].
TOLS = {2: (1e-8, 0.03, 2e-13, 1e-16), 3: (3e-10, 1.5e-3, 3e-7, 1e-7),
        4: (3e-10, 1.5e-3, 1e-6, 1e-7)}


def radial(mov, how):
    if how == 'position':
        p = mov[:, 1:4].copy()
        p[:, 2] = 0.0
        return p / np.linalg.norm(p, axis=1)[:, None]
    return np.array([euler123(a) @ np.array([1.0, 0.0, 0.0]) for a in mov[:, 4:7]])


def run(dt):
    r = Run(exe, DECK, work, f'spin_{dt:g}', {'DT': dt})
    t = r.times()
    out = {}
    for j, (node, ref, w, how) in ROTORS.items():
        jnt, mov = r.rows('jnt', j), r.rows('mov', node)
        er = radial(mov, how)
        f = SIDE[j] * jnt[:, 7:10]
        along = np.einsum('ij,ij->i', f, er)
        across = np.linalg.norm(f - along[:, None] * er, axis=1)
        angle = np.unwrap(np.arctan2(er[:, 1], er[:, 0]))
        out[j] = dict(t=t, along=along, across=across, couple=np.abs(jnt[:, 10:13]).max(),
                      angle=np.abs(angle - w * t).max(), ref=ref)
    return out


coarse, fine = run(1e-3), run(5e-4)
for j in ROTORS:
    name, c, f = NAMES[j], coarse[j], fine[j]
    ref = c['ref']
    tol0, tol_ratio, tol_across, tol_couple = TOLS[j]
    close(f'{name} step 0 (derivatives phase) reaction along e_r [N]', c['along'][0], ref, tol0, relative=True)
    close(f'{name} step 0 at DT/2 [N]', f['along'][0], ref, tol0, relative=True)
    dev_c = np.abs(c['along'][1:] - ref).max() / ref
    dev_f = np.abs(f['along'][1:] - ref).max() / ref
    close(f'{name} steps >= 1: max relative reaction error, DT 1e-3', dev_c, 0.0, 4e-6)
    close(f'{name} steps >= 1: max relative reaction error, DT 5e-4', dev_f, 0.0, 1e-6)
    close(f'{name} error ratio DT / (DT/2) (second order: 4)', dev_c / dev_f, 4.0, tol_ratio)
    close(f'{name} max force across e_r [N]', max(c['across'].max(), f['across'].max()), 0.0, tol_across)
    close(f'{name} max |couple| [N m]', max(c['couple'], f['couple']), 0.0, tol_couple)
    close(f'{name} max |angle - W t| [rad], DT 1e-3', c['angle'], 0.0, 1e-6)
finish()
