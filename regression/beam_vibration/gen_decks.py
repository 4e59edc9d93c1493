#!/usr/bin/python3
"""Writes the beam validation decks of input-examples/ (run from anywhere; the decks are
committed, this script documents how their node tables were made):

  beam_cantilever_vibration.mbd  cantilever, NE = 20 beam3 elements, lumped masses, released with
                                 an initial velocity field made of the first two bending modes
  beam2_cantilever_vibration.mbd the same with 40 beam2 elements on the same nodes
  beam_rotating.mbd              rotating cantilever (hub driven by an axial rotation joint at
                                 OMEGA), NE = 10 beam3 elements, first flap mode excited

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
BL = [1.87510406871, 4.69409113297]  # beta_n L, cantilever (docs/references.md section 4)


def mode(n, x, L=1.0):
    """Clamped-free Euler-Bernoulli mode n (0-based): phi(x), phi'(x), normalised phi(L) = 1."""
    b = BL[n] / L
    s = (math.cosh(b * L) + math.cos(b * L)) / (math.sinh(b * L) + math.sin(b * L))
    phi = lambda y: math.cosh(b * y) - math.cos(b * y) - s * (math.sinh(b * y) - math.sin(b * y))
    dphi = lambda y: b * (math.sinh(b * y) + math.sin(b * y) - s * (math.cosh(b * y) - math.cos(b * y)))
    return phi(x) / phi(L), dphi(x) / phi(L)


def beams(w, NE, law):
    for e in range(NE):
        n1, n2, n3 = 2 * e, 2 * e + 1, 2 * e + 2
        w(f"    beam3: {e + 1},")
        w(f"        {n1}, null,")
        w(f"        {n2}, null,")
        w(f"        {n3}, null,")
        w(f"        eye, {law},")
        w("        same, same;")


def beams2(w, NN, law):
    for e in range(NN - 1):
        w(f"    beam2: {e + 1}, {e}, null, {e + 1}, null, eye, {law};")


def lumped_bodies(w, NN):
    """Bodies on nodes 1 .. NN-1: mass MN and rotary inertia JN, half of them at the tip."""
    for k in range(1, NN):
        f = "0.5*" if k == NN - 1 else ""
        w(f"    body: {k}, {k}, {f}MN, null, diag, {f}JN, {f}JN, {f}JN;")


