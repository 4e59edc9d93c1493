"""PREFIX.log and PREFIX.nc in MBDyn's formats, for every input example (MBDyn's tools work).

What is checked, deck by deck (input-examples/*.mbd, run with `--format text,netcdf`; decks that
run longer than RUN_SECONDS are stopped with SIGINT, which completes every file):
  .log  read with a parser written from MBDyn's formats (struct/strnode.cc, struct/joint.cc,
        struct/body.cc, struct/beam.cc, struct/strforce.cc; docs/output.md 1.1): every
        structural node of `--dump-model` has its `structural node:` line, its position and
        orientation (in the node's description: euler123/313/321 degrees, phi, mat) equal to the
        deck's to the 6 digits of the line; every joint, body, beam, rod and structural force has
        MBDyn's line for its kind with the deck's node labels, offsets and hinge orientations
        (body: mass, centre of mass, inertia); an element without an MBDyn line keeps mbsolve's
        "<category>: <label> <type>".
  .nc   node.struct (label array) holds the nodes with output, each node.struct.<L> has the
        `type` attribute and X whose first row equals the .mov's; elem.joint holds the joints,
        each elem.joint.<L> has MBDyn's type name and the joint's own variables (E, Omega, X, Phi,
        V, l, lP, v, d, dPrime) with MBDyn's units, equal to the .jnt columns they come from
        (to the .jnt's 6 digits); elem.beam, elem.force likewise hold the beams, forces and
        couples.
Then, when MBDyn is installed (/work/mbdyn/bin/mbdyn; CI has none: skipped with a message),
MBDyn runs pendulum, pendulum_joints, four_bar and cardano_shafts and its .log lines before
"struct node dofs" must equal ours field by field (numbers to 1e-5 relative; MBDyn prints -0).
Skipped decks and why are listed in SKIP.
"""
import glob
import os
import re
import signal
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, failures, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
RUN_SECONDS = 2.0
MBDYN = '/work/mbdyn/bin/mbdyn'
# Decks this build cannot read (a module not built) are skipped below.
SKIP = {'eigenanalysis_double_pendulum': 'its eigenanalysis card is refused with NetCDF output '
        '(the modes are not written there yet); regression/eigenanalysis runs it'}
checks = 0
VERBOSE = os.environ.get('MBS_VERBOSE') == '1'  # print every check


def fail(what):
    print('FAIL', what)
    failures.append(what)


def ok(cond, what):
    global checks
    checks += 1
    if VERBOSE:
        print('ok  ' if cond else 'FAIL', what)
    if not cond:
        fail(what)
    return cond


def near(a, b, rel=2e-5, abs_=2e-5):
    a, b = np.asarray(a, float), np.asarray(b, float)
    return a.shape == b.shape and bool(np.all(np.abs(a - b) <= abs_ + rel * np.abs(b)))


# --- --dump-model reader -------------------------------------------------------------------------
def parse_value(s):
    s = s.strip()
    if s.startswith('[') and s.endswith(']'):
        rows = [r.split() for r in s[1:-1].split(';')]
        a = np.array([[float(x) for x in r] for r in rows])
        return a[0] if a.shape[0] == 1 else a
    m = re.fullmatch(r'([a-z]+) (-?\d+)', s)
    if m:
        return (m.group(1), int(m.group(2)))
    if s.startswith('"') and s.endswith('"'):
        return s[1:-1]
    try:
        return float(s)
    except ValueError:
        return s


def dump_model(deck):
    """(nodes, elements, problem) of the deck, or the reason it cannot be read."""
    p = subprocess.run([exe, '--quiet', '--dump-model', deck], capture_output=True, text=True)
    if p.returncode != 0:
        return (p.stderr.strip().splitlines() or ['exit %d' % p.returncode])[0]
    problem = re.search(r'^problem: (.*)$', p.stdout, re.M)
    od = re.search(r'^  default orientation = "(.*)"$', p.stdout, re.M)
    nodes, elems, cur = [], [], None
    for line in p.stdout.splitlines():
        m = re.match(r'^(node|element) (\S+) (-?\d+)(.*)$', line)
        if m:
            rest = m.group(4).strip()
            out = 'output=no' not in rest
            rest = rest.replace('output=no', '').strip()
            cur = {'category': m.group(2), 'label': int(m.group(3)), 'type': rest, 'output': out,
                   'props': {}}
            (nodes if m.group(1) == 'node' else elems).append(cur)
        elif cur is not None and line.startswith('  ') and ' = ' in line:
            k, v = line.strip().split(' = ', 1)
            cur['props'][k] = parse_value(v)
        elif not line.startswith(' '):
            cur = None
    return nodes, elems, problem.group(1) if problem else '', od.group(1) if od else 'euler123'



