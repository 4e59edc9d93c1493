"""Abstract nodes (.abs), genels (.gen), parameter nodes (.prm), drive caller output (.drv,
.trc) and abstract forces (.frc) in text, NetCDF and HDF5 (input-examples/scalar_output.mbd;
issue 22 item 6, issue 21 item 2).

References:
- MBDyn (1.7.3 as installed in /work/mbdyn) on the same deck with genel 5 a clamp instead of a
  distance (mbdyn_reference.py says why; mbsolve runs the same text here): its lines every 5th
  step, mbdyn_reference.txt. The layouts are MBDyn's (mbdyn/base/node.cc: algebraic nodes write
  one value; mbdyn/elec/genel_.cc: the clamp and distance write their dRct).
- closed forms of the example (its header): x1 = (1 - cos 2t)/2, x1' = sin 2t, x2 = 0.1 cos 3t,
  x3 = 0.5 + 3t, x4 = x1 + 0.5; .gen: genel 1 f - 0.95, genel 4 1.75, genel 5 f - 0.25,
  f = 2 (1 - cos t); .frc: 1 `1 4 f`, 2 `2 3 1.5`, 3 `3 1 -0.7`, 4 `4 3 0.25 4 -0.25`;
  .prm: 10 is 2.5, 11 is rz = 0.5 t, 12 is x1 at the last sample instant k 0.05 s <= t;
  .drv: 1 sin 2t, 2 cos 2t; 2 0.5 + 3t; .trc: 2 0.5 + 3t, 3; 3 2 sin t (MBDyn's
  mbdyn/base/drive.cc DriveCaller::Output, ::Trace).
- NetCDF and HDF5 against the text of the same run at `output precision: 17` (exact): 0.

Observed and tolerances:
- against MBDyn (10 digits): .abs 5.0e-11 (x1), 9.0e-9 (x2': MBDyn's initial derivative is
  -9e-9, ours 1.6e-17), 0 (x3), 4.0e-10 (x4); .gen 0 (genels 1, 4), 4.0e-10 (genel 5); .prm 0
  (10), 4.3e-6 (11, rz: both integrate the spinning body, MBDyn 5.5e-6 from 0.5 t, mbsolve
  1.2e-6); tolerances 10x (0 where 0 was observed), 1e-5 on rz (2.3x).
  Parameter 12 is not compared: MBDyn samples at the first step where t >= t_sample + T in
  floating point, so at t = 0.1 it samples one step late (0.05 + 0.05 > 0.1); mbsolve counts
  instants within 1e-9 T as reached (elements/nodes/scalar_nodes.cpp). Its values agree with
  MBDyn's until t = 0.1.
- closed forms (dt = 0.01): x1 4.0e-5 (the two-step method; tolerance 1e-4), x1' 3.3e-16
  (3e-15), x2 4.3e-5 (1e-4), x3 4.4e-16 (4e-15), x4 - x1 - 0.5 1.1e-16 (1e-15), genel 1 and 5
  4.4e-16 (4e-15), genel 4 0 (0), rz 1.2e-6 (1e-5), parameters 10 and 12 0 (0).
- `output: no` on parameter 13: in no file; `output meter` every 4th step: 51 rows in every
  file but .trc (201: every step, as MBDyn), equal to every 4th row of the full run (0);
  `output precision: 10`: at most 10 digits.
- abstract forces (.frc, mbdyn/base/force.cc): against MBDyn 5.0e-10 (1e-9, as the drives);
  closed forms 4.4e-16 (4e-15; f's arithmetic); NetCDF elem.force.<L>.F, .F2 (internal) and HDF5 abstract_forces = .frc (0).
- drive callers: against MBDyn 5.0e-10, half a unit of the 10th digit (1e-9); closed forms 4e-15 (the drives' own
  arithmetic); NetCDF and HDF5 = .drv (0). The relative-coordinate path writes none and warns at
  the drive (pendulum with a drive caller card; the DAE writes its .drv). A drive without a
  derivative (timestep): `output, yes` writes one column (MBDyn's rule), `derivative, yes` stops
  the run with an error at the drive (exit 2; MBDyn warns and drops the derivative).
"""
import os
import re
import subprocess
import sys

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402
from mbdyn_ref import read_reference  # noqa: E402
from mbdyn_reference import variant  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
deck = os.path.join(EXAMPLES, 'scalar_output.mbd')
FILES = (('abs', (1, 2, 3, 4)), ('gen', (1, 4, 5)), ('prm', (10, 11, 12)))

# --- mbsolve against MBDyn on the same deck (genel 5 a clamp)
vdeck = os.path.join(work, 'scalar_output_mbdyn.mbd')
with open(vdeck, 'w') as f:
    f.write(variant())