def cantilever(two_node=False):
    NE = 20
    NN = 2 * NE + 1
    o = []
    w = o.append
    if two_node:
        w("""# beam2_cantilever_vibration.mbd -- the cantilever of beam_cantilever_vibration.mbd with
# the same 41 nodes joined by 40 two-node beam2 elements (one evaluation point each, at
# mid-span) instead of 20 beam3; everything else is the same (see that deck's comments).
# Checked by regression/beam_vibration/check.py against the same analytic frequencies.
""")
    w("""# beam_cantilever_vibration.mbd -- free bending vibration of a cantilever made of 20 beam3
# elements (docs/deck-language.md 5.3), checked by regression/beam_vibration/check.py.
# Written by regression/beam_vibration/gen_decks.py (node and body tables).
#
# Beam: length L = 1 m along global x, clamped at x = 0 (node 0), mass per length MU = 1 kg/m,
# bending stiffness EJ = 1000 N m^2 about both section axes; axial and shear stiffness large
# (EA = 1e7 N, GA = 1e8 N) so that the beam behaves as an Euler-Bernoulli beam (shear
# flexibility EJ/(GA L^2) = 1e-5). Analytic frequencies (docs/references.md section 4):
#   w_n = (beta_n L)^2 sqrt(EJ/(MU L^4)):  w_1 = 111.188 rad/s (17.696 Hz),
#                                          w_2 = 696.801 rad/s (110.900 Hz).
#
# Inertia lumping (the beam element itself has no inertia, as in MBDyn): the 2 NE + 1 = 41 nodes
# are equally spaced, H = L/(2 NE); every interior node carries a body with the mass of the beam
# segment of length H around it (MU H), the tip node half of it (MU H / 2). Each body also has the
# rotary inertia of its segment as a rigid bar about the node, (MU H) H^2/12 about every axis (it
# lowers the frequencies by O((beta H)^2/24): < 1e-3 for mode 2), so that every node has a
# regular rotational mass.
#
# Excitation: an initial velocity field (no initial deflection, so the initial configuration is
# also the stress-free one) V(x) = A1 w_1 phi_1(x) + A2 w_2 phi_2(x) along global y, with the
# analytic mode shapes phi_n normalised to phi_n(L) = 1 (angular velocity about z: its slope);
# tip amplitudes A1 = 1 mm and A2 = 0.2 mm (small: linear range). The tip displacement then
# oscillates in the two modes; check.py extracts both frequencies from the .mov rows of node 40.
#
# Damping: the section law is viscoelastic with C = BETA K (`proportional`), zero by default
# (then it is elastic). With -D BETA=... every mode of the (linearised) model is damped with
# the ratio zeta_n = BETA w_n / 2 (stiffness-proportional damping); check.py verifies it with
# BETA = 2e-4 s (zeta_1 = 1.1%, zeta_2 = 7%).
""")
    w("set: const real L   = 1.0;       # [m]")
    w("set: const real MU  = 1.0;       # [kg/m]")
    w("set: const real EA  = 1.e7;      # [N]")
    w("set: const real GA  = 1.e8;      # [N] (both shear directions)")
    w("set: const real GJ  = 1.e3;      # [N m^2]")
    w("set: const real EJ  = 1.e3;      # [N m^2] (both bending directions)")
    w(f"set: const integer NE = {NE};")
    w("set: const real H   = L/(2*NE);  # [m] node spacing")
    w("set: const real MN  = MU*H;      # [kg] lumped mass of an interior node")
    w("set: const real JN  = MN*H^2/12.; # [kg m^2] lumped rotary inertia")
    w("set: const real W1  = 1.87510406871^2*sqrt(EJ/(MU*L^4)); # [rad/s]")
    w("set: const real W2  = 4.69409113297^2*sqrt(EJ/(MU*L^4)); # [rad/s]")
    w("set: const real A1  = 1.e-3;     # [m] tip amplitude of mode 1")
    w("set: const real A2  = 2.e-4;     # [m] tip amplitude of mode 2")
    w("set: ifndef const real BETA = 0.;   # [s] stiffness-proportional damping, C = BETA K")
    w("set: ifndef const real DT = 1.e-4;  # [s]")
    w("set: ifndef const real TF = 0.25;   # [s]")
    derivatives = """    # The derivatives phase keeps y fixed while its matrix carries dCoef * stiffness terms, so
    # it converges only linearly, at a rate set by dCoef K; with damping (BETA > 0) and the
    # default coefficient 1e-6 it stalls near 1e-4 N on the root node. A smaller coefficient
    # makes it converge, to the round-off floor of the residual (~1e-6 N with beam2)."""
    o += ['',
          bd.solver('TF', 'DT', '1.e-6', 20,
                    extra=[derivatives, ('derivatives coefficient', '1.e-8'),
                           ('derivatives tolerance', '1.e-5'), ('derivatives max iterations', 20)]),
          '',
          bd.control_data(f'structural nodes: {NN}', f'rigid bodies: {NN - 1}',
                          f'beams: {NN - 1 if two_node else NE}', 'joints: 1'),
          '']
    w("# node k at x = k H; initial velocity (0, V, 0) and angular velocity (0, 0, dV/dx) with")
    w("# V = A1 W1 phi_1 + A2 W2 phi_2; the numbers are phi_1, phi_2 and their slopes at x = k H.")
    w("begin: nodes;")
    w("    structural: 0, static, 0., 0., 0., eye, null, null;")
    for k in range(1, NN):
        x = k / (2 * NE)
        p1, d1 = mode(0, x)
        p2, d2 = mode(1, x)
        w(f"    structural: {k}, dynamic, {k}*H, 0., 0., eye,")
        w(f"        0., A1*W1*({p1:.15g}) + A2*W2*({p2:.15g}), 0.,")
        w(f"        0., 0., A1*W1*({d1:.15g}) + A2*W2*({d2:.15g});")
    w("end: nodes;\n")
    w("begin: elements;")
    w("    joint: 1, clamp, 0, node, node;")
    lumped_bodies(w, NN)
    law = bd.law('EJ', beta='BETA')
    if two_node:
        beams2(w, NN, law)
    else:
        beams(w, NE, law)
    w("end: elements;")
    name = 'beam2_cantilever_vibration.mbd' if two_node else 'beam_cantilever_vibration.mbd'
    text = "\n".join(o) + "\n"
    if two_node:
        text = text.replace("# beam_cantilever_vibration.mbd -- free bending vibration of a cantilever "
                            "made of 20 beam3\n# elements (docs/deck-language.md 5.3), checked",
                            "# The beam3 deck's description (its beam cards replaced as said above),"
                            "\n# checked")
    with open(os.path.join(OUT, name), 'w') as f:
        f.write(text)


