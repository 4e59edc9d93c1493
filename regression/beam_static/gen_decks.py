#!/usr/bin/python3
"""Writes the static beam decks of input-examples/ (committed; this script documents how their
node and element tables were made):

  beam_static_cantilever.mbd  NE beam3 elements (default 10), tip force FP along -y and end
                              couple CM about z (both -D selectable), `model: static`, NSTEPS
                              load steps
  beam_rollup.mbd             20 beam3 elements, end couple ramped to 2 pi EI/L: the beam closes
                              into a circle
  beam_elastica.mbd           20 beam3 elements, dead tip load P = ALPHA EI/L^2 along -y ramped
                              in NSTEPS load steps

Usage: gen_decks.py [input-examples directory]
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
import beam_decks as bd  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), '..', '..', 'input-examples')

# The solver and control data blocks, between the parameters and the nodes.
TOLERANCE = ('TOL, SOLTOL', 'residual; solution increment (round-off floor of the residual: EA/H)',
             35)
STATIC = ['',
          bd.solver(bd.PSEUDO_TIME, '1./NSTEPS', TOLERANCE, 50, method=bd.LOAD_STEP_METHOD),
          '',
          bd.control_data('model: static', 'structural nodes: NN', 'beams: NE', 'joints: 1',
                          'forces: 2', 'default orientation: orientation vector'),
          '']


def deck(name, header, ne, params, loads):
    nn = 2 * ne + 1
    o = [header.rstrip("\n"), ""]
    o += params
    o.append(f"set: const integer NE = {ne};")
    o.append(f"set: const integer NN = {nn};")
    o.append("set: const real H = L/(2*NE);   # [m] node spacing")
    o += STATIC
    o.append("begin: nodes;")
    o += bd.cantilever_nodes(nn)
    o.append("end: nodes;\n")
    o.append("begin: elements;")
    o.append("    joint: 1, clamp, 0, node, node;")
    for e in range(ne):
        o += bd.beam3_card(e, bd.law())
    o += [l.replace("TIP", str(nn - 1)) for l in loads]
    o.append("end: elements;")
    bd.write(os.path.join(OUT, name), o)


MATERIAL = [
    "set: const real L  = 1.;        # [m] length, along global x, clamped at x = 0 (node 0)",
    "set: const real EI = 1.;        # [N m^2] bending stiffness (both directions)",
    "set: const real GJ = 1.;        # [N m^2] torsional stiffness",
]

deck("beam_static_cantilever.mbd", """# beam_static_cantilever.mbd -- linear static cantilever (`model: static`), 10 beam3 elements.
# Checked by regression/beam_static/check.py; written by regression/beam_static/gen_decks.py.
#
# A cantilever of length L along x, clamped at node 0, loaded at the tip (node 20) by a force
# FP along -y and a couple CM about z (set one of them with -D FP=... or -D CM=...). Small
# loads (load parameter P L^2/EI = 1e-3) keep it in the linear range: the geometric
# nonlinearity changes the tip deflection by ~1e-7 relative. The axial and shear stiffnesses
# are large (EA = GA = 1e7 N, EI = 1 N m^2): the shear flexibility adds P L/GA = 3e-7 of the
# bending deflection (the shear-rigid limit to 1e-6).
#
# Closed forms (docs/references.md section 4):
#   tip force P:  deflection P L^3/(3 EI), rotation P L^2/(2 EI)
#   end couple M: deflection M L^2/(2 EI), rotation M L/EI
# The beam3 element reproduces both exactly (constant shear force and linear moment, constant
# moment), so the check's tolerance of 1e-6 is taken by the shear flexibility and round-off.
#
# Output: .mov rows of node 20: position (columns 2-4), rotation vector (5-7).
""", 10, MATERIAL + [
    "set: const real EA = 1.e7;      # [N] axial stiffness",
    "set: const real GA = 1.e7;      # [N] shear stiffness (both directions)",
    "set: ifndef const real FP = 1.e-3;  # [N] tip force along -y",
    "set: ifndef const real CM = 0.;     # [N m] end couple about z",
    "set: ifndef const real NSTEPS = 1;  # load steps",
    "set: ifndef const real TOL = 1.e-12;",
    "set: ifndef const real SOLTOL = 1.e-13;",
], [
    "    force: 1, absolute, TIP, position, null, single, 0., -1., 0., linear, 0., FP;",
    "    couple: 2, absolute, TIP, single, 0., 0., 1., linear, 0., CM;",
])

deck("beam_rollup.mbd", """# beam_rollup.mbd -- roll-up of a cantilever under an end couple (`model: static`), 20 beam3.
# Checked by regression/beam_static/check.py; written by regression/beam_static/gen_decks.py.
#
# The end couple M = LAMBDA 2 pi EI/L about z (constant direction; for a planar deformation
# about z this is also a follower couple) bends the beam into an arc of constant curvature
# M/EI. Inextensible solution (docs/references.md section 4), t = M L/EI:
#   tip x = L sin(t)/t,  y = L (1 - cos t)/t,  tip rotation t;
# at LAMBDA = 1 (t = 2 pi) the beam is a full circle and the tip is back at the root.
# The couple is ramped over NSTEPS load steps (pseudo-time 0 .. 1).
# EA = GA = 1e6 N: the axial and shear strains stay zero (pure bending), so the solution is
# exact for the continuous beam up to the quadratic interpolation of the positions within an
# element (the rotations are exact: regression/beam_rollup/check.py).
#
# Output: .mov rows of node 40 (the tip): position, rotation vector.
""", 20, MATERIAL + [
    "set: const real EA = 1.e6;      # [N]",
    "set: const real GA = 1.e6;      # [N]",
    "set: ifndef const real LAMBDA = 1.;  # fraction of the full-circle couple",
    "set: ifndef const real NSTEPS = 10;  # load steps",
    "set: ifndef const real TOL = 1.e-10;",
    "set: ifndef const real SOLTOL = 1.e-12;",
], [
    "    force: 1, absolute, TIP, position, null, single, 0., -1., 0., const, 0.;",
    "    couple: 2, absolute, TIP, single, 0., 0., 1., linear, 0., LAMBDA*2.*pi*EI/L;",
])

deck("beam_elastica.mbd", """# beam_elastica.mbd -- large-deflection cantilever under a dead tip load (the elastica),
# `model: static`, 20 beam3 elements, the load P = ALPHA EI/L^2 along -y ramped over NSTEPS
# load steps. Checked by regression/beam_static/check.py (ALPHA = 1, 2, 3, 5, 10 against
# docs/references.md section 4: tip deflection v/L, shortening dx/L, tip rotation);
# written by regression/beam_static/gen_decks.py.
#
# EA = GA = 1e6 N against EI = 1 N m^2: the inextensible, shear-rigid elastica to ~1e-6.
#
# Output: .mov rows of node 40 (the tip): position (v = -y, dx = L - x), rotation vector.
""", 20, MATERIAL + [
    "set: const real EA = 1.e6;      # [N]",
    "set: const real GA = 1.e6;      # [N]",
    "set: ifndef const real ALPHA = 1.;  # load parameter P L^2/EI",
    "set: ifndef const real NSTEPS = 10; # load steps",
    "set: ifndef const real TOL = 1.e-10;",
    "set: ifndef const real SOLTOL = 1.e-12;",
], [
    "    force: 1, absolute, TIP, position, null, single, 0., -1., 0., linear, 0., ALPHA*EI/L^2;",
    "    couple: 2, absolute, TIP, single, 0., 0., 1., const, 0.;",
])
