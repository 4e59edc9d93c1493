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
on the clamped PROBE node (.frc force columns).
Observed error: at most 1.9e-9 N (the in-line joint's second force component and the clamp's
F_y, the Newton tolerance 1e-10 on residuals scaled by the masses); tolerance 2e-8 N (N m).
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
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
TOL = 2e-8
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

# label: (f, m, F, M) as MBDyn reports them
expected = {
    1: (Fc, Mc, Fc, Mc),                              # clamp: node frame = global
    2: ((0, 20, 0), (-10, 0, 0), up(20), (0, -10, 0)),  # revolute hinge, local: HUNG's hinge frame
    3: ((0, -10, 0), (5, 0, 0), down(10), (0, 5, 0)),   # revolute pin, local: node's hinge frame
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
    20: ((25, -10, -10), Z, (25, -10, -10), Z),       # clamp of PROBE: forces 21 + 22 on it
}
names = ('f', 'm', 'F', 'M')

r = Run(exe, os.path.join(EXAMPLES, 'reaction_signs.mbd'), work, 'rs',
        extra=('--format', 'text,netcdf,hdf5'))
nc = netCDF4.Dataset(r.prefix + '.nc')
h5 = h5py.File(r.prefix + '.h5', 'r')
h5_index = {int(lab): i for i, lab in enumerate(h5['joints/labels'][:])}
for label, values in expected.items():
    rows = r.rows('jnt', label)
    close(f'joint {label}: .jnt output steps', len(rows), 11, 0)
    for k, (name, ref) in enumerate(zip(names, values)):
        ref = np.asarray(ref, dtype=float)
        jnt = rows[:, 1 + 3 * k:4 + 3 * k]
        ncv = np.asarray(nc[f'elem.joint.{label}.{name}'][:])
        h5v = h5['joints/' + name][:, h5_index[label], :]
        for what, v in (('.jnt', jnt), ('NetCDF', ncv), ('HDF5', h5v)):
            close(f'joint {label} {name} ({what}) max |error| [N, N m]', np.max(np.abs(v - ref)), 0.0,
                  TOL)

# Private data through the forces on PROBE: .frc columns label, node, F (3), arm (3).
for label, ref in ((21, (20.0, -10.0, -10.0)), (22, (5.0, 0.0, 0.0))):
    F = r.rows('frc', label)[:, 2:5]
    close(f'force {label}: private data (hinge Fz, Mx, pin Fz | pin Mx, hinge Fx, pin Fy)',
          np.max(np.abs(F - np.array(ref))), 0.0, TOL)
finish()
