"""String drives reading node state through MBDyn's model:: functions
(input-examples/model_functions.mbd, crank nicolson, dt = 1e-3 s, 2000 steps). References:
  OSC     F = -4 model::xposition: the trapezoidal rule's exact discrete solution of
          x'' = -4 x, x_n = 0.1 cos(n theta), theta = 2 atan(omega dt / 2)
  DAMPED  F = -2 model::xvelocity: v_n = ((1 - dt) / (1 + dt))^n (trapezoidal rule)
  ORBIT   the spring written with model::distance and model::[xyz]unitvec against the same
          spring as a rod element (a second formulation, exact Jacobian) in a copy of the deck
  probes  model::zangle, angvel, zanglerel, position2, yvrel, zangvrel and the node distance
          drive caller (value and derivative) against the nodes'
          .mov lines and the free spin's closed form (w = 1 rad/s about z, angle t wrapped
          into (-pi, pi])
  MBDyn   MBDyn 1.7.3 on the same deck without force 7 (its build has no module-nodedistdrive;
          mbdyn_reference.txt, every 100th step, written by mbdyn_reference.py): positions,
          velocities, angles and the probe columns of forces 5 and 6
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402
from mbdyn_ref import read_reference  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
deck = os.path.join(EXAMPLES, 'model_functions.mbd')
r = Run(exe, deck, work, 'model_functions')
t = r.times()
n = np.arange(len(t))
dt = 1e-3
close('output steps (0 .. 2000)', len(t), 2001, 0)

osc = r.rows('mov', 3)
theta = 2 * np.arctan(2.0 * dt / 2)
close('OSC: max |x - 0.1 cos(n theta)| (m)', np.abs(osc[:, 1] - 0.1 * np.cos(n * theta)).max(),
      0.0, 5e-15)  # observed 5.4e-16
damped = r.rows('mov', 4)
close('DAMPED: max |v - ((1 - dt)/(1 + dt))^n| (m/s)',
      np.abs(damped[:, 7] - ((1 - dt) / (1 + dt)) ** n).max(), 0.0, 2e-11)
# observed 4e-12: the drive has no derivative, so Newton iterates to the 1e-12 tolerance by
# fixed-point steps

# The rod deck: the string-drive spring replaced by `rod, HUB, ORBIT, L0, linear elastic, K L0`.
with open(deck) as f:
    text = f.read()
start = text.index('    force: 1, absolute, ORBIT')
end = text.index('    force: 2, absolute, OSC')
rod_text = (text[:start] + '    joint: 3, rod, HUB, ORBIT, L0, linear elastic, K*L0;\n'
            + '    force: 1, absolute, ORBIT, position, null, single, 1., 0., 0., null;\n'
            + text[end:]).replace('joints: 2;', 'joints: 3;')
rod_deck = os.path.join(work, 'model_functions_rod.mbd')
with open(rod_deck, 'w') as f:
    f.write(rod_text)
rod = Run(exe, rod_deck, work, 'model_functions_rod')
a, b = r.rows('mov', 2), rod.rows('mov', 2)
radius = np.linalg.norm(a[:, 1:4], axis=1)
close('ORBIT: radius swings (max - min > 0.3 m)', float(radius.max() - radius.min() > 0.3), 1.0, 0)
# observed 2.5e-14 m and 5.1e-14 m/s (both converged to the 1e-12 residual tolerance)
close('ORBIT: max |x - x_rod| (m)', np.abs(a[:, 1:4] - b[:, 1:4]).max(), 0.0, 2.5e-13)
close('ORBIT: max |v - v_rod| (m/s)', np.abs(a[:, 7:10] - b[:, 7:10]).max(), 0.0, 5e-13)

p5, p6 = r.rows('frc', 5)[:, 2:5], r.rows('frc', 6)[:, 2:5]
# The node's own orientation (.mov, Euler 123 in degrees: (0, 0, psi) for a spin about z):
# observed 1.3e-13 rad, the Euler angles and the rotation vector being extracted from the same
# matrix by different formulas.
spin = r.rows('mov', 5)
close('SPIN turns about z only (max |euler x|, |euler y|, deg)', np.abs(spin[:, 4:6]).max(), 0.0,
      1e-12)
close('zangle(SPIN) vs the .mov angle: max error', np.abs(p5[:, 0] - np.radians(spin[:, 6])).max(),
      0.0, 1e-12)
# Against the closed form t (wrapped into (-pi, pi]): the integrator's phase error, observed
# 8.3e-8 rad at 2 s (= t dt^2 / 24).
wrapped = np.arctan2(np.sin(t), np.cos(t))
close('zangle(SPIN) vs t wrapped: max error', np.abs(p5[:, 0] - wrapped).max(), 0.0, 2e-7)
close('angvel(SPIN) = 1: max error', np.abs(p5[:, 1] - 1.0).max(), 0.0, 1e-14)
close('zanglerel(HUB, SPIN) = zangle(SPIN): max error', np.abs(p5[:, 2] - p5[:, 0]).max(), 0.0,
      1e-15)
# observed 2.2e-15 (the .mov's 16 digits squared), 0 and 0
close('position2(ORBIT) vs .mov: max error', np.abs(p6[:, 0] - radius ** 2).max(), 0.0, 2e-14)
close('yvrel(HUB, ORBIT) vs .mov: max error', np.abs(p6[:, 1] - a[:, 8]).max(), 0.0, 1e-15)
close('zangvrel(HUB, SPIN) = 1: max error', np.abs(p6[:, 2] - 1.0).max(), 0.0, 1e-14)

# node distance against the .mov values: observed 4.4e-16, and 3.5e-14, 7.8e-14 for the angle
# terms (psi from the .mov's Euler angle, which differs from the node's rotation vector by up to
# 1.3e-13 rad, above)
p7 = r.rows('frc', 7)[:, 2:5]
psi = np.radians(spin[:, 6])
close('node distance HUB -> ORBIT + 0.5 along x: max error', np.abs(p7[:, 0] - (a[:, 1] + 0.5)).max(),
      0.0, 1e-15)
close('node distance SPIN (offset) -> HUB along x = -cos psi: max error',
      np.abs(p7[:, 1] + np.cos(psi)).max(), 0.0, 3e-13)
close('derivative of it = sin psi (w = 1): max error', np.abs(p7[:, 2] - np.sin(psi)).max(), 0.0,
      5e-13)

# MBDyn on the same deck. Both stop Newton at a residual of 1e-12, reached by fixed-point steps
# (the model:: drives have no derivative): observed differences 1.6e-9 m (positions), 5e-9 m/s
# (velocities), 3.6e-12 deg (SPIN's angle), 3.5e-9 / 4.5e-9 / 1.9e-13 (probe columns).
ref = read_reference(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                  'mbdyn_reference.txt'))
for lab in (2, 3, 4, 5):
    ours = r.rows('mov', lab)
    theirs = ref[('mov', lab)]  # [step, the .mov values after the label]
    k = theirs[:, 0].astype(int)
    close(f'MBDyn: node {lab} max |X - X_mbdyn| (m)', np.abs(ours[k, 1:4] - theirs[:, 1:4]).max(),
          0.0, 1.6e-8)
    close(f'MBDyn: node {lab} max |V - V_mbdyn| (m/s)',
          np.abs(ours[k, 7:10] - theirs[:, 7:10]).max(), 0.0, 5e-8)
    close(f'MBDyn: node {lab} max |angles - angles_mbdyn| (deg)',
          np.abs(ours[k, 4:7] - theirs[:, 4:7]).max(), 0.0, 3.6e-11)
for lab, tol in ((5, 2e-12), (6, 4.5e-8)):
    ours = r.rows('frc', lab)
    theirs = ref[('frc', lab)]
    k = theirs[:, 0].astype(int)
    close(f'MBDyn: probe force {lab} max difference', np.abs(ours[k, 2:5] - theirs[:, 2:5]).max(),
          0.0, tol)
finish()
