"""Screw joint (elements/joints/screw_joint.cpp): two nuts running down screws fixed to the
ground under gravity (input-examples/screw_joint.mbd), each held as MBDyn models a nut on a
screw: in line + revolute rotation + screw. NUT1: vertical right-handed screw (pitch 0.05 m),
thrown up with the matching spin, climbs 0.82 turns and runs back 5.86 turns; NUT2: screw
through (1, 0, 0) leaning 30 deg, left-handed (pitch -0.08 m), 18.6 turns from rest.

References:
- closed form (derived in the deck's header): uniformly accelerated advance
  s'' = M g_u / (M + J k^2), k = 2 pi / p; axial force on the nut N = -M g_u J k^2 / (M + J k^2),
  couple about the axis -N / k;
- the pitch relation s = p theta / (2 pi), with theta the nut's turn read off its orientation
  matrix in the .mov (unwrapped);
- MBDyn (1.7.3 as installed in /work/mbdyn, source alex-marinov/mbdyn 1727489e, a build with
  MBDYN_DEVEL, where joint.cc reads the screw joint) on the same deck: mbdyn_reference.txt,
  written by mbdyn_reference.py, every 100th step.

Observed (dt = 1e-3 s unless said) and tolerances:
- positions against the closed form: 7.97e-6 m (NUT1), 1.87e-4 m (NUT2); velocities 1.49e-5,
  2.49e-4 m/s; tolerances 2e-5, 5e-4, 4e-5, 6e-4. Both nuts spin fast (NUT2 78 rad/s at the
  end) and the integrated rotation is not a quadratic in t, so the two-step method is not exact
  here: the error is second order, 4.00 times smaller at dt = 5e-4 (ratio checked to 4 +- 0.015
  for both nuts, measured 4.0014 and 4.0040), and MBDyn's error is the same (7.96e-6 m,
  1.86e-4 m); the turns at 3 s against the header's -5.0424 and 18.6162 (4 decimals): 2e-4
  (measured 3.3e-5, 1.1e-5), the 0.815 turns up (3 decimals) 1e-3 (its rounding; 5.8e-5);
- the pitch relation, |s - p theta / (2 pi)|: 1.4e-15 m (NUT1), 4.1e-14 m (NUT2, 18.6 turns);
  tolerances 1e-14, 3e-13 (MBDyn: 8e-17, 1.1e-15);
- reactions from t = 0.05 s (the derivatives phase leaves the multipliers a start transient,
  5e-3 N at the first step, MBDyn's alike): the force on the nut N u (the force on node 2,
  MBDyn's F1 lambda: NUT1 F_z = +19.37 N) 4.1e-5 N and 2.5e-4 N (tolerances 1.5e-4, 8e-4);
  the moment MBDyn reports, C1 lambda = b1 x F - (N / k) u (b1 = nut point - node 1: zero for
  NUT1; (0, -N cos 30, 0) = -7.07 N m for NUT2, whose screw axis passes 1 m from the ground
  node), 3.3e-7 N m and 2.5e-4 N m (tolerances 1e-6, 8e-4); the local columns in the screw frame
  (axis 3 = u): f = (0, 0, N), m = R^T M, 2.9e-4 (8e-4);
- the .jnt extra columns (MBDyn's): theta in degrees against the .mov angle 1.1e-12, 3.6e-12 deg
  (tolerances 1e-11, 3e-11); d = e.D the advance to round-off (0 and 1.1e-15 m, 3.8 ulp of |x|; 8 ulp); Theta, the rotation
  vector of R1^T R2, the wrapped angle times the axis, 9.3e-15 and 4.9e-14 (3e-13); D = p2 - p1,
  1.1e-16 (1e-15);
- against MBDyn, at the 31 sampled steps: NUT1 position 7.1e-9 m, velocity 2.0e-8 m/s,
  orientation 8.6e-7; NUT2 position 9.2e-7 m, velocity 1.8e-6 m/s, orientation 5.5e-5 (its
  angle, 18.6 turns, differs by 8e-5 rad at 3 s: the two programs' rotation updates differ at
  second order, docs/rotation-update.md); tolerances 5e-8, 1e-7, 5e-6, 5e-6, 1e-5, 4e-4. Screw 2
  (NUT1) .jnt, all 20 columns but theta, from t = 0.1 s: 8.9e-7 (the rotation vector Theta; the
  reaction columns 1.0e-7), tolerance 5e-6; theta 5.1e-5 deg (3e-4). Screw
  5 (NUT2): MBDyn writes the global force and moment in its local columns and R1 R1h times them
  in its global ones (ScrewJoint::Output); mbsolve's global columns against MBDyn's local ones
  3.0e-6 (2e-5), mbsolve's local columns against (R1 R1h)^T times MBDyn's local ones 3.5e-6
  (2e-5); extras: theta 4.8e-3 deg (2e-2), d 1.1e-6 m, Theta 7.2e-5, D 9.2e-7 (5e-6, 4e-4, 5e-6).
- the relative-coordinate path refuses the deck at the first screw card (exit 2,
  screw_joint.mbd:LINE:5 "joint 2 (screw): not supported by the relative-coordinate path").

It can fail: with the reported force on end 1 (the multiplier as it is) NUT1's F_z is -19.37 N
(off by 38.7 N); without the arm term b1 x F in the reported moment NUT2's M_y is off by 7.07
N m; with the pitch's sign dropped NUT2 falls the same way but turns the other way, and its pitch
relation is off by twice its advance, 3.0 m at 3 s (measured: 2.98 m); without the unwrapping of
theta (theta = a.Theta, within +-pi) the run stops at t = 2.457 s, Newton not converging (exit 3).
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402
from mbdyn_ref import read_reference  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
HERE = os.path.dirname(os.path.abspath(__file__))
DECK = os.path.join(EXAMPLES, 'screw_joint.mbd')
G, BETA, V0 = 9.81, math.radians(30.0), 0.1
NUTS = {  # label: mass, axial inertia, pitch, point of the axis, axis, initial advance rate
    2: (2.0, 0.01, 0.05, np.zeros(3), np.array([0.0, 0.0, 1.0]), V0),
    3: (1.0, 0.004, -0.08, np.array([1.0, 0.0, 0.0]),
        np.array([math.sin(BETA), 0.0, math.cos(BETA)]), 0.0),
}
SCREW = {2: 2, 3: 5}  # nut label: screw joint label
T_SKIP = 0.05


def closed_form(lab):
    m, j, p, x0, u, v0 = NUTS[lab]
    k = 2 * math.pi / p
    gu = -G * u[2]
    acc = m * gu / (m + j * k * k)
    n = -m * gu * j * k * k / (m + j * k * k)
    return k, acc, n


def turn(mov, u):
    """The nut's rotation about u from its orientation matrix (.mov columns 4-12, row-major):
    its axis 2, initially y (orthogonal to u), turns to cos(th) y + sin(th) u x y."""
    e2 = mov[:, [5, 8, 11]]
    y = np.array([0.0, 1.0, 0.0])
    return np.unwrap(np.arctan2(e2 @ np.cross(u, y), e2 @ y))


def motion_errors(run, lab, t):
    m, j, p, x0, u, v0 = NUTS[lab]
    k, acc, n = closed_form(lab)
    mov = run.rows('mov', lab)
    x = x0 + np.outer(v0 * t + 0.5 * acc * t ** 2, u)
    v = np.outer(v0 + acc * t, u)
    return mov, np.abs(mov[:, 1:4] - x).max(), np.abs(mov[:, 13:16] - v).max()


r = Run(exe, DECK, work, 'screw')
t = r.times()
late = t >= T_SKIP
close('output steps', len(t), 3001, 0)
r_half = Run(exe, DECK, work, 'screw_half', {'DT': 5e-4})
t_half = r_half.times()
mov = {}
for lab, name in ((2, 'NUT1'), (3, 'NUT2')):
    m, j, p, x0, u, v0 = NUTS[lab]
    k, acc, n = closed_form(lab)
    mv, ex, ev = motion_errors(r, lab, t)
    mov[lab] = mv
    _, ex_half, _ = motion_errors(r_half, lab, t_half)
    tol_x, tol_v = {2: (2e-5, 4e-5), 3: (5e-4, 6e-4)}[lab]
    close(f'{name}: max |x - closed form| [m]', ex, 0.0, tol_x)
    close(f'{name}: max |v - closed form| [m/s]', ev, 0.0, tol_v)
    close(f'{name}: position error ratio dt = 1e-3 / 5e-4 (second order)', ex / ex_half, 4.0, 0.015)

    # Pitch relation, from the node's own motion.
    th = turn(mv, u)
    s = (mv[:, 1:4] - x0) @ u
    close(f'{name}: max |s - p theta / 2 pi| [m]', np.abs(s - p * th / (2 * math.pi)).max(), 0.0,
          {2: 1e-14, 3: 3e-13}[lab])
    if lab == 2:
        close('NUT1: turns up before falling back', th.max() / (2 * math.pi), 0.815, 1e-3)
    close(f'{name}: turns at 3 s', th[-1] / (2 * math.pi), {2: -5.0424, 3: 18.6162}[lab], 2e-4)

    # Reaction: the force on the nut and MBDyn's moment C1 lambda = b1 x F - (N / k) u.
    jnt = r.rows('jnt', SCREW[lab])
    F = np.outer(np.full(len(t), n), u)
    M = np.cross(mv[:, 1:4] - 0.0, F) - np.outer(np.full(len(t), n / k), u)
    tol_f, tol_m = {2: (1.5e-4, 1e-6), 3: (8e-4, 8e-4)}[lab]
    close(f'{name}: max |F - N u| [N] (t >= {T_SKIP})', np.abs(jnt[late, 7:10] - F[late]).max(), 0.0,
          tol_f)
    close(f'{name}: max |M - (b1 x F - (N/k) u)| [Nm]', np.abs(jnt[late, 10:13] - M[late]).max(),
          0.0, tol_m)
    # Local columns in the screw frame: axis 3 = u, axis 2 = y (the deck's frames).
    Rs = np.column_stack([np.cross([0.0, 1.0, 0.0], u), [0.0, 1.0, 0.0], u])
    close(f'{name}: max |f - (0, 0, N)|, |m - Rs^T M| [N, Nm]',
          max(np.abs(jnt[late, 1:4] - [0.0, 0.0, n]).max(),
              np.abs(jnt[late, 4:7] - M[late] @ Rs).max()), 0.0, {2: 1.5e-4, 3: 8e-4}[lab])

    # Extra columns: theta (deg), d = e.D, Theta (node-1 frame = global here), D.
    close(f'{name}: .jnt theta - .mov angle [deg]', np.abs(jnt[:, 13] - np.degrees(th)).max(), 0.0,
          {2: 1e-11, 3: 3e-11}[lab])
    # d and s are the same number computed in two roundings (C++ e.D, numpy (x - x0).u from the
    # .mov positions): a few units in the last place of the positions (NUT2: 1.1e-15 m, 3.8 ulp
    # of its max |x| = 1.3 m; 0 for NUT1).
    ulp = np.finfo(float).eps * max(1.0, np.abs(mv[:, 1:4]).max())
    close(f'{name}: .jnt d - advance [m]', np.abs(jnt[:, 14] - s).max(), 0.0, 8 * ulp)
    wrapped = np.mod(th + math.pi, 2 * math.pi) - math.pi
    close(f'{name}: .jnt Theta - wrapped angle u', np.abs(jnt[:, 15:18] - np.outer(wrapped, u)).max(),
          0.0, 3e-13)
    close(f'{name}: .jnt D - (x - axis point) [m]', np.abs(jnt[:, 18:21] - (mv[:, 1:4] - x0)).max(),
          0.0, 1e-15)

# Against MBDyn (every 100th step).
ref = read_reference(os.path.join(HERE, 'mbdyn_reference.txt'))
steps = ref[('mov', 2)][:, 0].astype(int)
close('MBDyn samples', len(steps), 31, 0)
for lab, name, tol in ((2, 'NUT1', (5e-8, 1e-7, 5e-6)), (3, 'NUT2', (5e-6, 1e-5, 4e-4))):
    a, b = mov[lab][steps], ref[('mov', lab)]
    close(f'{name} vs MBDyn: position [m]', np.abs(a[:, 1:4] - b[:, 1:4]).max(), 0.0, tol[0])
    close(f'{name} vs MBDyn: velocity [m/s]', np.abs(a[:, 13:16] - b[:, 13:16]).max(), 0.0, tol[1])
    close(f'{name} vs MBDyn: orientation matrix', np.abs(a[:, 4:13] - b[:, 4:13]).max(), 0.0, tol[2])
j2, b2 = r.rows('jnt', 2)[steps], ref[('jnt', 2)]
after = steps >= 100
cols = [c for c in range(1, 21) if c != 13]
close('screw 2 vs MBDyn: .jnt columns 2-21 but theta (t >= 0.1 s)',
      np.abs(j2[after][:, cols] - b2[after][:, cols]).max(), 0.0, 5e-6)
close('screw 2 vs MBDyn: theta [deg]', np.abs(j2[:, 13] - b2[:, 13]).max(), 0.0, 3e-4)
j5, b5 = r.rows('jnt', 5)[steps], ref[('jnt', 5)]
u2 = NUTS[3][4]
Rs = np.column_stack([np.cross([0.0, 1.0, 0.0], u2), [0.0, 1.0, 0.0], u2])
close('screw 5 vs MBDyn: global F, M vs MBDyn\'s local columns',
      np.abs(j5[after][:, 7:13] - b5[after][:, 1:7]).max(), 0.0, 2e-5)
loc = np.hstack([b5[:, 1:4] @ Rs, b5[:, 4:7] @ Rs])
close('screw 5 vs MBDyn: local f, m vs (R1 R1h)^T MBDyn\'s local columns',
      np.abs(j5[after][:, 1:7] - loc[after]).max(), 0.0, 2e-5)
close('screw 5 vs MBDyn: theta [deg]', np.abs(j5[:, 13] - b5[:, 13]).max(), 0.0, 2e-2)
close('screw 5 vs MBDyn: d [m]', np.abs(j5[:, 14] - b5[:, 14]).max(), 0.0, 5e-6)
close('screw 5 vs MBDyn: Theta', np.abs(j5[:, 15:18] - b5[:, 15:18]).max(), 0.0, 4e-4)
close('screw 5 vs MBDyn: D [m]', np.abs(j5[:, 18:21] - b5[:, 18:21]).max(), 0.0, 5e-6)

# The relative-coordinate path refuses the screw at its card.
rr = Run(exe, DECK, work, 'screw_tree', expect_rc=2, extra=('--tree',))
close('--tree: located error at the first screw card',
      0 if ('screw_joint.mbd:' in rr.stderr and 'joint 2 (screw): not supported by the '
            'relative-coordinate path' in rr.stderr) else 1, 0, 0)
finish()
