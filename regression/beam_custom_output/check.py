"""Beam `custom output` columns and .log lines (input-examples/beam_custom_output.mbd).

References: the .act layout of MBDyn's Beam::Output (label, f and m of point I, then of point
II, in the section frame; then per selected quantity its values at point I then II, in the order
nu, k, nuP, kP), its ReadBeamCustomOutput rules (`none` clears, a repeated flag is an error,
strain rates of elastic beams are ignored with a warning) and its .log line
"beam3: L n1 f1 n2 f2 n3 f3". The values in the new columns are checked against independent
relations:
  - cantilever 1 (elastic, axial tip force rising as a half cosine to N at 0.4 s): f_x = EA nu_x
    at every point (the law, 1e-12 relative to N); nu_x = N / EA at the end (quasi-static: the
    first axial mode, ~500 rad/s, is 200x faster than the load's rise; 1e-3 relative);
  - cantilever 2 (viscoelastic, C = BETA K, tip couple rising as a half cosine): m_z = EJ (k_z +
    BETA kP_z) at every point and step (1e-12 relative to the largest m_z); kP_z = d k_z / dt
    against central differences of the k_z column (dt = 1e-3; the integrator's velocities are not
    the differences of its positions, and the bending modes up to ~100 rad/s are excited: 1e-2
    relative to max |kP_z|; a column of strains instead of rates would be off by O(1)).
The same run as NetCDF and HDF5: the strain variables equal the .act columns (1e-15 relative);
beams without a quantity have no NetCDF variable for it and NaN in HDF5.
"""
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
EA, EJ, BETA, N, DT = 1e5, 10.0, 1e-2, 20.0, 1e-3
deck = os.path.join(EXAMPLES, 'beam_custom_output.mbd')
r = Run(exe, deck, work, 'custom')
act = {k: r.rows('act', k) for k in range(1, 7)}

# Column counts: label + 12 forces, + 6 per selected quantity.
for k, n in ((1, 25), (2, 25), (3, 25), (4, 25), (5, 13), (6, 13)):
    close(f'beam {k}: .act columns', act[k].shape[1], n, 0)
w = subprocess.run([exe, '--check', '-f', deck, '-o', os.path.join(work, 'warn')],
                   capture_output=True, text=True)
close('warning for the strain rates of elastic beam 5 (file:line:col)',
      int('beam_custom_output.mbd:' in w.stderr and
          'strain rates only for viscoelastic beams (ignored)' in w.stderr), 1, 0)

# Cantilever 1: columns 13-18 nu (I, II), 19-24 k (I, II).
for k in (1, 2):
    a = act[k]
    for p in range(2):
        fx, nux = a[:, 1 + 6 * p], a[:, 13 + 3 * p]
        close(f'beam {k} point {p + 1}: max |f_x - EA nu_x| / N', np.abs(fx - EA * nux).max() / N,
              0, 1e-12)
        close(f'beam {k} point {p + 1}: nu_x at the end', nux[-1], N / EA, 1e-3, relative=True)
        kz = a[:, 19 + 3 * p + 2]
        close(f'beam {k} point {p + 1}: max |k_z| (axial load only)', np.abs(kz).max(), 0, 1e-12)

# Cantilever 2: columns 13-18 k (I, II), 19-24 kP (I, II).
for k in (3, 4):
    a = act[k]
    for p in range(2):
        mz, kz, kpz = a[:, 6 + 6 * p], a[:, 13 + 3 * p + 2], a[:, 19 + 3 * p + 2]
        scale = np.abs(mz).max()
        close(f'beam {k} point {p + 1}: max |m_z - EJ (k_z + BETA kP_z)| / max |m_z|',
              np.abs(mz - EJ * (kz + BETA * kpz)).max() / scale, 0, 1e-12)
        fd = (kz[2:] - kz[:-2]) / (2 * DT)
        close(f'beam {k} point {p + 1}: kP_z vs central differences of k_z',
              np.abs(kpz[1:-1] - fd).max() / np.abs(kpz).max(), 0, 1e-2)

# .log lines: nodes and offsets.
log = open(r.prefix + '.log', encoding='utf-8').read().splitlines()
want = {1: 'beam3: 1 10 0 0 0 11 0 0 0 12 0 0 0',
        5: 'beam3: 5 30 0 0.05 0 31 0 0.05 0 32 0 0.05 0'}
for k, line in want.items():
    close(f'.log line of beam {k}: "{line}"', int(line in log), 1, 0)

# A flag given twice (here through "strains" then "linear strain") is an input error.
text = open(deck, encoding='utf-8').read()
bad = os.path.join(work, 'duplicate.mbd')
with open(bad, 'w', encoding='utf-8') as f:
    f.write(text.replace('custom output, strains;', 'custom output, strains, linear strain;', 1))
b = Run(exe, bad, work, 'duplicate', expect_rc=2)
line = 1 + text[:text.index('custom output, strains;')].count('\n')
close('duplicate flag: error names the file, line and flag',
      int(f'duplicate.mbd:{line}:' in b.stderr and "duplicate beam custom output 'linear strain'"
          in b.stderr), 1, 0)

# NetCDF and HDF5 (MBDyn's elem.beam.<L>.nu_I, k_I, nuP_I, kP_I, ..._II): the same run written in
# all three formats; every selected strain column equals the .act one (16 digits in .act: to
# 1e-15 relative); a beam without the quantity has no NetCDF variable and NaN in HDF5.
import h5py  # noqa: E402

fr = Run(exe, deck, work, 'formats', extra=['--format', 'text,netcdf,hdf5'])
fprefix = fr.prefix
fact = {k: fr.rows('act', k) for k in range(1, 7)}
selected = {1: ('nu', 'k'), 2: ('nu', 'k'), 3: ('k', 'kP'), 4: ('k', 'kP'), 5: (), 6: ()}
worst_nc = worst_h5 = 0.0
missing = []
with h5py.File(fprefix + '.nc', 'r') as nc, h5py.File(fprefix + '.h5', 'r') as h5:
    labels = list(h5['beam3/labels'][:])
    for k, names in selected.items():
        a, i = fact[k], labels.index(k)
        for j, name in enumerate(names):
            for p_, suffix in enumerate(('_I', '_II')):
                ref = a[:, 13 + 6 * j + 3 * p_:16 + 6 * j + 3 * p_]
                scale = np.maximum(np.abs(ref), 1e-300)
                worst_nc = max(worst_nc, float((np.abs(nc[f'elem.beam.{k}.{name}{suffix}'][:] - ref) / scale).max()))
                worst_h5 = max(worst_h5, float((np.abs(h5[f'beam3/{name}{suffix}'][:, i, :] - ref) / scale).max()))
        for name in ('nu', 'k', 'nuP', 'kP'):
            if name in names:
                continue
            if f'elem.beam.{k}.{name}_I' in nc:
                missing.append(f'NetCDF elem.beam.{k}.{name}_I exists')
            if name + '_I' in h5['beam3'] and not np.all(np.isnan(h5[f'beam3/{name}_I'][:, i, :])):
                missing.append(f'HDF5 beam3/{name}_I of beam {k} is not NaN')
    close('NetCDF nu_I ... kP_II vs .act (max relative difference)', worst_nc, 0.0, 1e-15)
    close('HDF5 beam3/nu_I ... kP_II vs .act (max relative difference)', worst_h5, 0.0, 1e-15)
    close('unselected quantities: no NetCDF variable, NaN in HDF5 (' + '; '.join(missing) + ')', len(missing), 0, 0)
    close('HDF5 beam3 has no nuP (no beam selects it)', int('nuP_I' in h5['beam3']), 0, 0)
finish()
