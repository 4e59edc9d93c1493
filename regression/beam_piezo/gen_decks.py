#!/usr/bin/python3
"""Writes the piezoelectric beam decks (committed; this script documents how their node, body and
element tables were made):

  input-examples/beam_piezo.mbd            10 beam3 elements, `model: static`, voltages ramped
                                           over NSTEPS load steps
  regression/beam_piezo/beam2_piezo.mbd    the same cantilever with 20 beam2 elements
  regression/beam_piezo/beam_piezo_dynamic.mbd
                                           10 beam3 elements with lumped bodies, dynamic, the
                                           bending voltage raised smoothly over TRAMP and held

Usage: gen_decks.py  (writes the three files in place)
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
import beam_decks as bd  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, '..', '..', 'input-examples')

PARAMS = """set: const real L  = 1.;        # [m] length, along global x, clamped at x = 0 (node 0)
set: const real EI = 1.;        # [N m^2] bending stiffness (both directions)
set: const real GJ = 1.;        # [N m^2] torsional stiffness
set: const real EA = 1.e4;      # [N] axial stiffness
set: const real GA = 1.e4;      # [N] shear stiffness (both directions)
# (EA = GA: with GA = 100 EA Newton diverges at the first load step of kappa L = 0.2 rad, the
# same iterates as an end couple of 0.2 N m on the beam without electrodes.)
set: const real KB = 0.01;      # [N m/V] bending coupling (moment about section axis 3)
set: const real KA = 1.;        # [N/V] axial coupling (axial force)
"""

CARD = """# The card (as MBDyn's): after the law(s), `piezoelectric actuator, N, <N abstract node
# labels>, <6 x N matrix of point I>, {same | <6 x N matrix of point II>}` (beam2: one matrix),
# each matrix row by row (`null`, `anba` and a trailing `scale, s` are accepted as in MBDyn).
# The matrix P (rows: axial force, shear forces 2 and 3, torque, bending moments about section
# axes 2 and 3; one column per electrode) adds P V to the section's generalized forces:
#   [f; m] = law([nu; kappa]) + P V     (section frame)
# With the tip free the section forces vanish, so the actuators impose uniform strains
#   kappa_z = -KB VB / EI,   nu_x = -KA VA / EA
# (P V adds to the law's stress: a positive KB VB bends the beam towards -y).
# Closed forms (uniform curvature per unit undeformed length, the arc stretched by 1 + nu_x):
#   tip x = (1 + nu_x) sin(kappa_z L)/kappa_z,  tip y = (1 + nu_x) (1 - cos(kappa_z L))/kappa_z,
#   tip rotation about z = kappa_z L;  small kappa_z L: tip y = kappa_z L^2/2, rotation kappa_z L.
"""

# The 6 x 2 coupling matrix, row by row; columns: electrode 1 (node 101, VB), 2 (node 102, VA).
def matrix(end):
    return f"""            0., KA,     # axial force
            0., 0.,     # shear force, section axis 2
            0., 0.,     # shear force, section axis 3
            0., 0.,     # torque
            0., 0.,     # bending moment about section axis 2
            KB, 0.{end}    # bending moment about section axis 3"""

STATIC_SOLVER = bd.solver(bd.PSEUDO_TIME, '1./NSTEPS', 'TOL, SOLTOL', 50,
                          method=bd.LOAD_STEP_METHOD)
DYNAMIC_SOLVER = bd.solver('TF', 'DT', '1.e-9', 20,
                           extra=[('derivatives coefficient', '1.e-8'),
                                  ('derivatives tolerance', '1.e-8'),
                                  ('derivatives max iterations', 20)])

ELECTRODES = """    abstract: 101, differential, value, 0.;    # VB, bending electrode
    abstract: 102, differential, value, 0.;    # VA, axial electrode
"""