# --- .log reader (MBDyn's formats) -----------------------------------------------------------------
TWO_ENDS = {'clamp', 'sphericalhinge', 'revolutehinge', 'revoluterotation', 'axialrotation',
            'cardanohinge', 'cardanorotation', 'prismatic', 'deformablehinge',
            'deformabledisplacementjoint', 'deformableaxialjoint', 'deformablejoint', 'inline',
            'inplane', 'sphericalpin', 'revolutepin', 'cardanopin', 'brake', 'gimbalrotation'}
POINT_PAIRS = {'distance', 'rod', 'drivedisplacement'}


def read_log(path):
    """keyword -> {label: fields}; node lines: label -> (x, od, values)."""
    out = {'nodes': {}, 'lines': {}, 'other': {}}
    for line in open(path):
        line = line.rstrip('\n')
        if line.startswith('struct node dofs'):
            break
        if ':' not in line:
            continue
        key, rest = line.split(':', 1)
        w = rest.split()
        if key in ('structural node', 'relative frame structural node'):
            lab = int(w[0])
            x = [float(v) for v in w[1:4]]
            od = w[4] if len(w) > 4 else None
            out['nodes'][lab] = (x, od, [float(v) for v in w[5:]])
        elif key in ('output frequency',):
            continue
        else:
            try:
                lab = int(w[0])
            except (IndexError, ValueError):
                continue
            out['lines'].setdefault(key, {})[lab] = w[1:]
    return out


def mat(v):
    return np.asarray(v, float).reshape(3, 3)


def euler123_to_matrix(d):
    a, b, c = np.radians(d)
    rx = np.array([[1, 0, 0], [0, np.cos(a), -np.sin(a)], [0, np.sin(a), np.cos(a)]])
    ry = np.array([[np.cos(b), 0, np.sin(b)], [0, 1, 0], [-np.sin(b), 0, np.cos(b)]])
    rz = np.array([[np.cos(c), -np.sin(c), 0], [np.sin(c), np.cos(c), 0], [0, 0, 1]])
    return rx @ ry @ rz


def euler_generic(d, axes):
    r = np.eye(3)
    for ang, ax in zip(np.radians(d), axes):
        c, s = np.cos(ang), np.sin(ang)
        i, j = [(1, 2), (2, 0), (0, 1)][ax]
        m = np.eye(3)
        m[i, i], m[i, j], m[j, i], m[j, j] = c, -s, s, c
        r = r @ m
    return r


def phi_to_matrix(v):
    v = np.asarray(v, float)
    a = np.linalg.norm(v)
    if a == 0:
        return np.eye(3)
    k = np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]]) / a
    return np.eye(3) + np.sin(a) * k + (1 - np.cos(a)) * k @ k


def node_line_matrix(od, vals):
    if od == 'euler123':
        return euler123_to_matrix(vals)
    if od == 'euler313':
        return euler_generic(vals, (2, 0, 2))
    if od == 'euler321':
        return euler_generic(vals, (2, 1, 0))
    if od == 'phi':
        return phi_to_matrix(vals)
    if od == 'mat':
        return mat(vals)
    return None


def nums(ws):
    return [float(x) for x in ws]


ZERO, EYE = np.zeros(3), np.eye(3)


