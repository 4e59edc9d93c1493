"""Tree joints of the relative-coordinate path beyond revolute/prismatic/spherical: total joint and
total pin joint (free, fixed and driven components), in line and in plane as tree joints, and
total joints as loop cuts. References: closed forms, an independent RK4 integration of the
Lagrange equation, and the absolute DAE (mbsolve without --analysis) on the same deck.

  Bead on a rod turned at W (input-examples/reduced_bead_on_rod.mbd: total pin joint with the
  rotation imposed at position level, in line as a tree joint): r(t) = R0 cosh(W t) along the
  rod at angle W t. Reduced RK4 within 1e-14 m at every output step (measured 2.0e-15), reduced
  implicit within 1e-7 m (2.0e-8), DAE within 3e-7 m (7.8e-8). The same with the rotation imposed
  at velocity level (`angular velocity` status, a generated copy of the deck): RK4 1e-14 m
  (1.9e-15). Tree: 1 driven variable, 4 degrees of freedom. The rod driven instead by a `drive
  hinge` from a clamped node, held by a spherical hinge (a 3-equation cut): 4 degrees of
  freedom, RK4 1e-14 m (2.0e-15).
  Driven cart pendulum (input-examples/reduced_driven_cart.mbd: total pin joint with the position
  imposed by a string drive x = A sin(OM t), total joint as a revolute about z): the angle at
  every output step against RK4 on (JC + M L^2) th'' = -M G L sin th - M L x'' cos th (step
  1e-4 s, in this script): reduced RK4 within 2e-11 rad (measured 4.8e-12: the driven
  acceleration is a fourth-order central difference of the drive's derivative; 5e-8 with a
  second-order one), DAE within 1e-5 rad (3.1e-6). The same deck with the pendulum joint's
  nodes swapped (the tree runs from node 2 to node 1): the same angles to 1e-9 rad (measured
  0). The cart moved by a `drive displacement pin` (rotation free): RK4 2e-11 rad, DAE 1e-5 rad
  (the same errors). The force driving the cart (the reduced direct dynamics' .act) against the
  momentum balance at the reference state (below, with the observed errors), and the DAE's
  reaction.
  Puck on an inclined plane (input-examples/reduced_incline.mbd: in plane as a tree joint):
  x(t) = V0 t e_x + 1/2 G sin(AL) t^2 s: RK4 within 5e-14 m (measured 1.1e-14), DAE within
  2e-13 m (4.6e-14).
  Total joints as cuts (generated copies of input-examples/four_bar.mbd): its in-line cut
  rewritten as a total joint with position components 1 and 2 active gives the same motion to
  2e-15 m (2 cut equations; measured 3.9e-16); written as a revolute-like total joint (position
  locked, rotation about z free) the planar loop has 3 redundant equations, reported with joint
  5, and the same motion to 2e-15 m (3.9e-16).
  Bad input: a total joint with two free rotation components and the third imposed at velocity
  level stops with file:line:col, exit 2 (two free rotations with the third constant:
  regression/reduced_swing).
"""
import math
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, close, finish  # noqa: E402
import reduced_util  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]


def run(deck, prefix, analysis=None, defines=None, expect=0, tree=False):
    return reduced_util.run(exe, work, deck, prefix, analysis, defines, expect, tree)

def rows(prefix, label):
    r = [[float(v) for v in line.split()] for line in open(prefix + '.mov')
         if line.split() and int(line.split()[0]) == label]
    return np.array(r)


def times(prefix):
    t = [float(line.split()[2]) for line in open(prefix + '.out')
         if line.startswith('Step') and line.split()[-1] == '1']
    return np.array(t)


def variant(src, name, old, new):
    return reduced_util.variant(src, work, name, old, new)


