"""Modal results in NetCDF (mbsolve --analysis modal --format netcdf -> PREFIX.nc;
docs/relative-coordinates.md 2.4), read back with h5py (a netCDF-4 file is an HDF5 file) and ncdump,
checked against PREFIX.modal and closed forms.

  Double pendulum (input-examples/reduced_double_pendulum.mbd, equal links and masses):
  frequencies sqrt((2 -+ sqrt 2) g / L) / 2 pi within 3e-10 relative (measured 6.0e-11) (closed form of the
  linearized double pendulum); every eigenvalue, frequency, damping, damped frequency, shape
  real/imaginary part, modulus and phase equals the .modal text (printed with 15 significant
  digits: 1e-14 relative, or 1e-14 absolute near 0; measured <= 2.0e-15); largest modulus 1 with phase 0;
  coordinate joint labels and axes as in the text; `ncdump -h` lists the documented dimensions,
  variables and their units/type/description attributes.
  Damped physical pendulum (input-examples/reduced_pendulum.mbd, JC = 0.1, C = 0.5), selected by
  the deck's `output results: netcdf;` instead of --format: damping percent 100 zeta,
  zeta = C / (2 w_n J_O), within 6e-11 relative (measured 1.4e-11), equal to the text.
  `--format text` alone writes no .nc.
"""
import math
import os
import subprocess
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, close, finish  # noqa: E402
from reduced_util import mbsolve, read_modal, variant  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]


def run(deck, prefix, defines, fmt=('--format', 'netcdf')):
    out = os.path.join(work, prefix)
    if os.path.exists(out + '.nc'):
        os.remove(out + '.nc')
    mbsolve(exe, ['--quiet', '--analysis', 'modal', *fmt, '-f', deck, '-o', out], defines)
    return out


def same(what, a, b, tol=1e-14):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    close(what + ' (shape)', int(a.shape == b.shape), 1, 0)
    err = np.max(np.abs(a - b) / np.maximum(1.0, np.abs(b)))
    close(what, err, 0.0, tol)


g, Lp = 9.81, 1.0
out = run(os.path.join(EXAMPLES, 'reduced_double_pendulum.mbd'), 'dp', {})
rows, shapes, coords = read_modal(out + '.modal')
f = h5py.File(out + '.nc', 'r')
fr = f['modal.frequency_Hz'][:]
ref = sorted([math.sqrt((2 - math.sqrt(2)) * g / Lp) / (2 * math.pi)] * 2 +
             [math.sqrt((2 + math.sqrt(2)) * g / Lp) / (2 * math.pi)] * 2)
for k in range(4):
    close(f'double pendulum: NetCDF frequency {k + 1} [Hz]', fr[k], ref[k], 3e-10, relative=True)  # 6.0e-11
same('double pendulum: eigenvalue real part = text', f['modal.eigenvalue_real'][:], rows[:, 1])
same('double pendulum: eigenvalue imaginary part = text', f['modal.eigenvalue_imag'][:], rows[:, 2])
same('double pendulum: frequency = text', fr, rows[:, 3])
same('double pendulum: damping = text', f['modal.damping_percent'][:], rows[:, 4])
same('double pendulum: damped frequency = text', f['modal.damped_frequency_Hz'][:], rows[:, 5])
mod, ph = f['modal.shape_modulus'][:], f['modal.shape_phase_deg'][:]
tmod = np.array([[s[0] for s in shapes[k + 1]] for k in range(4)])
tph = np.array([[s[1] for s in shapes[k + 1]] for k in range(4)])
same('double pendulum: shape modulus = text', mod, tmod)
same('double pendulum: shape phase = text', ph, tph)
z = f['modal.shape_real'][:] + 1j * f['modal.shape_imag'][:]
same('double pendulum: shape real part = text', z.real, tmod * np.cos(np.radians(tph)))
same('double pendulum: shape imaginary part = text', z.imag, tmod * np.sin(np.radians(tph)))
close('double pendulum: largest modulus 1', np.max(np.abs(np.abs(z).max(axis=1) - 1.0)), 0.0, 1e-14)
close('double pendulum: phase 0 at the largest modulus',
      max(abs(ph[k, np.argmax(mod[k])]) for k in range(4)), 0.0, 0)
close('double pendulum: coordinate joint labels = text',
      int(list(f['modal.coordinate.joint_label'][:]) == [c[0] for c in coords]), 1, 0)
axes = [b''.join(r).decode().rstrip('\0') for r in f['modal.coordinate.axis'][:]]
close('double pendulum: coordinate axes = text', int(axes == [c[1] for c in coords]), 1, 0)
f.close()

header = subprocess.run(['ncdump', '-h', out + '.nc'], capture_output=True, text=True, check=True).stdout
documented = ['mode = 4', 'coordinate = 2', 'axis_strlen = 8',
              'double modal.eigenvalue_real(mode)', 'double modal.eigenvalue_imag(mode)',
              'double modal.frequency_Hz(mode)', 'double modal.damping_percent(mode)',
              'double modal.damped_frequency_Hz(mode)',
              'double modal.shape_real(mode, coordinate)', 'double modal.shape_imag(mode, coordinate)',
              'double modal.shape_modulus(mode, coordinate)',
              'double modal.shape_phase_deg(mode, coordinate)',
              'int64 modal.coordinate.joint_label(coordinate)',
              'int64 modal.coordinate.node_label(coordinate)',
              'char modal.coordinate.axis(coordinate, axis_strlen)',
              'modal.frequency_Hz:units = "Hz"', 'modal.eigenvalue_imag:units = "rad/s"',
              'modal.shape_phase_deg:units = "deg"', 'modal.damping_percent:description',
              ':analysis = "modal (relative coordinates)"']
missing = [d for d in documented if d not in header]
if missing:
    print('missing in ncdump -h:', missing)
close('ncdump -h: documented names missing', len(missing), 0, 0)

# Damped physical pendulum, NetCDF chosen by the deck
M, D, JC, C = 1.0, 1.0, 0.1, 0.5
deck = variant(os.path.join(EXAMPLES, 'reduced_pendulum.mbd'), work, 'pendulum_nc.mbd',
               'begin: control data;', 'begin: control data;\n    output results: netcdf;')
out = run(deck, 'damped', {'JC': JC, 'C': C}, fmt=())
rows, _, _ = read_modal(out + '.modal')
JO = JC + M * D * D
wn = math.sqrt(M * g * D / JO)
zeta = C / (2 * wn * JO)
with h5py.File(out + '.nc', 'r') as f:
    for k, v in enumerate(f['modal.damping_percent'][:]):
        close(f'damped pendulum: NetCDF damping percent {k + 1}', v, 100 * zeta, 6e-11, relative=True)  # 1.4e-11
    same('damped pendulum: damping = text', f['modal.damping_percent'][:], rows[:, 4])
out = run(deck, 'text_only', {'JC': JC, 'C': C}, fmt=('--format', 'text'))
close('--format text: no .nc written', int(os.path.exists(out + '.nc')), 0, 0)
finish()
