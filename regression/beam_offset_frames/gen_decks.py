#!/usr/bin/python3
"""Writes the beam decks with node frames rotated away from the section frames (committed in
input-examples/; this script documents how their tables were made):

  beam_offset_frames.mbd            static cantilevers under a tip force, one of 4 beam3 and one
                                    of 8 beam2 elements
  beam_offset_frames_portal.mbd     a frame (two columns, a girder, an arm, a mast) whose post
                                    node is shared by four beams, harmonic force at the arm's tip
  beam_offset_frames_vibration.mbd  free vibration of two cantilevers (beam3, beam2) started with
                                    the first mode's velocity field, viscoelastic sections

Every deck has two switches (`set: ifndef`, -D on the command line):
  ROT = 1  the nodes' frames are rotated by 98 to 170 degrees about skew axes (the tables
           below); ROT = 0 identity frames;
  ALN = 1  each beam node's `orientation` is the section frame of its beam (given in the global
           frame: MBDyn users' way to align the node frames); ALN = 0 an arbitrary orientation of
           98 to 160 degrees. The section frames are absolute (the card's), so that in MBDyn the
           four combinations are the same beam: its beams interpolate the nodes' rotations, and
           the relative orientations only serve `from nodes` sections.

Usage: gen_decks.py [input-examples directory]
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
import beam_decks as bd  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), '..', '..', 'input-examples')


def rv(axis, deg):
    a = np.array(axis, float)
    return a / np.linalg.norm(a) * math.radians(deg)


def expm(v):
    a = np.linalg.norm(v)
    if a == 0.0:
        return np.eye(3)
    k = v / a
    K = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + math.sin(a) * K + (1 - math.cos(a)) * K @ K


def logm(R):
    c = max(-1.0, min(1.0, (np.trace(R) - 1) / 2))
    a = math.acos(c)
    if a < 1e-12:
        return np.zeros(3)
    if a > math.pi - 1e-6:
        raise ValueError('rotation too close to pi for this table')
    w = np.array([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]])
    return w * a / (2 * math.sin(a))


def angle(R1, R2):
    return math.degrees(np.linalg.norm(logm(R1.T @ R2)))


def frame(a1, a2):
    """Rotation with axis 1 along a1 and axis 2 along the part of a2 normal to a1."""
    e1 = np.array(a1, float) / np.linalg.norm(a1)
    e2 = np.array(a2, float) - np.dot(a2, e1) * e1
    e2 /= np.linalg.norm(e2)
    return np.column_stack([e1, e2, np.cross(e1, e2)])


def v3(v):
    return ', '.join(f'{x:.15g}' for x in v)


# Node frames for ROT = 1 (cycled over the nodes) and arbitrary relative orientations for
# ALN = 0 (global, cycled over the beam nodes), as rotation vectors.
NODE_ROT = [rv((1, 2, 3), 98), rv((-2, 1, 0.5), 149), rv((0.3, -1, 2), 120), rv((1, 1, -1), 170),
            rv((2, -1, -3), 133)]
ARB_ORI = [rv((1, -1, 2), 98), rv((3, 1, -1), 149), rv((-1, 2, 1), 160), rv((0.5, 0.5, 1), 110)]

SWITCHES = """set: ifndef const real ROT = 1.;  # 1: node frames rotated (gen_decks.py); 0: identity
set: ifndef const real ALN = 0.;  # 1: beam node orientation = section frame; 0: arbitrary"""


def node_orientation(v):
    return f'vector, ROT*({v[0]:.15g}), ROT*({v[1]:.15g}), ROT*({v[2]:.15g})'


def beam_node(label, k, section):
    """Beam node entry: no offset, orientation (global) ALN s + (1 - ALN) a_k, s the section
    frame's rotation vector, a_k the k-th arbitrary one."""
    a = ARB_ORI[k % len(ARB_ORI)]
    comps = ', '.join(f'ALN*({s:.15g}) + (1. - ALN)*({x:.15g})' for s, x in zip(section, a))
    return f'{label}, null, orientation, reference, global, vector, {comps}'


