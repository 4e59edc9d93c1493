"""Helpers for regression checks: run mbsolve, read MBDyn-style text output, compare numbers.

Usage from regression/<name>/check.py:
    import sys, os; sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
    from mbs_check import Run, close
"""
import atexit
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(os.path.dirname(HERE), 'input-examples')

failures = []
# The 'ok' lines of close(), printed by finish(): a failure (a FAIL line, an mbsolve run with an
# unexpected exit code) is printed at once, so it comes first in the test's output (CI shows only
# its beginning), and the passed checks follow it.
_passed = []


def _flush_passed():
    for line in _passed:
        print(line)
    _passed.clear()


atexit.register(_flush_passed)  # a check that ends by an exception still shows what passed


class Run:
    """One mbsolve run of `deck` with -D definitions; outputs under work/prefix."""

    def __init__(self, exe, deck, work, prefix, defines=None, expect_rc=0, extra=(), quiet=True):
        """quiet=False keeps the warnings (in self.stderr) for the check to read."""
        self.prefix = os.path.join(work, prefix)
        cmd = [exe, *(['--quiet'] if quiet else []), '-f', deck, '-o', self.prefix, *extra]
        for k, v in (defines or {}).items():
            cmd += ['-D', f'{k}={v}']
        p = subprocess.run(cmd, capture_output=True, text=True)
        self.rc, self.stdout, self.stderr = p.returncode, p.stdout, p.stderr
        if p.returncode != expect_rc:
            print(f'FAIL mbsolve exited with {p.returncode}, expected {expect_rc}: {" ".join(cmd)}')
            print('stderr:', p.stderr[-4000:])
            print('stdout:', p.stdout[-2000:])
            _flush_passed()
            sys.exit(f'mbsolve exited with {p.returncode}, expected {expect_rc}')

    def rows(self, ext, label):
        """The rows of entity `label` in prefix.<ext> (label in column 0), one per output step.
        Lines of other entities may have other lengths."""
        out = []
        with open(self.prefix + '.' + ext) as f:
            for line in f:
                w = line.split()
                if w and not w[0].startswith('#') and int(w[0]) == label:
                    out.append([float(v) for v in w])
        return np.array(out)

    def times(self):
        """Simulated time of each output step, from the .out log."""
        t = []
        with open(self.prefix + '.out') as f:
            for line in f:
                w = line.split()
                if w and w[0] == 'Step' and w[-1] == '1':
                    t.append(float(w[2]))
        return np.array(t)


def mov_positions(path):
    """{label: (T, 3) positions} of every node in a .mov file."""
    rows = {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if w:
                rows.setdefault(int(w[0]), []).append([float(v) for v in w[1:4]])
    return {k: np.array(v) for k, v in rows.items()}


def rot(axis, a):
    """Rotation by angle a (rad) about global axis 0, 1 or 2."""
    c, s = np.cos(a), np.sin(a)
    i, j = [(1, 2), (2, 0), (0, 1)][axis]
    r = np.eye(3)
    r[i, i], r[i, j], r[j, i], r[j, j] = c, -s, s, c
    return r


def skew(v):
    """Cross-product matrix: skew(v) @ w = v x w."""
    return np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])


def expm(v):
    """Rotation matrix of the rotation vector v (Rodrigues)."""
    a = np.linalg.norm(v)
    if a == 0.0:
        return np.eye(3)
    k = skew(v / a)
    return np.eye(3) + np.sin(a) * k + (1 - np.cos(a)) * k @ k


def euler123(deg):
    """Orientation matrix of MBDyn's Euler 123 angles in degrees (the .mov default)."""
    a = np.radians(deg)
    return rot(0, a[0]) @ rot(1, a[1]) @ rot(2, a[2])


def close(what, value, reference, tol, relative=False):
    """Records a failure if |value - reference| (relative if asked) exceeds tol; prints a line."""
    err = abs(value - reference)
    if relative:
        err /= abs(reference)
    ok = err <= tol
    line = (f"{'ok  ' if ok else 'FAIL'} {what}: {value:.12g} vs {reference:.12g} "
            f"({'rel' if relative else 'abs'} err {err:.3g}, tol {tol:.3g})")
    if ok:
        _passed.append(line)
    else:
        print(line)
        failures.append(what)
    return ok


def expect(what, ok, detail=''):
    """Records a failure if ok is false (with detail, e.g. the output that was wrong); prints a line."""
    if ok:
        _passed.append(f'ok   {what}')
    else:
        print(f'FAIL {what}' + (f': {detail}' if detail else ''))
        failures.append(what)
    return ok


def finish():
    _flush_passed()
    if failures:
        sys.exit(f'{len(failures)} check(s) failed: ' + ', '.join(failures))
    print('all checks passed')
