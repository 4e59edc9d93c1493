"""Bad-input corpus: every deck in manifest.txt must be refused cleanly.

For each entry mbsolve must
  - exit with status 2 (never 0, 1 = internal error, 3, or a signal),
  - print first `FILE:LINE:COL: error: ` with the location of the manifest, then the offending
    source line with a caret under the column (when the location is in a file),
  - print the manifest's message fragment somewhere in the error,
  - print nothing from a sanitizer ("runtime error:", "AddressSanitizer", ...),
  - finish within 2 s of CPU time (times MBS_BAD_INPUT_TIME_FACTOR, which scripts/test.sh
    --sanitize raises to 5), and within a wall-clock timeout (hangs);
  - stay under 1 GB of memory (the largest resident size of any case, from getrusage: observed
    178 MB in Release, gen:one_mb_args.mbd: 250,000 card arguments).
Mode `check` runs `mbsolve --check`; mode `run` decks pass --check (their error can only be
found when the engine is built or started), so `--check` must exit 0 and a real run must fail
as above. The relative-coordinate path has modes of its own (decks it cannot handle, `--check`
must pass): `tree` runs `mbsolve --tree`, and `reduced-dynamics`, `equilibrium`, `modal` and
`inverse-dynamics` run `mbsolve --analysis MODE`.

manifest.txt, one deck per line (blank lines and '#' lines are ignored):
    NAME  MODE  FILE:LINE:COL  CLASS  FRAGMENT...
NAME is a file in decks/, or gen:NAME for the decks this script writes into the scratch directory
(too big or too many files to keep in git: a 1 MB single-line deck, a 100-deep include chain).
CLASS groups the decks in the summary: lexical, syntax, include, expression, structure, count,
resource, label, keyword, value, orientation, model, drive.

Usage: /usr/bin/python3 check.py <mbsolve> <scratch directory>
"""
import collections
import os
import resource
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DECKS = os.path.join(HERE, 'decks')
LIMIT_S = 2.0 * float(os.environ.get('MBS_BAD_INPUT_TIME_FACTOR', '1'))
ANALYSES = ('reduced-dynamics', 'equilibrium', 'modal', 'inverse-dynamics')
SANITIZER_MARKS = ('runtime error:', 'AddressSanitizer', 'LeakSanitizer', 'UndefinedBehaviorSanitizer')

HEADER = ('begin: data;\n    problem: initial value;\nend: data;\nbegin: initial value;\n'
          '    initial time: 0.;\n    final time: 1.;\n    time step: 1.e-3;\nend: initial value;\n')
NEST = '(' * 3000 + '1' + ')' * 3000
UNARY = '-' * 30000 + '1'
NEST_STMT = '(1.; ' * 3000 + '2.' + ')' * 3000
CLI_BASE = ('begin: control data;\n    structural nodes: 1;\n    joints: 1;\nend: control data;\n'
            'begin: nodes;\n    structural: 1, static, null, eye, null, null;\nend: nodes;\n'
            'begin: elements;\n    joint: 1, clamp, 1, node, node;\nend: elements;\n')

