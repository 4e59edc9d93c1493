"""Joint reactions in MBDyn's sign and frame convention (docs/reactions.md), in .jnt, NetCDF, HDF5
and private data (input-examples/reaction_signs.mbd).

Every body of the deck starts at rest in static equilibrium under gravity G = 10 along -z, carried
by one joint of each kind, so each reaction is the load it carries (closed form, hand derivation
in the deck's header) at every step. What MBDyn reports, from its AssRes and Output (commit
1727489e): the force the joint applies to node 2 (revolute hinge, spherical hinge, cardano hinge,
axial rotation, prismatic), minus the force on the node (clamp, revolute pin, spherical pin,
linear and angular velocity), the force on node 1 (total joint, in line, distance, rod, deformable
hinge) or on the ground (total pin joint). With weights pulling down, the clamp's F_z is -400 N
(all 40 kg it carries), a hinge's F_z is +m G, a pin's -m G.

Columns checked for each joint at every output step: f, m (local), F, M (global) in .jnt
(columns 2-13), NetCDF elem.joint.<L>.f/m/F/M and HDF5 joints/f, m, F, M. Private data: revolute
hinge 2's Fz, Mx, Fx and revolute pin 3's Fz, Mx, Fy, read by `element` drives of forces 21 and 22
on the clamped PROBE node (.frc force columns). Extra columns after the 13th of the revolute and
spherical hinges and pins: relative rotations as Euler 123 angles (their matrix against the
closed form: 4e-8, observed 3.9e-9 for the pin, whose node spins at WP = 2 rad/s about the pin
axis so that its angle grows as WP t; 6e-17 for the others) and relative angular velocities
((0, 0, WP) for the pin, in its hinge frame, zero for the hinge; 1e-12, observed 0).
Observed error: at most 1.9e-9 N (the in-line joint's second force component and the clamp's
F_y, the Newton tolerance 1e-10 on residuals scaled by the masses); tolerance 8e-9 N (N m).
Able to fail: with every joint reporting its multipliers as they are (the reaction on end 1, the
convention before), the checks of joints 1-5, 9, 12, 18, 19 and of both private-data forces fail
(by 2 W: 20 to 800 N).
"""
import os
import sys

import h5py
import netCDF4
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, euler123, finish, rot  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
TOL = 8e-9  # observed at most 1.95e-9
G = 10.0
Z = (0.0, 0.0, 0.0)


def down(w):
    return (0.0, 0.0, -w)


def up(w):
    return (0.0, 0.0, w)


# Clamp 1: the sum of the loads on everything it carries (mass [kg], centre of mass [m]) and
# couple 14 (2 N m about z) on TWIST, moved to GROUND at the origin.
carried = [(2.0, (1.5, 0, 0)), (3.0, (-1, 0, 0)), (5.0, (0, 1, 0)), (7.0, (0, -0.5, 0)),
           (8.0, (0, 0, -1)), (9.0, (0, 0, -1.01)), (2.0, (0, 0, 1)), (1.5, (-3, 0, 0)),
           (2.5, (0, 0, 2))]
Fc = np.sum([np.array(down(m * G)) for m, _ in carried], axis=0)
Mc = np.sum([np.cross(c, down(m * G)) for m, c in carried], axis=0) + np.array([0.0, 0.0, 2.0])

# PINNED spins at WP about the pin axis (global x): its hinge frame R Rh turns with it, and so do
# the pin's local columns and its private datum Mx. R is the node's orientation of output step k
# (.mov), so that the angle's integration error (3.9e-9 rad) does not enter.
WP = 2.0
R2h2 = np.array([[0, 0, 1], [1, 0, 0], [0, 1, 0]], dtype=float)   # hinge frame columns y, z, x
R_pinned = []


def pin_local(k, v):
    return (R_pinned[k] @ R2h2).T @ np.array(v, dtype=float)