v = Run(exe, vdeck, work, 'scalar_mbdyn')
ref = read_reference(os.path.join(HERE, 'mbdyn_reference.txt'))
tol = {('abs', 1): 5e-10, ('abs', 2): 9e-8, ('abs', 3): 0, ('abs', 4): 4e-9, ('gen', 1): 0,
       ('gen', 4): 0, ('gen', 5): 4e-9, ('prm', 10): 0, ('prm', 11): 1e-5}  # prm 11: observed 4.3e-6 (the bound joint angle's motion)
for ext, labels in FILES:
    for L in labels:
        if (ext, L) not in tol:
            continue
        mine = v.rows(ext, L)[:, 1:]
        theirs = ref[(ext, L)]
        close(f'.{ext} {L}: columns as MBDyn', mine.shape[1], theirs.shape[1] - 1, 0)
        close(f'.{ext} {L}: max |mbsolve - MBDyn|',
              np.abs(mine[theirs[:, 0].astype(int)] - theirs[:, 1:]).max(), 0, tol[(ext, L)])

# .drv and .trc: the drives' values (10 digits); MBDyn writes the mean of the one-sided
# derivatives at the initial time (1 for sin 2t), mbsolve the one after it (2): step 0 of the
# derivative is compared with 2 instead.
for ext, L in (('drv', 1), ('drv', 2), ('trc', 2), ('trc', 3), ('frc', 1), ('frc', 2), ('frc', 3),
               ('frc', 4)):
    mine = v.rows(ext, L)[:, 1:]
    theirs = ref[(ext, L)]
    close(f'.{ext} {L}: columns as MBDyn', mine.shape[1], theirs.shape[1] - 1, 0)
    d = mine[theirs[:, 0].astype(int)] - theirs[:, 1:]
    if (ext, L) == ('drv', 1):
        close('.drv 1: derivative at t = 0 (one-sided)', mine[0, 1], 2.0, 0)
        d[0, 1] = 0.0
    close(f'.{ext} {L}: max |mbsolve - MBDyn|', np.abs(d).max(), 0, 1e-9)

# --- the example: closed forms, and NetCDF and HDF5 = text (17 digits)
r = Run(exe, deck, work, 'scalar', {'PRECISION': 17}, extra=('--format', 'text,netcdf,hdf5'))
t = r.times()
close('output steps', len(t), 201, 0)
a = {L: r.rows('abs', L)[:, 1:] for L in (1, 2, 3, 4)}
g = {L: r.rows('gen', L)[:, 1] for L in (1, 4, 5)}
p = {L: r.rows('prm', L)[:, 1] for L in (10, 11, 12)}
f = 2 * (1 - np.cos(t))
close('x1: max |x1 - (1 - cos 2t)/2|', np.abs(a[1][:, 0] - (1 - np.cos(2 * t)) / 2).max(), 0, 1e-4)
close("x1': max |x1' - sin 2t|", np.abs(a[1][:, 1] - np.sin(2 * t)).max(), 0, 3e-15)
close('x2: max |x2 - 0.1 cos 3t|', np.abs(a[2][:, 0] - 0.1 * np.cos(3 * t)).max(), 0, 1e-4)
close('x3 (algebraic: one column): max |x3 - (0.5 + 3t)|', np.abs(a[3][:, 0] - 0.5 - 3 * t).max()
      + (a[3].shape[1] - 1), 0, 4e-15)
close('x4 (distance): max |x4 - x1 - 0.5|', np.abs(a[4][:, 0] - a[1][:, 0] - 0.5).max(), 0, 1e-15)
close('genel 1 (clamp): max |dRct - (f - 0.95)|', np.abs(g[1] - (f - 0.95)).max(), 0, 4e-15)
close('genel 4 (clamp): max |dRct - 1.75|', np.abs(g[4] - 1.75).max(), 0, 0)
close('genel 5 (distance): max |dRct - (f - 0.25)|', np.abs(g[5] - (f - 0.25)).max(), 0, 4e-15)
fr = {L: r.rows('frc', L)[:, 1:] for L in (1, 2, 3, 4)}
close('abstract forces (.frc): node labels 4, 3, 1, (3, 4)',
      0 if all((fr[L][:, 0] == n).all() for L, n in ((1, 4), (2, 3), (3, 1), (4, 3)))
      and (fr[4][:, 2] == 4).all() else 1, 0, 0)
close('abstract forces (.frc): max |value - (f, 1.5, -0.7, 0.25, -0.25)|',
      max(np.abs(fr[1][:, 1] - f).max(), np.abs(fr[2][:, 1] - 1.5).max(),
          np.abs(fr[3][:, 1] + 0.7).max(), np.abs(fr[4][:, [1, 3]] - [0.25, -0.25]).max()), 0, 4e-15)
