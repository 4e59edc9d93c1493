"""Where the output files go, and that they never replace the deck (issue 20, item 3).

- a deck named `case.out` run without -o: its default prefix `case` would make the log `case.out`
  over the deck: exit 2 with a message naming the file, the deck byte-identical afterwards;
- `-o DIR/` and `-o DIR` for an existing directory: the files are DIR/<deck name>.out, .mov, ...
  (as MBDyn), no hidden files DIR/.out;
- `-o PREFIX` otherwise: PREFIX.out, ... as before.
"""
import os
import shutil
import subprocess
import sys

exe, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
here = os.path.dirname(os.path.abspath(__file__))
src = os.path.join(here, '..', '..', 'input-examples', 'pendulum.mbd')
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
failed = []


def check(name, ok, detail=''):
    print(f"{'ok  ' if ok else 'FAIL'} {name} {detail}")
    if not ok:
        failed.append(name)


def run(*args):
    return subprocess.run([exe, '--quiet', *args, '-D', 'TF=0.01'], capture_output=True, text=True,
                          cwd=work, timeout=60)


shutil.copy(src, os.path.join(work, 'case.out'))
original = open(src, 'rb').read()
p = run('case.out')
check('deck case.out without -o: exit 2', p.returncode == 2, f'(exit {p.returncode})')
check('deck case.out without -o: message', "the output file 'case.out' would replace the deck" in p.stderr,
      p.stderr.strip())
check('deck case.out without -o: deck unchanged', open(os.path.join(work, 'case.out'), 'rb').read() == original)
check('deck case.out without -o: nothing written', sorted(os.listdir(work)) == ['case.out'], str(os.listdir(work)))

for arg in ('dir/', 'dir'):
    shutil.rmtree(os.path.join(work, 'dir'), ignore_errors=True)
    os.makedirs(os.path.join(work, 'dir'))
    p = run('-f', 'case.out', '-o', arg)
    files = sorted(os.listdir(os.path.join(work, 'dir')))
    check(f'-o {arg}: exit 0', p.returncode == 0, p.stderr.strip())
    check(f'-o {arg}: files named after the deck', {'case.out', 'case.log', 'case.mov', 'case.jnt'} <= set(files)
          and not any(f.startswith('.') for f in files), str(files))

p = run('-f', 'case.out', '-o', 'res')
check('-o res: res.out and res.mov', p.returncode == 0 and os.path.exists(os.path.join(work, 'res.out')) and
      os.path.exists(os.path.join(work, 'res.mov')), p.stderr.strip())
check('-o res: deck unchanged', open(os.path.join(work, 'case.out'), 'rb').read() == original)
n = 10
print(f'{n - len(failed)} passed, {len(failed)} failed')
sys.exit(1 if failed else 0)
