"""Joints that impose a motion give the nodes its velocity at the initial time
(input-examples/imposed_start_velocity.mbd: every node at rest on its card).

References: closed form, no external data. The deck is run whole, and once per group of joints
with the other groups' joints removed (their nodes float at rest), at DT = 1e-2.
 - Step 0 (.mov first rows, after the initial assembly and the derivatives phase): the imposed
   velocities. Velocity-level rows (axial rotation, also inside a `driven` element switched on at
   t = 0; a total joint's angular velocity and velocity statuses; linear and angular velocity
   joints) are imposed as they are: 3e-14 (measured up to 1.1e-14, round-off of 20 rad/s).
   Position-level drives (total pin joint x = A sin(F t), drive hinge, drive displacement) enter
   through the time derivative of their rows, which these joints give from the drives'
   derivatives (Element::constraint_rate()): 3e-14 (measured up to 3.1e-15; a forward
   difference in time, the fallback for other elements, gave up to 7.2e-12). Components not
   imposed are zero to 3e-14 (measured 4.0e-15 on the clamped GROUND). Positions and
   orientations are those of the cards to 1e-14 (measured 0), and the derivatives phase
   converges without moving the state (no "MBDyn's update" warning).
   Before: the velocity-level rows were left out of the velocity part of the initial assembly
   (their multipliers held at zero there; linear/angular velocity joints take no part in it), so
   each group alone started at rest (CRANK w(0) = 0, its angle after one step 5.74 degrees, the
   trapezoid of 0 and 20 rad/s, instead of OMEGA DT = 0.2 rad = 11.46 degrees: a lag of
   OMEGA DT / 2 kept from then on); in the whole deck the derivatives phase then failed and
   fell back on MBDyn's update, which imposed the velocities by moving the state by dCoef y'
   (CRANK turned 1.1e-3 degrees at step 0, the warning printed).
 - CRANK (constant OMEGA) and DRIVEN: the angle follows OMEGA t to the integrator's accuracy.
   After one step 0.2 rad to 1e-3 rad (measured 3.4e-4 rad: the trapezoidal update of the
   rotation parameters, about (h w)^3 / 24; the lag was 0.1 rad). Over 0.5 s the error is second
   order in DT: max |angle - OMEGA t| <= 3e-2 rad at DT = 1e-2 (measured 2.0e-2) and at most a
   quarter of that (x 1.25) at DT = 5e-3 (measured ratio 4.03); a lag is first order and
   0.1 rad. SPOOL (omega = W0 + W1 t): W0 t + W1 t^2 / 2 to 2e-3 rad (measured 1.2e-3).
 - Redundancy: redundant_velocity.mbd (a linear velocity joint repeating the time derivative of a
   total pin joint's x = 1 + V t) runs, joint 3 dropped with a warning, v(0) = (V, 0, 0) to 3e-14
   (measured 0), x(0.05) = 1.1 to 1e-12; before, the velocity part was singular. In
   redundant_position.mbd (a spherical pin repeating a total pin joint, node 0.01 m off: the
   position part drops them) the angular velocity joint is kept, w(0) = W to 3e-14, its angle
   W t at 0.05 s to 2e-5 rad (measured 6.5e-6); before, its frozen row (no entries in the node
   columns) was dropped with them and the run stopped at the first step ("a constraint dropped as
   redundant is violated").
 - free_velocity_joints.mbd: velocity joints on a free body, no element in the position part of
   the assembly: v(0) = (2, 0, 0), w(0) = (0, 0, 3) to 3e-14 (measured 0), x(0.03) = 1.06 to
   1e-12 (measured 0); before, the whole assembly was skipped and the body started at rest.
 - CRANK's reaction at step 0 is the centripetal force on the crank, -m OMEGA^2 e = -80 N along
   the crank (.jnt global force x; an axial rotation reports the force on its node 2, as MBDyn:
   docs/reactions.md): 3e-9 relative (measured 3.2e-10, the derivatives phase's
   one-sided differences). The derivatives phase takes the clamped GROUND as at rest although
   the velocity solve leaves it ~4e-15 m/s (round-off); before, it gave 0 N there.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
DECK = os.path.join(EXAMPLES, 'imposed_start_velocity.mbd')
OMEGA, W0, W1, WS, A, F, VY, VL, WA = 20.0, 5.0, 10.0, 4.0, 0.1, 6.0, 0.7, 2.0, 3.0
GROUND, CRANK, SPOOL, DRIVEN, SPINNER, SLIDER, TURNER, SHIFTER, PUSHER = range(1, 10)
NAMES = ['', 'GROUND', 'CRANK', 'SPOOL', 'DRIVEN', 'SPINNER', 'SLIDER', 'TURNER', 'SHIFTER', 'PUSHER']
Z = np.zeros(3)
VEL_TOL, POS_TOL, ZERO_TOL = 3e-14, 3e-14, 3e-14
# node -> (card position, v(0), w(0), which of v, w the joints impose, tolerance of those)
START = {
    GROUND: ((0, 0, 0), Z, Z, '', ZERO_TOL),
    CRANK: ((0, 0, 0), Z, np.array([0, 0, OMEGA]), 'w', VEL_TOL),
    SPOOL: ((1, 0, 0), Z, np.array([0, 0, W0]), 'w', VEL_TOL),
    DRIVEN: ((2, 0, 0), Z, np.array([0, 0, OMEGA]), 'w', VEL_TOL),
    SPINNER: ((3, 0, 0), Z, np.array([0, 0, WS]), 'w', VEL_TOL),
    SLIDER: ((0, 1, 0), np.array([A * F, VY, 0]), Z, 'v', POS_TOL),
    TURNER: ((1, 1, 0), Z, np.array([0, 0, 1.5]), 'w', POS_TOL),
    SHIFTER: ((2, 1, 1), np.array([1.0, 0.3, 0]), Z, 'v', POS_TOL),
    PUSHER: ((3, 1, 0), np.array([VL, 0, 0]), np.array([0, 0, WA]), 'vw', VEL_TOL),
}
# The joint cards of each group (deck labels) and the nodes they move.
GROUPS = {'axial rotation (CRANK)': ([2], [CRANK]), 'axial rotation, ramp (SPOOL)': ([3], [SPOOL]),
          'driven axial rotation (DRIVEN)': ([4], [DRIVEN]), 'total joint (SPINNER)': ([5], [SPINNER]),
          'total pin joint (SLIDER)': ([6], [SLIDER]), 'drive hinge (TURNER)': ([7, 8], [TURNER]),
          'drive displacement (SHIFTER)': ([9], [SHIFTER]),
          'linear and angular velocity (PUSHER)': ([10, 11], [PUSHER])}


def check_start(r, nodes, tag):
    """Step 0 (first .mov rows): the imposed velocities, and the state of the cards (positions,
    orientations): the derivatives phase had nothing to correct."""
    for node in nodes:
        x0, v, w, imposed, tol = START[node]
        row = r.rows('mov', node)[0]
        name = f'{tag}{NAMES[node]} step 0'
        close(f'{name}: |v - v_imposed| [m/s]', np.abs(row[7:10] - v).max(), 0.0,
              tol if 'v' in imposed else ZERO_TOL)
        close(f'{name}: |w - w_imposed| [rad/s]', np.abs(row[10:13] - w).max(), 0.0,
              tol if 'w' in imposed else ZERO_TOL)
        close(f'{name}: |x - card| [m], |angles| [deg]',
              max(np.abs(row[1:4] - x0).max(), np.abs(row[4:7]).max()), 0.0, 1e-14)
    close(f'{tag}derivatives phase without MBDyn\'s update (no warning)',
          float("MBDyn's update" in r.stderr), 0.0, 0.0)


def angle_error(mov, t, ref):
    """max |angle about z - ref(t)| (rad, wrapped); the .mov orientation is Euler 123 (degrees),
    its third angle the rotation about z for these planar motions."""
    return np.abs(np.angle(np.exp(1j * (np.radians(mov[:, 6]) - ref(t))))).max()


def group_deck(labels):
    """The deck with the clamp and the joint cards `labels` only (the other nodes float at rest:
    each group starts without help from the others)."""
    with open(DECK) as f:
        text = f.read()
    head, rest = text.split('begin: elements;')
    body, tail = rest.split('end: elements;')
    keep = []
    for card in body.split(';')[:-1]:
        code = ' '.join(line.split('#')[0] for line in card.split('\n')).split()
        if code[0] not in ('joint:', 'driven:') or int(code[1].rstrip(',')) in [1] + labels:
            keep.append(card + ';')
    n = sum(1 for c in keep if 'joint:' in c)
    path = os.path.join(work, 'group_' + '_'.join(map(str, labels)) + '.mbd')
    with open(path, 'w') as f:
        f.write(head.replace('joints: 11;', f'joints: {n};') + 'begin: elements;' + ''.join(keep) +
                '\nend: elements;' + tail)
    return path


r = Run(exe, DECK, work, 'start_0.01', {'DT': 1e-2})
t = r.times()
check_start(r, START, '')

crank = r.rows('mov', CRANK)
close('CRANK angle after one step (DT = 0.01) [deg]', crank[1, 6], np.degrees(OMEGA * 1e-2), np.degrees(1e-3))
close('DRIVEN angle after one step (DT = 0.01) [deg]', r.rows('mov', DRIVEN)[1, 6], np.degrees(OMEGA * 1e-2),
      np.degrees(1e-3))
e_coarse = angle_error(crank, t, lambda s: OMEGA * s)
close('CRANK max |angle - OMEGA t| [rad], DT 1e-2', e_coarse, 0.0, 3e-2)
close('DRIVEN max |angle - OMEGA t| [rad], DT 1e-2', angle_error(r.rows('mov', DRIVEN), t, lambda s: OMEGA * s),
      0.0, 3e-2)
close('SPOOL max |angle - (W0 t + W1 t^2 / 2)| [rad], DT 1e-2',
      angle_error(r.rows('mov', SPOOL), t, lambda s: W0 * s + 0.5 * W1 * s * s), 0.0, 2e-3)
jnt = r.rows('jnt', CRANK)[0]
close('CRANK step 0 reaction on the crank along the crank (global x) [N]', jnt[7], -1.0 * OMEGA ** 2 * 0.2, 3e-9,
      relative=True)

fine = Run(exe, DECK, work, 'start_0.005', {'DT': 5e-3})
e_fine = angle_error(fine.rows('mov', CRANK), fine.times(), lambda s: OMEGA * s)
close('CRANK max |angle - OMEGA t| [rad], DT 5e-3 (second order: <= 1/4 of DT 1e-2, x 1.25)', e_fine, 0.0,
      1.25 * max(e_coarse, 1e-12) / 4.0)

for name, (labels, nodes) in GROUPS.items():
    g = Run(exe, group_deck(labels), work, 'group_' + '_'.join(map(str, labels)), {'DT': 1e-2})
    check_start(g, [GROUND] + nodes, name + ' alone: ')
    if nodes[0] in (CRANK, DRIVEN):
        close(f'{name} alone: angle after one step (DT = 0.01) [deg]', g.rows('mov', nodes[0])[1, 6],
              np.degrees(OMEGA * 1e-2), np.degrees(1e-3))
# Redundancy (decks in this folder, closed forms in their comments).
r = Run(exe, 'redundant_velocity.mbd', work, 'redundant_velocity')
close('redundant velocity joint: dropped (warning names joint 3)',
      float('joint 3 (linear velocity): imposed velocity;' in r.stderr), 1.0, 0.0)
mov = r.rows('mov', 2)
close('redundant velocity joint: |v(0) - (V, 0, 0)| [m/s]', np.abs(mov[0, 7:10] - [2.0, 0, 0]).max(), 0.0, POS_TOL)
close('redundant velocity joint: x(0.05) [m]', mov[-1, 1], 1.1, 1e-12)
r = Run(exe, 'redundant_position.mbd', work, 'redundant_position')
close('redundant position rows: the angular velocity joint is not dropped with them',
      float('joint 4' in r.stderr or 'joint 3 (spherical pin)' not in r.stderr), 0.0, 0.0)
mov = r.rows('mov', 2)
close('redundant position rows: |w(0) - (0, 0, W)| [rad/s]', np.abs(mov[0, 10:13] - [0, 0, 3.0]).max(), 0.0,
      VEL_TOL)
close('redundant position rows: angle at 0.05 s [rad] (W t)', np.radians(mov[-1, 6]), 0.15, 2e-5)
r = Run(exe, 'free_velocity_joints.mbd', work, 'free_velocity_joints')
mov = r.rows('mov', 2)
close('velocity joints alone: |v(0) - (2, 0, 0)| [m/s]', np.abs(mov[0, 7:10] - [2.0, 0, 0]).max(), 0.0, VEL_TOL)
close('velocity joints alone: |w(0) - (0, 0, 3)| [rad/s]', np.abs(mov[0, 10:13] - [0, 0, 3.0]).max(), 0.0, VEL_TOL)
close('velocity joints alone: x(0.03) [m]', mov[-1, 1], 1.06, 1e-12)
finish()
