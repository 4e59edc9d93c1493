"""Mode shapes in HDF5 (mbsolve --analysis modal --format hdf5 -> PREFIX.h5, docs/hdf5-schema.md
"Modal analysis"), read back with h5py and checked against PREFIX.modal and closed forms.

  Double pendulum (input-examples/reduced_double_pendulum.mbd, equal links and masses):
  frequencies sqrt((2 -+ sqrt 2) g / L) / 2 pi within 3e-10 relative (measured 6.0e-11); every eigenvalue, frequency,
  damping, damped frequency, shape modulus and phase equals the .modal text (15 significant
  digits: 1e-14 relative or 1e-14 absolute near 0; measured <= 2.0e-15); the shapes' largest modulus is 1 with phase 0;
  shape_real + i shape_imag has the modulus and phase of shape_modulus / shape_phase_deg (1e-12);
  coordinates/joint_labels and axes as in the .modal text.
  Damped physical pendulum (input-examples/reduced_pendulum.mbd, JC = 0.1, C = 0.5): damping
  percent 100 zeta, zeta = C / (2 w_n J_O), within 6e-11 relative (measured 1.4e-11), equal to the text.
"""
import math
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, close, finish  # noqa: E402
from reduced_util import mbsolve, read_modal  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]


def run(deck, prefix, defines):
    out = os.path.join(work, prefix)
    mbsolve(exe, ['--quiet', '--analysis', 'modal', '--format', 'hdf5', '-f', os.path.join(EXAMPLES, deck),
                  '-o', out], defines)
    rows, shapes, coords = read_modal(out + '.modal')
    return rows, shapes, coords, h5py.File(out + '.h5', 'r')


def same(what, a, b, tol=1e-14):
    err = np.max(np.abs(np.asarray(a) - np.asarray(b)) / np.maximum(1.0, np.abs(np.asarray(b))))
    close(what, err, 0.0, tol)


g, Lp = 9.81, 1.0
rows, shapes, coords, f = run('reduced_double_pendulum.mbd', 'dp', {})
m = f['modal']
fr = m['frequency_Hz'][:]
ref = sorted([math.sqrt((2 - math.sqrt(2)) * g / Lp) / (2 * math.pi)] * 2 +
             [math.sqrt((2 + math.sqrt(2)) * g / Lp) / (2 * math.pi)] * 2)
for k in range(4):
    close(f'double pendulum: HDF5 frequency {k + 1} [Hz]', fr[k], ref[k], 3e-10, relative=True)  # 6.0e-11
same('double pendulum: eigenvalue real part = text', m['eigenvalue_real'][:], rows[:, 1])
same('double pendulum: eigenvalue imaginary part = text', m['eigenvalue_imag'][:], rows[:, 2])
same('double pendulum: frequency = text', fr, rows[:, 3])
same('double pendulum: damping = text', m['damping_percent'][:], rows[:, 4])
same('double pendulum: damped frequency = text', m['damped_frequency_Hz'][:], rows[:, 5])
mod, ph = m['shape_modulus'][:], m['shape_phase_deg'][:]
close('double pendulum: shape rows (modes)', mod.shape[0], 4, 0)
close('double pendulum: shape columns (coordinates)', mod.shape[1], 2, 0)
same('double pendulum: shape modulus = text', mod, np.array([[s[0] for s in shapes[k + 1]] for k in range(4)]))
same('double pendulum: shape phase = text', ph, np.array([[s[1] for s in shapes[k + 1]] for k in range(4)]))
close('double pendulum: largest modulus 1', np.max(np.abs(mod.max(axis=1) - 1.0)), 0.0, 1e-14)
z = m['shape_real'][:] + 1j * m['shape_imag'][:]
same('double pendulum: |shape_real + i shape_imag| = modulus', np.abs(z), mod)
close('double pendulum: phase 0 at the largest modulus',
      max(abs(ph[k, np.argmax(mod[k])]) for k in range(4)), 0.0, 0)
close('double pendulum: coordinate joint labels = text',
      int(np.all(m['coordinates/joint_labels'][:] == [c[0] for c in coords])), 1, 0)
close('double pendulum: coordinate axes = text',
      int([a.decode() for a in m['coordinates/axes'][:]] == [c[1] for c in coords]), 1, 0)

# Damped physical pendulum
M, D, JC, C = 1.0, 1.0, 0.1, 0.5
rows, _, _, f = run('reduced_pendulum.mbd', 'damped', {'JC': JC, 'C': C})
JO = JC + M * D * D
wn = math.sqrt(M * g * D / JO)
zeta = C / (2 * wn * JO)
for k, v in enumerate(f['modal/damping_percent'][:]):
    close(f'damped pendulum: HDF5 damping percent {k + 1}', v, 100 * zeta, 6e-11, relative=True)  # 1.4e-11
same('damped pendulum: damping = text', f['modal/damping_percent'][:], rows[:, 4])
finish()