def expected_line(e, nodes):
    """(keyword, [expected fields as numbers]) of MBDyn's line for dump element e, or None.
    nodes: label -> dump node (the pins' ground point goes to the node's frame)."""
    t, p, c = e['type'], e['props'], e['category']

    def nl(k):
        return p[k][1]

    def v(k):
        return np.asarray(p.get(k, ZERO), float)

    def m(k):
        return np.asarray(p.get(k, EYE), float)

    def two(kw, offsets=True, orient=True):
        f = []
        for s in '12':
            f += [nl('node' + s), *(v('offset' + s) if offsets else ZERO)]
            f += list((m('orientation' + s) if orient else EYE).ravel())
        return kw, f
    if c == 'body':
        return 'body', [nl('node'), p.get('mass', 0.0), *v('center of mass'),
                        *np.asarray(p.get('inertia', np.zeros((3, 3))), float).ravel()]
    if c in ('beam3', 'beam2'):
        f = []
        for s in ('1', '2', '3')[:3 if c == 'beam3' else 2]:
            f += [nl('node' + s), *v('offset' + s)]
        return c, f
    if c in ('force', 'couple') and not t.startswith(('total', 'abstract')):
        internal = 'internal' in t
        kw = 'structural' + (' internal' if internal else '')
        kw += ' follower' if t.startswith('follower') else ' absolute'
        if not t.startswith('follower') and 'displacement' in t:
            kw += ' displacement'
        kw += ' couple' if c == 'couple' else ' force'
        if internal:
            return kw, [nl('node1'), *v('offset1'), nl('node2'), *v('offset2')]
        return kw, [nl('node'), *v('offset')]
    if c != 'joint':
        return None
    table = {'spherical hinge': ('sphericalhinge', True, True),
             'revolute hinge': ('revolutehinge', True, True),
             'plane hinge': ('revolutehinge', True, True),
             'revolute rotation': ('revoluterotation', False, True),
             'axial rotation': ('axialrotation', True, True),
             'cardano hinge': ('cardanohinge', True, True),
             'universal hinge': ('cardanohinge', True, True),
             'cardano rotation': ('cardanorotation', False, True),
             'universal rotation': ('cardanorotation', False, True),
             'prismatic': ('prismatic', False, True),
             'deformable hinge': ('deformablehinge', True, True),
             'invariant deformable hinge': ('deformablehinge', True, True),
             'deformable displacement joint': ('deformabledisplacementjoint', True, True),
             'deformable displacement hinge': ('deformabledisplacementjoint', True, True),
             'invariant deformable displacement joint': ('deformabledisplacementjoint', True, True),
             'deformable axial joint': ('deformableaxialjoint', True, True),
             'deformable joint': ('deformablejoint', True, True),
             'invariant deformable joint': ('deformablejoint', True, True)}
    if t in table:
        return two(*table[t])
    if t == 'clamp':
        n = nl('node')
        return 'clamp', [n, *ZERO, *EYE.ravel(), n, *ZERO, *EYE.ravel()]
    if t == 'in line':
        return 'inline', [nl('node1'), *v('offset1'), *m('orientation1').ravel(),
                          nl('node2'), *v('offset2'), *EYE.ravel()]
    if t in ('distance', 'distance with offset', 'rod', 'rod with offset'):
        return ('distance' if t.startswith('distance') else 'rod'), [
            nl('node1'), *v('offset1'), nl('node2'), *v('offset2')]
    if t in ('spherical pin', 'pin'):
        n = nl('node')
        return 'sphericalpin', [n, *v('offset'), *EYE.ravel(), n, *v('offset'), *EYE.ravel()]
    if t in ('revolute pin', 'plane pin', 'cardano pin', 'universal pin'):
        n = nl('node')
        x = np.asarray(nodes[n]['props']['position'], float)
        R = np.asarray(nodes[n]['props']['orientation'], float)
        kw = 'revolutepin' if t in ('revolute pin', 'plane pin') else 'cardanopin'
        return kw, [n, *v('offset'), *m('hinge orientation').ravel(), n,
                    *(R.T @ (v('position') - x)), *(m('orientation') @ R.T).ravel()]
    if t in ('total joint', 'imposed displacement', 'imposed orientation'):  # MBDyn: TotalJoint
        f = []
        for s in '12':
            f += [nl('node' + s), *v('offset' + s), *m('position orientation' + s).ravel(),
                  *m('rotation orientation' + s).ravel()]
        return 'totaljoint', f + flags(p)
    if t in ('total pin joint', 'imposed displacement pin'):  # the latter without flags in MBDyn
        return 'totalpinjoint', [nl('node'), *v('offset'), *m('position orientation').ravel(),
                                 *m('rotation orientation').ravel(), *v('position'),
                                 *m('ground position orientation').ravel(),
                                 *m('ground rotation orientation').ravel()] + (
                                     flags(p) if t == 'total pin joint' else [])
    if t == 'drive displacement':
        return 'drivedisplacement', [nl('node1'), *v('offset1'), nl('node2'), *v('offset2')]
    if t == 'viscous body':
        return 'viscousbody', [nl('node'), *v('offset'), *m('hinge orientation').ravel()]
    if t in ('linear velocity', 'angular velocity', 'linear acceleration', 'angular acceleration'):
        return t.replace(' ', ''), [nl('node'), *v('direction')]
    return None   # in plane (MBDyn's own plane frame), ...: the label only (below)


