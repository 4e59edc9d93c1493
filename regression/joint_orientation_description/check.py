"""Joints' `orientation description` (input-examples/joint_orientation_description.mbd): the
relative rotation of spherical hinges, revolute hinges, revolute rotations, cardano rotations and
axial rotations written as Euler 123/313/321 angles, a rotation vector or a matrix, as the card
(or `default orientation`) asks, in .jnt, NetCDF and HDF5.

References:
- the definitions: each format is turned back into a matrix here (R = Rx Ry Rz, Rz Rx Rz,
  Rz Ry Rx of the angles in degrees; Rodrigues for the vector; the 9 values row by row) and the
  copies of a mechanism, which move identically, must give the same matrix as the copy written
  as a matrix;
- the nodes' .mov orientations (Euler 321: the deck's `default orientation`): the relative
  rotation R1h^T R1^T R2 R2h (cardano rotation R2h^T R2^T R1 R1h, MBDyn's order);
- MBDyn (1.7.3 as installed in /work/mbdyn) on the same deck: mbdyn_reference.txt
  (mbdyn_reference.py), every 100th step: the number of columns of each joint's line, its
  rotation columns and the columns after them (angular velocities, the imposed one);
- the text output for NetCDF (elem.joint.<L>.E, .Phi, .R, .Omega, named and described per joint)
  and HDF5 (joints/E, Phi, R, Omega, orientation_description).
A `plane hinge` with an orientation description is refused at the keyword (MBDyn refuses it
too), and on a `viscous body` the option warns (MBDyn reads it and writes no rotation).

Observed (dt = 1e-3 s, 1 s) and tolerances:
- formats against the matrix copy: 1.7e-11 (1e-10: 12 digits of angles up to 180 degrees);
- against the .mov orientations: 2.3e-11 (1e-10);
- against MBDyn: the same column counts (exactly); each format's matrix-space difference from
  MBDyn equals the matrix copy's to 1.4e-11 (1e-10), so the formats convert alike and only the
  motions differ; column by column (degrees taken as radians), per mechanism, the motions'
  difference: heavy tops 2.6e-6 (1e-5), pendulums 4.2e-9 (2e-8), revolute rotations 5.2e-12
  (5e-11), cardano rotations 5.8e-7 (5e-6), axial rotations 7.0e-12 (5e-11). The spinning
  bodies' (tops, cardano rotations) differ at second order in dt between the two integrators: at
  dt = 5e-4 the matrices differ by 3.8e-7 and 1.4e-7 instead of 1.53e-6 and 5.6e-7 (ratio 4.0,
  measured by hand with both programs). The columns after the rotation (angular velocities,
  the imposed one): 6.8e-9 (1e-8);
- NetCDF and HDF5 against the .jnt, relative to the value (at least 1): 4.9e-12 (1e-11: the
  .jnt's 12 digits).
"""
import os
import subprocess
import sys

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
from mbs_check import EXAMPLES, Run, close, expm, finish, rot  # noqa: E402
from mbdyn_ref import read_reference  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
DECK = os.path.join(EXAMPLES, 'joint_orientation_description.mbd')
TILT = 0.4

# label: orientation description (None: the deck's default, euler321), by mechanism.
OD = {10: 'euler313', 11: 'vector', 12: 'matrix', 13: None,
      20: 'euler123', 21: 'vector', 22: 'matrix', 23: None,
      30: 'euler321', 31: 'vector', 32: 'matrix',
      40: 'euler313', 41: 'euler123', 42: 'matrix',
      50: 'vector', 51: 'matrix', 52: None}
GROUPS = ((10, 11, 12, 13), (20, 21, 22, 23), (30, 31, 32), (40, 41, 42), (50, 51, 52))
MATRIX_COPY = {g[0]: next(lab for lab in g if OD[lab] == 'matrix') for g in GROUPS}


def od(lab):
    return OD[lab] or 'euler321'


def width(lab):
    return 9 if od(lab) == 'matrix' else 3


def to_matrix(kind, v):
    """The rotation matrix of the values v written in format `kind` (the definitions)."""
    if kind == 'matrix':
        return np.asarray(v).reshape(3, 3)
    if kind == 'vector':
        return expm(np.asarray(v))
    a = np.radians(v)
    axes = {'euler123': (0, 1, 2), 'euler313': (2, 0, 2), 'euler321': (2, 1, 0)}[kind]
    return rot(axes[0], a[0]) @ rot(axes[1], a[1]) @ rot(axes[2], a[2])


