"""Helpers shared by the regression checks of the relative-coordinate path (regression/reduced_*):
deck variants written to the scratch directory, the reader of PREFIX.modal, mbsolve runs, the
check of a refused deck and the classic RK4 step of the checks' reference integrations."""
import os
import re
import subprocess
import sys

import numpy as np

from mbs_check import close


def variant(src, work, name, old, new):
    """A copy of deck `src` in `work` named `name` with the text `old` (which must be there)
    replaced by `new`; returns its path."""
    text = open(src).read()
    assert old in text, old
    path = os.path.join(work, name)
    with open(path, 'w') as f:
        f.write(text.replace(old, new))
    return path


def read_modal(path):
    """Eigenvalue rows (index real imag f damping fd), mode shapes {mode: [(modulus, phase)]} and
    the coordinates [(joint label, axis)] of a PREFIX.modal file."""
    rows, shapes, coords, mode = [], {}, [], None
    for line in open(path):
        w = line.split()
        if not w or w[0].startswith('#'):
            continue
        if w[0] == 'mode':
            mode = int(w[1])
            shapes[mode] = []
        elif mode is None:
            rows.append([float(v) for v in w])
        else:
            shapes[mode].append((float(w[3]), float(w[4])))
            if mode == 1:
                coords.append((int(w[1]), w[2]))
    return np.array(rows), shapes, coords


def mbsolve(exe, args, defines=None, expect=0):
    """Runs `exe args -D k=v ...`; exits the check unless the exit status is `expect`; returns the
    completed process (stdout, stderr)."""
    cmd = [exe] + list(args)
    for k, v in (defines or {}).items():
        cmd += ['-D', f'{k}={v}']
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != expect:
        print(' '.join(cmd), p.stdout, p.stderr)
        sys.exit(f'mbsolve exited with {p.returncode}, expected {expect}')
    return p


def run(exe, work, deck, prefix, analysis=None, defines=None, expect=0, tree=False):
    """`mbsolve --tree -f deck` if `tree`, else `mbsolve --quiet -f deck -o work/prefix` (with
    `--analysis analysis` if given); returns (output prefix, completed process)."""
    out = os.path.join(work, prefix or 'tree')
    args = ['--tree', '-f', deck] if tree else ['--quiet', '-f', deck, '-o', out]
    if analysis and not tree:
        args += ['--analysis', analysis]
    return out, mbsolve(exe, args, defines, expect)


def refused(exe, work, deck, pattern, what):
    """Check `what`: `mbsolve --analysis reduced-dynamics` refuses `deck` with exit status 2 and an
    error on stderr matching the regular expression `pattern` (file:line:col, the joint named)."""
    _, p = run(exe, work, deck, 'bad', 'reduced-dynamics', expect=2)
    ok = re.search(pattern, p.stderr) is not None
    close(what, 1 if ok else 0, 1, 0)
    if not ok:
        print(p.stderr)


def rk4_step(f, t, y, h):
    """One classic RK4 step of y' = f(t, y) from t to t + h."""
    k1 = f(t, y)
    k2 = f(t + h / 2, y + h / 2 * k1)
    k3 = f(t + h / 2, y + h / 2 * k2)
    k4 = f(t + h, y + h * k3)
    return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
