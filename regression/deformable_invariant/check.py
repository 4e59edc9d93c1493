"""Invariant deformable displacement joint and invariant deformable joint
(input-examples/invariant_deformable_joints.mbd: six free pairs of bodies, see the deck).

References (no external data; everything recomputed here from the nodes' .mov output):
 - strains and forces: for the invariant joints e_d = Rm^T d with the mid frame
   Rm = Ra exp(theta/2), theta = rotvec(Ra^T Rb), d = x2 + R2 f2 - x1 - R1 f1 (MBDyn's
   ElasticDispJointInv / ElasticJointInv strain), local force f = K e (the deck's law) and global
   force F = Rm f (moment M = Rm m for the 6D joint): .jnt columns 14-16 (e), 2-4 (f, 2-7 for
   the 6D joint) and 8-10 (F, 8-13) to 1e-9 (16 printed digits, forces up to ~60 N);
 - energy: each pair's kinetic energy 1/2 m |v|^2 + 1/2 w.(R J R^T) w plus the law's energy
   1/2 e^T K e is conserved (the joint forces are its gradient, with the pair moment d x F shared
   through P = Ra (I + exp(theta/2))^-1 Ra^T): drift below 5e-5 relative at h = 1e-3 over 1 s
   (measured 2.1e-5 and 2.0e-5: the method's O(h^2) energy error at rho = 0.6; measured at h and
   h/2, the ratio must be 4 +- 0.8, which a force that is not the energy's gradient would break);
 - invariance: the pairs whose joint card lists the ends swapped move as the unswapped ones
   (positions, orientations, velocities to 1e-9), for both invariant joints; the plain deformable
   displacement joint with swapped ends departs from the unswapped one by more than 1e-3
   (its strain Ra^T d is measured in the first end's frame), so the test can tell them apart.
 - viscous_refused.mbd here: a viscoelastic law on an invariant deformable joint stops with exit 2
   at the card (MBDyn implements both invariant joints for elastic laws only).
Tolerances (issue 23): each close() below is within 2-10x of the error observed when it was
set (Release build), stated in the comment beside it (a floor of a few ulps or 1e-15 where
the observed error is 0 or far below round-off); where a figure above is larger, it is the
bound the physics or the solver tolerance allows, not the tolerance checked.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, euler123, expm, failures, finish, skew  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
deck = os.path.join(EXAMPLES, 'invariant_deformable_joints.mbd')

K3 = np.array([[100., 10., -5.], [10., 200., 7.], [-5., 7., 300.]])
K6 = np.diag([100., 200., 300., 20., 20., 20.])
F1, F2 = np.array([0.5, 0.1, 0.0]), np.array([-0.4, 0.0, 0.1])
M, JB = 1.0, np.diag([0.1, 0.2, 0.3])


def rotvec(R):
    c = np.clip((np.trace(R) - 1) / 2, -1.0, 1.0)
    a = np.arccos(c)
    w = np.array([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]])
    return w * (0.5 if a < 1e-12 else a / (2 * np.sin(a)))


def pair_state(b1, b2, k):
    """Kinematics of a pair at output step k: (d, theta, Ra, Rm, kinetic energy)."""
    R1, R2 = euler123(b1[k, 4:7]), euler123(b2[k, 4:7])
    d = b2[k, 1:4] + R2 @ F2 - b1[k, 1:4] - R1 @ F1
    th = rotvec(R1.T @ R2)
    Rm = R1 @ expm(0.5 * th)
    T = 0.0
    for b, R in ((b1, R1), (b2, R2)):
        v, w = b[k, 7:10], b[k, 10:13]
        T += 0.5 * M * v @ v + 0.5 * w @ (R @ JB @ R.T) @ w
    return d, th, R1, Rm, T


def run(dt, prefix):
    return Run(exe, deck, work, prefix, {'DT': dt})


r = run(1e-3, 'inv')
drift = {}
# joint label, first node, second node (as on the card), 6D law?
for lab, n1, n2, six in ((1, 1, 2, False), (2, 3, 4, True)):
    b1, b2, j = r.rows('mov', n1), r.rows('mov', n2), r.rows('jnt', lab)
    err_e = err_f = err_F = 0.0
    E = []
    for k in range(len(j)):
        d, th, Ra, Rm, T = pair_state(b1, b2, k)
        e = Rm.T @ d
        if six:
            s = np.concatenate([e, th])
            f = K6 @ s
            FG = np.concatenate([Rm @ f[:3], Rm @ f[3:]])
            err_e = max(err_e, np.abs(j[k, 13:16] - e).max(),
                        np.abs(euler123(j[k, 16:19]) - Ra.T @ euler123(b2[k, 4:7])).max())
            err_f = max(err_f, np.abs(j[k, 1:7] - f).max())
            err_F = max(err_F, np.abs(j[k, 7:13] - FG).max())
            E.append(T + 0.5 * s @ K6 @ s)
        else:
            f = K3 @ e
            err_e = max(err_e, np.abs(j[k, 13:16] - e).max())
            err_f = max(err_f, np.abs(j[k, 1:4] - f).max())
            err_F = max(err_F, np.abs(j[k, 7:10] - Rm @ f).max())
            E.append(T + 0.5 * e @ K3 @ e)
    name = 'invariant deformable joint' if six else 'invariant deformable displacement joint'
    ths = [np.linalg.norm(pair_state(b1, b2, k)[1]) for k in range(len(j))]
    print(f'     {name}: max |theta| = {max(ths):.3f} rad, max |f| = {np.abs(j[:, 1:4]).max():.3g} N')
    close(f'{name}: strain columns vs Rm^T d (and relative rotation)', err_e, 0.0, 2e-14)  # observed 4.6e-15
    close(f'{name}: local force vs K e', err_f, 0.0, 5e-12)  # observed 1.2e-12
    close(f'{name}: global force (moment) vs Rm f (Rm m)', err_F, 0.0, 5e-12)  # observed 9.6e-13
    E = np.array(E)
    drift[lab] = np.abs(E - E[0]).max() / E[0]
    close(f'{name}: energy drift max |E - E0| / E0 at h = 1e-3', drift[lab], 0.0, 5e-5)

# Second order: the drift at h/2 is about a quarter.
r2 = run(5e-4, 'inv_half')
for lab, n1, n2, six in ((1, 1, 2, False), (2, 3, 4, True)):
    b1, b2, j = r2.rows('mov', n1), r2.rows('mov', n2), r2.rows('jnt', lab)
    E = []
    for k in range(len(j)):
        d, th, Ra, Rm, T = pair_state(b1, b2, k)
        e = Rm.T @ d
        s = np.concatenate([e, th]) if six else e
        E.append(T + 0.5 * s @ (K6 if six else K3) @ s)
    E = np.array(E)
    ratio = drift[lab] / (np.abs(E - E[0]).max() / E[0])
    close(f'joint {lab}: energy drift ratio h / (h/2) (second order: 4)', ratio, 4.0, 0.8)


def moves(na, nb):
    a, b = r.rows('mov', na), r.rows('mov', nb)
    return np.abs(a[:, 1:] - b[:, 1:]).max()


close('invariant displacement joint, ends swapped (nodes 5, 6 vs 1, 2)',
      max(moves(5, 1), moves(6, 2)), 0.0, 3e-12)  # observed 5.8e-13
close('invariant deformable joint, ends swapped (nodes 7, 8 vs 3, 4)',
      max(moves(7, 3), moves(8, 4)), 0.0, 2e-12)  # observed 4.3e-13
dev = max(moves(11, 9), moves(12, 10))
ok = dev > 1e-3
print(f"{'ok  ' if ok else 'FAIL'} plain displacement joint, ends swapped, departs by {dev:.3g} (> 1e-3)")
if not ok:
    failures.append('plain joint swap')

# Viscous laws are refused, at the card (exit 2, file:line:col).
bad = Run(exe, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'viscous_refused.mbd'),
          work, 'viscous_refused', expect_rc=2)
ok = 'viscous_refused.mbd:23:5: error: an invariant deformable joint takes elastic laws only' in bad.stderr
print(f"{'ok  ' if ok else 'FAIL'} viscoelastic law on an invariant deformable joint: exit 2 at 23:5")
if not ok:
    print(bad.stderr)
    failures.append('viscous law refused')
finish()
