"""MBDyn cards that mbsolve reads but does not act on are never silently accepted.

Each case inserts one card (or one option) into input-examples/pendulum.mbd and runs
`mbsolve --check` on it:
- a card that would change the results if it were obeyed (an eigenanalysis option mbsolve does
  not implement, rigid-body kinematics, a restart file, a residual-test modifier, inverse dynamics
  in the DAE engine, ...) must stop with exit 2 and `FILE:LINE:COL: error: '...' ... not supported
  yet` at the card or option, the source line and a hint;
- a card that only concerns MBDyn's diagnostics, threads or storage (`threads`, `print`,
  `output: iterations`, linear solver options, `default scale`, `at most`) runs (exit 0) with
  `FILE:LINE:COL: warning: '...' is ignored: <why>` at the card.
The DAE's step control (`strategy: factor`) in a deck run with --analysis reduced-dynamics (a
constant step) runs with a warning at the card.
The locations are computed here from the inserted text, independently of mbsolve.
"""
import os
import re
import subprocess
import sys

exe, work = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))
base_path = os.path.join(here, '..', '..', 'input-examples', 'pendulum.mbd')
base = open(base_path).read().split('\n')


def line_of(prefix):
    """0-based index of the first line that starts (after blanks) with `prefix`; 'null;' is the
    last line of the MASS node (its angular velocity), where a node's optional items go."""
    start = 0
    if prefix == 'null;':
        start = next(i for i, l in enumerate(base) if l.strip().startswith('structural: MASS'))
    for i, l in enumerate(base[start:], start):
        if l.strip().startswith(prefix):
            return i
    sys.exit(f'pendulum.mbd has no line starting with {prefix!r}')


END_IV, END_CD = line_of('end: initial value'), line_of('end: control data')

# (name, kind, block end before which the card goes or a (line prefix, old, new) replacement,
#  the card text, the text the column must point at, fragment of the message)
insert = [
    ('eigenanalysis_arpack', 'error', END_IV, 'eigenanalysis: 1., use arpack, 10, 20, 0.;', 'use arpack',
     "'use arpack' (sparse eigensolver) is not supported yet"),
    ('eigenanalysis_jdqz', 'error', END_IV, 'eigenanalysis: 1., use jdqz, 10, 20, 0.;', 'use jdqz',
     "'use jdqz' (sparse eigensolver) is not supported yet"),
    ('eigenanalysis_matrices', 'error', END_IV, 'eigenanalysis: 1., output full matrices;', 'output full',
     "'output full matrices' is not supported yet"),
    ('eigenanalysis_sparse_matrices', 'error', END_IV, 'eigenanalysis: 1., output sparse matrices;',
     'output sparse', "'output sparse matrices' is not supported yet"),
    ('eigenanalysis_balance', 'error', END_IV, 'eigenanalysis: 1., balance, all;', 'balance',
     "'balance' is not supported yet"),
    ('eigenanalysis_suffix_format', 'error', END_IV, 'eigenanalysis: 1., suffix format, "%d";', 'suffix',
     "'suffix format' is not supported yet"),
    ('modify_residual_test', 'error', END_IV, 'modify residual test;', 'modify',
     "'modify residual test' is not supported yet"),
    ('enforce_constraints', 'error', END_IV, 'enforce constraint equations: constraint;', 'enforce',
     "'enforce constraint equations' is not supported yet"),
    ('dummy_steps_method', 'error', END_IV, 'dummy steps method: ms, 0.6;', 'dummy',
     "'dummy steps method' is not supported yet"),
    ('max_step_hard_limit', 'error', END_IV, 'max time step: 1e-2, hard limit, yes;', 'hard limit',
     "'hard limit' of the max time step is not supported yet"),
    ('make_restart_file', 'error', END_CD, 'make restart file;', 'make', "'make restart file' is not supported yet"),
    ('rigid_body_kinematics', 'error', END_CD, 'rigid body kinematics: const, angular velocity, 0., 0., 1.;',
     'rigid', "'rigid body kinematics' is not supported yet"),
    ('default_beam_output', 'error', END_CD, 'default beam output: strains;', 'default',
     "'default beam output' is not supported yet"),
    ('threads', 'warning', END_IV, 'threads: 2;', 'threads', "'threads' is ignored: mbsolve assembles and solves on one thread"),
    ('solver_output', 'warning', END_IV, 'output: iterations, residual;', 'output',
     "'output' is ignored: mbsolve does not print MBDyn's solver diagnostics"),
    ('print', 'warning', END_CD, 'print: dof stats;', 'print', "'print' is ignored"),
    ('default_scale', 'warning', END_CD, 'default scale: structural nodes, 1.;', 'default',
     "'default scale' is ignored: it scales only scaled residual tests"),
    ('omega_rotates', 'error', END_CD, 'omega rotates: yes;', 'omega', "'omega rotates' is not supported yet"),
    ('assembly_epsilon', 'error', END_CD, 'epsilon: 1e-6;', 'epsilon',
     "'epsilon' of the initial assembly is not supported yet"),
    ('default_output_reference_frames', 'warning', END_CD, 'default output: joints, reference frames;',
     'reference frames', 'this output type is ignored: mbsolve writes no reference-frame (.rfm) file'),
    ('use_plates_in_assembly', 'warning', END_CD, 'use: rigid bodies, plates, in assembly;', 'plates',
     "'plates' in assembly is ignored: no such element takes part in the initial assembly"),
    ('use_gravity_alone_in_assembly', 'warning', END_CD, 'use: gravity, in assembly;', 'gravity',
     "'gravity' in assembly is ignored: gravity acts in the initial assembly through the rigid bodies"),
]
replace = [
    ('problem_inverse_dynamics', 'error', ('problem:', 'initial value', 'inverse dynamics'), 'inverse',
     "'problem: inverse dynamics' is not supported yet by the DAE engine"),
    ('residual_test_scale', 'error', ('tolerance:', '1.e-6', '1.e-6, test, norm, scale'), 'scale',
     "a scaled residual test ('test, ..., scale') is not supported yet"),
    ('solution_test_minmax', 'error', ('tolerance:', '1.e-6', '1.e-6, test, norm, 1.e-9, test, minmax'), 'minmax',
     "only the 'norm' solution test is supported yet"),
    ('method_third_order', 'error', ('method:', 'ms, 0.6', 'third order, 0.6'), 'third',
     "integration method 'third order' is not supported yet"),
    ('nonlinear_solver_options', 'error', ('linear solver:', 'linear solver: klu;',
                                           'linear solver: klu; nonlinear solver: newton raphson, keep jacobian;'),
     'keep', 'these nonlinear solver options are not supported yet'),
    ('linear_solver_options', 'warning', ('linear solver:', 'klu', 'umfpack, cc, colamd'), 'cc',
     "'linear solver options' is ignored: mbsolve orders and pivots umfpack itself"),
    ('at_most', 'warning', ('max iterations:', '20', '20, at most'), 'at most', "'at most' is ignored"),
    # the optional items after a structural node's angular velocity (the MASS node's last line)
    ('node_prediction_node', 'error', ('null;', 'null;', 'null, prediction node, GROUND;'), 'prediction',
     "'prediction node' is not supported yet"),
    ('node_assembly_omega_rotates', 'error', ('null;', 'null;', 'null, assembly, 1., 1., yes;'), 'yes',
     "the node's 'omega rotates' flag of the initial assembly is not supported yet"),
    ('node_scale', 'warning', ('null;', 'null;', 'null, scale, 2.;'), 'scale', "'scale' is ignored"),
]

