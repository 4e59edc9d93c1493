"""`nonlinear solver: line search` (input-examples/static_line_search.mbd): a strongly stiffening
spring (T = K1 eps + K3 eps^3, K3/K1 = 1e8) loaded from 1e-3 of its final weight to all of it in
one load step of a static model.

Reference (closed form): the strain solves K1 eps + K3 eps^3 = M g (numpy.roots).

Runs and tolerances:
 1. line search (deck defaults, MBDyn's option values): converges within the deck's 10
    iterations; mass position against the root 2e-15 m (observed 2.2e-16, an ulp; Newton
    tolerance 1e-10 N, tangent stiffness >= 1.3e5 N/m at the solution: <= 1e-15 m; 16 digits).
 2. Newton-Raphson (LS = 0: lambda floor 1, checks off), same 10 iterations: exit 3, "Newton
    iterations did not converge".
 3. Newton-Raphson with 50 iterations converges to the same root (2e-15 m; observed 2.2e-16) and needs at least
    twice the line search's iterations (observed 14 against 4).
 3b. the same card at its Newton settings (LS = 0) writes the same .mov, bit for bit, as
    `nonlinear solver: newton raphson` (MBDyn's manual: lambda min 1 and the checks off give
    Newton-Raphson).
 3c. with `modified, 3` (a kept matrix) the search along a stale direction fails, is retried
    with a new matrix, and the load step converges within 10 iterations (2e-15 m, observed
    2.2e-16; 6 iterations;
    max iterations 20 here: the initial equilibrium takes 12 with the kept matrices).
 3d. a dynamic deck (input-examples/four_bar.mbd) with the line search card writes the same
    .mov as without it: full corrections are taken whenever they decrease the residual, the
    search is skipped once the residual is below the tolerance (round-off) and in the
    derivatives phase of dynamic models (its matrix is not the residual's derivative).
 4. `lambda min` 0.5 (LMIN): the backtracking needs lambda = 0.025, so the step stops, exit 3,
    "lambda reached its minimum" (`abort at lambda min`, MBDyn's default).
 5. `print convergence info, yes` prints one line per iteration on stderr.
 6. Option errors are input errors (exit 2) at the option's file:line:col: lambda factor min
    outside (0, 1), an unknown option, options that are not supported (keep jacobian matrix) and
    the matrix-free solver.
"""
import os
import re
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, failures, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
M, L0, K1, K3, G = 10.0, 1.0, 1e2, 1e10, 9.81
deck = os.path.join(EXAMPLES, 'static_line_search.mbd')
roots = np.roots([K3, 0.0, K1, -M * G])
y_ref = -L0 * (1 + roots[np.argmin(abs(roots.imag))].real)


def step1_iterations(run):
    with open(run.prefix + '.out') as f:
        return [int(line.split()[4]) for line in f if line.startswith('Step 1 ')][0]


def expect(what, cond):
    print(f"{'ok  ' if cond else 'FAIL'} {what}")
    if not cond:
        failures.append(what)


with open(deck) as f:
    text = f.read()


def variant(name, old, new):
    assert old in text, old
    path = os.path.join(work, name + '.mbd')
    with open(path, 'w') as f:
        f.write(text.replace(old, new))
    return path


ls = Run(exe, deck, work, 'ls')
close('line search: mass y [m]', ls.rows('mov', 2)[-1, 2], y_ref, 2e-15)  # observed 2.2e-16
it_ls = step1_iterations(ls)

nr10 = Run(exe, deck, work, 'nr10', {'LS': 0}, expect_rc=3)
expect('Newton-Raphson, 10 iterations: does not converge', 'Newton iterations did not converge' in nr10.stderr)

nr = Run(exe, deck, work, 'nr50', {'LS': 0, 'MAXIT': 50})
close('Newton-Raphson (50 iterations): mass y [m]', nr.rows('mov', 2)[-1, 2], y_ref, 2e-15)  # observed 2.2e-16
it_nr = step1_iterations(nr)
print(f'iterations of the load step: line search {it_ls}, Newton-Raphson {it_nr}')
expect('Newton-Raphson needs at least twice the iterations of the line search', it_nr >= 2 * it_ls)

# The card at its Newton settings is Newton-Raphson: same iterations, same numbers.
i0 = text.index('    nonlinear solver: line search,')
i1 = text.index('\n', text.index('max iterations, 200;'))
p = variant('newton', text[i0:i1], '    nonlinear solver: newton raphson;')
nr_card = subprocess.run([exe, '--quiet', '-f', p, '-o', os.path.join(work, 'newton'), '-D', 'MAXIT=50'],
                         capture_output=True, text=True)