def beam_cards(beams, law):
    """Cards of the beams (kind, label, section frame's rotation vector, nodes): node entries by
    beam_node, numbered along the whole list; the section frame absolute (global)."""
    o = []
    k = 0
    for kind, label, sec, nodes in beams:
        o.append(f'    {kind}: {label},')
        for n in nodes:
            o.append(f'        {beam_node(n, k, sec)},')
            k += 1
        o.append(f'        reference, global, vector, {v3(sec)}, {law}'
                 + (', same, same;' if kind == 'beam3' else ';'))
    return o


# The two cantilevers of the static and vibration decks: NE3 beam3 elements on nodes 0 .. 2 NE3
# (y = 0), NE2 beam2 on nodes 100 .. 100 + NE2 (y = 0.5 m), clamped at nodes 0 and 100.
NE3, NE2 = 4, 8
SECTION = rv((1, 0, 0), 30)  # section frame: axis 1 along x, twisted 30 degrees
TWINS = ([('beam3', e + 1, SECTION, (2 * e, 2 * e + 1, 2 * e + 2)) for e in range(NE3)]
         + [('beam2', 101 + e, SECTION, (100 + e, 101 + e)) for e in range(NE2)])
TWIN_SPACING = [f'set: const real H3 = L/{2 * NE3}.;  # [m] node spacing, beam3',
                f'set: const real H2 = L/{NE2}.;  # [m] node spacing, beam2']
TWIN_CLAMPS = ['end: nodes;\n\nbegin: elements;', '    joint: 1, clamp, 0, node, node;',
               '    joint: 2, clamp, 100, node, node;']


def write(name, lines):
    bd.write(os.path.join(OUT, name), lines)


# ---------------------------------------------------------------------------------------------
# Static cantilevers.
def static_deck():
    ne3, ne2 = NE3, NE2
    o = ["""# beam_offset_frames.mbd -- static cantilevers whose nodes' frames are rotated by 98 to 170
# degrees about skew axes, away from the beams' section frame (`model: static`).
# Checked by regression/beam_offset_frames/check.py; written by its gen_decks.py.
#
# Two cantilevers of length L along x, clamped at their root: 4 beam3 elements (nodes 0-8, y = 0)
# and 8 beam2 elements (nodes 100-108, y = 0.5 m), each loaded at its tip by a force FP along -y.
# Section frame of every beam: axis 1 along x, twisted 30 degrees about it (absolute).
# ROT, ALN (below, -D ROT=... ALN=...): node frames rotated (ROT = 1) or the identity, and each
# beam node's `orientation` the section frame (ALN = 1) or an arbitrary one of 98 to 160 degrees
# (ALN = 0). In MBDyn, and here, the four combinations are the same beam: a beam interpolates
# its nodes' rotations, whatever their frames.
#
# P L^2/EI = 1e-3: linear range. Closed forms: beam3 reproduces P L^3/(3 EI) (constant shear,
# linear moment); beam2 (one evaluation point per element, curvature constant in it) gives
# P L^3/(3 EI) (1 - 1/(4 N^2)) for N elements. EA = GA = 1e7 N: shear flexibility P L/GA is
# 3e-7 of the deflection.
#
# Output: .mov rows of nodes 8 and 108 (tips): position, orientation matrix.

set: const real L  = 1.;        # [m]
set: const real EI = 1.;        # [N m^2] bending stiffness (both directions)
set: const real GJ = 1.;        # [N m^2]
set: const real EA = 1.e7;      # [N]
set: const real GA = 1.e7;      # [N] (both shear directions)
set: ifndef const real FP = 1.e-3;  # [N] tip force along -y
""" + SWITCHES, *TWIN_SPACING, '',
         bd.solver(bd.PSEUDO_TIME, '1.', ('1.e-10, 1.e-13', 'residual; solution increment'), 50),
         '',
         bd.control_data('model: static', f'structural nodes: {2 * ne3 + 1 + ne2 + 1}',
                         f'beams: {ne3 + ne2}', 'joints: 2', 'forces: 2',
                         'default orientation: orientation matrix'),
         '', 'begin: nodes;']
    k = 0
    for i in range(2 * ne3 + 1):
        o.append(f'    structural: {i}, static, {i}*H3, 0., 0., '
                 f'{node_orientation(NODE_ROT[k % 5])}, null, null;')
        k += 1
    for i in range(ne2 + 1):
        o.append(f'    structural: {100 + i}, static, {i}*H2, 0.5, 0., '
                 f'{node_orientation(NODE_ROT[k % 5])}, null, null;')
        k += 1
    o += TWIN_CLAMPS
    o += beam_cards(TWINS, bd.law())
    o.append(f'    force: 1, absolute, {2 * ne3}, position, null, single, 0., -1., 0., '
             'linear, 0., FP;')
    o.append(f'    force: 2, absolute, {100 + ne2}, position, null, single, 0., -1., 0., '
             'linear, 0., FP;')
    o.append('end: elements;')
    write('beam_offset_frames.mbd', o)