# label: (f, m, F, M) as MBDyn reports them (a function of the output step k where they turn)
expected = {
    1: (Fc, Mc, Fc, Mc),                              # clamp: node frame = global
    2: ((0, 20, 0), (-10, 0, 0), up(20), (0, -10, 0)),  # revolute hinge, local: HUNG's hinge frame
    3: lambda k: (pin_local(k, down(10)), pin_local(k, (0, 5, 0)), down(10), (0, 5, 0)),  # revolute
    # pin, local: the node's hinge frame: (0, -10, 0) and (5, 0, 0) at t = 0
    4: ((0, 30, 0), Z, up(30), Z),                    # spherical hinge, local: GROUND's hinge frame
    5: (down(40), Z, down(40), Z),                    # spherical pin, local = global
    6: ((50, 0, 0), Z, down(50), Z),                  # total joint, on GROUND, frame (-z, y, x)
    7: (down(60), Z, down(60), Z),                    # total pin joint, on the ground
    8: ((70, 0, 0), Z, down(70), Z),                  # in line, on GROUND, line frame (-z, y, x)
    9: (Z, (35, 0, 0), Z, (35, 0, 0)),                # prismatic, couple on SLIDE
    10: ((80, 0, 0), Z, down(80), Z),                 # distance, on GROUND, tension 80
    11: ((90, 0, 0), Z, down(90), Z),                 # rod, on GROUND, tension 90
    12: (up(20), Z, up(20), Z),                       # spherical hinge on TWIST (identity frames)
    13: (Z, (0, 0, 2), Z, (0, 0, 2)),                 # deformable hinge, law moment on GROUND
    15: ((-30, 0, 0), Z, down(30), Z),                # linear velocity: minus the force on VEL
    16: (Z, (1.5, 0, 0), Z, (0, 0, 1.5)),             # angular velocity: minus the couple on VEL
    18: (up(15), Z, up(15), Z),                       # cardano hinge on CARD; m = (mu, 0, 0) = 0
    19: ((0, 25, 0), Z, up(25), Z),                   # axial rotation, local: AXR's hinge frame
    20: lambda k: ((20 + pin_local(k, (0, 5, 0))[0], -10, -10), Z,
                   (20 + pin_local(k, (0, 5, 0))[0], -10, -10), Z),  # clamp of PROBE: forces 21 + 22
}
names = ('f', 'm', 'F', 'M')

r = Run(exe, os.path.join(EXAMPLES, 'reaction_signs.mbd'), work, 'rs',
        extra=('--format', 'text,netcdf,hdf5'))
nc = netCDF4.Dataset(r.prefix + '.nc')
h5 = h5py.File(r.prefix + '.h5', 'r')
h5_index = {int(lab): i for i, lab in enumerate(h5['joints/labels'][:])}
t = r.times()
R_pinned = [euler123(row[4:7]) for row in r.rows('mov', 3)]
for label, values in expected.items():
    rows = r.rows('jnt', label)
    close(f'joint {label}: .jnt output steps', len(rows), 11, 0)
    refs = [values(k) if callable(values) else values for k in range(len(t))]
    for k, name in enumerate(names):
        ref = np.array([np.asarray(v[k], dtype=float) for v in refs])
        jnt = rows[:, 1 + 3 * k:4 + 3 * k]
        ncv = np.asarray(nc[f'elem.joint.{label}.{name}'][:])
        h5v = h5['joints/' + name][:, h5_index[label], :]
        for what, v in (('.jnt', jnt), ('NetCDF', ncv), ('HDF5', h5v)):
            close(f'joint {label} {name} ({what}) max |error| [N, N m]', np.max(np.abs(v - ref)), 0.0,
                  TOL)

# Extra columns (relative rotations as Euler 123 angles in degrees, MBDyn's Output of each joint):
# revolute hinge 2: R1h^T R2h, then the relative angular velocity (zero at rest); revolute pin 3:
# R0^T R Rh = rotation by WP t about its axis 3, then (R Rh)^T w = (0, 0, WP); spherical hinge 4: R1h^T (BALL's frame is the identity);
# spherical pin 5: the node's orientation, I; spherical hinge 12: TWIST's turn, 0.5 rad about z.
R1h2 = np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0]], dtype=float)  # columns -z, y, x
for label, R_ref, w_ref, ncols in ((2, lambda t: R1h2.T @ R2h2, (0, 0, 0), 18),
                                   (3, lambda t: rot(2, WP * t), (0, 0, WP), 18),
                                   (4, lambda t: R2h2.T, None, 15), (5, lambda t: np.eye(3), None, 15),
                                   (12, lambda t: rot(2, 0.5), None, 15)):
    rows = r.rows('jnt', label)
    close(f'joint {label}: .jnt columns', rows.shape[1] - 1, ncols, 0)
    err = max(np.abs(euler123(row[13:16]) - R_ref(tk)).max() for row, tk in zip(rows, t))
    close(f'joint {label}: relative rotation columns 14-16 (Euler 123) [-]', err, 0.0, 4e-8)
    if w_ref is not None:
        close(f'joint {label}: angular velocity columns 17-19 [rad/s]', np.abs(rows[:, 16:19] - w_ref).max(),
              0.0, 1e-12)

# Private data through the forces on PROBE: .frc columns label, node, F (3), arm (3).
pin_mx = np.array([[pin_local(k, (0, 5, 0))[0], 0.0, 0.0] for k in range(len(t))])  # 5 cos(WP t)
for label, ref in ((21, np.array([20.0, -10.0, -10.0])), (22, pin_mx)):
    F = r.rows('frc', label)[:, 2:5]
    close(f'force {label}: private data (hinge Fz, Mx, pin Fz | pin Mx, hinge Fx, pin Fy)',
          np.max(np.abs(F - ref)), 0.0, TOL)
finish()