close('parameter 10: max |x - 2.5|', np.abs(p[10] - 2.5).max(), 0, 0)
close('parameter 11 (rz): max |x - 0.5 t|', np.abs(p[11] - 0.5 * t).max(), 0, 1e-5)
k = np.floor(t / 0.05 + 1e-6).astype(int)          # last sample instant k 0.05 <= t
sample = np.rint(k * 0.05 / 0.01).astype(int)      # its step
close('parameter 12 (sample and hold): max |x - x1(t_sample)|',
      np.abs(p[12] - a[1][sample, 0]).max(), 0, 0)
close('parameter 13 (output, no): lines in .prm', len(r.rows('prm', 13)), 0, 0)
dv = {L: r.rows('drv', L)[:, 1:] for L in (1, 2)}
tr = {L: r.rows('trc', L)[:, 1:] for L in (2, 3)}
close('drive 1 (.drv, output yes): max |value - sin 2t|, |derivative - 2 cos 2t|',
      max(np.abs(dv[1][:, 0] - np.sin(2 * t)).max(), np.abs(dv[1][:, 1] - 2 * np.cos(2 * t)).max()),
      0, 4e-15)
close('drive 2 (.drv, value only): one column, max |value - (0.5 + 3t)|',
      np.abs(dv[2][:, 0] - 0.5 - 3 * t).max() + (dv[2].shape[1] - 1), 0, 4e-15)
close('drive 2 (.trc, yes): max |value - (0.5 + 3t)|, |derivative - 3|',
      max(np.abs(tr[2][:, 0] - 0.5 - 3 * t).max(), np.abs(tr[2][:, 1] - 3).max()), 0, 4e-15)
close('drive 3 (.trc, derivative only): one column, max |derivative - 2 sin t|',
      np.abs(tr[3][:, 0] - 2 * np.sin(t)).max() + (tr[3].shape[1] - 1), 0, 4e-15)
close('drive 3: no .drv line', len(r.rows('drv', 3)), 0, 0)

text = {('abstract_nodes', 'X'): {L: a[L][:, 0] for L in a},
        ('abstract_nodes', 'XP'): {L: a[L][:, 1] for L in (1, 2)},
        ('genels', 'F'): g, ('parameter_nodes', 'X'): p,
        ('drive_callers', 'value'): {L: dv[L][:, 0] for L in (1, 2)},
        ('drive_callers', 'derivative'): {1: dv[1][:, 1]},
        ('abstract_forces', 'F'): {L: fr[L][:, 1] for L in fr},
        ('abstract_forces', 'F2'): {4: fr[4][:, 3]}}
prefix = {'abstract_nodes': 'node.abstract', 'genels': 'elem.genel',
          'parameter_nodes': 'node.parameter', 'drive_callers': 'drive',
          'abstract_forces': 'elem.force'}
h5 = h5py.File(r.prefix + '.h5', 'r')
nc = h5py.File(r.prefix + '.nc', 'r')
worst_h5 = worst_nc = 0.0
for (grp, q), cols in text.items():
    labels = list(h5[grp + '/labels'][:])
    close(f'HDF5 {grp}/{q}: labels in deck order, 13 left out', 0 if labels == sorted(labels) and 13 not in labels else 1, 0, 0)
    for L, x in cols.items():
        worst_h5 = max(worst_h5, np.abs(h5[grp][q][:, labels.index(L), 0] - x).max())
        worst_nc = max(worst_nc, np.abs(nc[f'{prefix[grp]}.{L}.{q}'][:] - x).max())
close('HDF5 = .abs, .gen, .prm, .drv, .frc (max |difference|)', worst_h5, 0, 0)
close('NetCDF = .abs, .gen, .prm, .drv, .frc (max |difference|)', worst_nc, 0, 0)
close('HDF5: algebraic nodes have no XP (NaN)',
      int(np.isnan(h5['abstract_nodes/XP'][:, 2:, 0]).all()), 1, 0)
close('NetCDF: no node.abstract.3.XP, node.abstract.4.XP, node.parameter.13',
      sum(n in nc for n in ('node.abstract.3.XP', 'node.abstract.4.XP', 'node.parameter.13.X')),
      0, 0)
close('drive callers in HDF5: 1, 2 (3 has a trace only); 2 has no derivative (NaN)',
      0 if list(h5['drive_callers/labels'][:]) == [1, 2]
      and np.isnan(h5['drive_callers/derivative'][:, 1, 0]).all() else 1, 0, 0)
close('NetCDF: elem.force.4.F2 only for the internal force',
      sum(f'elem.force.{L}.F2' in nc for L in (1, 2, 3, 4)), 1, 0)
close('NetCDF: no drive.2.derivative, no drive.3',
      sum(n in nc for n in ('drive.2.derivative', 'drive.3.value', 'drive.3.derivative')), 0, 0)