# Command-line and environment entry points, run on gen:cli_base.mbd (or, given a 7th item, on
# that deck of decks/):
#   NAME, MODE (check: with --check; run: a real run), extra arguments, environment, location, fragment.
# Where the limit is hit: the k-th '(' (or unary operator) opens nesting level k, and the operand
# inside the 256th statement list is level 257: column 1 + 5 * 255 + 1 = 1277 for NEST_STMT.
# The location of an expression given on the command line is the option ('-D X', '--report',
# 'environment MBDYN_real_X') with line and column inside its text.
CLI_CASES = [
    ('define_parens_3000', 'check', ['-D', 'X=' + NEST], {}, '-D X:1:257', 'nested more than 256 deep'),
    ('define_unary_30000', 'check', ['-D', 'X=' + UNARY], {}, '-D X:1:257', 'nested more than 256 deep'),
    ('define_stmt_3000', 'check', ['-D', 'X=' + NEST_STMT], {}, '-D X:1:1277', 'nested more than 256 deep'),
    ('env_parens_3000', 'check', [], {'MBDYN_real_X': NEST}, 'environment MBDYN_real_X:1:257',
     'nested more than 256 deep'),
    ('env_unary_30000', 'check', [], {'MBDYN_integer_N': UNARY}, 'environment MBDYN_integer_N:1:257',
     'nested more than 256 deep'),
    ('report_parens_3000', 'run', ['--report', NEST], {}, '--report:1:257', 'nested more than 256 deep'),
    ('report_unary_30000', 'run', ['--report', 'x=' + UNARY], {}, '--report:1:259',
     'nested more than 256 deep'),
    # Options refused before any deck is read: no location, the option named in the message.
    ('define_bad_name', 'check', ['-D', '1bad=1'], {}, None, "-D 1bad=1: '1bad' is not a variable name"),
    ('define_no_value', 'check', ['-D', 'X'], {}, None, "-D needs NAME=VALUE, got 'X'"),
    ('define_no_name', 'check', ['-D', '=1'], {}, None, "-D needs NAME=VALUE, got '=1'"),
    ('workdir_missing', 'check', ['-W', '/nonexistent/dir'], {}, None,
     '-W /nonexistent/dir: cannot change to this directory'),
    ('analysis_unknown', 'check', ['--analysis', 'nope'], {}, None, "unknown analysis 'nope'"),
    ('format_unknown', 'check', ['--format', 'text,xml'], {}, None, "unknown format 'xml'"),
    ('flush_every_zero', 'check', ['--flush-every', '0'], {}, None, '--flush-every needs a positive integer'),
    ('compress_twelve', 'check', ['--compress', '12'], {}, None, '--compress needs a level 0-9'),
    ('output_threads_seven', 'check', ['--output-threads', '7'], {}, None, '--output-threads needs 0 or 1'),
    ('independent_words', 'check', ['--independent', 'a,b', '--tree'], {}, None,
     '--independent: expected coordinate numbers'),
    ('sweep_with_check', 'check', ['--sweep', 'table.csv'], {}, None, '--sweep runs the time integration: not with'),
    ('rows_per_task_zero', 'check', ['--rows-per-task', '0'], {}, None, '--rows-per-task needs a positive integer'),
    ('report_with_tree', 'check', ['--tree', '--report', 'x=1'], {}, None,
     '--report and --report-file need a time integration'),
    ('option_unknown', 'check', ['--bogus'], {}, None, "unknown option '--bogus'"),
    ('two_decks', 'check', ['other.mbd'], {}, None, 'more than one deck given'),
    ('report_file_unwritable', 'run', ['--report-file', '/nonexistent/dir/r.txt'], {}, None,
     "cannot write the report file '/nonexistent/dir/r.txt'"),
    # Bad -D values: refused where the value is read, with the place inside the option's text.
    ('define_div_zero', 'check', ['-D', 'X=1/0'], {}, '-D X:1:2', 'division by zero'),
    ('define_unknown_variable', 'check', ['-D', 'X=nope+1'], {}, '-D X:1:1', "unknown variable 'nope'"),
    ('define_string_times', 'check', ['-D', 'X="abc"*2'], {}, '-D X:1:6', "operator '*' cannot apply to a string"),
    ('define_real_overflow', 'check', ['-D', 'X=1e400'], {}, '-D X:1:1', 'real literal 1e400 is out of range'),
    ('define_empty_value', 'check', ['-D', 'X='], {}, '-D X:1:1', 'expected an expression'),
    ('define_unclosed_paren', 'check', ['-D', 'X=(1'], {}, '-D X:1:3', "expected ')'"),
    ('define_int_overflow', 'check', ['-D', 'X=2^100'], {}, '-D X:1:2', 'integer overflow'),
    # A string for a variable the deck declares real (`set: ifndef real X`): refused at the
    # declaration (it failed later, at the first use, as "operator '*' cannot apply to a string").
    ('define_string_for_real', 'check', ['-D', 'X="abc"'], {}, 'cli/define_ifndef_real.mbd:2:18',
     "'X' is already defined as a string, but this declaration is real", 'cli/define_ifndef_real.mbd'),
    # Accepted with a warning (exit 0): a -D the deck never reads (a misspelt name, most likely).
    ('define_unused', 'warn', ['-D', 'NOPE=1'], {}, '-D NOPE:1:1', "-D NOPE: the deck never reads 'NOPE'"),
]


