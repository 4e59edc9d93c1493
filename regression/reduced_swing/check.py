"""Total pin joint with two free rotation components (input-examples/reduced_swing_pendulum.mbd):
the node's orientation R = exp(a e_x + b e_y), component z of the rotation vector locked at 0
(the DAE's row e_z . log(R) = 0, MBDyn's total joint). The relative-coordinate tree maps it to a
ball (Rx Ry Rz) plus a one-equation cut of the same joint (E_yx - E_xy = 2 sin(th) n_z = 0).

Reference: Lagrange's equations in the coordinates q = (a, b) themselves, a formulation neither
solver uses, integrated here by RK4 (step 2.5e-4 s):
  omega_body = Jr(phi) qd (Jr: the right Jacobian of SO(3), phi = (a, b, 0)),
  T = 1/2 omega_body . Jo omega_body (Jo: inertia about the pivot, node axes),
  V = M G e_z . R c,  c = (0, 0, -L),
  Mq qdd = dT/dq - (d/de Mq(q + e qd)) qd - dV/dq,  Mq = B^T Jo B, B = Jr[:, :2],
with the derivatives by complex steps (exact to round-off). Compared: the centre of mass
x_c = R c at every output step (DT 1e-3 s, t in [0, 1] s).
  reduced RK4: within 1e-11 m (measured 2.3e-12)
  reduced two-step implicit: within 1e-5 m (second order, DT 1e-3; measured 1.9e-6)
  DAE (mbsolve without --analysis, DT 1e-4 s): within 5e-8 m at every output step (1.7e-8)
  the same pendulum with joint 1 split into a spherical pin (tree, 3 rotations) and a total pin
  joint with the position inactive (a one-equation cut: the twist row as a loop cut): RK4 within
  1e-11 m; the same with the joint's nodes swapped (a total joint from a clamped ground node, the
  tree from node 2 to node 1): 1e-11 m (both 2.3e-12)
  energy 1/2 w.Jo w + V constant within 6e-12 J (reduced RK4; measured 1.4e-12) and the rotation
  vector's z component within 2e-15 rad (every output step, from the .mov angles; 3.1e-16)
  a cardano-like map (Rx Ry) would be off: the check measures |x_c(cardano) - x_c| > 1e-3 m on
  the reference itself (log_z(Rx(a) Ry(b)) = ab/2 + ...), so the tolerances above discriminate.
Bad input: two free rotations with the third driven stops with file:line:col, exit 2.
"""
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, close, euler123, expm, finish  # noqa: E402
import reduced_util  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
deck = os.path.join(EXAMPLES, 'reduced_swing_pendulum.mbd')
M, L, JX, JY, JZ, W1, W2, G = 1.0, 0.5, 0.02, 0.03, 0.01, 3.0, 2.0, 9.81
c = np.array([0.0, 0.0, -L])
Jo = np.diag([JX, JY, JZ]) + M * (c @ c * np.eye(3) - np.outer(c, c))


def coeffs(t2):
    """sin(t)/t, (1 - cos t)/t^2, (t - sin t)/t^3 as functions of t^2 (complex-step safe)."""
    if abs(t2) < 1e-6:
        return (1 - t2 / 6 + t2 * t2 / 120, 0.5 - t2 / 24 + t2 * t2 / 720,
                1 / 6 - t2 / 120 + t2 * t2 / 5040)
    t = np.sqrt(t2)
    return np.sin(t) / t, (1 - np.cos(t)) / t2, (t - np.sin(t)) / (t2 * t)


def sk(v):
    return np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]], dtype=complex)


def R_of(q):
    phi = np.array([q[0], q[1], 0.0], dtype=complex)
    s, c1, _ = coeffs(phi @ phi)
    K = sk(phi)
    return np.eye(3) + s * K + c1 * K @ K


def B_of(q):
    phi = np.array([q[0], q[1], 0.0], dtype=complex)
    _, c1, c2 = coeffs(phi @ phi)
    K = sk(phi)
    return (np.eye(3) - c1 * K + c2 * K @ K)[:, :2]


def Mq(q):
    B = B_of(q)
    return B.T @ Jo @ B


def T(q, qd):
    return 0.5 * qd @ Mq(q) @ qd


def V(q):
    return M * G * (R_of(q) @ c)[2]


H = 1e-30


def accel(q, qd):
    dT = np.array([T(q + 1j * H * e, qd).imag / H for e in np.eye(2)])
    dV = np.array([V(q + 1j * H * e).imag / H for e in np.eye(2)])
    Mdot = Mq(q + 1j * H * qd).imag / H
    return np.linalg.solve(Mq(q).real, dT - Mdot @ qd - dV)


def f(y):
    return np.concatenate([y[2:], accel(y[:2].astype(complex), y[2:].astype(complex))])


# At R = I the rotation vector's rate is the angular velocity: qd(0) = (W1, W2).
h, y, sub = 2.5e-4, np.array([0.0, 0.0, W1, W2]), 4
ref, ref_q = [R_of(y[:2]).real @ c], [y[:2].copy()]
for i in range(4000):
    y = reduced_util.rk4_step(lambda _, yy: f(yy), 0.0, y, h)
    if (i + 1) % sub == 0:
        ref.append(R_of(y[:2]).real @ c)
        ref_q.append(y[:2].copy())