close('NetCDF: elem.genel labels (clamps and distance: the genels with a .gen line)',
      0 if list(nc['elem.genel'][:]) == [1, 4, 5] else 1, 0, 0)
close('HDF5 rows = output steps', h5['abstract_nodes/X'].shape[0], len(t), 0)

# --- output meter: every 4th step, in every file
m = Run(exe, deck, work, 'scalar_meter', {'PRECISION': 17, 'EVERY': 4},
        extra=('--format', 'text,netcdf,hdf5'))
hm = h5py.File(m.prefix + '.h5', 'r')
for ext, col in (('abs', a[1][:, 0]), ('gen', g[1]), ('prm', p[11])):
    L = {'abs': 1, 'gen': 1, 'prm': 11}[ext]
    x = m.rows(ext, L)[:, 1]
    close(f'output meter 4: .{ext} {L} rows', len(x), 51, 0)
    close(f'output meter 4: .{ext} {L} = every 4th row', np.abs(x - col[::4]).max(), 0, 0)
x = m.rows('drv', 2)[:, 1]
close('output meter 4: .drv 2 rows', len(x), 51, 0)
close('output meter 4: .drv 2 = every 4th row', np.abs(x - dv[2][::4, 0]).max(), 0, 0)
x = m.rows('trc', 2)[:, 1:]
close('output meter 4: .trc 2 rows (every step, as MBDyn)', len(x), 201, 0)
close('output meter 4: .trc 2 = the full run\'s', np.abs(x - tr[2]).max(), 0, 0)
for grp, q in (('abstract_nodes', 'X'), ('genels', 'F'), ('parameter_nodes', 'X'),
               ('drive_callers', 'value')):
    close(f'output meter 4: HDF5 {grp} rows', hm[grp][q].shape[0], 51, 0)

# --- the relative-coordinate path writes no drive caller output: a warning at the drive
with open(os.path.join(EXAMPLES, 'pendulum.mbd')) as fh:
    pend = 'drive caller: 7, const, 1.5, output, yes;\n' + fh.read()
pdeck = os.path.join(work, 'pendulum_drv.mbd')
with open(pdeck, 'w') as fh:
    fh.write(pend)
pd = Run(exe, pdeck, work, 'pendulum_drv', {'TF': 0.01})
close('DAE: .drv of a const drive (value 1.5, derivative 0) at every output step',
      np.abs(pd.rows('drv', 7)[:, 1:] - [1.5, 0.0]).max() + abs(len(pd.rows('drv', 7)) - 11), 0, 0)
rprefix = os.path.join(work, 'pendulum_drv_reduced')
pr = subprocess.run([exe, '-f', pdeck, '-o', rprefix, '-D', 'TF=0.01', '--analysis',
                     'reduced-dynamics'], capture_output=True, text=True)
close('reduced dynamics: exit code', pr.returncode, 0, 0)
close('reduced dynamics: warning at the drive (pendulum_drv.mbd:1:18)',
      0 if 'pendulum_drv.mbd:1:18: warning: the output of drive caller 7 is not written' in pr.stderr
      else 1, 0, 0)
close('reduced dynamics: no .drv', int(os.path.exists(rprefix + '.drv')), 0, 0)

# A drive without a derivative (timestep): `output, yes` writes its value only (MBDyn's rule);
# `derivative, yes` is an error at the drive (MBDyn warns and drops it).
for tail, rc in ((', output, yes', 0), (', output, derivative, yes', 2)):
    with open(pdeck, 'w') as fh:
        fh.write('drive caller: 8, timestep' + tail + ';\n' + pend)
    q = Run(exe, pdeck, work, 'pendulum_timestep', {'TF': 0.01}, expect_rc=rc)
    if rc == 0:
        x = q.rows('drv', 8)[:, 1:]
        close('timestep drive, output yes: one column (no derivative), the step 1e-3',
              np.abs(x[1:] - 1e-3).max() + (x.shape[1] - 1), 0, 0)
    else:
        close('timestep drive, derivative yes: error at the drive (pendulum_drv.mbd:1:18)',
              0 if 'pendulum_drv.mbd:1:18: error: drive caller 8 has no derivative' in q.stderr
              else 1, 0, 0)

# --- output precision: 10 significant digits in the run against MBDyn
digits = 0
for ext in ('abs', 'gen', 'prm', 'drv', 'trc', 'frc'):
    with open(v.prefix + '.' + ext) as fh:
        for line in fh:
            for w in line.split()[1:]:
                digits = max(digits, len(re.sub(r'[-.]|e.*', '', w).lstrip('0')))
close('output precision 10: most significant digits in a value', digits, 10, 0)
finish()
