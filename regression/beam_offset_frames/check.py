"""Beams whose nodes' frames are rotated away from the section frame
(input-examples/beam_offset_frames*.mbd, written by gen_decks.py here).

Each deck runs with the switches ROT (node frames rotated by 98 to 170 degrees about skew axes,
or the identity) and ALN (each beam node's `orientation` the section frame, or an arbitrary one
of 98 to 160 degrees); the section frames are the card's (absolute). In MBDyn the four
combinations are the same model: its beams interpolate the nodes' rotations, and the relative
orientations only serve `from nodes` sections. The reference is the aligned twin (ROT = 0,
ALN = 1: node frames composed with the relative orientations are the section frames), which
matched MBDyn before and after the fix of beam_element.cpp; the others must equal it to
round-off, compared in the global frame: positions, and the rotations since the start R R0^T
(the node frames differ by the constant R0).

Before the fix (node frames composed with the relative orientations interpolated) the ALN = 0
decks were other models: the beam3 tip went to (y, z) = (3.7e-5, 2.1e-4) m instead of
(-3.33e-4, 0), the beam2 tip to (-3.37e-4, -1.28e-4) instead of (-3.32e-4, 0) (with a 1e-6 N
tolerance: the initial strains were not exactly zero, and this deck's 1e-10 N stopped the run in
the derivatives phase); the portal stopped at step 10 (Newton: residual 2.2e3 N), the vibration
at step 6 (non-finite residual).

(a) beam_offset_frames.mbd, static cantilevers under a tip force P (P L^2/EI = 1e-3):
    - twins: node positions equal to 1e-15 m (observed 2.2e-16 m, an ulp of the 1 m
      coordinates; the deflections 3.3e-4 m differ by 1.1e-18 m), rotations since the start
      to 8e-15 (observed 8.9e-16);
    - beam3 (4 elements): P L^3/(3 EI) within 1e-6 relative (observed 1.9e-7: shear
      flexibility P L/GA and the geometric nonlinearity);
    - beam2 (8 elements, one evaluation point each, curvature constant in an element):
      P L^3/(3 EI) (1 - 1/(4 N^2)) within 1e-6 relative (observed 1.9e-7).
(b) beam_offset_frames_portal.mbd, post node shared by four beams at 98, 149, 58 and 146
    degrees from its frame, harmonic force, 1000 steps: every combination runs to the end and
    its positions equal the aligned twin's to 4e-14 m over the run (observed 7.6e-15 m, of
    displacements up to 0.11 m), rotations since the start to 2e-13 (observed 2.5e-14),
    velocities to 4e-11 m/s (observed 4.1e-12, of up to 2 m/s).
(c) beam_offset_frames_vibration.mbd, free vibration of a beam3 and a beam2 cantilever
    (viscoelastic, C = BETA K), 3000 steps: positions equal to the aligned twin's to 3e-14 m
    (observed 5.7e-15 m of 1e-2 m), rotations to 4e-13 (observed 4.1e-14), angular velocities
    to 7e-9 rad/s (observed 7.3e-10 of 1.5 rad/s: the lumped rotary inertias are small). And the
    physics of the twin: first frequency within 1.5% of the Euler-Bernoulli
    w_1 = 1.8751^2 sqrt(EJ/(MU L^4)) (observed -1.06% beam3, -0.74% beam2: 4 and 8 elements with
    lumped masses; regression/beam_vibration's 20 elements give -0.06%), damping ratio of the
    tip's peaks within 4e-4 relative of BETA w/2 with the measured w (observed 4.2e-5, 3.1e-5).
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
COMBOS = [(0, 1), (1, 0), (1, 1), (0, 0)]  # (ROT, ALN); the first is the aligned twin


def movs(deck, prefix, combos=COMBOS):
    """.mov of every node for each (ROT, ALN): {combo: {label: rows}} (rows without the label:
    position 0-2, orientation matrix 3-11 row-major, velocity 12-14, angular velocity 15-17)."""
    out = {}
    for rot, aln in combos:
        r = Run(exe, os.path.join(EXAMPLES, deck), work, f'{prefix}_{rot}{aln}',
                {'ROT': rot, 'ALN': aln})
        nodes = {}
        with open(r.prefix + '.mov') as f:
            for line in f:
                w = line.split()
                nodes.setdefault(int(w[0]), []).append([float(v) for v in w[1:]])
        out[(rot, aln)] = {k: np.array(v) for k, v in nodes.items()}
    return out


def twin_errors(a, b):
    """Largest differences between two runs: positions, rotations since the start R R0^T,
    velocities, angular velocities (every node, every step)."""
    ex = er = ev = ew = 0.0
    for n in a:
        if a[n].shape != b[n].shape:
            sys.exit(f'node {n}: {len(b[n])} output steps against {len(a[n])}')
        ex = max(ex, np.abs(a[n][:, 0:3] - b[n][:, 0:3]).max())
        ev = max(ev, np.abs(a[n][:, 12:15] - b[n][:, 12:15]).max())
        ew = max(ew, np.abs(a[n][:, 15:18] - b[n][:, 15:18]).max())
        Ra = a[n][:, 3:12].reshape(-1, 3, 3)
        Rb = b[n][:, 3:12].reshape(-1, 3, 3)
        Da = Ra @ Ra[0].T
        Db = Rb @ Rb[0].T
        er = max(er, np.abs(Da - Db).max())
    return ex, er, ev, ew


def check_twins(name, runs, tol_x, tol_r, tol_v=None, tol_w=None):
    ref = runs[COMBOS[0]]
    for combo in COMBOS[1:]:
        ex, er, ev, ew = twin_errors(ref, runs[combo])
        what = f'{name}, ROT = {combo[0]}, ALN = {combo[1]} vs aligned twin'
        close(f'{what}: positions [m]', ex, 0.0, tol_x)
        close(f'{what}: rotations since the start', er, 0.0, tol_r)
        if tol_v is not None:
            close(f'{what}: velocities [m/s]', ev, 0.0, tol_v)
        if tol_w is not None:
            close(f'{what}: angular velocities [rad/s]', ew, 0.0, tol_w)


# (a) Static cantilevers.
P, L, EI = 1e-3, 1.0, 1.0
runs = movs('beam_offset_frames.mbd', 'static')
check_twins('static', runs, 1e-15, 8e-15)
delta = P * L**3 / (3 * EI)
for combo, nodes in runs.items():
    tag = f'ROT = {combo[0]}, ALN = {combo[1]}'
    close(f'static beam3 tip deflection, {tag} [m]', -nodes[8][-1][1], delta, 1e-6,
          relative=True)
    close(f'static beam2 tip deflection, {tag} [m]', 0.5 - nodes[108][-1][1],
          delta * (1 - 1 / (4 * 8**2)), 1e-6, relative=True)

# (b) Portal frame, harmonic force.
runs = movs('beam_offset_frames_portal.mbd', 'portal')
for combo, nodes in runs.items():
    if len(nodes[9]) != 1001:
        sys.exit(f'portal {combo}: {len(nodes[9])} output steps, expected 1001')
check_twins('portal', runs, 4e-14, 2e-13, tol_v=4e-11)  # observed 7.6e-15, 2.1e-14, 4.9e-12
ref = runs[COMBOS[0]]
vmax = max(np.linalg.norm(ref[n][:, 12:15], axis=1).max() for n in ref)
print(f'portal: largest node speed {vmax:.4g} m/s, arm tip displacement '
      f'{np.linalg.norm(ref[9][:, 0:3] - ref[9][0, 0:3], axis=1).max():.4g} m')

# (c) Cantilever vibration.
DT, BETA, EJ, MU = 2e-4, 1e-4, 1e3, 1.0
W1 = 1.87510406871**2 * math.sqrt(EJ / (MU * L**4))
runs = movs('beam_offset_frames_vibration.mbd', 'vibration', COMBOS[:2])
ref = runs[COMBOS[0]]
ex, er, ev, ew = twin_errors(ref, runs[COMBOS[1]])
close('vibration, ROT = 1, ALN = 0 vs aligned twin: positions [m]', ex, 0.0, 3e-14)  # 5.7e-15
close('vibration, ROT = 1, ALN = 0 vs aligned twin: rotations since the start', er, 0.0, 4e-13)
close('vibration, ROT = 1, ALN = 0 vs aligned twin: angular velocities [rad/s]', ew, 0.0, 7e-9)
for tip, kind in ((8, 'beam3'), (108, 'beam2')):
    z = runs[COMBOS[1]][tip][:, 2]
    t = np.arange(len(z)) * DT
    # Zero crossings (linear interpolation) -> half periods; peaks (parabola) -> decay rate.
    k = np.nonzero(np.sign(z[1:]) != np.sign(z[:-1]))[0]
    zc = t[k] - z[k] * DT / (z[k + 1] - z[k])
    w = math.pi / np.polyfit(np.arange(len(zc)), zc, 1)[0]
    close(f'vibration {kind}: first frequency [rad/s]', w, W1, 1.5e-2, relative=True)
    y = np.abs(z)
    p = np.nonzero((y[1:-1] >= y[:-2]) & (y[1:-1] > y[2:]) & (y[1:-1] > 1e-3))[0] + 1
    d = 0.5 * (y[p - 1] - y[p + 1]) / (y[p - 1] - 2 * y[p] + y[p + 1])
    tp, yp = t[p] + d * DT, y[p] - 0.25 * (y[p - 1] - y[p + 1]) * d
    rate = -np.polyfit(tp, np.log(yp), 1)[0]
    close(f'vibration {kind}: damping ratio', rate / w, BETA * w / 2, 4e-4, relative=True)
finish()