ref = np.array(ref)
E0 = 0.5 * np.array([W1, W2, 0.0]) @ Jo @ np.array([W1, W2, 0.0]) + V(np.zeros(2)).real
cardano = np.array([expm(np.array([a, 0, 0])) @ expm(np.array([0, b, 0])) @ c for a, b in ref_q])
close('reference: a cardano-like map Rx(a) Ry(b) differs by more than 1e-3 m [m]',
      float(np.max(np.abs(cardano - ref)) > 1e-3), 1.0, 0)


def run(deck, prefix, analysis=None, defines=None, expect=0, tree=False):
    return reduced_util.run(exe, work, deck, prefix, analysis, defines, expect, tree)

def mov(prefix):
    r = np.array([[float(v) for v in line.split()] for line in open(prefix + '.mov')])
    return r[r[:, 0] == 1]


_, p = run(deck, 'tree', tree=True)
close('tree: degrees of freedom', int(re.search(r'degrees of freedom: (\d+)', p.stdout).group(1)), 2, 0)
close('tree: joint 1 also a 1-equation cut',
      int(re.search(r'joint 1 \(total pin joint\): (\d+) equation', p.stdout).group(1)), 1, 0)

split = reduced_util.variant(deck, work, 'swing_split.mbd', '''    joint: 1, total pin joint,
        1, position, null,
        position, null,
        position constraint, active, active, active, null,''', '''    joint: 2, spherical pin, 1, position, null, position, null;
    joint: 1, total pin joint,
        1, position, null,
        position, null,
        position constraint, inactive, inactive, inactive, null,''')
split = reduced_util.variant(split, work, 'swing_split2.mbd', 'joints: 1;', 'joints: 2;')
swapped = reduced_util.variant(deck, work, 'swing_swapped.mbd', '''    joint: 1, total pin joint,
        1, position, null,
        position, null,''', '''    joint: 2, clamp, 2, node, node;
    joint: 1, total joint,
        1, position, null,
        2, position, null,''')
swapped = reduced_util.variant(swapped, work, 'swing_swapped2.mbd', 'joints: 1;', 'joints: 2;')
swapped = reduced_util.variant(swapped, work, 'swing_swapped3.mbd', 'structural nodes: 1;',
                               'structural nodes: 2;')
swapped = reduced_util.variant(swapped, work, 'swing_swapped4.mbd',
                               '    structural: 1, dynamic, null, eye, null, W1, W2, 0.;',
                               '    structural: 2, static, null, eye, null, null;\n'
                               '    structural: 1, dynamic, null, eye, null, W1, W2, 0.;')
# Swapped nodes: the pendulum is node 1 of the total joint, the clamped ground node its node 2
# (the rotation vector of R^T, -phi, has the same zero z component): the tree runs from the
# joint's node 2 to its node 1.
_, p = run(split, 'tree_split', tree=True)
close('split: the total pin joint is a 1-equation loop cut',
      int(re.search(r'joint 1 \(total pin joint\): (\d+) equation', p.stdout).group(1)), 1, 0)
close('split: degrees of freedom', int(re.search(r'degrees of freedom: (\d+)', p.stdout).group(1)), 2, 0)

for path, prefix, analysis, defines, tol, what in [
        (deck, 'rk4', 'reduced-dynamics', None, 1e-11, 'reduced RK4'),
        (deck, 'implicit', 'reduced-dynamics-implicit', None, 1e-5, 'reduced two-step'),
        (deck, 'dae', None, {'DT': 1e-4}, 5e-8, 'DAE, DT 1e-4'),
        (split, 'split', 'reduced-dynamics', None, 1e-11, 'reduced RK4, twist row as a loop cut'),
        (swapped, 'swapped', 'reduced-dynamics', None, 1e-11, 'reduced RK4, tree from node 2')]:
    out, _ = run(path, prefix, analysis, defines)
    r = mov(out)
    step = 10 if defines else 1
    r = r[::step]
    xc = np.array([euler123(row[4:7]) @ c for row in r])
    n = min(len(xc), len(ref))
    close(f'{what}: max centre-of-mass error vs Lagrange (a, b) [m] over {n} steps',
          float(np.max(np.abs(xc[:n] - ref[:n]))), 0.0, tol)
    if prefix == 'rk4':
        Rs = [euler123(row[4:7]) for row in r]
        twist = max(abs(np.arctan2(Rm[1, 0] - Rm[0, 1], 1.0)) for Rm in Rs)
        close('reduced RK4: max |E_yx - E_xy| (rotation vector z) [rad]', float(twist), 0.0, 2e-15)
        E = [0.5 * row[10:13] @ (Rm @ Jo @ Rm.T) @ row[10:13] + M * G * (Rm @ c)[2]
             for row, Rm in zip(r, Rs)]
        close('reduced RK4: max energy drift [J]', float(np.max(np.abs(np.array(E) - E0))), 0.0, 6e-12)

bad = reduced_util.variant(deck, work, 'swing_bad.mbd', 'orientation constraint, inactive, inactive, active, null;',
                           'orientation constraint, inactive, inactive, rotation,\n'
                           '            component, const, 0., const, 0., linear, 0., 1.;')
reduced_util.refused(exe, work, bad, r'swing_bad\.mbd:\d+:\d+: error: joint 1 \(total pin joint\)',
                     'two free rotations, the third driven: file:line:col error naming the joint')
finish()
