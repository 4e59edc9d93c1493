"""The C parse API of modules (test module modules/test/parse_probe.c, which logs what it read).

Values: `module load: "parse_probe", <integer>, <bool>, <string>, {alpha|beta}, <Vec3>,
<Mat3x3>, <orientation>, <position>;` with expressions, a `matr` matrix and `reference, 7`
frames; the element `law spring` reads node-relative data (`reference, global` converted into
the node's frame). Expected values are worked out by hand below (reference 7: x = (1, 2, 3),
R = Rz(90deg); node 1: R = Rz(90deg)) and compared to 1e-15.
Errors: a string where an integer is expected (a real is truncated with a warning), a bad bool, an unknown keyword (with the choices),
a 1D law where the element reads a 3D one, too many arguments: exit 2 at the argument's
file:line:col.
Tolerances (issue 23): each close() below is within 2-10x of the error observed when it was
set (Release build), stated in the comment beside it (a floor of a few ulps or 1e-15 where
the observed error is 0 or far below round-off); where a figure above is larger, it is the
bound the physics or the solver tolerance allows, not the tolerance checked.
"""
import os
import re
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import close, failures, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
os.environ['MBSOLVE_MODULE_PATH'] = os.path.normpath(
    os.path.join(os.path.dirname(exe), '..', 'lib', 'mbsolve', 'abi_test'))

HEAD = """begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-3; end: initial value;
begin: control data; structural nodes: 1; loadable elements: 1; end: control data;
reference: 7, 1., 2., 3., euler123, 0., 0., pi/2;
"""
ARGS = ('2 + 1, yes, "text", beta, 1., 2., 3., matr, 1., 2., 3., 4., 5., 6., 7., 8., 9., '
        'reference, 7, euler123, 0., 0., pi/2, reference, 7, 1., 0., 0.')
ELEMS = """begin: nodes;
    structural: 1, static, null, euler123, 0., 0., pi/2, null, null;
end: nodes;
begin: elements;
    constitutive law: 5, 1, linear elastic, 10.;
    user defined: 1, law spring, 1, offset, reference, global, 1., 0., 0.,
        frame, reference, global, eye, anchor, null, {LAW}, gain, const, 1.;
end: elements;
"""
GOOD_LAW = 'linear elastic isotropic, 10.'


def run(name, text):
    deck = os.path.join(work, name + '.mbd')
    with open(deck, 'w') as f:
        f.write(text)
    p = subprocess.run([exe, '--check', deck], capture_output=True, text=True)
    return deck, p


deck, p = run('values', HEAD + f'module load: "parse_probe", {ARGS};\n' + ELEMS.format(LAW=GOOD_LAW))
if p.returncode != 0:
    print(p.stderr)
    sys.exit('the probe deck failed')
log = {}
for line in p.stderr.splitlines():
    m = re.match(r'mbsolve: module libparse_probe.so: probe (\w+):? (.*)', line)
    if m:
        log[m.group(1)] = m.group(2)
print(log)
close('integer "2 + 1" and bool "yes", string, keyword index',
      float(log.get('integer') == '3 bool 1 string text keyword 1'), 1.0, 0)


def vec(key):
    return np.array([float(v) for v in log[key].split()])


Rz = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
close('vec3', np.abs(vec('vec3') - [1, 2, 3]).max(), 0.0, 0)
close('mat3x3 (matr, row-major)', np.abs(vec('mat3x3') - np.arange(1, 10)).max(), 0.0, 0)
close('orientation (reference 7, euler123 0 0 pi/2): Rz(pi)', np.abs(vec('orientation') - (Rz @ Rz).ravel()).max(),
      0.0, 1e-15)
close('position (reference 7, (1, 0, 0)): (1, 3, 3)', np.abs(vec('position') - [1, 3, 3]).max(), 0.0, 1e-15)
close('element offset (reference global (1,0,0)) in node frame: (0, -1, 0)',
      np.abs(vec('offset') - [0, -1, 0]).max(), 0.0, 3e-16)  # observed 6.1e-17
close('element frame (reference global eye) in node frame: Rz^T', np.abs(vec('frame') - Rz.T.ravel()).max(), 0.0,
      3e-16)  # observed 6.1e-17


def expect_error(name, text, token, fragment, nth=1):
    pos = -1
    for _ in range(nth):
        pos = text.index(token, pos + 1)
    line = text.count('\n', 0, pos) + 1
    col = pos - (text.rfind('\n', 0, pos) + 1) + 1
    deck, p = run(name, text)
    where = f'{deck}:{line}:{col}: error:'
    ok = p.returncode == 2 and where in p.stderr and fragment in p.stderr
    print(f"{'ok  ' if ok else 'FAIL'} {name}: exit {p.returncode}, expected {where} ... {fragment!r}")
    if not ok:
        print(p.stderr)
        failures.append(name)


def probe(args, law=GOOD_LAW):
    return HEAD + f'module load: "parse_probe", {args};\n' + ELEMS.format(LAW=law)


expect_error('integer', probe(ARGS.replace('2 + 1', '"three"')), '"three"', 'integer')
expect_error('bool', probe(ARGS.replace('yes', '"maybe"')), '"maybe"', 'bool')
expect_error('keyword', probe(ARGS.replace('beta', 'gamma')), 'gamma', 'one of alpha, beta')
expect_error('law_dimension', probe(ARGS, 'reference, 5'), '5, gain', 'dimension')
expect_error('too_many', probe(ARGS + ', 4.'), '4.;', "module 'libparse_probe.so' did not read this argument")
# A real where an integer is expected is truncated with a warning, as in built-in cards.
deck, p = run('integer_real', probe(ARGS.replace('2 + 1', '2.5')))
close('integer given 2.5: warning at its location, value 2', float(
    p.returncode == 0 and f'{deck}:5:29: warning: integer: real value 2.5 truncated' in p.stderr and
    'probe integer 2 ' in p.stderr), 1.0, 0)
finish()
