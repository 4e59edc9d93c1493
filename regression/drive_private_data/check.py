"""Drive callers fed by model data: `element` (joint, body private data), `node` (structural
node private data) and `dof`.

1. input-examples/private_data_spring.mbd: a couple M = -K rz driven by the revolute pin's
   private datum rz is a linear torsional spring; I = Jz + m L^2 = 0.6, K = 2.4, so
   rz(t) = RZ0 cos(2t) + (OM0/2) sin(2t) (closed form; the motion is exactly linear). Read back
   as rz = -Mz/K from the .frc couple; the angular velocity of the .mov is d rz/dt.
   Tolerances: 2e-6 (amplitude 4 rad, dt = 1e-4, measured 6.1e-7; second-order method: the
   dt = 1e-3 error must be ~100x larger, log10 ratio 2 +- 1e-3, measured 1.99983). The default
   run swings +-4 rad, past +-pi, so the accumulated angle must unwrap (its maximum 4 to 2e-7,
   measured 3.2e-8). With TH0 = 0.5, `initial theta` = 2 pi + 0.5 and OM0 = 0 the
   spring starts one extra turn wound: rz = (2 pi + 0.5) cos(2t), tolerance 4e-6.
2. input-examples/private_data_probe.mbd: forces on a clamped probe node whose components are
   node / dof / element drives of a pendulum's data; each must equal the quantity recomputed
   from the pendulum's .mov row of the same step (1e-9, the files print 12 digits): X, Omega_z,
   node-frame x, XP, Phi_z (= hinge angle, the .mov Euler z angle in radians), dof value x and
   derivative ydot, body kinetic energy m v^2/2, potential energy m g y, mass; rod length
   L = |X - P| (P = probe at (0.5, 0, 2)), force EA (L - l0)/l0 (EA = 1, l0 = 2), LPrime =
   (X - P).V / L.
3. input-examples/total_joint.mbd with forces on an added clamped probe node driven by the total
   joint's private data px..pz, Fx..Fz, wx..wz and rx..rz: equal to the .jnt columns of the
   same joint (relative position 14-16, local force 2-4, relative angular velocity 23-25,
   rotation vector 17-19) to 1e-9.
3b. input-examples/deformable_hinge.mbd likewise: rx..rz, wx..wz, Mx..Mz equal the .jnt
   relative rotation vector (14-16), angular velocity (17-19) and local moment (5-7), 1e-9.
4. Bad input: an unknown datum name and an acceleration datum of a static node (static nodes have
   no accelerations) exit 2 with file:line:col.
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
K, W = 2.4, 2.0

# --- 1. torsional spring from the element drive of rz
spring = os.path.join(EXAMPLES, 'private_data_spring.mbd')
errs = {}
for dt in (1e-3, 1e-4):
    r = Run(exe, spring, work, f'spring_{dt:g}', {'DT': dt})
    t = r.times()
    rz = -r.rows('frc', 3)[:, 4] / K
    wz = r.rows('mov', 2)[:, 12]
    errs[dt] = np.abs(rz - 4.0 * np.sin(W * t)).max()
    if dt == 1e-4:
        close('max |rz - 4 sin 2t| (dt 1e-4)', errs[dt], 0.0, 2e-6)
        close('max rz (past pi: unwrapped)', rz.max(), 4.0, 2e-7)  # observed 3.2e-8
        close('max |w_z - 8 cos 2t| (dt 1e-4)', np.abs(wz - 8.0 * np.cos(W * t)).max(), 0.0, 4e-6)
ratio = errs[1e-3] / errs[1e-4]
close('convergence order (log10 error ratio, dt 1e-3 / 1e-4)', np.log10(ratio), 2.0, 1e-3)  # observed 1.99983

rz0 = 2 * math.pi + 0.5
r = Run(exe, spring, work, 'spring_theta', {'DT': 1e-4, 'TF': 4.0, 'OM0': 0.0, 'TH0': 0.5,
                                              'INIT': rz0})
t = r.times()
rz = -r.rows('frc', 3)[:, 4] / K
close('rz(0) with initial theta 2 pi + 0.5 (12 digits printed)', rz[0], rz0, 1e-10)
close('max |rz - (2 pi + 0.5) cos 2t|', np.abs(rz - rz0 * np.cos(W * t)).max(), 0.0, 4e-6)

# --- 2. node, dof and element drives against the .mov
probe = os.path.join(EXAMPLES, 'private_data_probe.mbd')
r = Run(exe, probe, work, 'probe')
mov = r.rows('mov', 2)
f11, f12, f13, c14 = (r.rows('frc', k) for k in (11, 12, 13, 14))
X, V, Om = mov[:, 1:4], mov[:, 7:10], mov[:, 10:13]
ang = np.radians(mov[:, 6])  # Euler 123 z angle: rotation about z only
xl = np.cos(ang) * X[:, 0] + np.sin(ang) * X[:, 1]  # node-frame x: R^T X, first component


def same(what, a, b):
    close(what, np.abs(a - b).max(), 0.0, 1e-9)


same('node X[1]', f11[:, 2], X[:, 0])
same('node X[2]', f11[:, 3], X[:, 1])
same('node Omega[3]', f11[:, 4], Om[:, 2])
same('node x[1] (node frame)', f12[:, 2], xl)
same('node XP[2]', f12[:, 3], V[:, 1])
same('node index 9 = Phi[3]', f12[:, 4], ang)
same('dof 1 algebraic (x)', f13[:, 2], X[:, 0])
same('dof 2 differential (ydot)', f13[:, 3], V[:, 1])
same('joint rz (hinge angle)', f13[:, 4], ang)
same('body E = m v^2 / 2', c14[:, 2], 0.5 * (V ** 2).sum(axis=1))
same('body V = m g y', c14[:, 3], 9.81 * X[:, 1])
same('body m', c14[:, 4], 1.0)
f15 = r.rows('frc', 15)
d = X - np.array([0.5, 0.0, 2.0])
Lr = np.sqrt((d ** 2).sum(axis=1))
same('rod L', f15[:, 3], Lr)
same('rod F = EA (L - l0) / l0', f15[:, 2], (Lr - 2.0) / 2.0)
same('rod LPrime', f15[:, 4], (d * V).sum(axis=1) / Lr)
close('the pendulum swings (max |Omega_z| > 3 rad/s)', float(np.abs(Om[:, 2]).max() > 3), 1.0, 0)

# --- 3. total joint private data against its .jnt columns
text = open(os.path.join(EXAMPLES, 'total_joint.mbd')).read()
cards = ''.join(
    f"    {kind}: {lab}, absolute, 9, {'position, null, ' if kind == 'force' else ''}"
    "component, " + ', '.join(f'element, 3, joint, string, "{n}{c}", direct' for c in 'xyz') + ';\n'
    for kind, lab, n in (('force', 21, 'p'), ('force', 22, 'F'), ('force', 23, 'w'),
                         ('couple', 24, 'r')))
text = text.replace('    joints: 3;', '    joints: 4;\n    forces: 4;', 1)
text = text.replace('    structural nodes: 3;', '    structural nodes: 4;', 1)
text = text.replace('end: nodes;', '    structural: 9, static, null, eye, null, null;\nend: nodes;', 1)
text = text.replace('    gravity: uniform', '    joint: 9, clamp, 9, node, node;\n' + cards +
                    '    gravity: uniform', 1)
# A drive reading the joint's multipliers (Fx..Fz) sees how far the derivatives phase, which
# converges linearly, leaves them from convergence: at the default coefficient 1e-6 the probe's
# force row keeps a 3e-4 N residual (the multipliers move by that much per iteration), so this
# run lets the phase retry with larger coefficients.
text = text.replace('    max iterations: 20;', '    max iterations: 20;\n'
                    '    derivatives coefficient: auto;', 1)
deck = os.path.join(work, 'total_joint_data.mbd')
with open(deck, 'w') as f:
    f.write(text)
r = Run(exe, deck, work, 'total_joint_data')
jnt = r.rows('jnt', 3)
same('total joint px..pz = .jnt 14-16', r.rows('frc', 21)[:, 2:5], jnt[:, 13:16])
same('total joint Fx..Fz = .jnt 2-4', r.rows('frc', 22)[:, 2:5], jnt[:, 1:4])
same('total joint wx..wz = .jnt 23-25', r.rows('frc', 23)[:, 2:5], jnt[:, 22:25])
same('total joint rx..rz = .jnt 17-19', r.rows('frc', 24)[:, 2:5], jnt[:, 16:19])
close('the slider moves (max |pz| > 0.1 m)', float(np.abs(jnt[:, 15]).max() > 0.1), 1.0, 0)

# --- 3b. deformable hinge private data against its .jnt columns
text = open(os.path.join(EXAMPLES, 'deformable_hinge.mbd')).read()
cards = ''.join(
    f"    force: {lab}, absolute, 9, position, null, component, " +
    ', '.join(f'element, 1, joint, string, "{n}{c}", direct' for c in 'xyz') + ';\n'
    for lab, n in ((21, 'r'), (22, 'w'), (23, 'M')))
text = text.replace('    joints: 2;', '    joints: 3;\n    forces: 3;', 1)
text = text.replace('    structural nodes: 2;', '    structural nodes: 3;', 1)
text = text.replace('end: nodes;', '    structural: 9, static, null, eye, null, null;\nend: nodes;', 1)
text = text.replace('    body: 1,', '    joint: 9, clamp, 9, node, node;\n' + cards + '    body: 1,', 1)
deck = os.path.join(work, 'deformable_hinge_data.mbd')
with open(deck, 'w') as f:
    f.write(text)
r = Run(exe, deck, work, 'deformable_hinge_data')
jnt = r.rows('jnt', 1)
same('deformable hinge rx..rz = .jnt 14-16', r.rows('frc', 21)[:, 2:5], jnt[:, 13:16])
same('deformable hinge wx..wz = .jnt 17-19', r.rows('frc', 22)[:, 2:5], jnt[:, 16:19])
same('deformable hinge Mx..Mz = .jnt 5-7', r.rows('frc', 23)[:, 2:5], jnt[:, 4:7])
close('the hinge turns (max |M| > 1 N m)', float(np.abs(jnt[:, 4:7]).max() > 1), 1.0, 0)

# --- 4. bad input
text = open(probe).read()
for name, bad, msg in (('unknown', text.replace('"rz", direct', '"theta", direct'),
                        'has no private datum "theta"'),
                       ('acceleration', text.replace('node, MASS, structural, string, "X[1]"',
                                                     'node, GROUND, structural, string, "XPP[1]"'),
                        'acceleration')):
    deck = os.path.join(work, f'bad_{name}.mbd')
    with open(deck, 'w') as f:
        f.write(bad)
    b = Run(exe, deck, work, f'bad_{name}', expect_rc=2)
    ok = msg in b.stderr and f'bad_{name}.mbd:' in b.stderr
    close(f'bad input ({name}): exit 2 with file:line:col and "{msg}"', float(ok), 1.0, 0)
finish()