def matrices(lab, rows):
    """(T, 3, 3) from the rotation columns of the .jnt rows (label first, then 12 reaction
    columns: the rotation starts at row index 13)."""
    return np.array([to_matrix(od(lab), r[13:13 + width(lab)]) for r in rows])


r = Run(exe, DECK, work, 'od', extra=('--format', 'text,netcdf,hdf5'))
jnt = {lab: r.rows('jnt', lab) for lab in OD}
close('output steps', len(jnt[10]), 1001, 0)

# 1. Every format is the rotation of the matrix copy.
err = 0.0
for g in GROUPS:
    Rm = matrices(MATRIX_COPY[g[0]], jnt[MATRIX_COPY[g[0]]])
    for lab in g:
        err = max(err, np.abs(matrices(lab, jnt[lab]) - Rm).max())
close('each format vs the matrix copy (max |R - R_matrix|)', err, 0, 1e-10)

# 2. The relative rotation from the nodes' .mov orientations (Euler 321, degrees).
mov = {lab: r.rows('mov', lab) for lab in OD}


def e123(a, b, c):
    return rot(0, a) @ rot(1, b) @ rot(2, c)


R1h = {10: e123(0.1, 0.2, 0.3), 20: rot(0, TILT), 30: rot(0, TILT), 40: np.eye(3), 50: rot(0, TILT)}
R2h = {10: e123(-0.2, 0.1, 0.4), 20: np.eye(3), 30: np.eye(3), 40: np.eye(3), 50: np.eye(3)}
err = 0.0
for g in GROUPS:
    for lab in g:
        # Node 1 is the ground (R1 = I).
        R2 = [to_matrix('euler321', m[4:7]) for m in mov[lab]]
        if g[0] == 40:
            rel = np.array([R2h[40].T @ R.T @ R1h[40] for R in R2])  # R2h^T R2^T R1 R1h
        else:
            rel = np.array([R1h[g[0]].T @ R @ R2h[g[0]] for R in R2])  # R1h^T R1^T R2 R2h
        err = max(err, np.abs(matrices(lab, jnt[lab]) - rel).max())
close('relative rotation vs the .mov orientations (max |R - R_mov|)', err, 0, 1e-10)

# 3. Against MBDyn: column counts, the columns after the rotation, and the rotation columns: in
# matrix space, each format's difference from MBDyn is the matrix copy's (the formats convert
# alike: only the motions differ), and column by column (the same Euler branches), with degrees
# taken as radians, within the motion difference of the mechanism (TOL_MBDYN, see above).
TOL_MBDYN = {10: 1e-5, 20: 2e-8, 30: 5e-11, 40: 5e-6, 50: 5e-11}
ref = read_reference(os.path.join(HERE, 'mbdyn_reference.txt'))
steps = ref[('jnt', 10)][:, 0].astype(int)
close('MBDyn samples', len(steps), 11, 0)
ncols = rest_err = same_diff = 0.0
for g in GROUPS:
    diff = {}
    col_err = 0.0
    for lab in g:
        md = ref[('jnt', lab)][:, 1:]  # the values after the label
        ours = jnt[lab][steps, 1:]
        ncols = max(ncols, abs(md.shape[1] - ours.shape[1]))
        w = width(lab)
        if md.shape[1] > 12 + w:
            rest_err = max(rest_err, np.abs(ours[:, 12 + w:] - md[:, 12 + w:]).max())
        diff[lab] = np.array([to_matrix(od(lab), a) - to_matrix(od(lab), b)
                              for a, b in zip(ours[:, 12:12 + w], md[:, 12:12 + w])])
        scale = np.radians(1.0) if od(lab).startswith('euler') else 1.0
        col_err = max(col_err, scale * np.abs(ours[:, 12:12 + w] - md[:, 12:12 + w]).max())
    for lab in g:
        same_diff = max(same_diff, np.abs(diff[lab] - diff[MATRIX_COPY[g[0]]]).max())
    close(f'rotation columns vs MBDyn, joints {g[0]}-{g[-1]} (deg as rad)', col_err, 0,
          TOL_MBDYN[g[0]])
close('column counts vs MBDyn (max difference)', ncols, 0, 0)
close('each format\'s matrix difference from MBDyn vs the matrix copy\'s', same_diff, 0, 1e-10)
close('columns after the rotation vs MBDyn', rest_err, 0, 1e-8)

# 4. NetCDF and HDF5 = the .jnt columns; names, descriptions, orientation_description.
NAME = {'matrix': 'R', 'vector': 'Phi'}