def beam3_cards(ne, law, explicit_second=True):
    o = []
    for e in range(ne):
        o += bd.beam3_card(e, law, ',')
        o.append("        piezoelectric actuator, 2, 101, 102,")
        o.append(matrix(","))
        if e == 0 and explicit_second:
            o.append("        # point II: the same matrix written out (`same` in the others)")
            o.append(matrix(";"))
        else:
            o.append("        same;")
    return o


def beam2_cards(ne, law):
    o = []
    for e in range(ne):
        o.append(f"    beam2: {e + 1}, {e}, null, {e + 1}, null,")
        o.append(f"        eye, {law},")
        o.append("        piezoelectric actuator, 2, 101, 102,")
        o.append(matrix(";"))
    return o


def static_deck(path, header, kind, ne):
    nn = 2 * ne + 1 if kind == 'beam3' else ne + 1
    o = [header.rstrip('\n'), '', PARAMS.rstrip('\n')]
    o.append("set: ifndef const real VB = -100.;   # [V] bending voltage: kappa_z L = -KB VB L/EI = 1 rad")
    o.append("set: ifndef const real VA = 0.;      # [V] axial voltage")
    o.append("set: ifndef const real NSTEPS = 5;   # load steps")
    o.append("set: ifndef const real TOL = 1.e-10;")
    o.append("set: ifndef const real SOLTOL = 1.e-12;")
    o.append(f"set: const real H = L/{nn - 1};       # [m] node spacing")
    o += ['', STATIC_SOLVER, '',
          bd.control_data('model: static', f'structural nodes: {nn}', 'abstract nodes: 2',
                          f'beams: {ne}', 'joints: 1', 'genels: 2',
                          'default orientation: orientation vector'),
          '', "begin: nodes;"]
    o += bd.cantilever_nodes(nn)
    o.append(ELECTRODES.rstrip('\n'))
    o.append("end: nodes;\n")
    o.append("begin: elements;")
    o.append("    joint: 1, clamp, 0, node, node;")
    o.append("    # The voltages: each abstract node's value follows a ramp over the load steps.")
    o.append("    genel: 101, clamp, 101, abstract, algebraic, linear, 0., VB;")
    o.append("    genel: 102, clamp, 102, abstract, algebraic, linear, 0., VA;")
    o += beam3_cards(ne, bd.law()) if kind == 'beam3' else beam2_cards(ne, bd.law())
    o.append("end: elements;")
    bd.write(path, o)


HEADER3 = """# beam_piezo.mbd -- a piezoelectric cantilever (`model: static`, 10 beam3 elements) bent and
# stretched by the voltages of two electrodes (`piezoelectric actuator` on the beam card).
# Checked by regression/beam_piezo/check.py; written by regression/beam_piezo/gen_decks.py.
#
# The beam (length L along x, clamped at node 0, tip node 20) carries two electrodes on every
# element:
#   abstract node 101, voltage VB: a bending actuator, coupling KB [N m/V] on the moment about z
#   abstract node 102, voltage VA: an axial actuator, coupling KA [N/V] on the axial force
# Each voltage is the value of its abstract node, imposed by a `genel: clamp` and ramped from 0
# over the NSTEPS load steps (pseudo-time 0 .. 1). The beam takes the voltages as given: it
# returns nothing (no charge) to the abstract nodes, as in MBDyn.
#
""" + CARD + """#
# Run it with:  scripts/run.sh input-examples/beam_piezo.mbd   (-D VB=..., -D VA=... set the
# voltages). Output: .mov rows of node 20 (the tip): position, rotation vector; .abs: the
# voltages; .act: the section forces (zero here: the tip is free and P V balances the law).
"""

HEADER2 = """# beam2_piezo.mbd -- the piezoelectric cantilever of input-examples/beam_piezo.mbd made of 20
# beam2 elements (one evaluation point and one coupling matrix per element).
# Checked by regression/beam_piezo/check.py; written by regression/beam_piezo/gen_decks.py.
#
""" + CARD + """#
# Output: .mov rows of node 20 (the tip): position, rotation vector.
"""