def flags(p):
    def split(st, first):
        a, b = [], []
        for w in st.split(', '):
            a.append(1.0 if w in (first, 'active') else 0.0)
            b.append(1.0 if w not in (first, 'active', 'inactive') else 0.0)
        return a, b
    x, vv = split(p.get('status position', 'inactive, inactive, inactive'), 'position')
    r, w = split(p.get('status orientation', 'inactive, inactive, inactive'), 'rotation')
    return x + vv + r + w


# --- NetCDF expectations ---------------------------------------------------------------------------
NC_TYPE = {'in line': 'inline', 'plane hinge': 'revolute hinge', 'rod with offset': 'rod',
           'distance with offset': 'distance', 'total joint': 'total',
           'total pin joint': 'totalpin', 'imposed displacement': 'total',
           'imposed displacement pin': 'totalpin', 'imposed orientation': 'total',
           'universal hinge': 'cardano hinge',
           'universal rotation': 'cardano rotation', 'universal pin': 'cardano pin',
           'plane pin': 'revolute pin', 'invariant deformable hinge': 'deformable hinge',
           'deformable displacement joint': 'deformable displacement',
           'deformable displacement hinge': 'deformable displacement',
           'invariant deformable displacement joint': 'deformable displacement',
           'invariant deformable joint': 'deformable joint'}
# The joint's own variables: name -> (units, first .jnt column after the label (0-based)).
REV = {'E': ('deg', 12), 'Omega': ('radian/s', 15)}
OWN = {'revolute hinge': REV, 'revolute pin': REV, 'revolute rotation': REV,
       'spherical hinge': {'E': ('deg', 12)}, 'spherical pin': {'E': ('deg', 12)},
       'pin': {'E': ('deg', 12)},
       'cardano hinge': {'E': ('deg', 12)}, 'cardano rotation': {'E': ('deg', 12)},
       'cardano pin': {'E': ('deg', 12)},
       'axial rotation': {'E': ('deg', 12), 'Omega': ('radian/s', 16)},
       'total': {'X': ('m', 12), 'Phi': ('radian', 15), 'V': ('m/s', 18),
                 'Omega': ('radian/s', 21)},
       'rod': {'l': ('m', 12), 'lP': ('m/s', 16), 'v': ('-', 13)}}
OWN['totalpin'] = OWN['total']
# The types whose relative rotation (E above) follows the card's `orientation description`, else
# the control data's `default orientation`: E (deg), Phi (radian) or R (9 values, "-"); the
# columns after it move by 6 for R.
OD_TYPES = {'revolute hinge', 'revolute rotation', 'spherical hinge', 'cardano rotation',
            'axial rotation'}


def own_variables(e, t, default_od):
    """The joint's own NetCDF variables: name -> (units, first .jnt column after the label)."""
    own = OWN.get(t, {})
    if t not in OD_TYPES:
        return own
    od = e['props'].get('orientation description', default_od)
    name, units, shift = {'orientation vector': ('Phi', 'radian', 0),
                          'orientation matrix': ('R', '-', 6)}.get(od, ('E', 'deg', 0))
    return {(name if q == 'E' else q): ((units, c) if q == 'E' else (u, c + shift))
            for q, (u, c) in own.items()}


def jnt_rows(path):
    rows = {}
    if not os.path.exists(path):
        return rows
    for line in open(path):
        w = line.split()
        if w:
            rows.setdefault(int(w[0]), []).append([float(x) for x in w[1:]])
    return rows


