"""MBDyn's `eigenanalysis` card on the full (absolute-coordinate) model, against independent
references (solvers/dae/eigenanalysis.cpp, docs/output.md 6).

  Double pendulum (input-examples/eigenanalysis_double_pendulum.mbd) hanging at rest, analyses at
  t = 0 and t = T2: the 4 eigenvalues +-i w equal
    - the closed form, w^2 the roots of det(K - w^2 M) = 0, M = [[(m1+m2) l1^2, m2 l1 l2],
      [m2 l1 l2, m2 l2^2]], K = diag((m1+m2) g l1, m2 g l2), and
    - mbsolve's relative-coordinate modal analysis (--analysis modal on
      input-examples/reduced_double_pendulum.mbd with the same parameters, finite-difference
      linearization),
  both within 1e-9 relative (frequency; observed 1.4e-10 and 1.6e-10), real parts 0 within 1e-14
  |lambda| (observed 1e-28); the first mode's amplitude ratio x3/x2 = 1 + (l2/l1) v2/v1 (v the
  closed-form eigenvector) within 1e-9 (2e-10); for the default and an unequal case (l1 = 1.2,
  l2 = 0.7, m1 = 2, m2 = 0.5).
  Cantilever of NE beam3 elements (lumped masses and rotary inertias as in
  input-examples/beam_cantilever_vibration.mbd, deck written here): the first three bending
  frequencies (each twice: the y and z planes) against Euler-Bernoulli, w_n = (beta_n L)^2
  sqrt(EJ / (mu L^4)), and the first axial one against (pi / 2) sqrt(EA / mu) / L, for NE = 10,
  20, 40 (shear stiffness GA = 1e10 so that the Timoshenko correction stays below 1e-5): errors
  from 1.2e-2 (mode 3, NE = 10) down to 1.0e-4 (mode 1, NE = 40), stated below with the
  tolerances, and the error falls by 4 (3.92 to 4.04) per halving of the elements: second order,
  the lumped inertia's.
  Degenerate decks (exit 0, a note, an empty table): every coordinate clamped; static nodes only
  (no inertia: every eigenvalue infinite); a free body (six rigid-body modes: 12 eigenvalues 0).
  Refusals (exit 2 at the card): NetCDF output with the card; the card with --analysis modal.
"""
import math
import os
import re
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, failures, finish  # noqa: E402
from reduced_util import read_modal  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]


def same(what, value, reference):
    """Records a failure unless value == reference (counts, flags)."""
    ok = value == reference
    print(f"{'ok  ' if ok else 'FAIL'} {what}: {value} vs {reference}")
    if not ok:
        failures.append(what)


def read_m(path):
    """The matrices of an eigenanalysis .m file: {name: rows}, rows of floats or complex."""
    out, name, rows = {}, None, []
    for line in open(path):
        s = line.strip()
        if not s or s.startswith('%'):
            continue
        m = re.match(r'(\w+) = \[(.*)$', s)
        if m and name is None:
            name, rest = m.group(1), m.group(2).strip()
            rows = []
            if rest.endswith('];'):  # one-line matrix
                body = rest[:-2].strip()
                out[name] = [[float(v) for v in body.split()]] if body else []
                name = None
            continue
        m = re.match(r'(\w+) = (.*);$', s)
        if m and name is None:
            out[m.group(1)] = float(m.group(2))
            continue
        if s == '];':
            out[name] = rows
            name = None
            continue
        rows.append([complex(v.replace('i', 'j')) if 'i' in v else float(v)
                     for v in s.rstrip(';').split()])
    return out


def header(path):
    """The counts of the header line: unknowns, momenta, multipliers, coordinates, infinite."""
    text = open(path).read()
    m = re.search(r'% (\d+) unknowns: (\d+) momenta and (\d+) multipliers eliminated', text)
    k = re.search(r'% (\d+) independent coordinates: (\d+) eigenvalues, (\d+) infinite', text)
    return [int(v) for v in m.groups()] + [int(k.group(1)), int(k.group(3))]


def double_pendulum_closed(l1, l2, m1, m2, g):
    M = np.array([[(m1 + m2) * l1 ** 2, m2 * l1 * l2], [m2 * l1 * l2, m2 * l2 ** 2]])
    K = np.diag([(m1 + m2) * g * l1, m2 * g * l2])
    w2, v = np.linalg.eig(np.linalg.solve(M, K))
    i = np.argsort(w2)
    return np.sqrt(w2[i]), v[:, i]


