"""Universal (Cardan) joint between shafts at BETA = 30 deg (input-examples/cardano_shafts.mbd),
built with cardano rotation + revolute hinge (A) and cardano hinge + revolute rotation (B).

Reference (closed form, derived in the deck's header): tan(phi2) = tan(phi1) / cos(BETA),
phi2' = phi1' cos(BETA) / (cos(BETA)^2 cos(phi1)^2 + sin(phi1)^2).
The input angle phi1 is integrated from the imposed rate (axial rotation: second-order drift,
~2.5e-5 rad after 2 s at dt = 1e-3, see regression/four_bar), so the output is compared with the
closed form at the input shaft's actual angle: the kinematic relation then holds to the Newton
tolerance. Tolerances (dt = 1e-3 s, two input turns):
 - the input turns: 2 to 2e-5 (measured 3.9e-6, the drift above); its rate W1 to 2e-13 rad/s
   (5.1e-14);
 - phi2 against the closed form at the actual phi1: 2e-14 rad, both copies (measured 3.6e-15);
 - output angular velocity against phi2'(phi1, W1) a2: 5e-5 rad/s. The input rate is imposed
   (met to the Newton tolerance) but the output's velocity is not constrained directly: the
   index-3 formulation meets the positions and gets the velocities through the integration
   formula, with a second-order error (measured 2.1e-5 rad/s at dt = 1e-3);
 - the output turns unevenly: its rate spans W1 cos(BETA) .. W1 / cos(BETA) (1e-5 relative,
   measured 2e-6);
 - copies A and B agree to 1e-14 rad (measured 1.8e-15);
 - the output shafts keep their axis: |e1 - a2| <= 1e-14 (2.7e-15);
 - .jnt extra columns, recomputed from the nodes' orientations: the revolute rotation (B) writes
   the Euler 123 angles of Ra^T Rb, here (0, 0, phi2) in degrees, and Ra^T (w2 - w1) =
   (0, 0, phi2') (2e-12 deg, measured 3.4e-13; the rate as above, 5e-5 rad/s); the cardano hinge
   (B) the Euler 123 angles of Rb^T Ra of its hinge frames (the matrix they give, 3e-14;
   measured 5.3e-15).
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
BETA, W1 = math.radians(30.0), 2 * math.pi
CB, SB = math.cos(BETA), math.sin(BETA)
a2 = np.array([CB, SB, 0.0])
a2z = np.array([SB, -CB, 0.0])  # a2 x z

def euler123_matrix(a):
    """R = R1(a0) R2(a1) R3(a2): rotations about the moving axes 1, 2, 3 (angles in degrees)."""
    c, s = np.cos(np.radians(a)), np.sin(np.radians(a))
    R1 = np.array([[1, 0, 0], [0, c[0], -s[0]], [0, s[0], c[0]]])
    R2 = np.array([[c[1], 0, s[1]], [0, 1, 0], [-s[1], 0, c[1]]])
    R3 = np.array([[c[2], -s[2], 0], [s[2], c[2], 0], [0, 0, 1]])
    return R1 @ R2 @ R3


def wrap_deg(a):
    return (a + 180.0) % 360.0 - 180.0


r = Run(exe, os.path.join(EXAMPLES, 'cardano_shafts.mbd'), work, 'cardano_shafts')
t = r.times()
phi2 = {}
for name, lin, lout in (('A', 2, 3), ('B', 4, 5)):
    inp = r.rows('mov', lin)
    out = r.rows('mov', lout)
    phi1 = np.unwrap(np.radians(inp[:, 4]))          # Euler 123: first angle, about x
    e1 = out[:, [4, 7, 10]]                          # first column of the orientation matrix
    e3 = out[:, [6, 9, 12]]                          # third column
    p2 = np.unwrap(np.arctan2(e3 @ a2z, e3[:, 2]))
    phi2[name] = p2
    ref = np.unwrap(np.arctan2(np.sin(phi1), CB * np.cos(phi1)))
    rate = W1 * CB / (CB ** 2 * np.cos(phi1) ** 2 + np.sin(phi1) ** 2)
    close(f'{name}: input turns', phi1[-1] / (2 * math.pi), 2.0, 2e-5)
    close(f'{name}: max |input rate - W1| [rad/s]', np.abs(inp[:, 10:13] - np.array([W1, 0, 0])).max(), 0, 2e-13)
    close(f'{name}: max |phi2 - closed form at phi1| [rad]', np.abs(p2 - ref).max(), 0, 2e-14)
    close(f'{name}: max |omega2 - phi2\'(phi1) a2| [rad/s]', np.abs(out[:, 16:19] - np.outer(rate, a2)).max(), 0, 5e-5)
    w = out[:, 16:19] @ a2
    close(f'{name}: min output rate / (W1 cos(BETA))', w.min() / (W1 * CB), 1.0, 1e-5, relative=True)
    close(f'{name}: max output rate / (W1 / cos(BETA))', w.max() / (W1 / CB), 1.0, 1e-5, relative=True)
    close(f'{name}: max |output axis - a2|', np.abs(e1 - a2).max(), 0, 1e-14)
close('max |phi2 (A) - phi2 (B)| [rad]', np.abs(phi2['A'] - phi2['B']).max(), 0, 1e-14)

# .jnt extras of copy B. Revolute rotation (joint 6): ground hinge frame axis 3 = a2.
inp, out = r.rows('mov', 4), r.rows('mov', 5)
phi1 = np.unwrap(np.radians(inp[:, 4]))
rate = W1 * CB / (CB ** 2 * np.cos(phi1) ** 2 + np.sin(phi1) ** 2)
j6 = r.rows('jnt', 6)
ang = np.zeros((len(t), 3))
ang[:, 2] = np.degrees(phi2['B'])
close('revolute rotation: max |Euler angles - (0, 0, phi2)| [deg]', np.abs(wrap_deg(j6[:, 13:16] - ang)).max(), 0, 2e-12)
close('revolute rotation: max |relative omega - (0, 0, phi2\')| [rad/s]',
      np.abs(j6[:, 16:19] - np.outer(rate, [0, 0, 1])).max(), 0, 5e-5)
# Cardano hinge (joint 7): hinge frames, global at t = 0: input (x, -z, y), output (a2, z, a2 x z)
# rotated by the nodes (the input node starts at the identity, the output at (a2, z x a2, z)).
Rh1 = np.column_stack([[1, 0, 0], [0, 0, -1], [0, 1, 0]])
Rh2 = np.column_stack([a2, [0, 0, 1], a2z])
R20 = np.column_stack([a2, np.cross([0, 0, 1], a2), [0, 0, 1]])
j7 = r.rows('jnt', 7)
err = 0.0
for k in range(len(t)):
    c, s_ = math.cos(phi1[k]), math.sin(phi1[k])
    R1 = np.array([[1, 0, 0], [0, c, -s_], [0, s_, c]])
    R2 = out[k, 4:13].reshape(3, 3)
    Ra, Rb = R1 @ Rh1, R2 @ R20.T @ Rh2
    err = max(err, np.abs(euler123_matrix(j7[k, 13:16]) - Rb.T @ Ra).max())
close('cardano hinge: max |R(.jnt Euler angles) - Rb^T Ra|', err, 0, 3e-14)
finish()