def check_nc(name, prefix, nodes, elems, default_od):
    import netCDF4
    path = prefix + '.nc'
    if not ok(os.path.exists(path), f'{name}: .nc written'):
        return
    d = netCDF4.Dataset(path)
    V = d.variables
    out_nodes = [n['label'] for n in nodes if n['category'] == 'structural' and n['output']]
    if out_nodes:
        ok('node.struct' in V and sorted(V['node.struct'][:].tolist()) == sorted(out_nodes),
           f'{name}: node.struct labels {out_nodes}')
    mov = jnt_rows(prefix + '.mov')
    nrows = len(V['time'])
    for lab in out_nodes:
        v = f'node.struct.{lab}'
        ok(v in V and getattr(V[v], 'type', '') in ('static', 'dynamic', 'modal', 'dummy'),
           f'{name}: {v} with its type attribute')
        if nrows and lab in mov and ok(v + '.X' in V, f'{name}: {v}.X'):
            ok(near(V[v + '.X'][0], mov[lab][0][:3], 2e-5, 1e-5),
               f'{name}: {v}.X first row = .mov first row')
    joints = [e for e in elems if e['category'] == 'joint' and e['output']]
    jnt = jnt_rows(prefix + '.jnt')
    if 'elem.joint' in V:
        nc_joints = set(V['elem.joint'][:].tolist())
        ok(nc_joints <= {e['label'] for e in joints}, f'{name}: elem.joint labels are joints')
    else:
        nc_joints = set()
    for e in joints:
        lab = e['label']
        if lab not in nc_joints:
            continue   # no reaction (e.g. a velocity joint without multipliers): no NetCDF output
        v = f'elem.joint.{lab}'
        t = NC_TYPE.get(e['type'], e['type'])
        if not ok(v in V and getattr(V[v], 'type', None) == t, f'{name}: {v} type "{t}"'):
            continue
        for q in ('f', 'm', 'F', 'M'):
            ok(v + '.' + q in V, f'{name}: {v}.{q}')
        for q, (units, col) in own_variables(e, t, default_od).items():
            if not ok(v + '.' + q in V, f'{name}: {v}.{q}'):
                continue
            var = V[v + '.' + q]
            ok(var.units == units, f'{name}: {v}.{q} units {units}')
            if lab in jnt and nrows:
                ref = np.array(jnt[lab])
                n = int(np.prod(var.shape[1:]))  # R: (time, 3, 3), row-major as the .jnt
                val = np.asarray(var[:]).reshape(nrows, n)
                ok(ref.shape[0] == nrows and
                   near(val, ref[:, col:col + n], 2e-5, 1e-5 * (1 + np.abs(ref).max())),
                   f'{name}: {v}.{q} = .jnt columns {col + 2}-{col + 1 + n}')
    for cat, arr in (('beam3', 'elem.beam'), ('beam2', 'elem.beam')):
        labs = [e['label'] for e in elems if e['category'] == cat and e['output']]
        for lab in labs:
            ok(arr in V and lab in V[arr][:].tolist() and
               getattr(V.get(f'{arr}.{lab}'), 'type', '') in ('elastic', 'viscoelastic'),
               f'{name}: {arr}.{lab} listed with its type')
    d.close()


def check_log(name, prefix, nodes, elems, model_od):
    log = read_log(prefix + '.log')
    for n in nodes:
        if n['category'] != 'structural':
            continue
        lab = n['label']
        if not ok(lab in log['nodes'], f'{name}: structural node {lab} in .log'):
            continue
        x, od, vals = log['nodes'][lab]
        ok(near(x, n['props']['position'], 2e-5, 1e-5), f'{name}: node {lab} position')
        if 'displacement' in n['type']:
            ok(od is None, f'{name}: displacement node {lab} without orientation')
            continue
        R = node_line_matrix(od, vals)
        ok(R is not None and near(R, n['props']['orientation'], 0, 5e-5),
           f'{name}: node {lab} orientation ({od})')
    for e in elems:
        if e['category'] in ('structural',):
            continue
        exp = expected_line(e, {n['label']: n for n in nodes if n['category'] == 'structural'})
        lab = e['label']
        if exp is None:
            if e['category'] not in ('joint', 'body', 'beam3', 'beam2', 'force', 'couple'):
                continue   # gravity, drives, genels, ...: MBDyn writes no line either
            lines = [k for k, v in log['lines'].items() if lab in v]
            ok(bool(lines), f'{name}: {e["category"]} {lab} ({e["type"]}) has a .log line')
            continue
        kw, fields = exp
        got = log['lines'].get(kw, {}).get(lab)
        if not ok(got is not None, f'{name}: "{kw}: {lab}" in .log'):
            continue
        vals = [x for x in got if x != 'output_relative']
        ok(len(vals) == len(fields) and near(nums(vals), fields, 2e-5, 1e-5),
           f'{name}: "{kw}: {lab}" fields {fields} vs {vals}')