def rotating():
    NE = 10
    NN = 2 * NE + 1
    o = []
    w = o.append
    w("""# beam_rotating.mbd -- centrifugal stiffening of a rotating cantilever (helicopter-blade-like),
# 10 beam3 elements; checked by regression/beam_rotating/check.py at several speeds (-D OMEGA=...).
# Written by regression/beam_vibration/gen_decks.py (node and body tables).
#
# The hub (node 0) is held at the origin by an axial rotation joint that drives its rotation
# about global z at the constant speed OMEGA; the blade is a uniform cantilever of length L = 1 m
# along x from the hub axis (hub radius 0), mass per length MU = 1 kg/m, flap stiffness
# (bending about the section's axis 2, displacement along z) EJF = 1 N m^2, lag stiffness 100 N m^2,
# large axial and shear stiffness. Its first flap frequency at rest is
#   w_0 = 1.87510406871^2 sqrt(EJF/(MU L^4)) = 3.51602 rad/s;
# spinning, the centrifugal tension stiffens it: w^2 ~= w_0^2 + K OMEGA^2 with Southwell's
# coefficient K ~= 1.193 for a uniform cantilever with no hub radius (docs/references.md 4).
#
# Start: every node moves with the rotating frame (velocity OMEGA z x r, angular velocity OMEGA
# about z) plus a small flap velocity field A W0 phi_1(x) along z (first mode shape at rest,
# phi_1(L) = 1; angular velocity about y: minus its slope). The centrifugal stretch, not present
# at t = 0, starts an axial vibration that the integrator's dissipation removes (rho = 0.6); it
# does not show in the flap displacement.
#
# Inertia lumping: as input-examples/beam_cantilever_vibration.mbd (segment mass MU H on the
# interior nodes, half at the tip, segment rotary inertia (MU H) H^2/12).
""")
    w("set: const real L   = 1.0;       # [m]")
    w("set: const real MU  = 1.0;       # [kg/m]")
    w("set: const real EA  = 1.e5;      # [N]")
    w("set: const real GA  = 1.e5;      # [N]")
    w("set: const real GJ  = 1.;        # [N m^2]")
    w("set: const real EJF = 1.;        # [N m^2] flap (about section axis 2)")
    w("set: const real EJL = 100.;      # [N m^2] lag (about section axis 3)")
    w(f"set: const integer NE = {NE};")
    w("set: const real H   = L/(2*NE);  # [m] node spacing")
    w("set: const real MN  = MU*H;      # [kg]")
    w("set: const real JN  = MN*H^2/12.; # [kg m^2]")
    w("set: const real W0  = 1.87510406871^2*sqrt(EJF/(MU*L^4)); # [rad/s]")
    w("set: const real A   = 1.e-3;     # [m] tip flap amplitude")
    w("set: ifndef const real OMEGA = 4.;  # [rad/s] rotor speed")
    w("set: ifndef const real DT = 2.e-3;  # [s]")
    w("set: ifndef const real TF = 8.;     # [s]")
    o += ['', bd.solver('TF', 'DT', '1.e-8', 20), '',
          bd.control_data(f'structural nodes: {NN + 1}', f'rigid bodies: {NN - 1}',
                          f'beams: {NE}', 'joints: 2'), '']
    w("# node k at x = k H: velocity (0, OMEGA x, A W0 phi_1), angular velocity (0, -A W0 phi_1', OMEGA)")
    w("begin: nodes;")
    w("    structural: 100, static, 0., 0., 0., eye, null, null;   # ground")
    w("    structural: 0, static, 0., 0., 0., eye, null, 0., 0., OMEGA;   # hub")
    for k in range(1, NN):
        x = k / (2 * NE)
        p1, d1 = mode(0, x)
        w(f"    structural: {k}, dynamic, {k}*H, 0., 0., eye,")
        w(f"        0., OMEGA*{k}*H, A*W0*({p1:.15g}),")
        w(f"        0., -A*W0*({d1:.15g}), OMEGA;")
    w("end: nodes;\n")
    w("begin: elements;")
    w("    joint: 1, clamp, 100, node, node;")
    w("    joint: 2, axial rotation, 100, null, 0, null, const, OMEGA;")
    lumped_bodies(w, NN)
    beams(w, NE, bd.law('EJF', 'EJL'))
    w("end: elements;")
    bd.write(os.path.join(OUT, 'beam_rotating.mbd'), o)


cantilever()
cantilever(two_node=True)
rotating()
