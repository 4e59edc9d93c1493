"""Hanging chain of rods (input-examples/static_chain.mbd): the full weight in one static solve
from a V-shaped first guess, against the exact discrete catenary and the continuous one.

Reference 1 (exact for the discrete model): with the rods numbered 1..12 from the left support,
the force a rod carries is t_k = (Hx, V_k): Hx is the same in every rod, and each inner joint
adds its weight, V_{k+1} = V_k + M g; by symmetry V_k = (k - 6.5) M g. Rod k points along t_k and
is L0 (1 + |t_k|/EA) long (linear elastic rod). The span condition sum_k (rod k)_x = 2 m gives Hx
(bisection, here, independent of the engine); the joints follow by summing the rods.
Reference 2 (continuum limit, information and a loose bound): the inextensible catenary of the
same length 2.4 m, y = c (cosh(x/c) - cosh(1/c)) with 2 c sinh(1/c) = 2.4; the lumped masses and
the elastic stretch make the discrete chain differ by O(1/N^2) and O(T/EA).

Tolerances:
 - every joint position against reference 1: 5e-13 m (observed 7.0e-14 Newton-Raphson, 1.0e-13
   line search; the Newton tolerance 1e-9 N on forces, stiffness EA/L0 = 5e4 N/m along the
   rods, geometric T/l >= 25 N/m across, would allow 4e-11 m);
 - every rod tension (.jnt column 2) against |t_k|: 4e-10 N (observed 9.0e-11, 3.5e-11);
 - mid-span sag against the continuous catenary: 2e-2 relative (observed 5.5e-3: lumping, stretch);
 - Newton-Raphson (LS = 0, the deck's default): converges from the V (observed 9 iterations);
   line search (LS = 1) reaches the same equilibrium (5e-13 m) but needs many more iterations
   here (observed 73): the Newton path from the V passes through states with a larger force
   residual, which a residual-descent line search refuses. Both counts are printed, and the check
   only bounds them (<= 15 and <= 200) so that a regression in either shows.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
N, L0, M, EA, G = 12, 0.2, 0.1, 1e4, 9.81
deck = os.path.join(EXAMPLES, 'static_chain.mbd')

V = (np.arange(1, N + 1) - 6.5) * M * G


def rods(hx):
    T = np.hypot(hx, V)
    l = L0 * (1 + T / EA)
    return np.column_stack([l * hx / T, l * V / T]), T


a, b = 1e-3, 1e4  # span grows with Hx
for _ in range(200):
    m = 0.5 * (a + b)
    if rods(m)[0][:, 0].sum() < 2.0:
        a = m
    else:
        b = m
d, T_ref = rods(0.5 * (a + b))
joints = np.array([-1.0, 0.0]) + np.cumsum(d, axis=0)[:-1]   # inner joints 1..11

c_lo, c_hi = 0.1, 10.0  # 2 c sinh(1/c) decreases with c
for _ in range(200):
    c = 0.5 * (c_lo + c_hi)
    if 2 * c * np.sinh(1 / c) > 2.4:
        c_lo = c
    else:
        c_hi = c
sag_cont = c * (np.cosh(1 / c) - 1)

iters = {}
for ls in (0, 1):
    run = Run(exe, deck, work, f'chain_ls{ls}', {'LS': ls})
    err_p = err_t = 0.0
    for k in range(N - 1):
        row = run.rows('mov', k + 2)[-1]
        err_p = max(err_p, abs(row[1] - joints[k, 0]), abs(row[2] - joints[k, 1]), abs(row[3]))
    for k in range(N):
        err_t = max(err_t, abs(run.rows('jnt', k + 1)[-1, 1] - T_ref[k]))
    name = 'line search' if ls else 'Newton-Raphson'
    close(f'{name}: max joint position error vs discrete catenary [m]', err_p, 0.0, 5e-13)  # observed 7.0e-14, 1.0e-13
    close(f'{name}: max rod tension error [N]', err_t, 0.0, 4e-10)  # observed 9.0e-11, 3.5e-11
    with open(run.prefix + '.out') as f:
        iters[ls] = [int(line.split()[4]) for line in f if line.startswith('Step 0 ')][0]
    if ls == 0:
        sag = -run.rows('mov', 7)[-1, 2]
        close('mid-span sag vs continuous inextensible catenary (rel)', sag, sag_cont, 2e-2, relative=True)
print(f'iterations from the V: Newton-Raphson {iters[0]}, line search {iters[1]}')
close('Newton-Raphson iterations', iters[0], 0, 15)
close('line search iterations', iters[1], 0, 200)
finish()