# Bead on the rotating rod
bead = os.path.join(EXAMPLES, 'reduced_bead_on_rod.mbd')
W, R0 = 1.0, 0.2
_, p = run(bead, None, tree=True)
close('bead: degrees of freedom', int(re.search(r'degrees of freedom: (\d+)', p.stdout).group(1)), 4, 0)
close('bead: driven variables', int(re.search(r'driven variables: (\d+)', p.stdout).group(1)), 1, 0)
bead_vel = variant(bead, 'bead_velocity.mbd',
                   'rotation, rotation, rotation,\n            component, const, 0., const, 0., linear, 0., W;',
                   'rotation, rotation, angular velocity,\n            component, const, 0., const, 0., const, W;')
# The rod driven by a drive hinge (rotation vector (0, 0, W t)) from a clamped ground node, its
# position held by a spherical hinge: a tree with 3 free translations and the driven rotation,
# the spherical hinge a 3-equation cut.
joint1 = '''    joint: 1, total pin joint,
        ROD, position, null,
        position, null,
        position constraint, active, active, active, null,
        orientation constraint, rotation, rotation, rotation,
            component, const, 0., const, 0., linear, 0., W;'''
bead_dh = variant(bead, 'bead_dh1.mbd', 'structural nodes: 2;', 'structural nodes: 3;')
bead_dh = variant(bead_dh, 'bead_dh2.mbd', 'joints: 2;', 'joints: 4;')
bead_dh = variant(bead_dh, 'bead_dh3.mbd', '    structural: ROD,  dynamic',
                  '    structural: 99, static, null, eye, null, null;\n    structural: ROD,  dynamic')
bead_dh = variant(bead_dh, 'bead_drive_hinge.mbd', joint1, '''    joint: 1, clamp, 99, node, node;
    joint: 3, spherical hinge, 99, null, ROD, null;
    joint: 4, drive hinge, 99, ROD, component, const, 0., const, 0., linear, 0., W;''')
_, p = run(bead_dh, None, tree=True)
close('bead, drive hinge: degrees of freedom',
      int(re.search(r'degrees of freedom: (\d+)', p.stdout).group(1)), 4, 0)
close('bead, drive hinge: cut equations (spherical hinge)',
      int(re.search(r'joint 3 \(spherical hinge\): (\d+) equation', p.stdout).group(1)), 3, 0)
for deck, analysis, tol, what in [(bead_dh, 'reduced-dynamics', 1e-14, 'RK4, drive hinge'),
                                  (bead, 'reduced-dynamics', 1e-14, 'RK4'),
                                  (bead, 'reduced-dynamics-implicit', 1e-7, 'implicit'),
                                  (bead, None, 3e-7, 'DAE'),
                                  (bead_vel, 'reduced-dynamics', 1e-14, 'RK4, velocity-level drive')]:
    out, _ = run(deck, 'bead_' + (analysis or 'dae') + {bead_vel: '_vel', bead_dh: '_dh'}.get(deck, ''),
                 analysis)
    x, t = rows(out, 2), times(out)
    r = R0 * np.cosh(W * t)
    err = max(np.max(np.abs(x[:, 1] - r * np.cos(W * t))), np.max(np.abs(x[:, 2] - r * np.sin(W * t))))
    close(f'bead ({what}): max position error [m] over {len(t)} steps', err, 0.0, tol)

# Driven cart pendulum
cart = os.path.join(EXAMPLES, 'reduced_driven_cart.mbd')
M, L, JC, A, OM, G = 1.0, 0.5, 0.02, 0.1, 6.0, 9.81


def f(t, y):
    xdd = -A * OM * OM * math.sin(OM * t)
    return np.array([y[1], (-M * G * L * math.sin(y[0]) - M * L * xdd * math.cos(y[0])) / (JC + M * L * L)])