def generate(name, work):
    """Writes generated deck `name` into work/gen/ and returns its path relative to that folder."""
    gen = os.path.join(work, 'gen')
    os.makedirs(gen, exist_ok=True)
    if name == 'one_mb_sum.mbd':
        # A 1 MB single line: 'set: real x = 1+1+...+1+;' -- the expression ends in a dangling '+'.
        with open(os.path.join(gen, name), 'w') as f:
            f.write('set: real x = ' + '1+' * 500000 + ';')
    elif name == 'one_mb_args.mbd':
        # A 1 MB single line: a deck whose 'final time' card has 250000 arguments.
        with open(os.path.join(gen, name), 'w') as f:
            f.write(HEADER.replace('\n', ' ').replace('final time: 1.;', 'final time: ' + '1., ' * 250000 + '1.;'))
    elif name == 'one_mb_comment.mbd':
        # A 1 MB comment line with no newline, and nothing else: an empty deck.
        with open(os.path.join(gen, name), 'w') as f:
            f.write('#' + 'x' * (1 << 20))
    elif name == 'include_chain_100.mbd':
        # deck -> inc_1 -> ... -> inc_100: the 65th nested include is refused.
        for k in range(1, 101):
            with open(os.path.join(gen, f'inc_{k}.inc'), 'w') as f:
                f.write(f'# link {k}\nset: real v{k} = {k}.;\n' + (f'include: "inc_{k + 1}.inc";\n' if k < 100 else ''))
        with open(os.path.join(gen, name), 'w') as f:
            f.write('# the head of a 100-deep include chain\ninclude: "inc_1.inc";\n' + HEADER)
    elif name == 'stmt_list_3000.mbd':
        # Statement lists nested 3000 deep, '(1.; (1.; ... 2.))': the ';' inside them must not
        # reset the nesting count (it did: the parser's stack overflowed at about 3000).
        with open(os.path.join(gen, name), 'w') as f:
            f.write(HEADER.replace('final time: 1.;', 'final time: ' + NEST_STMT + ';'))
    elif name == 'string_drive_parens_3000.mbd':
        # A string drive is parsed by the same grammar when the drive is read: same limit.
        with open(os.path.join(gen, name), 'w') as f:
            f.write(HEADER + 'drive caller: 1, string, "' + '(' * 3000 + 'Time' + ')' * 3000 + '";\n')
    elif name == 'string_drive_unary_30000.mbd':
        with open(os.path.join(gen, name), 'w') as f:
            f.write(HEADER + 'drive caller: 1, string, "' + '-' * 30000 + 'Time";\n')
    elif name == 'law_doubling.mbd':
        # Each law an array of the previous one twice: 2^k laws at run time by card k.
        with open(os.path.join(gen, name), 'w') as f:
            f.write(HEADER + 'constitutive law: 1, 1, linear elastic, 1.;\n' + ''.join(
                f'constitutive law: {k}, 1, array, 2, reference, {k - 1}, reference, {k - 1};\n'
                for k in range(2, 41)))
    elif name == 'scalar_function_doubling.mbd':
        with open(os.path.join(gen, name), 'w') as f:
            f.write(HEADER + 'scalar function: "f1", const, 1.;\n' + ''.join(
                f'scalar function: "f{k}", sum, "f{k - 1}", "f{k - 1}";\n' for k in range(2, 41)))
    elif name == 'string_doubling.mbd':
        # A string doubled 40 times would need a terabyte.
        with open(os.path.join(gen, name), 'w') as f:
            f.write(HEADER + 'set: string s = "ab";\n' + 'set: s = s + s;\n' * 40)
    elif name == 'include_doubling.mbd':
        # 30 files, each including the next twice: 2^30 reads with no cycle.
        for k in range(1, 31):
            with open(os.path.join(gen, f'dbl_{k}.inc'), 'w') as f:
                f.write(f'include: "dbl_{k + 1}.inc";\n' * 2 if k < 30 else 'set: z = 1;\n')
        with open(os.path.join(gen, name), 'w') as f:
            f.write('set: real z = 0;\ninclude: "dbl_1.inc";\n' + HEADER)
    elif name == 'include_sparse_2gb.mbd':
        # A 2 GB include (sparse: no blocks on disk) is refused from its size, before a byte is
        # read (it was refused only after 256 MB had been read).
        with open(os.path.join(gen, 'sparse_2gb.inc'), 'wb') as f:
            f.truncate(2 << 30)
        with open(os.path.join(gen, name), 'w') as f:
            f.write('# includes a 2 GB file\ninclude: "sparse_2gb.inc";\n' + HEADER)
    elif name == 'zeros_1mb.mbd':
        # A file of NUL bytes (was reported at the column past its end, 1:1048577).
        with open(os.path.join(gen, name), 'wb') as f:
            f.write(bytes(1 << 20))
    elif name == 'cli_base.mbd':
        # A valid deck for the command-line cases: one clamped node.
        with open(os.path.join(gen, name), 'w') as f:
            f.write(HEADER + CLI_BASE)
    else:
        sys.exit(f'manifest: unknown generated deck {name}')
    return gen, name