# ---------------------------------------------------------------------------------------------
# Portal frame.
def portal_deck():
    # Nodes: label -> position.
    X = {1: (0, 0, 0), 2: (0, 0, 0.5), 3: (0, 0, 1),        # column c1 (3 = post node P)
         4: (0.5, 0, 1), 5: (1, 0, 1),                       # girder g1
         6: (1, 0, 0), 7: (1, 0, 0.5),                       # column c2 (5 shared)
         8: (0, 0.5, 1), 9: (0, 1, 1),                       # arm (two beam2)
         10: (0, 0, 1.25), 11: (0, 0, 1.5)}                  # mast (two beam2)
    S = {'c1': frame((0, 0, 1), (1, 0, 0)), 'c2': frame((0, 0, 1), (0, 1, 0)),
         'g1': frame((1, 0, 0), (0, math.cos(0.5), math.sin(0.5))),
         'arm': frame((0, 1, 0), (-math.cos(0.8), 0, math.sin(0.8))),
         'mast': frame((0, 0, 1), (math.cos(1.2), math.sin(1.2), 0))}
    # Post node frame: 98 degrees from the column's section frame, about the axis (of a coarse
    # search) that puts it 149 degrees from the girder's.
    best = None
    for th in np.linspace(0, math.pi, 61):
        for ph in np.linspace(0, 2 * math.pi, 121):
            u = (math.sin(th) * math.cos(ph), math.sin(th) * math.sin(ph), math.cos(th))
            Rp = S['c1'] @ expm(rv(u, 98))
            d = abs(angle(Rp, S['g1']) - 149)
            if best is None or d < best[0]:
                best = (d, Rp)
    Rp = best[1]
    node_rot = {n: NODE_ROT[n % 5] for n in X}
    node_rot[3] = logm(Rp)
    a = [f'{angle(Rp, S[b]):.0f}' for b in ('c1', 'g1', 'arm', 'mast')]
    post_angles = ', '.join(a[:3]) + ' and ' + a[3]
    beams = [('beam3', 1, 'c1', (1, 2, 3)), ('beam3', 2, 'g1', (3, 4, 5)),
             ('beam3', 3, 'c2', (6, 7, 5)), ('beam2', 4, 'arm', (3, 8)),
             ('beam2', 5, 'arm', (8, 9)), ('beam2', 6, 'mast', (3, 10)),
             ('beam2', 7, 'mast', (10, 11))]
    # Lumped inertia: each segment between consecutive nodes gives half its mass MU h to each
    # end, with rotary inertia (MU h/2) h^2/12 about every axis; a tip mass MT at node 9.
    mass = {n: 0.0 for n in X}
    jrot = {n: 0.0 for n in X}
    for _, _, _, nodes in beams:
        for a, b in zip(nodes[:-1], nodes[1:]):
            h = float(np.linalg.norm(np.subtract(X[a], X[b])))
            for n in (a, b):
                mass[n] += h / 2
                jrot[n] += h / 2 * h * h / 12
    o = [f"""# beam_offset_frames_portal.mbd -- a frame whose post node (3) is shared by four beams with
# different section frames, the nodes' frames rotated away from them, a harmonic force.
# Checked by regression/beam_offset_frames/check.py; written by its gen_decks.py.
#
# Columns c1 (beam3, nodes 1-2-3) and c2 (beam3, 6-7-5), clamped at the ground (nodes 1, 6);
# girder g1 (beam3, 3-4-5); arm (two beam2, 3-8-9, along y) with a tip mass; mast (two beam2,
# 3-10-11, along z). Post node 3 belongs to c1, g1, the arm and the mast. Sections: axis 1 along
# the member, axes 2, 3 at angles that differ from member to member, EI2 != EI3 (so that the
# section frames matter). With ROT = 1 the post node's frame is at {post_angles} degrees
# from the section frames of c1, g1, the arm and the mast; the other nodes' frames are rotated
# by 98 to 170 degrees about skew axes. ALN: see beam_offset_frames.mbd (ALN = 1: each beam node's
# `orientation` is its beam's section frame, MBDyn users' way to align the node frames).
#
# Load: F0 sin(2 pi FREQ t) at the arm's tip (node 9) along (1, 0, 1)/sqrt(2); no damping (the
# arm's tip moves by up to 0.1 m at 2 m/s in the first second). Inertia lumped on the nodes
# (beams have none, as in MBDyn): MU h/2 and (MU h/2) h^2/12 from each segment of length h to
# each of its ends.
#
# Output: .mov (position, orientation matrix, velocity, angular velocity) of every node.

set: const real EA  = 1.e7;     # [N]
set: const real GA  = 5.e6;     # [N] (both shear directions)
set: const real GJ  = 5.e2;     # [N m^2]
set: const real EI2 = 1.e3;     # [N m^2] bending about section axis 2
set: const real EI3 = 2.e3;     # [N m^2] bending about section axis 3
set: const real MU  = 1.;       # [kg/m] (the tables below are for MU = 1)
set: const real MT  = 2.;       # [kg] tip mass at node 9
set: ifndef const real F0 = 40.;   # [N]
set: ifndef const real FREQ = 3.;   # [Hz]
set: ifndef const real DT = 1.e-3;  # [s]
set: ifndef const real TF = 1.;     # [s]
""" + SWITCHES, '',
         bd.solver('TF', 'DT', ('3.e-8', '[N]: two iterations a step, above the round-off floor'),
                   20, extra=[('derivatives tolerance', '1.e-6')]),
         '',
         bd.control_data(f'structural nodes: {len(X)}', f'rigid bodies: {len(X) - 2}',
                         f'beams: {len(beams)}', 'joints: 2', 'forces: 1',
                         'default orientation: orientation matrix'),
         '', 'begin: nodes;']
    for n, x in X.items():
        kind = 'static' if n in (1, 6) else 'dynamic'
        o.append(f'    structural: {n}, {kind}, {v3(x)}, {node_orientation(node_rot[n])}, '
                 'null, null;')
    o.append('end: nodes;\n\nbegin: elements;')
    o.append('    joint: 1, clamp, 1, node, node;')
    o.append('    joint: 2, clamp, 6, node, node;')
    for n in X:
        if n in (1, 6):
            continue
        m = f'MU*{mass[n]:.15g}' + (' + MT' if n == 9 else '')
        j = f'MU*{jrot[n]:.15g}'
        o.append(f'    body: {n}, {n}, {m}, null, diag, {j}, {j}, {j};')
    o += beam_cards([(kind, label, logm(S[b]), nodes) for kind, label, b, nodes in beams],
                    bd.law('EI2', 'EI3'))
    o.append('    force: 1, absolute, 9, position, null,')
    o.append('        single, 1./sqrt(2.), 0., 1./sqrt(2.), sine, 0., 2.*pi*FREQ, F0, forever, 0.;')
    o.append('end: elements;')
    write('beam_offset_frames_portal.mbd', o)