def rel(a, text):
    """Largest difference relative to the .jnt value (at least 1): the .jnt has 12 digits."""
    return float((np.abs(np.asarray(a) - text) / np.maximum(np.abs(text), 1.0)).max())


nc = h5py.File(r.prefix + '.nc', 'r')
h5 = h5py.File(r.prefix + '.h5', 'r')
hl = list(h5['joints/labels'][:])
hod = [s.decode() if isinstance(s, bytes) else s for s in h5['joints/orientation_description'][:]]
err_nc = err_h5 = 0.0
names_ok = 1
for lab in OD:
    n, w, rows = NAME.get(od(lab), 'E'), width(lab), jnt[lab]
    k = hl.index(lab)
    want = {'vector': 'orientation vector', 'matrix': 'orientation matrix'}.get(od(lab), od(lab))
    names_ok &= hod[k] == want
    v = nc[f'elem.joint.{lab}.{n}']
    err_nc = max(err_nc, rel(np.asarray(v).reshape(len(rows), w), rows[:, 13:13 + w]))
    err_h5 = max(err_h5, rel(h5[f'joints/{n}'][:, k, :w], rows[:, 13:13 + w]))
    if n == 'E':
        desc = v.attrs['description']
        desc = desc.decode() if isinstance(desc, bytes) else desc
        names_ok &= f'({od(lab)[5:]})' in desc
    for other in {'E', 'Phi', 'R'} - {n}:
        names_ok &= f'elem.joint.{lab}.{other}' not in nc
    if lab // 10 in (2, 3, 5):  # Omega after the rotation (axial rotation: after the drive)
        c = 13 + w + (1 if lab // 10 == 5 else 0)
        err_nc = max(err_nc, rel(nc[f'elem.joint.{lab}.Omega'][:], rows[:, c:c + 3]))
        err_h5 = max(err_h5, rel(h5['joints/Omega'][:, k, :], rows[:, c:c + 3]))
# HDF5's one E dataset for the three Euler sequences of the deck lists them.
hdesc = h5['joints/E'].attrs['description']
hdesc = hdesc.decode() if isinstance(hdesc, bytes) else hdesc
names_ok &= all(f'({q}) (E_X, E_Y, E_Z)' in hdesc for q in ('123', '313', '321'))
close('NetCDF vs .jnt (rotation, Omega; relative, 12 digits)', err_nc, 0, 1e-11)
close('HDF5 vs .jnt (rotation, Omega; relative, 12 digits)', err_h5, 0, 1e-11)
close('names, descriptions and HDF5 orientation_description as the cards ask', names_ok, 1, 0)
nc.close()
h5.close()

# 5. A plane hinge takes no orientation description (as in MBDyn): refused at the keyword.
with open(DECK) as f:
    text = f.read()
lines = text.split('\n')
i = next(n for n, s in enumerate(lines) if s.strip().startswith('joint: 21, revolute hinge'))
lines[i] = lines[i].replace('revolute hinge', 'plane hinge')
line = i + 4  # `orientation description, orientation vector;` (1-based: i + 1 + 3)
col = lines[line - 1].index('orientation description') + 1
bad = os.path.join(work, 'plane_hinge_od.mbd')
with open(bad, 'w') as f:
    f.write('\n'.join(lines))
p = Run(exe, bad, work, 'plane_hinge_od', expect_rc=2)
close('plane hinge: orientation description refused at its keyword',
      float(f'plane_hinge_od.mbd:{line}:{col}: error:' in p.stderr and 'revolute hinge' in p.stderr),
      1.0, 0)

# 6. A viscous body reads it with a warning (its output has no rotation).
with open(os.path.join(EXAMPLES, 'viscous_body.mbd')) as f:
    text = f.read()
anchor = 'C, C, C, 0.3, 0.3, CR3'
vb = os.path.join(work, 'viscous_body_od.mbd')
with open(vb, 'w') as f:
    f.write(text.replace(anchor, anchor + ', orientation description, euler321'))
p = subprocess.run([exe, '-f', vb, '-o', os.path.join(work, 'viscous_body_od'), '-D', 'TF=0.01'],
                   capture_output=True, text=True)
line = text[:text.index(anchor)].count('\n') + 1
close('viscous body: orientation description warns at its keyword (and runs)',
      float(p.returncode == 0 and f"viscous_body_od.mbd:{line}:63: warning: 'orientation description' "
            "has no effect on a viscous body" in p.stderr), 1.0, 0)
finish()