g = 9.81
for case, p in (('equal', dict(L1=1.0, L2=1.0, M1=1.0, M2=1.0)),
                ('unequal', dict(L1=1.2, L2=0.7, M1=2.0, M2=0.5))):
    w, v = double_pendulum_closed(p['L1'], p['L2'], p['M1'], p['M2'], g)
    red = Run(exe, os.path.join(EXAMPLES, 'reduced_double_pendulum.mbd'), work, 'red_' + case, p,
              extra=['--analysis', 'modal'])
    rows, _, _ = read_modal(red.prefix + '.modal')
    f_red = sorted(r[3] for r in rows)
    full = Run(exe, os.path.join(EXAMPLES, 'eigenanalysis_double_pendulum.mbd'), work,
               'dp_' + case, p)
    for k in (0, 1):
        path = f'{full.prefix}_{k}.m'
        m = read_m(path)
        same(f'{case} t{k}: header (unknowns, momenta, multipliers, coordinates, infinite)',
             header(path), [46, 12, 16, 2, 0])
        lam = m['lambda']
        same(f'{case} t{k}: 4 eigenvalues', len(lam), 4)
        f_full = sorted(r[2] for r in lam)
        for j, f in enumerate(f_full):
            # observed up to 1.4e-10 (closed form) and 1.6e-10 (relative coordinates)
            close(f'{case} t{k}: frequency {j} vs closed form', f, w[j // 2] / (2 * math.pi), 1e-9,
                  relative=True)
            close(f'{case} t{k}: frequency {j} vs --analysis modal', f, f_red[j], 1e-9,
                  relative=True)
        for r in lam:  # observed 1e-28 (rounding)
            close(f'{case} t{k}: real part / |lambda|', r[0] / math.hypot(r[0], r[1]), 0.0, 1e-14)
            close(f'{case} t{k}: damping ratio', r[3], 0.0, 1e-14)
        # MBDyn's alpha: z = (1 + dCoef lambda) / (1 - dCoef lambda), |z| = 1 for imaginary lambda
        for a in m['alpha']:
            close(f'{case} t{k}: |alpha| (MBDyn z)', math.hypot(a[0], a[1]), 1.0, 1e-15)  # 1.1e-16
        # first mode: node 2 (mass 1) and node 3 (mass 2) x displacements, rows 6 and 12 of VR
        i1 = min(range(4), key=lambda i: abs(lam[i][1]))
        vr = m['VR']
        ratio = vr[12][i1] / vr[6][i1]
        ref = 1 + (p['L2'] / p['L1']) * v[1, 0] / v[0, 0]
        # observed 2e-10 and 6e-28
        close(f'{case} t{k}: mode 1 amplitude ratio x3/x2', ratio.real, ref, 1e-9, relative=True)
        close(f'{case} t{k}: mode 1 in phase', ratio.imag, 0.0, 1e-14)
        same(f'{case} t{k}: nodes', m['nodes'][0], [1, 2, 3])

# --- Cantilever beam3 -----------------------------------------------------------------------------
L, MU, EA, GA, GJ, EJ = 1.0, 1.0, 1.0e7, 1.0e10, 1.0e3, 1.0e3
BETA_L = [1.87510406871196, 4.69409113297418, 7.85475743823761]


def cantilever(ne):
    """A clamped-free beam along x of ne beam3 elements with lumped inertia, at rest."""
    h = L / (2 * ne)
    mn, jn = MU * h, MU * h * h * h / 12
    nodes = ['    structural: 0, static, 0., 0., 0., eye, null, null;']
    nodes += [f'    structural: {i}, dynamic, {i * h!r}, 0., 0., eye, null, null;'
              for i in range(1, 2 * ne + 1)]
    els = ['    joint: 1, clamp, 0, node, node;']
    for i in range(1, 2 * ne + 1):
        f = 0.5 if i == 2 * ne else 1.0
        els.append(f'    body: {i}, {i}, {f * mn!r}, null, diag, {f * jn!r}, {f * jn!r}, {f * jn!r};')
    for e in range(1, ne + 1):
        els.append(f'    beam3: {e}, {2 * e - 2}, null, {2 * e - 1}, null, {2 * e}, null, eye,\n'
                   f'        linear elastic generic, diag, {EA}, {GA}, {GA}, {GJ}, {EJ}, {EJ},\n'
                   '        same, same;')
    deck = f"""begin: data; problem: initial value; end: data;
begin: initial value;
    initial time: 0.; final time: 1.e-4; time step: 1.e-4;
    tolerance: 1.e-6; max iterations: 20;
    eigenanalysis: 0., upper frequency limit, 2000.;
end: initial value;
begin: control data;
    structural nodes: {2 * ne + 1}; rigid bodies: {2 * ne}; beams: {ne}; joints: 1;
end: control data;
begin: nodes;
{chr(10).join(nodes)}
end: nodes;
begin: elements;
{chr(10).join(els)}
end: elements;
"""
    path = os.path.join(work, f'cantilever_{ne}.mbd')
    with open(path, 'w') as fh:
        fh.write(deck)
    r = Run(exe, path, work, f'cantilever_{ne}')
    lam = read_m(r.prefix + '_0.m')['lambda']
    return sorted(row[2] for row in lam)


w_ref = [b * b * math.sqrt(EJ / (MU * L ** 4)) / (2 * math.pi) for b in BETA_L]
f_axial = 0.5 * math.pi * math.sqrt(EA / MU) / L / (2 * math.pi)
errors = {}
# Tolerances: 1.5 x the observed relative errors (bending modes 1-3, axial), which are
#   NE=10: -1.669e-3 -6.646e-3 -1.207e-2, axial -1.538e-4
#   NE=20: -4.181e-4 -1.676e-3 -3.077e-3, axial -3.843e-5
#   NE=40: -1.034e-4 -4.212e-4 -7.759e-4, axial -9.608e-6
# (the lumped inertia's O(H^2); with GA = 1e10 the shear flexibility adds < 1e-5 for mode 3).
tol = {10: [2.5e-3, 1.0e-2, 1.8e-2, 2.3e-4], 20: [6.3e-4, 2.5e-3, 4.6e-3, 5.8e-5],
       40: [1.6e-4, 6.3e-4, 1.2e-3, 1.5e-5]}
for ne in (10, 20, 40):
    f = cantilever(ne)
    # eigenvalues come in conjugate pairs, each bending mode in two planes: 4 per mode
    bend = [f[4 * n] for n in range(3)]
    for n in range(3):
        close(f'cantilever NE={ne}: bending mode {n + 1}, y and z planes equal',  # observed 0
              f[4 * n + 2], f[4 * n], 1e-12, relative=True)
    axial = min((x for x in f if abs(x - f_axial) < 0.05 * f_axial), key=lambda x: abs(x - f_axial))
    errs = [b / r - 1 for b, r in zip(bend, w_ref)] + [axial / f_axial - 1]
    errors[ne] = errs
    print(f'cantilever NE={ne}: relative errors bending 1-3 ' +
          ' '.join(f'{e:.3e}' for e in errs[:3]) + f', axial {errs[3]:.3e}')
    for n, (e, t) in enumerate(zip(errs, tol[ne])):
        close(f'cantilever NE={ne}: mode {n + 1} ({"axial" if n == 3 else "bending"}) error',
              e, 0.0, t)
for n in range(4):
    for a, b in ((10, 20), (20, 40)):
        rate = errors[a][n] / errors[b][n]
        # observed 3.92 to 4.04
        close(f'cantilever mode {n + 1}: error ratio NE={a}/NE={b} (second order: 4)', rate, 4.0,
              0.2)

# --- Degenerate decks --------------------------------------------------------------------------
def small_deck(name, nodes, elements, counts):
    text = f"""begin: data; problem: initial value; end: data;
begin: initial value;
    initial time: 0.; final time: 1.e-3; time step: 1.e-3; tolerance: 1.e-9; max iterations: 10;
    eigenanalysis: 0., output eigenvectors;
end: initial value;
begin: control data; {counts} end: control data;
begin: nodes; {nodes} end: nodes;
begin: elements; {elements} end: elements;
"""
    path = os.path.join(work, name + '.mbd')
    with open(path, 'w') as fh:
        fh.write(text)
    return path


clamped = small_deck('clamped', 'structural: 1, dynamic, null, eye, null, null;',
                     'joint: 1, clamp, 1, node, node; body: 1, 1, 2., null, eye;',
                     'structural nodes: 1; rigid bodies: 1; joints: 1;')
r = Run(exe, clamped, work, 'clamped')
same('all clamped: note', 'no free degree of freedom' in r.stderr, True)
m = read_m(r.prefix + '_0.m')
same('all clamped: empty table', len(m['lambda']), 0)
same('all clamped: header', header(r.prefix + '_0.m'), [18, 6, 6, 0, 0])

massless = small_deck('massless', 'structural: 1, static, null, eye, null, null; '
                      'structural: 2, static, 1., 0., 0., eye, null, null;',
                      'joint: 1, clamp, 1, node, node; '
                      'beam2: 1, 1, null, 2, null, eye, linear elastic generic, '
                      'diag, 1.e6, 1.e6, 1.e6, 1.e3, 1.e3, 1.e3;',
                      'structural nodes: 2; joints: 1; beams: 1;')
r = Run(exe, massless, work, 'massless')
same('no inertia: note', 'every eigenvalue is infinite' in r.stderr, True)
same('no inertia: empty table', len(read_m(r.prefix + '_0.m')['lambda']), 0)
same('no inertia: header', header(r.prefix + '_0.m'), [18, 0, 6, 6, 12])

free = small_deck('free_body', 'structural: 1, dynamic, null, eye, null, null;',
                  'body: 1, 1, 2., null, diag, 1., 2., 3.;', 'structural nodes: 1; rigid bodies: 1;')
r = Run(exe, free, work, 'free_body')
lam = read_m(r.prefix + '_0.m')['lambda']
same('free body: 12 eigenvalues', len(lam), 12)
close('free body: all zero', max(abs(x[0]) + abs(x[1]) for x in lam), 0.0, 1e-12)  # observed 0

# --- Refusals -------------------------------------------------------------------------------------
dp = os.path.join(EXAMPLES, 'eigenanalysis_double_pendulum.mbd')
for name, extra, frag in (('netcdf', ['--format', 'netcdf'], 'eigenanalysis results in NetCDF'),
                          ('modal', ['--analysis', 'modal'], "'eigenanalysis' belongs to")):
    r = Run(exe, dp, work, 'refuse_' + name, expect_rc=2, extra=extra)
    same(f'refused with {name}: message at the card',
         frag in r.stderr and 'eigenanalysis_double_pendulum.mbd:51:5: error' in r.stderr, True)

finish()
