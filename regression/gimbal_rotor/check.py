"""Gimbal rotation: a homokinetic shaft coupling (input-examples/gimbal_rotor.mbd).

References:
- closed form: the input turns by alpha(t) = W0 t + A t^2/2 about z (imposed by the axial
  rotation), and a gimbal transmits it unchanged to the output bearing's tilted axis:
  R_OUT = Rx(PSI) Rz(alpha), w_OUT = w(t) b with b = Rx(PSI) e3; the couple the gimbal applies
  to OUT has the component J2 A along b and along the input axis e3 (power balance at equal
  speeds), the axial rotation's reaction about z is (J1 + J2) A, and the gimbal angles satisfy
  Ry(theta) Rx(phi) Ry(theta) = R_IN^T R_OUT;
- MBDyn (1.7.3 as installed in /work/mbdyn) on the same deck with `skip initial joint assembly`
  (its gimbal's initial assembly does not converge from its zero angles; see
  mbdyn_reference.py): mbdyn_reference.txt, every 100th step.

Observed (dt = 1e-3 s) and tolerances:
- OUT's and IN's orientations against the closed form: 1.54e-5 (tolerance 3e-5). The imposed
  speed is integrated into a rotation by the two-step method, which is second order here: the
  error is 4.00 times smaller at dt = 5e-4 (ratio 4.0002, checked to 4 +- 2e-3), and MBDyn's is the
  same (the two agree to 4.5e-10); OUT's angular velocity against w(t) b: 5.5e-12 rad/s (2e-11);
- the couples: along b and e3 against J2 A = 0.5 N m: 6.4e-9 N m (2e-8: the Newton tolerance
  1e-9 on the residual); the axial rotation's about z against 0.7 N m: 6.4e-9 (2e-8); the local
  couple is R_IN^T of the global one to 1.4e-12 (5e-12; 12 digits in the .jnt and .mov);
- Q(theta, phi) against R_IN^T R_OUT (both from the 12-digit output): 4.6e-12 (2e-11), through
  the passes of phi through zero (alpha from 0 to 16 rad);
- `--tree` refuses the gimbal at its card (gimbal_rotor.mbd:82:5);
- against MBDyn from step 100 on (0.1 s: past MBDyn's start transient, its couple starts at 0
  and overshoots to 1 N m at the first step): OUT's orientation matrix 4.5e-10 (2e-9), the
  gimbal couple 6.6e-9 N m (2e-8), theta and phi 1.7e-10 rad (1e-9), the axial rotation's
  couple 6.6e-9 N m (2e-8).
"""
import os
import sys

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
from mbs_check import EXAMPLES, Run, close, euler123, finish, rot  # noqa: E402
from mbdyn_ref import read_reference  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
W0, A, PSI, J1, J2 = 2.0, 1.0, 0.5, 0.2, 0.5

r = Run(exe, os.path.join(EXAMPLES, 'gimbal_rotor.mbd'), work, 'gimbal_rotor')
t = r.times()
out, inn = r.rows('mov', 3), r.rows('mov', 2)
gim, axr = r.rows('jnt', 4), r.rows('jnt', 2)
close('output steps', len(t), 4001, 0)
alpha = W0 * t + 0.5 * A * t ** 2
w = W0 + A * t
b = rot(0, PSI) @ np.array([0.0, 0.0, 1.0])
e3 = np.array([0.0, 0.0, 1.0])

R_out = np.array([euler123(row[4:7]) for row in out])
R_in = np.array([euler123(row[4:7]) for row in inn])
R_out_ref = np.array([rot(0, PSI) @ rot(2, a) for a in alpha])
R_in_ref = np.array([rot(2, a) for a in alpha])
close('OUT max |R - Rx(PSI) Rz(alpha)|', np.abs(R_out - R_out_ref).max(), 0, 3e-5)
close('IN max |R - Rz(alpha)|', np.abs(R_in - R_in_ref).max(), 0, 3e-5)
err_out = np.abs(R_out - R_out_ref).max()
h = Run(exe, os.path.join(EXAMPLES, 'gimbal_rotor.mbd'), work, 'gimbal_rotor_half',
        defines={'DT': 5e-4})
