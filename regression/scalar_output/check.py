"""Abstract nodes (.abs), genels (.gen) and parameter nodes (.prm) in text, NetCDF and HDF5
(input-examples/scalar_output.mbd; issue 22 item 6, issue 21 item 2).

References:
- MBDyn (1.7.3 as installed in /work/mbdyn) on the same deck with genel 5 a clamp instead of a
  distance (mbdyn_reference.py says why; mbsolve runs the same text here): its lines every 5th
  step, mbdyn_reference.txt. The layouts are MBDyn's (mbdyn/base/node.cc: algebraic nodes write
  one value; mbdyn/elec/genel_.cc: the clamp and distance write their dRct).
- closed forms of the example (its header): x1 = (1 - cos 2t)/2, x1' = sin 2t, x2 = 0.1 cos 3t,
  x3 = 0.5 + 3t, x4 = x1 + 0.5; .gen: genel 1 f - 0.7, genel 4 1.5, genel 5 f, f = 2 (1 - cos t);
  .prm: 10 is 2.5, 11 is rz = 0.5 t, 12 is x1 at the last sample instant k 0.05 s <= t.
- NetCDF and HDF5 against the text of the same run at `output precision: 17` (exact): 0.

Observed and tolerances:
- against MBDyn (10 digits): .abs 5.0e-11 (x1), 9.0e-9 (x2': MBDyn's initial derivative is
  -9e-9, ours 1.6e-17), 0 (x3), 4.0e-10 (x4); .gen 0 (genels 1, 4), 4.0e-10 (genel 5); .prm 0
  (10), 4.3e-6 (11, rz: both integrate the spinning body, MBDyn 5.5e-6 from 0.5 t, mbsolve
  1.2e-6); tolerances 10x (0 where 0 was observed), 5e-6 on rz.
  Parameter 12 is not compared: MBDyn samples at the first step where t >= t_sample + T in
  floating point, so at t = 0.1 it samples one step late (0.05 + 0.05 > 0.1); mbsolve counts
  instants within 1e-9 T as reached (elements/nodes/scalar_nodes.cpp). Its values agree with
  MBDyn's until t = 0.1.
- closed forms (dt = 0.01): x1 4.0e-5 (the two-step method; tolerance 1e-4), x1' 3.3e-16
  (3e-15), x2 4.3e-5 (1e-4), x3 4.4e-16 (4e-15), x4 - x1 - 0.5 1.1e-16 (1e-15), genel 1 and 5
  4.4e-16 (4e-15), genel 4 0 (0), rz 1.2e-6 (1e-5), parameters 10 and 12 0 (0).
- `output: no` on parameter 13: in no file; `output meter` every 4th step: 51 rows in every
  file, equal to every 4th row of the full run (0); `output precision: 10`: at most 10 digits.
"""
import os
import re
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
       ('gen', 4): 0, ('gen', 5): 4e-9, ('prm', 10): 0, ('prm', 11): 5e-6}
for ext, labels in FILES:
    for L in labels:
        if (ext, L) not in tol:
            continue
        mine = v.rows(ext, L)[:, 1:]
        theirs = ref[(ext, L)]
        close(f'.{ext} {L}: columns as MBDyn', mine.shape[1], theirs.shape[1] - 1, 0)
        close(f'.{ext} {L}: max |mbsolve - MBDyn|',
              np.abs(mine[theirs[:, 0].astype(int)] - theirs[:, 1:]).max(), 0, tol[(ext, L)])

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
close('genel 1 (clamp): max |dRct - (f - 0.7)|', np.abs(g[1] - (f - 0.7)).max(), 0, 4e-15)
close('genel 4 (clamp): max |dRct - 1.5|', np.abs(g[4] - 1.5).max(), 0, 0)
close('genel 5 (distance): max |dRct - f|', np.abs(g[5] - f).max(), 0, 4e-15)
close('parameter 10: max |x - 2.5|', np.abs(p[10] - 2.5).max(), 0, 0)
close('parameter 11 (rz): max |x - 0.5 t|', np.abs(p[11] - 0.5 * t).max(), 0, 1e-5)
k = np.floor(t / 0.05 + 1e-6).astype(int)          # last sample instant k 0.05 <= t
sample = np.rint(k * 0.05 / 0.01).astype(int)      # its step
close('parameter 12 (sample and hold): max |x - x1(t_sample)|',
      np.abs(p[12] - a[1][sample, 0]).max(), 0, 0)
close('parameter 13 (output, no): lines in .prm', len(r.rows('prm', 13)), 0, 0)

text = {('abstract_nodes', 'X'): {L: a[L][:, 0] for L in a},
        ('abstract_nodes', 'XP'): {L: a[L][:, 1] for L in (1, 2)},
        ('genels', 'F'): g, ('parameter_nodes', 'X'): p}
prefix = {'abstract_nodes': 'node.abstract', 'genels': 'elem.genel',
          'parameter_nodes': 'node.parameter'}
h5 = h5py.File(r.prefix + '.h5', 'r')
nc = h5py.File(r.prefix + '.nc', 'r')
worst_h5 = worst_nc = 0.0
for (grp, q), cols in text.items():
    labels = list(h5[grp + '/labels'][:])
    close(f'HDF5 {grp}/{q}: labels in deck order, 13 left out', 0 if labels == sorted(labels) and 13 not in labels else 1, 0, 0)
    for L, x in cols.items():
        worst_h5 = max(worst_h5, np.abs(h5[grp][q][:, labels.index(L), 0] - x).max())
        worst_nc = max(worst_nc, np.abs(nc[f'{prefix[grp]}.{L}.{q}'][:] - x).max())
close('HDF5 = .abs, .gen, .prm (max |difference|)', worst_h5, 0, 0)
close('NetCDF = .abs, .gen, .prm (max |difference|)', worst_nc, 0, 0)
close('HDF5: algebraic nodes have no XP (NaN)',
      int(np.isnan(h5['abstract_nodes/XP'][:, 2:, 0]).all()), 1, 0)
close('NetCDF: no node.abstract.3.XP, node.abstract.4.XP, node.parameter.13',
      sum(n in nc for n in ('node.abstract.3.XP', 'node.abstract.4.XP', 'node.parameter.13.X')),
      0, 0)
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
for grp in ('abstract_nodes', 'genels', 'parameter_nodes'):
    close(f'output meter 4: HDF5 {grp} rows', hm[grp][list(hm[grp].keys())[0]].shape[0]
          if grp != 'genels' else hm['genels/F'].shape[0], 51, 0)

# --- output precision: 10 significant digits in the run against MBDyn
digits = 0
for ext in ('abs', 'gen', 'prm'):
    with open(v.prefix + '.' + ext) as fh:
        for line in fh:
            for w in line.split()[1:]:
                digits = max(digits, len(re.sub(r'[-.]|e.*', '', w).lstrip('0')))
close('output precision 10: most significant digits in a value', digits, 10, 0)
finish()
