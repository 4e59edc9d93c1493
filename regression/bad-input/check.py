"""Bad-input corpus: every deck in manifest.txt must be refused cleanly.

For each entry mbsolve must
  - exit with status 2 (never 0, 1 = internal error, 3, or a signal),
  - print first `FILE:LINE:COL: error: ` with the location of the manifest, then the offending
    source line with a caret under the column (when the location is in a file),
  - print the manifest's message fragment somewhere in the error,
  - print nothing from a sanitizer ("runtime error:", "AddressSanitizer", ...),
  - finish within 2 s of CPU time (times MBS_BAD_INPUT_TIME_FACTOR, which scripts/test.sh
    --sanitize raises to 5), and within a wall-clock timeout (hangs).
Mode `check` runs `mbsolve --check`; mode `run` decks pass --check (their error can only be
found when the engine is built or started), so `--check` must exit 0 and a real run must fail
as above.

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
SANITIZER_MARKS = ('runtime error:', 'AddressSanitizer', 'LeakSanitizer', 'UndefinedBehaviorSanitizer')

HEADER = ('begin: data;\n    problem: initial value;\nend: data;\nbegin: initial value;\n'
          '    initial time: 0.;\n    final time: 1.;\n    time step: 1.e-3;\nend: initial value;\n')


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
            if len(w) < 5 or w[1] not in ('check', 'run'):
                sys.exit(f'manifest.txt:{n}: expected NAME MODE FILE:LINE:COL CLASS FRAGMENT')
            entries.append(dict(name=w[0], mode=w[1], where=w[2], cls=w[3], fragment=w[4].strip()))
    return entries


def cpu_of_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd, cwd):
    """Runs mbsolve; returns (status, stdout, stderr, CPU seconds). The 2 s bound is on CPU time
    (user + system), which does not depend on how busy the machine is; a wall-clock timeout
    catches hangs."""
    c0 = cpu_of_children()
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, timeout=max(20.0, 10 * LIMIT_S))
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
    for e in entries:
        if e['name'].startswith('gen:'):
            cwd, deck = generate(e['name'][4:], work)
        else:
            cwd, deck = DECKS, e['name']
        rc, out, err, secs = run([exe, '--check', deck], cwd)
        if e['mode'] == 'run':
            bad = [] if rc == 0 else [f'--check exited with {rc}, expected 0 (mode run)\n{err}']
            prefix = os.path.join(work, 'run_' + os.path.splitext(os.path.basename(deck))[0])
            rc, out, err, secs = run([exe, '--quiet', '-o', prefix, deck], cwd)
            bad += check_error(e, rc, err, secs)
        else:
            bad = check_error(e, rc, err, secs)
        slowest = max(slowest, (secs, e['name']))
        by_class[e['cls']] += 1
        if bad:
            failed.append(e['name'])
            print(f"FAIL {e['name']} ({e['mode']}, {secs:.2f} s): " + '; '.join(bad))
            print('    ' + '\n    '.join(err.splitlines()[:8]))
        else:
            print(f"ok   {e['name']} ({e['mode']}, {secs:.2f} s): " + next(l for l in err.splitlines() if ': error: ' in l))
    print(f'{len(entries)} decks (' + ', '.join(f'{k} {v}' for k, v in sorted(by_class.items())) + ')')
    print(f'slowest: {slowest[1]} {slowest[0]:.2f} s')
    if unlisted:
        failed.append('unlisted decks')
        print('FAIL decks missing from manifest.txt: ' + ', '.join(unlisted))
    if failed:
        sys.exit(f'{len(failed)} deck(s) failed: ' + ', '.join(failed))
    print('all decks refused as expected')


if __name__ == '__main__':
    main()