# ---------------------------------------------------------------------------------------------
# Cantilever vibration.
BL1 = 1.87510406871


def mode1(x):
    """First clamped-free mode (L = 1), normalised to 1 at the tip, and its slope."""
    s = (math.cosh(BL1) + math.cos(BL1)) / (math.sinh(BL1) + math.sin(BL1))

    def w(x):
        return (math.cosh(BL1 * x) - math.cos(BL1 * x)
                - s * (math.sinh(BL1 * x) - math.sin(BL1 * x)))

    def dw(x):
        return BL1 * (math.sinh(BL1 * x) + math.sin(BL1 * x)
                      - s * (math.cosh(BL1 * x) - math.cos(BL1 * x)))
    return w(x) / w(1.0), dw(x) / w(1.0)


def vibration_deck():
    ne3, ne2 = NE3, NE2
    o = [f"""# beam_offset_frames_vibration.mbd -- free bending vibration of two cantilevers whose nodes'
# frames are rotated away from the section frame: 4 beam3 elements (nodes 0-8, y = 0) and 8
# beam2 elements (nodes 100-108, y = 0.5 m), viscoelastic sections.
# Checked by regression/beam_offset_frames/check.py; written by its gen_decks.py.
#
# L = 1 m along x, clamped at x = 0, MU = 1 kg/m, EJ = 1000 N m^2 (both directions), section
# frame twisted 30 degrees about x. Started with the first mode's velocity field
# V(x) = A1 W1 phi_1(x) along -z (angular velocity about y: its slope), phi_1 the analytic mode
# shape normalised to the tip, W1 = (1.8751)^2 sqrt(EJ/(MU L^4)) = 111.19 rad/s. Inertia lumped
# on the nodes as in beam_cantilever_vibration.mbd (interior nodes MU H, tip MU H/2, rotary
# (MU H) H^2/12). Damping C = BETA K (viscoelastic, `proportional`): zeta_1 = BETA W1/2.
# ROT, ALN: see beam_offset_frames.mbd.
#
# Output: .mov of every node.

set: const real L   = 1.;       # [m]
set: const real MU  = 1.;       # [kg/m]
set: const real EA  = 1.e7;     # [N]
set: const real GA  = 1.e7;     # [N] (shear flexibility EJ/(GA L^2) = 1e-4)
set: const real GJ  = 1.e3;     # [N m^2]
set: const real EJ  = 1.e3;     # [N m^2]
set: const real W1  = {BL1}^2*sqrt(EJ/(MU*L^4));  # [rad/s]
set: const real A1  = 1.e-2;    # [m] tip amplitude
set: ifndef const real BETA = 1.e-4;  # [s]
set: ifndef const real DT = 2.e-4;    # [s]
set: ifndef const real TF = 0.6;      # [s]
""" + SWITCHES, *TWIN_SPACING, '',
         bd.solver('TF', 'DT',
                   ('1.e-6', '[N] (1e-8 is below the round-off floor of EA/H = 8e7 N/m)'), 20,
                   extra=[('derivatives coefficient', '1.e-8'),
                              ('derivatives tolerance', '1.e-6'),
                              ('derivatives max iterations', 20)]),
         '',
         bd.control_data(f'structural nodes: {2 * ne3 + 1 + ne2 + 1}',
                         f'rigid bodies: {2 * ne3 + ne2}', f'beams: {ne3 + ne2}', 'joints: 2',
                         'default orientation: orientation matrix'),
         '',
         '# velocity (0, 0, -V), angular velocity (0, dV/dx, 0); the numbers are phi_1 and its '
         'slope.',
         'begin: nodes;']
    k = 0
    groups = [(0, 2 * ne3, 'H3'), (100, ne2, 'H2')]
    for base, n, h in groups:
        for i in range(n + 1):
            rot = node_orientation(NODE_ROT[k % 5])
            k += 1
            if i == 0:
                y = '0.' if base == 0 else '0.5'
                o.append(f'    structural: {base}, static, 0., {y}, 0., {rot}, null, null;')
                continue
            w, dw = mode1(i / n)
            y = '0.' if base == 0 else '0.5'
            o.append(f'    structural: {base + i}, dynamic, {i}*{h}, {y}, 0., {rot},')
            o.append(f'        0., 0., -A1*W1*({w:.15g}), 0., A1*W1*({dw:.15g}), 0.;')
    o += TWIN_CLAMPS
    for base, n, h in groups:
        for i in range(1, n + 1):
            f = '0.5*' if i == n else ''
            o.append(f'    body: {base + i}, {base + i}, {f}MU*{h}, null, diag, '
                     f'{f}MU*{h}^3/12., {f}MU*{h}^3/12., {f}MU*{h}^3/12.;')
    o += beam_cards(TWINS, bd.law('EJ', beta='BETA'))
    o.append('end: elements;')
    write('beam_offset_frames_vibration.mbd', o)


static_deck()
portal_deck()
vibration_deck()