with open(os.path.join(work, 'newton.mov')) as f1, open(nr.prefix + '.mov') as f2:
    same = f1.read() == f2.read()
expect('LS = 0 gives the same .mov as nonlinear solver: newton raphson (bit for bit)', nr_card.returncode == 0 and same)

# `modified, 3`: a kept matrix gives no descent direction after the first iteration; the search
# is retried once with a new matrix instead of failing.
p = variant('modified', 'nonlinear solver: line search,', 'nonlinear solver: line search, modified, 3,')
mod = subprocess.run([exe, '--quiet', '-f', p, '-o', os.path.join(work, 'modified'), '-D', 'MAXIT=20'],
                     capture_output=True, text=True)
ok = mod.returncode == 0
if ok:
    with open(os.path.join(work, 'modified.mov')) as f:
        y_mod = [float(line.split()[2]) for line in f if line.split()[0] == '2'][-1]
    with open(os.path.join(work, 'modified.out')) as f:
        it_mod = [int(line.split()[4]) for line in f if line.startswith('Step 1 ')][0]
    print(f'line search, modified, 3: {it_mod} iterations, y error {abs(y_mod - y_ref):.3g} m')
    ok = abs(y_mod - y_ref) <= 2e-15 and it_mod <= 10
expect('line search, modified, 3: the load step converges within 10 iterations to the root (2e-15 m)', ok)

# A dynamic deck (the driven four-bar, input-examples/four_bar.mbd) with the line search card:
# where full Newton corrections decrease the residual (and in the derivatives phase, which
# is not searched in dynamic models) it is Newton-Raphson: the same .mov, bit for bit.
with open(os.path.join(EXAMPLES, 'four_bar.mbd')) as f:
    fb = f.read()
key = '    linear solver:'
assert key in fb
fb_ls = os.path.join(work, 'four_bar_ls.mbd')
with open(fb_ls, 'w') as f:
    f.write(fb.replace(key, '    nonlinear solver: line search;\n' + key, 1))
r1 = subprocess.run([exe, '--quiet', '-f', fb_ls, '-o', os.path.join(work, 'four_bar_ls')], capture_output=True,
                    text=True)
r2 = subprocess.run([exe, '--quiet', '-f', os.path.join(EXAMPLES, 'four_bar.mbd'), '-o',
                     os.path.join(work, 'four_bar_nr')], capture_output=True, text=True)
same = False
if r1.returncode == 0 and r2.returncode == 0:
    with open(os.path.join(work, 'four_bar_ls.mov')) as f1, open(os.path.join(work, 'four_bar_nr.mov')) as f2:
        same = f1.read() == f2.read()
else:
    print(r1.stderr, r2.stderr)
expect('four_bar.mbd with line search: same .mov as with Newton-Raphson (bit for bit)', same)

lmin = Run(exe, deck, work, 'lmin', {'LMIN': 0.5}, expect_rc=3)
expect('lambda min 0.5: stops with "lambda reached its minimum"', 'lambda reached its minimum' in lmin.stderr)

p = variant('print', 'max iterations, 200;', 'max iterations, 200, print convergence info, yes;')
out = subprocess.run([exe, '--quiet', '-f', p, '-o', os.path.join(work, 'print')], capture_output=True, text=True)
lines = [w for w in out.stderr.splitlines() if w.startswith('line search: t = 1, iteration')]
expect(f'print convergence info: {len(lines)} lines for the {it_ls} iterations of step 1', len(lines) == it_ls)

for name, old, new, needle in [
        ('bad_factor', 'lambda factor min, 0.1,', 'lambda factor min, 2.,', 'lambda factor min must be in (0, 1)'),
        ('bad_option', 'alpha, 1.e-4,', 'lambda maximum, 1.e-4,', 'line search option'),
        ('keep_jacobian', 'alpha, 1.e-4,', 'keep jacobian matrix, alpha, 1.e-4,', "'keep jacobian matrix' is not supported"),
        ('matrix_free', 'nonlinear solver: line search,', 'nonlinear solver: matrix free, bicgstab,\n#',
         "'matrix free' is not supported")]:
    path = variant(name, old, new)
    r = subprocess.run([exe, '--quiet', '-f', path, '-o', os.path.join(work, name)], capture_output=True, text=True)
    where = re.search(re.escape(path) + r':(\d+):(\d+): error: ', r.stderr)
    expect(f'{name}: exit 2 at file:line:col with "{needle}"', r.returncode == 2 and where is not None and needle in r.stderr)
    if r.returncode != 2 or not where:
        print(r.stderr)
finish()