th = h.times()
ah = W0 * th + 0.5 * A * th ** 2
Rh = np.array([euler123(row[4:7]) for row in h.rows('mov', 3)])
err_half = np.abs(Rh - np.array([rot(0, PSI) @ rot(2, a) for a in ah])).max()
close('OUT orientation error ratio dt / (dt / 2) (second order)', err_out / err_half, 4.0, 2e-3)
close('OUT max |w - w(t) b| [rad/s]', np.abs(out[:, 10:13] - np.outer(w, b)).max(), 0, 2e-11)

M = gim[:, 10:13]
close('gimbal couple on OUT along b - J2 A [N m]', np.abs(M @ b - J2 * A).max(), 0, 2e-8)
close('gimbal couple on OUT along e3 - J2 A [N m]', np.abs(M @ e3 - J2 * A).max(), 0, 2e-8)
m_loc = np.einsum('kji,kj->ki', R_in, M)
close('gimbal local couple - R_IN^T M [N m]', np.abs(gim[:, 4:7] - m_loc).max(), 0, 5e-12)
close('gimbal forces [N]', np.abs(gim[:, [1, 2, 3, 7, 8, 9]]).max(), 0, 0)
close('axial rotation couple about z - (J1 + J2) A [N m]',
      np.abs(axr[:, 12] - (J1 + J2) * A).max(), 0, 2e-8)


def q(th, ph):
    return rot(1, th) @ rot(0, ph) @ rot(1, th)


Q = np.array([q(th, ph) for th, ph in gim[:, 13:15]])
rel = np.einsum('kji,kjl->kil', R_in, R_out)
close('max |Q(theta, phi) - R_IN^T R_OUT|', np.abs(Q - rel).max(), 0, 2e-11)
close('phi changes sign (passes through zero)', float(gim[:, 14].min() < -0.4 < 0.4 < gim[:, 14].max()),
      1.0, 0)

# Against MBDyn (every 100th step).
ref = read_reference(os.path.join(HERE, 'mbdyn_reference.txt'))
steps = ref[('mov', 3)][:, 0].astype(int)
close('MBDyn samples', len(steps), 41, 0)
late = steps >= 100
s = steps[late]
R_md = np.array([euler123(row[4:7]) for row in ref[('mov', 3)][late]])
close('OUT vs MBDyn: orientation matrix', np.abs(R_out[s] - R_md).max(), 0, 2e-9)
g_md, a_md = ref[('jnt', 4)][late], ref[('jnt', 2)][late]
close('gimbal couple vs MBDyn [N m]', np.abs(gim[s, 4:13] - g_md[:, 4:13]).max(), 0, 2e-8)
close('gimbal theta, phi vs MBDyn [rad]', np.abs(gim[s, 13:15] - g_md[:, 13:15]).max(), 0, 1e-9)
close('axial rotation couple vs MBDyn [N m]', np.abs(axr[s, 10:13] - a_md[:, 10:13]).max(), 0, 2e-8)

# NetCDF/HDF5 carry the gimbal's relative rotation as its .jnt does (columns 15-17 after the
# label: Euler 123 here): the same run with --format text,hdf5, HDF5 joints/E = .jnt to the
# text's 12 digits (observed 4.5e-12 relative; tol 2e-11).
hr = Run(exe, os.path.join(EXAMPLES, 'gimbal_rotor.mbd'), work, 'gimbal_rotor_h5',
         extra=('--format', 'text,hdf5'))
with h5py.File(hr.prefix + '.h5', 'r') as f:
    labels = list(f['joints/labels'][:])
    E_h5 = f['joints/E'][:, labels.index(4), :]
    od = f['joints/orientation_description'][labels.index(4)]
E_txt = np.array(hr.rows('jnt', 4))[:, 15:18]
close('HDF5 joints/E of the gimbal = .jnt (relative)',
      float((np.abs(E_h5 - E_txt) / (1 + np.abs(E_txt))).max()), 0, 2e-11)
close('HDF5 joints/orientation_description of the gimbal = euler123',
      float((od.decode() if isinstance(od, bytes) else od) == 'euler123'), 1.0, 0)

# The relative-coordinate path cannot represent the gimbal: refused at the joint's card.
tr = Run(exe, os.path.join(EXAMPLES, 'gimbal_rotor.mbd'), work, 'gimbal_rotor_tree', expect_rc=2,
         extra=('--tree',))
close('--tree refuses the gimbal at its card',
      float('gimbal_rotor.mbd:82:5: error: joint 4 (gimbal rotation): not supported by the '
            'relative-coordinate path' in tr.stderr), 1.0, 0)
finish()
