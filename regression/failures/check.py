"""Solver failures stop cleanly (exit status 3) with a diagnosis, and keep the output written.

Decks: no_mass.mbd (singular iteration matrix: a free dynamic node without mass),
nan_gravity.mbd (a NaN load after t = 0.05 s), no_convergence.mbd (unreachable tolerance),
derivatives_auto.mbd (unreachable derivatives tolerance with `derivatives coefficient: auto`:
two retries, coefficient 1e-6 -> 1e-4 -> 1e-2).
Checks: exit status 3; the message names time, step, iteration and residual norm, and the
node/unknown or equation at fault; the .out log and .mov file hold every step before the failure
(and end with the '# run stopped' line).
"""
import os
import sys

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
steps = [l for l in open(r.prefix + '.out') if l.startswith('Step')]
close('NaN: steps logged before the failure (0..5)', len(steps), 6, 0)
close('NaN: node rows in .mov (steps 0..5)', len(r.rows('mov', 1)), 6, 0)
expect('NaN: .out ends with the stop comment', [l for l in open(r.prefix + '.out') if not l.startswith('#')][-1]
       .startswith('Step 5') and '# run stopped: non-finite residual' in open(r.prefix + '.out').read())

r = Run(exe, 'no_convergence.mbd', work, 'noconv', expect_rc=3)
expect('no convergence: message', 'did not converge (max iterations 3) at t = ' in r.stderr)
expect('no convergence: iteration and residual', 'iteration 3, residual norm' in r.stderr)
expect('no convergence: worst equation', 'worst equation:' in r.stderr)

r = Run(exe, 'derivatives_auto.mbd', work, 'der_auto', expect_rc=3)
expect('derivatives auto: last coefficient 1e-6 * 100^2 named',
       'derivatives phase did not converge (derivatives coefficient 0.01) at t = 0' in r.stderr)
finish()
