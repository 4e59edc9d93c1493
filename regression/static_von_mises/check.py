"""Shallow two-bar (von Mises) truss under load control (input-examples/static_von_mises.mbd).

Reference (closed form): the equilibrium path of the symmetric truss, P(w) = 2 EA (L0 - l)/L0
(H - w)/l with l = sqrt(A^2 + (H - w)^2) (rod strain (l - L0)/L0 as in MBDyn's rod). For a
given load the deflection is found here by bisection on the branch it must lie on: the stable
branch 0 <= w <= w_lim below the limit point, the inverted branch w > 2 H beyond it. The limit
load P_max is the maximum of P(w) on [0, H] (bisection on dP/dw), checked against the value
the deck uses to scale its load.

Runs and tolerances:
 1. ten load steps up to 0.95 P_max (Newton-Raphson): apex height H - w at every step against the
    stable-branch root, 1e-13 m (observed 2.8e-14; Newton tolerance 1e-8 N on forces; the
    tangent stiffness along the path stays above 2.4e3 N/m, so <= 5e-12 m; 16 output digits);
    rod tensions against T = EA (l - L0)/L0 at the computed l, 1e-9 N (observed 2.2e-10); the
    apex stays at x = 0, z = 0 (1e-12 m). The deck's P_max against the closed form: 2e-12
    relative (its 12 digits; observed 2.7e-13).
 2. snap-through: 1.5 P_max in one load step. No equilibrium exists near the initial shape;
    Newton-Raphson jumps to the inverted branch (the far root, 1e-15 m; observed 6.9e-17). Line search (residual
    descent, MBDyn's algorithm) cannot: |F|^2 has a local minimum at the limit point, where J
    is singular, and the run stops with exit status 3 naming the line search. This documents
    the limit of a residual line search under load control (it does not replace arc-length
    continuation).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, failures, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
A, H, EA = 1.0, 0.1, 1e6
L0 = np.hypot(A, H)
PMAX_DECK = 381.087190418
deck = os.path.join(EXAMPLES, 'static_von_mises.mbd')


def P(w):
    l = np.hypot(A, H - w)
    return 2 * EA * (L0 - l) / L0 * (H - w) / l


def bisect(f, a, b, n=200):
    fa = f(a)
    for _ in range(n):
        m = 0.5 * (a + b)
        fm = f(m)
        if (fm > 0) == (fa > 0):
            a, fa = m, fm
        else:
            b = m
    return 0.5 * (a + b)


dP = lambda w, e=1e-7: (P(w + e) - P(w - e)) / (2 * e)  # noqa: E731
w_lim = bisect(dP, 0.0, H)
p_max = P(w_lim)
close('limit load P_max [N] (deck value vs closed form)', PMAX_DECK, p_max, 2e-12, relative=True)

# 1. load stepping to 0.95 P_max
run = Run(exe, deck, work, 'vm_steps')
t = run.times()
mov = run.rows('mov', 3)
close('output steps', len(mov), 11, 0)
err_y = err_t = err_xz = 0.0
for k in range(len(mov)):
    p = 0.95 * PMAX_DECK * t[k]
    w = bisect(lambda w: P(w) - p, 0.0, w_lim) if p > 0 else 0.0
    err_y = max(err_y, abs(mov[k, 2] - (H - w)))
    err_xz = max(err_xz, abs(mov[k, 1]), abs(mov[k, 3]))
    l = np.hypot(A, mov[k, 2])
    for rod in (3, 4):
        err_t = max(err_t, abs(run.rows('jnt', rod)[k, 1] - EA * (l - L0) / L0))
close('max |y_apex - (H - w)| along the path [m]', err_y, 0.0, 1e-13)  # observed 2.8e-14
close('max |T - EA (l - L0)/L0| [N]', err_t, 0.0, 1e-9)  # observed 2.2e-10
close('max |x|, |z| of the apex [m]', err_xz, 0.0, 1e-12)
print(f'final deflection w/H = {(H - mov[-1, 2]) / H:.6f} at 0.95 P_max (limit point at w/H = {w_lim / H:.6f})')

# 2. snap-through in one load step
nr = Run(exe, deck, work, 'vm_snap_newton', {'PF': 1.5, 'DT': 1, 'LS': 0})
w_far = bisect(lambda w: P(w) - 1.5 * PMAX_DECK, 2 * H, 10 * H)
close('snap-through, Newton-Raphson: apex y on the inverted branch [m]', nr.rows('mov', 3)[-1, 2], H - w_far, 1e-15)
with open(nr.prefix + '.out') as f:
    it = [int(line.split()[4]) for line in f if line.startswith('Step 1 ')][0]
print(f'snap-through, Newton-Raphson: {it} iterations')
ls = Run(exe, deck, work, 'vm_snap_ls', {'PF': 1.5, 'DT': 1, 'LS': 1}, expect_rc=3)
ok = 'line search: lambda reached its minimum' in ls.stderr
print(f"{'ok  ' if ok else 'FAIL'} snap-through, line search stops at the limit point (exit 3)")
if not ok:
    failures.append('line search snap-through message')
finish()