def run(deck, prefix):
    for ext in ('log', 'nc', 'mov', 'jnt'):
        if os.path.exists(prefix + '.' + ext):
            os.remove(prefix + '.' + ext)
    p = subprocess.Popen([exe, '--quiet', '-f', deck, '-o', prefix, '--format', 'text,netcdf'],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = p.communicate(timeout=RUN_SECONDS)
    except subprocess.TimeoutExpired:
        p.send_signal(signal.SIGINT)
        out, err = p.communicate()
    return p.returncode, err


def compare_with_mbdyn(deck):
    name = os.path.basename(deck)[:-4]
    d = os.path.join(work, 'mbdyn')
    os.makedirs(d, exist_ok=True)
    pre = os.path.join(d, name)
    subprocess.run([MBDYN, '-s', '-f', deck, '-o', pre], capture_output=True, timeout=300)
    if not ok(os.path.exists(pre + '.log'), f'MBDyn wrote {name}.log'):
        return
    ours = os.path.join(work, name)

    def lines(path):
        out = []
        for line in open(path):
            if line.startswith('struct node dofs'):
                break
            out.append(line.split())
        return out
    a, b = lines(ours + '.log'), lines(pre + '.log')
    print(f'compare {name}.log with MBDyn\'s: {len(a)} lines')
    ok(len(a) == len(b), f'{name}: {len(a)} .log lines, MBDyn {len(b)}')
    for la, lb in zip(a, b):
        same = len(la) == len(lb)
        for x, y in zip(la, lb):
            try:
                same = same and abs(float(x) - float(y)) <= 1e-5 * (1 + abs(float(y)))
            except ValueError:
                same = same and x == y
        ok(same, f'{name}: "{" ".join(la)}" vs MBDyn "{" ".join(lb)}"')


# Optional further arguments: only these decks (names without .mbd), for a quick look.
decks = sorted(glob.glob(os.path.join(EXAMPLES, '*.mbd')))
if sys.argv[3:]:
    decks = [d for d in decks if os.path.basename(d)[:-4] in sys.argv[3:]]
ran = skipped = 0
t0 = time.time()
for deck in decks:
    name = os.path.basename(deck)[:-4]
    if name in SKIP:
        print(f'skip {name}: {SKIP[name]}')
        skipped += 1
        continue
    model = dump_model(deck)
    if isinstance(model, str):
        print(f'skip {name}: this build cannot read it ({model})')
        skipped += 1
        continue
    nodes, elems, problem, default_od = model
    if problem != 'initial value':
        print(f'skip {name}: problem "{problem}", not an initial-value (DAE) run')
        skipped += 1
        continue
    t_deck = time.time()
    prefix = os.path.join(work, name)
    rc, err = run(deck, prefix)
    if rc not in (0, 130, 3):
        fail(f'{name}: mbsolve exit {rc}: {err.strip()[-300:]}')
        continue
    if not ok(os.path.exists(prefix + '.log'), f'{name}: .log written (exit {rc})'):
        continue
    n0 = len(failures)
    check_log(name, prefix, nodes, elems, None)
    check_nc(name, prefix, nodes, elems, default_od)
    ran += 1
    print(f'{"ok  " if len(failures) == n0 else "FAIL"} {name}: {len(nodes)} nodes, '
          f'{len(elems)} elements (exit {rc}, {time.time() - t_deck:.1f} s)')

if sys.argv[3:]:
    pass
elif os.path.exists(MBDYN):
    for n in ('pendulum', 'pendulum_joints', 'four_bar', 'cardano_shafts'):
        compare_with_mbdyn(os.path.join(EXAMPLES, n + '.mbd'))
else:
    print(f'skip the comparison with MBDyn\'s .log: {MBDYN} not installed')
print(f'{ran} decks checked, {skipped} skipped, {checks} checks, {time.time() - t0:.1f} s')
finish()