def read_manifest():
    entries = []
    with open(os.path.join(HERE, 'manifest.txt')) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith('#'):
                continue
            w = line.split(None, 4)
            if len(w) < 5 or w[1] not in ('check', 'run', 'tree') + ANALYSES:
                sys.exit(f'manifest.txt:{n}: expected NAME MODE FILE:LINE:COL CLASS FRAGMENT')
            entries.append(dict(name=w[0], mode=w[1], where=w[2], cls=w[3], fragment=w[4].strip()))
    return entries


def cpu_of_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd, cwd, env=None):
    """Runs mbsolve; returns (status, stdout, stderr, CPU seconds). The 2 s bound is on CPU time
    (user + system), which does not depend on how busy the machine is; a wall-clock timeout
    catches hangs."""
    c0 = cpu_of_children()
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, timeout=max(20.0, 10 * LIMIT_S),
                           env=None if env is None else {**os.environ, **env})
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        rc, out, err = 'timeout', e.stdout or b'', e.stderr or b''
    return rc, out.decode('utf-8', 'replace'), err.decode('utf-8', 'replace'), cpu_of_children() - c0


def check_error(e, rc, err, secs):
    """The list of problems with one refused deck (empty when it is refused as expected)."""
    bad = []
    if rc != 2:
        bad.append(f'exit status {rc}, expected 2')
    lines = err.splitlines()
    # Warnings may come first; the first error is the one the manifest describes.
    k = next((i for i, l in enumerate(lines) if ': error: ' in l), None)
    if k is None or not lines[k].startswith(e['where'] + ': error: '):
        bad.append(f"first error is not '{e['where']}: error: ...'")
    elif e['fragment'] not in '\n'.join(lines[k:]):
        bad.append(f"error message or hint lacks '{e['fragment']}'")
    elif k + 2 >= len(lines) or '^' not in lines[k + 2]:
        bad.append('no source line with a caret under the error')
    if any(m in err for m in SANITIZER_MARKS) or 'internal error' in err:
        bad.append('sanitizer report or internal error')
    if secs > LIMIT_S:
        bad.append(f'took {secs:.2f} s of CPU (limit {LIMIT_S:.1f} s)')
    return bad


def peak_rss_mb():
    """The largest resident size any child has had so far (Linux: ru_maxrss in kB)."""
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0


