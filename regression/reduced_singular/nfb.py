"""Shared by regression/reduced_singular and regression/reduced_singular_long: the N four-bar
(input-examples/n_four_bar.mbd, N = 2) run to t = 10 s by mbsolve --analysis reduced-dynamics at
given steps, B0 (twice crank 0's node position) against the parallelogram ODE of
docs/references.md section 6,
    theta'' = -g cos(theta) [(N+1)/2 + N] / [(N+1)/3 + N],  theta(0) = pi/2, theta'(0) = -1,
integrated here by RK4 at 1e-4 s (its own error: the reference's B0 at 10 s, 12 digits, within
1e-11 m, checked; measured 2.1e-12), and the energy theta'^2 + 2 k sin(theta) of crank 0 at every output step."""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, close  # noqa: E402
import reduced_util  # noqa: E402

K = 9.81 * (1.5 + 2.0) / (1.0 + 2.0)
H = 1e-4


def reference():
    """theta and theta' every 1e-4 s on [0, 10] s."""
    def f(y):
        return np.array([y[1], -K * math.cos(y[0])])
    y = np.array([math.pi / 2, -1.0])
    out = [y]
    for _ in range(100000):
        k1 = f(y)
        k2 = f(y + H / 2 * k1)
        k3 = f(y + H / 2 * k2)
        k4 = f(y + H * k3)
        y = y + H / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        out.append(y)
    out = np.array(out)
    close('reference ODE: B0x(10) vs references.md 6 [m]', math.cos(out[-1, 0]), 0.328458111541,
          1e-11)
    close('reference ODE: B0y(10) vs references.md 6 [m]', math.sin(out[-1, 0]), 0.944518538179,
          1e-11)
    return out


def check(exe, work, ref, dt, tol_end, tol_max, tol_energy):
    out = os.path.join(work, f'nfb_{dt:g}')
    p = reduced_util.mbsolve(exe, ['-f', os.path.join(EXAMPLES, 'n_four_bar.mbd'), '-o', out,
                                   '--analysis', 'reduced-dynamics'], {'DT': dt})
    r = np.array([[float(v) for v in line.split()] for line in open(out + '.mov')
                  if line.split()[0] == '1'])
    n = len(r)
    idx = np.rint(np.arange(n) * dt / H).astype(int)
    keep = np.abs(idx * H - np.arange(n) * dt) < 1e-12  # output steps on the reference grid
    B = 2 * r[keep, 1:3]
    th = ref[idx[keep], 0]
    err = np.hypot(B[:, 0] - np.cos(th), B[:, 1] - np.sin(th))
    energy = r[:, 12] ** 2 + 2 * K * np.sin(np.arctan2(r[:, 2], r[:, 1])) - (1 + 2 * K)
    close(f'DT {dt:g}: |B0(10) - ODE| [m]', err[-1], 0.0, tol_end)
    close(f'DT {dt:g}: max |B0 - ODE| over [0, 10] s [m]', float(np.max(err)), 0.0, tol_max)
    # Crank 0's branch invariant (exact on the parallelogram branch; near a passage the state
    # may leave the branch by the tiny amount the constraints allow there, which decays after).
    close(f'DT {dt:g}: max |w0^2 + 2k sin(th0) - (1 + 2k)| (crank 0) [1/s^2]',
          float(np.max(np.abs(energy))), 0.0, tol_energy)
    return p
