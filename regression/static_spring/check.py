"""`model: static` load stepping (input-examples/static_spring.mbd): a mass on a cubic spring
under gravity growing from G0 to G over ten load steps.

Reference (closed form): at every load step the strain solves K1 eps + K3 eps^3 = M g(t) with
g(t) = G0 + (G - G0) t (the deck's piecewise linear drive); its single real root is computed
here with numpy.roots, independently of the engine. The node is `dynamic displacement` in the
deck: in a static model it must carry no inertia, so the equilibrium holds exactly (no
dynamic overshoot), and the .ine file (momenta of dynamic nodes) must not list it.

Tolerances:
 - mass position y = -L0 (1 + eps) at each of the 11 output steps (step 0: the initial
   equilibrium, solved from the stretched first guess): 5e-14 m (observed 9.3e-15). The Newton
   tolerance is 1e-10 N on the force residual and the stiffness is >= 1e3 N/m, so the position
   error is <= 1e-13 m; 16 output digits.
 - rod tension (.jnt column 2) against M g(t): 6e-11 N (observed 1.5e-11).
 - Newton iterations: at most 6 per load step (observed 3-5: quadratic convergence).
 - failure case: the same deck with S0 = 0 (no initial stretch: zero tension, no stiffness across
   the rod) must stop with exit status 3, a singular matrix, naming the worst equation (force y of
   node 2: the unbalanced weight) and an unknown of node 2 no equation determines.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, failures, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
M, L0, K1, K3, G = 10.0, 1.0, 1e3, 1e6, 9.81
G0 = 0.1 * G
deck = os.path.join(EXAMPLES, 'static_spring.mbd')

run = Run(exe, deck, work, 'static_spring')
t = run.times()
mov = run.rows('mov', 2)
jnt = run.rows('jnt', 1)
close('output steps', len(mov), 11, 0)
worst_y = worst_t = 0.0
for k in range(len(mov)):
    g = G0 + (G - G0) * t[k]
    roots = np.roots([K3, 0.0, K1, -M * g])
    eps = roots[np.argmin(abs(roots.imag))].real
    worst_y = max(worst_y, abs(mov[k, 2] - (-L0 * (1 + eps))))
    worst_t = max(worst_t, abs(jnt[k, 1] - M * g))
close('max |y - y_exact| over the load steps [m]', worst_y, 0.0, 5e-14)  # observed 9.3e-15
close('max |T - M g| over the load steps [N]', worst_t, 0.0, 6e-11)  # observed 1.5e-11
final_eps = -mov[-1, 2] / L0 - 1
print(f'final strain {final_eps:.12f} (cubic term carries {K3 * final_eps**3 / (M * G):.0%} of the load)')

iters = []
with open(run.prefix + '.out') as f:
    for line in f:
        w = line.split()
        if w and w[0] == 'Step':
            iters.append(int(w[4]))
close('max Newton iterations per load step', max(iters), 0, 6)
if os.path.exists(run.prefix + '.ine'):
    with open(run.prefix + '.ine') as f:
        if any(line.split() and line.split()[0] == '2' for line in f):
            failures.append('.ine lists node 2')
            print('FAIL node 2 has momenta in a static model')

bad = Run(exe, deck, work, 'static_spring_mechanism', {'S0': 0}, expect_rc=3)
msg = bad.stderr
for needle in ('singular iteration matrix', 'worst equation: structural node 2, force y',
               "no equation determines the unknown 'position", 'of structural node 2',
               'a static node has no inertia'):
    ok = needle in msg
    print(f"{'ok  ' if ok else 'FAIL'} mechanism message contains {needle!r}")
    if not ok:
        failures.append('mechanism message: ' + needle)
finish()
