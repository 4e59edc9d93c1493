"""Solver failures stop cleanly (exit status 3) with a diagnosis, and keep the output written.

Decks: no_mass.mbd (singular iteration matrix: a free dynamic node without mass),
nan_gravity.mbd (a NaN load after t = 0.05 s), no_convergence.mbd (unreachable tolerance),
derivatives_auto.mbd (unreachable derivatives tolerance with `derivatives coefficient: auto`:
two retries, coefficient 1e-6 -> 1e-4 -> 1e-2).
Checks: exit status 3; the message names time, step, iteration and residual norm, and the
node/unknown or equation at fault, and for a non-finite residual the drive that produced it at its
file:line:col; the .out log and .mov file hold every step before the failure
(and end with the '# run stopped' line); the same NaN run written as NetCDF and HDF5 leaves
both files readable (netCDF4-python or h5py), with the steps before the failure (as many rows as
the .mov, equal X) and the reason in their run_status attribute.
Tolerances (issue 23): each close() below is within 2-10x of the error observed when it was
set (Release build), stated in the comment beside it (a floor of a few ulps or 1e-15 where
the observed error is 0 or far below round-off); where a figure above is larger, it is the
bound the physics or the solver tolerance allows, not the tolerance checked.
"""
import os
import subprocess
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import Run, close, failures, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]


def expect(what, cond):
    print(f"{'ok  ' if cond else 'FAIL'} {what}")
    if not cond:
        failures.append(what)


r = Run(exe, 'no_mass.mbd', work, 'no_mass', expect_rc=3)
expect('singular: message', 'singular iteration matrix at t = 0.001 (step 1' in r.stderr)
expect('singular: names an unknown of node 2', "' of structural node 2" in r.stderr and 'no equation determines the unknown' in r.stderr)

r = Run(exe, 'nan_gravity.mbd', work, 'nan', expect_rc=3)
expect('NaN: message', 'non-finite residual at t = 0.06 (step 6' in r.stderr)
expect('NaN: names an equation', 'worst equation: structural node 1' in r.stderr)
# ... and the drive that produced it, at its card (the 'string' keyword of the gravity card).
expect('NaN: names the drive', "cause: drive caller 'string' at nan_gravity.mbd:13:36 gives" in r.stderr)
steps = [l for l in open(r.prefix + '.out') if l.startswith('Step')]
close('NaN: steps logged before the failure (0..5)', len(steps), 6, 0)
close('NaN: node rows in .mov (steps 0..5)', len(r.rows('mov', 1)), 6, 0)
expect('NaN: .out ends with the stop comment', [l for l in open(r.prefix + '.out') if not l.startswith('#')][-1]
       .startswith('Step 5') and '# run stopped: non-finite residual' in open(r.prefix + '.out').read())

# The same failure with NetCDF and HDF5 files (written by the writer thread, flushed at the stop).
prefix = os.path.join(work, 'nan_files')
for ext in ('nc', 'h5'):
    if os.path.exists(prefix + '.' + ext):
        os.remove(prefix + '.' + ext)
p = subprocess.run([exe, '--quiet', '-f', 'nan_gravity.mbd', '-o', prefix, '--format', 'text,netcdf,hdf5'],
                   capture_output=True, text=True)
close('NaN with NetCDF and HDF5: exit status', p.returncode, 3, 0)
mov = r.rows('mov', 1)
for ext, x_of in (('nc', lambda f: f['node.struct.1.X'][:]), ('h5', lambda f: f['nodes/X'][:, 0, :])):
    with h5py.File(prefix + '.' + ext, 'r') as f:
        status = f.attrs['run_status']
        status = status.decode() if isinstance(status, bytes) else str(status)
        x = x_of(f)
        close(f'NaN: .{ext} rows (steps 0..5)', len(x), 6, 0)
        close(f'NaN: .{ext} X equals .mov X (max abs difference)', np.abs(x - mov[:, 1:4]).max(), 0, 2e-17)  # observed 3.5e-18
        expect(f'NaN: .{ext} run_status names the failure ("{status[:40]}...")', 'non-finite residual' in status)

r = Run(exe, 'no_convergence.mbd', work, 'noconv', expect_rc=3)
expect('no convergence: message', 'did not converge (max iterations 3) at t = ' in r.stderr)
expect('no convergence: iteration and residual', 'iteration 3, residual norm' in r.stderr)
expect('no convergence: worst equation', 'worst equation:' in r.stderr)

r = Run(exe, 'derivatives_auto.mbd', work, 'der_auto', expect_rc=3)
expect('derivatives auto: last coefficient 1e-6 * 100^2 named',
       'derivatives phase did not converge (derivatives coefficient 0.01) at t = 0' in r.stderr)
finish()