def main():
    exe, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    entries = read_manifest()
    listed = {e['name'] for e in entries}
    unlisted = sorted(f for f in os.listdir(DECKS) if f.endswith('.mbd') and f not in listed)
    failed = []
    by_class = collections.Counter()
    slowest = (0.0, '')
    largest = (0.0, '')
    for e in entries:
        if e['name'].startswith('gen:'):
            cwd, deck = generate(e['name'][4:], work)
        else:
            cwd, deck = DECKS, e['name']
        rc, out, err, secs = run([exe, '--check', deck], cwd)
        if e['mode'] != 'check':
            bad = [] if rc == 0 else [f"--check exited with {rc}, expected 0 (mode {e['mode']})\n{err}"]
            prefix = os.path.join(work, 'run_' + os.path.splitext(os.path.basename(deck))[0])
            mode = ([] if e['mode'] == 'run' else ['--tree'] if e['mode'] == 'tree'
                    else ['--analysis', e['mode']])
            rc, out, err, secs = run([exe, '--quiet', *mode, '-o', prefix, deck], cwd)
            bad += check_error(e, rc, err, secs)
        else:
            bad = check_error(e, rc, err, secs)
        slowest = max(slowest, (secs, e['name']))
        if peak_rss_mb() > largest[0]:
            largest = (peak_rss_mb(), e['name'])
        by_class[e['cls']] += 1
        if bad:
            failed.append(e['name'])
            print(f"FAIL {e['name']} ({e['mode']}, {secs:.2f} s): " + '; '.join(bad))
            print('    ' + '\n    '.join(err.splitlines()[:8]))
        else:
            print(f"ok   {e['name']} ({e['mode']}, {secs:.2f} s): " + next(l for l in err.splitlines() if ': error: ' in l))
    cwd, deck = generate('cli_base.mbd', work)
    for name, mode, args, env, where, fragment, *own in CLI_CASES:
        cmd = [exe] + args + (['--check'] if mode in ('check', 'warn') else ['-o', os.path.join(work, name)])
        rc, out, err, secs = run(cmd + [own[0] if own else deck], DECKS if own else cwd, env)
        if mode == 'warn':
            bad = [] if rc == 0 else [f'exit status {rc}, expected 0']
            if not any(l.startswith(where + ': warning: ' + fragment) for l in err.splitlines()):
                bad.append(f"no '{where}: warning: {fragment}'")
        elif where is None:
            bad = [] if rc == 2 else [f'exit status {rc}, expected 2']
            if fragment not in err:
                bad.append(f"message lacks '{fragment}'")
            if any(m in err for m in SANITIZER_MARKS) or 'mbsolve: internal error' in err:
                bad.append('sanitizer report or internal error')
        else:
            bad = check_error(dict(where=where, fragment=fragment), rc, err, secs)
        by_class['command line'] += 1
        if peak_rss_mb() > largest[0]:
            largest = (peak_rss_mb(), 'cli:' + name)
        if bad:
            failed.append('cli:' + name)
            print(f"FAIL cli:{name} ({mode}, {secs:.2f} s): " + '; '.join(bad))
            print('    ' + '\n    '.join(err.splitlines()[:8])[:2000])
        else:
            print(f"ok   cli:{name} ({mode}, {secs:.2f} s): " + next(l for l in err.splitlines() if fragment in l)[:200])
    print(f'{len(entries) + len(CLI_CASES)} cases (' + ', '.join(f'{k} {v}' for k, v in sorted(by_class.items())) + ')')
    print(f'slowest: {slowest[1]} {slowest[0]:.2f} s')
    print(f'largest: {largest[1]} {largest[0]:.0f} MB of memory')
    if largest[0] > 1024:
        failed.append(f'memory: {largest[1]} used {largest[0]:.0f} MB (limit 1024 MB)')
    if unlisted:
        failed.append('unlisted decks')
        print('FAIL decks missing from manifest.txt: ' + ', '.join(unlisted))
    if failed:
        sys.exit(f'{len(failed)} deck(s) failed: ' + ', '.join(failed))
    print('all decks refused as expected')


if __name__ == '__main__':
    main()