HEADER_DYN = """# beam_piezo_dynamic.mbd -- the piezoelectric cantilever of input-examples/beam_piezo.mbd
# (10 beam3 elements) in a dynamic run: lumped bodies, the bending voltage raised smoothly from
# 0 to VB over TRAMP (half a cosine cycle) and then held; the axial one held at VA from t = 0.
# Checked by regression/beam_piezo/check.py; written by regression/beam_piezo/gen_decks.py.
#
# Inertia: mass per length MU, lumped as in input-examples/beam_cantilever_vibration.mbd (node
# mass MU H, half at the tip, rotary inertia MU H^3/12). First bending frequency
# w_1 = 1.875^2 sqrt(EI/(MU L^4)) = 11.1 rad/s (period 0.57 s); TRAMP = 5 s is 9 periods, so the
# response is quasi-static. The law is viscoelastic, C = BETA K (stiffness-proportional
# damping, zeta_1 = BETA w_1/2 = 11%), which damps what the ramp excites during the hold.
# At the end the tip must be where the static answer puts it (see beam_piezo.mbd).
#
# Output: .mov rows of node 20 (the tip); .abs: the voltages.
"""


def dynamic_deck(path, ne=10):
    nn = 2 * ne + 1
    o = [HEADER_DYN.rstrip('\n'), '', PARAMS.rstrip('\n')]
    o.append("set: const real MU = 0.1;            # [kg/m] mass per length")
    o.append("set: const real BETA = 0.02;         # [s] stiffness-proportional damping")
    o.append("set: ifndef const real VB = -100.;   # [V] final bending voltage (kappa_z L = 1 rad)")
    o.append("set: ifndef const real VA = 0.;      # [V] axial voltage")
    o.append("set: ifndef const real TRAMP = 5.;   # [s] duration of the bending ramp")
    o.append("set: ifndef const real TF = 8.;      # [s]")
    o.append("set: ifndef const real DT = 1.e-2;   # [s]")
    o.append(f"set: const real H = L/{nn - 1};       # [m] node spacing")
    o.append("set: const real MN = MU*H;           # [kg] lumped mass of an interior node")
    o.append("set: const real JN = MN*H^2/12.;     # [kg m^2] lumped rotary inertia")
    o += ['', DYNAMIC_SOLVER, '',
          bd.control_data(f'structural nodes: {nn}', 'abstract nodes: 2',
                          f'rigid bodies: {nn - 1}', f'beams: {ne}', 'joints: 1', 'genels: 2',
                          'default orientation: orientation vector'),
          '', "begin: nodes;"]
    o += bd.cantilever_nodes(nn, 'dynamic')
    o.append("    abstract: 101, differential, value, 0.;    # VB, bending electrode")
    o.append("    abstract: 102, differential, value, VA;    # VA, axial electrode")
    o.append("end: nodes;\n")
    o.append("begin: elements;")
    o.append("    joint: 1, clamp, 0, node, node;")
    for k in range(1, nn):
        m = "MN/2" if k == nn - 1 else "MN"
        j = "JN/2" if k == nn - 1 else "JN"
        o.append(f"    body: {k}, {k}, {m}, null, diag, {j}, {j}, {j};")
    o.append("    # VB: 0 -> VB over [0, TRAMP] as (VB/2)(1 - cos(pi t/TRAMP)), then held.")
    o.append("    genel: 101, clamp, 101, abstract, algebraic, cosine, 0., pi/TRAMP, VB/2, half, 0.;")
    o.append("    genel: 102, clamp, 102, abstract, algebraic, const, VA;")
    o += beam3_cards(ne, bd.law(beta='BETA'), explicit_second=False)
    o.append("end: elements;")
    bd.write(path, o)


if __name__ == '__main__':
    static_deck(os.path.join(EXAMPLES, 'beam_piezo.mbd'), HEADER3, 'beam3', 10)
    static_deck(os.path.join(HERE, 'beam2_piezo.mbd'), HEADER2, 'beam2', 20)
    dynamic_deck(os.path.join(HERE, 'beam_piezo_dynamic.mbd'))