h, y, ref, ref_state = 1e-4, np.zeros(2), {0: 0.0}, {0: np.zeros(2)}
for i in range(10000):
    t = i * h
    y = reduced_util.rk4_step(f, t, y, h)
    if (i + 1) % 10 == 0:
        ref[(i + 1) // 10] = y[0]
        ref_state[(i + 1) // 10] = y.copy()
cart_swap = variant(cart, 'cart_swapped.mbd', 'CART, position, null,\n        BOB, position, null,',
                    'BOB, position, null,\n        CART, position, null,')
# The cart moved by a drive displacement pin instead (its rotation then free: 3 more coordinates,
# not excited).
cart_dd = variant(cart, 'cart_drive_displacement.mbd', '''    joint: 1, total pin joint,
        CART, position, null,
        position, null,
        position constraint, active, active, active,
            component, string, "A*sin(OM*Time)", const, 0., const, 0.,
        orientation constraint, active, active, active, null;''', '''    joint: 1, drive displacement pin,
        CART, null, null,
        component, string, "A*sin(OM*Time)", const, 0., const, 0.;''')
angles, cart_out = {}, {}
for deck, analysis, tol, what in [(cart, 'reduced-dynamics', 2e-11, 'RK4'), (cart, None, 1e-5, 'DAE'),
                                  (cart_dd, 'reduced-dynamics', 2e-11, 'RK4, drive displacement pin'),
                                  (cart_dd, None, 1e-5, 'DAE, drive displacement pin'),
                                  (cart_swap, 'reduced-dynamics', 2e-11, 'RK4, tree from node 2')]:
    out, _ = run(deck, 'cart_' + (analysis or 'dae') + {cart_swap: '_swap', cart_dd: '_dd'}.get(deck, ''),
                 analysis)
    th = np.radians(rows(out, 2)[:, 6])
    angles[what] = th
    cart_out[what] = out
    err = max(abs(th[k] - ref[k]) for k in range(len(th)))
    close(f'cart pendulum ({what}): max angle error [rad] over {len(th)} steps', err, 0.0, tol)
close('cart pendulum: swapped joint nodes give the same angles [rad]',
      np.max(np.abs(angles['RK4'] - angles['RK4, tree from node 2'])), 0.0, 1e-9)
# The force driving the cart (PREFIX.act of the reduced direct dynamics, joint 1): the horizontal
# momentum balance of cart (2 kg) and bob, F = MCART x'' + M (x'' + L (th'' cos th - th'^2 sin th)),
# at the reference RK4's (th, th') with th'' from its equation and x'' = -A OM^2 sin(OM t) exact.
# RK4: within 5e-10 N (measured 7.1e-11 against a peak of 8.7 N); tree from node 2: the same.
# The DAE's reaction of the total pin joint (`.jnt` F_x, reported on its first end: the opposite
# sign, docs/reactions.md) at DT 1e-3: at step 0 within 1e-8 N (measured 1.1e-9); its multipliers
# then oscillate for a few steps (ms, rho 0.6: 2.5e-2 N at step 3, 6.3e-3 N after step 10), so
# from step 50 on: within 5e-4 N (measured 6.5e-5 N, the DAE's angle error being 3e-6 rad).
MCART = 2.0
F_ref = []
for k in range(len(angles['RK4'])):
    t, (th, thd) = k * 1e-3, ref_state[k]
    xdd = -A * OM * OM * math.sin(OM * t)
    thdd = f(t, ref_state[k])[1]
    F_ref.append(MCART * xdd + M * (xdd + L * (thdd * math.cos(th) - thd * thd * math.sin(th))))
F_ref = np.array(F_ref)
for what in ('RK4', 'RK4, tree from node 2'):
    act = np.array([[float(v) for v in line.split()] for line in open(cart_out[what] + '.act')])
    close(f'cart pendulum ({what}): .act rows = output steps, joint 1', float(np.abs(act[:, 0] - 1).max()) +
          abs(len(act) - len(F_ref)), 0.0, 0.0)
    close(f'cart pendulum ({what}): max |.act - F closed form| [N] (peak {np.abs(F_ref).max():.3g} N)',
          float(np.abs(act[:, 1] - F_ref).max()), 0.0, 5e-10)
jnt = np.array([[float(v) for v in line.split()] for line in open(cart_out['DAE'] + '.jnt')
                if int(line.split()[0]) == 1])
n = min(len(jnt), len(F_ref))
close('cart pendulum: DAE total pin joint reaction -F_x vs F closed form at step 0 [N]',
      abs(-jnt[0, 7] - F_ref[0]), 0.0, 1e-8)
close(f'cart pendulum: DAE total pin joint reaction -F_x vs F closed form, steps 50-{n - 1} [N]',
      float(np.abs(-jnt[50:n, 7] - F_ref[50:n]).max()), 0.0, 5e-4)

# Puck on the inclined plane
incline = os.path.join(EXAMPLES, 'reduced_incline.mbd')
AL, V0 = 0.3, 0.5
_, p = run(incline, None, tree=True)
close('incline: degrees of freedom', int(re.search(r'degrees of freedom: (\d+)', p.stdout).group(1)), 5, 0)
for analysis, tol, what in [('reduced-dynamics', 5e-14, 'RK4'), (None, 2e-13, 'DAE')]:
    out, _ = run(incline, 'incline_' + (analysis or 'dae'), analysis)
    x, t = rows(out, 2), times(out)
    s = 0.5 * G * math.sin(AL) * t * t
    exact = np.stack([V0 * t, s * math.cos(AL), -s * math.sin(AL)], axis=1)
    close(f'incline ({what}): max position error [m] over {len(t)} steps', np.max(np.abs(x[:, 1:4] - exact)), 0.0, tol)

# Total joints as cuts in the four-bar
four = os.path.join(EXAMPLES, 'four_bar.mbd')
in_line = """    joint: 5, in line,
        ROCKER,  position, reference, global, XC, YC, 0.,
                 orientation, reference, global, eye,
        COUPLER, offset, reference, global, XC, YC, 0.;"""
total_line = variant(four, 'four_bar_total_line.mbd', in_line, """    joint: 5, total joint,
        ROCKER,  position, reference, global, XC, YC, 0.,
        COUPLER, position, reference, global, XC, YC, 0.,
        position constraint, active, active, inactive, null,
        orientation constraint, inactive, inactive, inactive, null;""")
total_hinge = variant(four, 'four_bar_total_hinge.mbd', in_line, """    joint: 5, total joint,
        ROCKER,  position, reference, global, XC, YC, 0.,
        COUPLER, position, reference, global, XC, YC, 0.,
        position constraint, active, active, active, null,
        orientation constraint, active, active, inactive, null;""")
base, _ = run(four, 'four_in_line', 'reduced-dynamics')
_, p = run(total_line, None, tree=True)
close('four-bar, total joint cut (2 position rows): cut equations',
      int(re.search(r'joint 5 \(total joint\): (\d+) equation', p.stdout).group(1)), 2, 0)
_, p = run(total_hinge, None, tree=True)
m = re.search(r'redundant constraints: (\d+) \(joints ([0-9, ]+)\)', p.stdout)
close('four-bar, revolute-like total joint cut: redundant equations', int(m.group(1)) if m else -1, 3, 0)
close('four-bar, revolute-like total joint cut: redundant joint label', int(m.group(2)) if m else -1, 5, 0)
for deck, what in [(total_line, 'position rows'), (total_hinge, 'revolute-like, redundant')]:
    out, _ = run(deck, 'four_' + os.path.basename(deck), 'reduced-dynamics')
    worst = max(np.max(np.abs(rows(out, n)[:, 1:4] - rows(base, n)[:, 1:4])) for n in (2, 3, 4))
    close(f'four-bar, total joint cut ({what}) vs in-line cut: max node position difference [m]', worst, 0.0,
          2e-15)  # observed 3.9e-16

# Bad input
bad = variant(cart, 'cart_bad.mbd', 'orientation constraint, active, active, inactive, null;',
              'orientation constraint, angular velocity, inactive, inactive,\n'
              '            component, const, 1., const, 0., const, 0.;')
reduced_util.refused(exe, work, bad, r'cart_bad\.mbd:\d+:\d+: error: joint 2 \(total joint\)',
                     'two free rotation components, the third at velocity level: file:line:col error '
                     'naming the joint')
finish()
