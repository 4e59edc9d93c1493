"""Dummy structural nodes (offset, relative frame, relative frame with pivot) report the motion
their definition says.

Deck: input-examples/dummy_nodes.mbd (spatial double pendulum, nodes 2 and 3; dummy nodes 10,
11, 12; orientation matrices in the .mov, 15 digits), dt = 1e-3, 1 s.

Checks, at every output step:
 1. Definition (recomputed here with numpy from the .mov rows of nodes 1, 2, 3, independently of
    the C++ code): offset node 10, relative-frame node 11 (MBDyn's formulas, quoted in the deck),
    pivot node 12. Tolerance 1e-12 (m, rad/s, m/s; values are O(1) printed with 15 digits)
    [observed 1.1e-14].
 2. Consistency with time (independent of the formulas): for each dummy node, the printed
    velocity equals (from step 20 on) the central difference of the printed positions and the printed angular
    velocity w equals axial(R_{k+1} R_{k-1}^T) / (2 h) (dR/dt = skew(w) R) to 2e-5 relative to the
    largest value (central differences are O(h^2) = 1e-6 times the (O(10)) third derivatives)
    [observed: 1.6e-5 at dt = 1e-3 and 4.1e-6 with DT=5e-4 in the environment: second order].
Tolerances (issue 23): each close() below is within 2-10x of the error observed when it was
set (Release build), stated in the comment beside it (a floor of a few ulps or 1e-15 where
the observed error is 0 or far below round-off); where a figure above is larger, it is the
bound the physics or the solver tolerance allows, not the tolerance checked.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
DT = float(os.environ.get("DT", 1e-3))
r = Run(exe, os.path.join(EXAMPLES, 'dummy_nodes.mbd'), work, 'dummy_nodes', {'DT': DT, 'TF': 1.0})


def node(label):
    m = r.rows('mov', label)
    return m[:, 1:4], m[:, 4:13].reshape(-1, 3, 3), m[:, 13:16], m[:, 16:19]


def rot(axis, deg):
    c, s = np.cos(np.radians(deg)), np.sin(np.radians(deg))
    i, j = [(1, 2), (2, 0), (0, 1)][axis]
    R = np.eye(3)
    R[i, i], R[i, j], R[j, i], R[j, j] = c, -s, s, c
    return R


x2, R2, v2, w2 = node(2)
x3, R3, v3, w3 = node(3)
n = len(x2)
close('output steps', n, round(1.0 / DT) + 1, 0)

# 1. Definitions.
f10, Rf10 = np.array([0.1, 0.2, 0.3]), rot(0, 30.0)
fh, Rh = np.array([0.1, 0.0, 0.0]), rot(2, 20.0)
xp = np.array([0.0, 0.0, 1.0])
expect = {10: [], 11: [], 12: []}
for k in range(n):
    f = R3[k] @ f10
    expect[10].append((x3[k] + f, R3[k] @ Rf10, v3[k] + np.cross(w3[k], f), w3[k]))
    Q = Rh.T @ R3[k].T
    d = x2[k] - x3[k]
    rel = (Q @ d - Rh.T @ fh, Q @ R2[k], Q @ (v2[k] - v3[k] - np.cross(w3[k], d)), Q @ (w2[k] - w3[k]))
    expect[11].append(rel)
    # node 12: no offset/orientation of the relative frame; pivot = ground node 1 (at the origin,
    # identity, at rest) with offset xp
    Q = R3[k].T
    expect[12].append((xp + Q @ d, Q @ R2[k], Q @ (v2[k] - v3[k] - np.cross(w3[k], d)), Q @ (w2[k] - w3[k])))
for label in (10, 11, 12):
    x, R, v, w = node(label)
    ex = expect[label]
    errs = [max(np.abs(x[k] - e[0]).max(), np.abs(R[k] - e[1]).max(), np.abs(v[k] - e[2]).max(),
                np.abs(w[k] - e[3]).max()) for k, e in enumerate(ex)]
    print(f'node {label}: largest deviation from the definition {max(errs):.3g}')
    close(f'node {label}: x, R, v, w vs definition', max(errs), 0.0, 5e-14)  # observed 1.3e-14

# 2. Time consistency (from step SKIP on: the multipliers' start transient, ~k 0.6^k, shakes
# the first steps' velocities at the 1e-5 level).
SKIP = 20
for label in (10, 11, 12):
    x, R, v, w = node(label)
    vfd = (x[2:] - x[:-2]) / (2 * DT)
    wfd = []
    for k in range(1, n - 1):
        D = R[k + 1] @ R[k - 1].T
        A = 0.5 * (D - D.T)
        wfd.append(np.array([A[2, 1], A[0, 2], A[1, 0]]) / (2 * DT))
    wfd = np.array(wfd)
    s = slice(SKIP, None)
    ev = np.abs(vfd - v[1:-1])[s].max() / np.abs(v).max()
    ew = np.abs(wfd - w[1:-1])[s].max() / np.abs(w).max()
    print(f'node {label}: |v - dx/dt| {ev:.3g}, |w - axial(dR/dt R^T)| {ew:.3g} (relative to the largest value)')
    close(f'node {label}: velocity = d(position)/dt', ev, 0.0, 2e-5)
    close(f'node {label}: angular velocity from d(R)/dt', ew, 0.0, 2e-5)
finish()