cases = []
for name, kind, at_line, card, point, frag in insert:
    lines = base[:at_line] + ['    ' + card] + base[at_line:]
    cases.append((name, kind, lines, at_line, 4 + card.index(point), frag))
for name, kind, (prefix, old, new), point, frag in replace:
    i = line_of(prefix)
    lines = list(base)
    assert old in lines[i], (name, lines[i])
    lines[i] = lines[i].replace(old, new, 1)
    cases.append((name, kind, lines, i, lines[i].index(point, lines[i].index(new)), frag))

failed = []
for name, kind, lines, row, col, frag in cases:
    deck = os.path.join(work, name + '.mbd')
    with open(deck, 'w') as f:
        f.write('\n'.join(lines))
    p = subprocess.run([exe, '--check', deck], capture_output=True, text=True, timeout=60)
    want_rc = 2 if kind == 'error' else 0
    where = f'{name}.mbd:{row + 1}:{col + 1}: {kind}: '
    first = next((l for l in p.stderr.splitlines() if ': error: ' in l or ': warning: ' in l), '')
    ok = (p.returncode == want_rc and where in first and
          (frag in p.stderr) and (kind == 'warning' or 'hint:' in p.stderr) and
          lines[row].strip() in p.stderr)
    print(f"{'ok  ' if ok else 'FAIL'} {name}: exit {p.returncode} (want {want_rc}), {first.strip()}")
    if not ok:
        print(p.stderr)
        failed.append(name)

# The DAE's step control on the relative-coordinate path, which steps at the constant time step:
# run (not --check: the warning comes from the analysis), exit 0, a warning at the card.
card = 'strategy: factor, 0.5, 1, 1.5, 2, 3;'
lines = base[:END_IV] + ['    ' + card] + base[END_IV:]
deck = os.path.join(work, 'reduced_strategy.mbd')
with open(deck, 'w') as f:
    f.write('\n'.join(lines))
p = subprocess.run([exe, '--analysis', 'reduced-dynamics', '-f', deck, '-o', os.path.join(work, 'rs')],
                   capture_output=True, text=True, timeout=60)
where = f'reduced_strategy.mbd:{END_IV + 1}:{4 + card.index("factor") + 1}: warning: '
p_strategy = p
ok = (p.returncode == 0 and where + "'strategy: factor' is not used by reduced dynamics" in p.stderr and
      'steps at the constant time step' in p.stderr)
print(f"{'ok  ' if ok else 'FAIL'} reduced_strategy: exit {p.returncode}, warning at {where}")
if not ok:
    print(p.stderr)
    failed.append('reduced_strategy')

# The DAE's Newton settings are not used there either (the path converges on the loop
# constraints and, two-step, the state derivatives): a warning at each value, same run.
for card, label in (('tolerance:', "'tolerance'"), ('max iterations:', "'max iterations'")):
    row = line_of(card)
    col = base[row].index(card) + len(card) + 2  # the value after ': '
    where = f'reduced_strategy.mbd:{row + 2 if row >= END_IV else row + 1}:{col}: warning: '
    ok = (where + label + ' is not used by reduced dynamics' in p_strategy.stderr and
          'solves the loop constraints to |h| <= 1e-12' in p_strategy.stderr)
    print(f"{'ok  ' if ok else 'FAIL'} reduced_{card[:-1].replace(' ', '_')}: warning at {where}")
    if not ok:
        print(p_strategy.stderr)
        failed.append('reduced_' + card)

# A deck without any of these cards still runs with no warning at all.
p = subprocess.run([exe, '--check', base_path], capture_output=True, text=True, timeout=60)
clean = p.returncode == 0 and 'warning' not in p.stderr
print(f"{'ok  ' if clean else 'FAIL'} pendulum.mbd as shipped: exit {p.returncode}, no warning")
if not clean:
    failed.append('clean')
print(f'{len(cases) + 4 - len(failed)} passed, {len(failed)} failed')
sys.exit(1 if failed else 0)
