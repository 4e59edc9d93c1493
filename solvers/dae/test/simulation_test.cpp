// Simulation phases at the engine level (solvers/dae/simulation.cpp).
//
// Initial assembly: the multipliers of the elements that take part in it are assembly
// unknowns (their y' holds the assembly reactions) and are reset to zero afterwards. The other
// element-owned unknowns keep their start values: an algebraic abstract node keeps its value
// (stored in the y' slot), a differential one its derivative (y'). Before the fix every
// element-owned y' was zeroed when an assembly ran.
//
// Derivatives phase: a point mass spinning on a revolute hinge (no gravity) must see the
// centripetal reaction m w^2 r at the initial state, with its velocities untouched (before the
// acceleration-level constraint rows, solvers/dae/constraint_rows.hpp, the phase gave 0 N).
//
// Velocity part of the initial assembly: velocity-level constraints (axial rotation, linear and
// angular velocity joints) give nodes at rest on the card their imposed velocities; before,
// their rows were left out (held multipliers, or elements outside the assembly) and the nodes
// started at rest. An acceleration joint's row (it depends on its own state) is left out.
#include "solvers/dae/simulation.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "parser/test_support.hpp"

namespace mbs::test {
namespace {

// A pendulum whose pin is 0.01 m off the node (the assembly moves the node), and two abstract
// nodes with start values. Genels keep the abstract rows regular: x4 is clamped algebraically to
// 2.5 (its start value), x5 is a unit mass.
std::string deck() {
    return deck_head +
           "begin: control data; structural nodes: 2; abstract nodes: 2; rigid bodies: 1; joints: "
           "2;"
           " genels: 2; gravity; end: control data;\n"
           "begin: nodes;\n"
           "structural: 1, static, null, eye, null, null;\n"
           "structural: 2, dynamic, 1., 0., 0., eye, null, null;\n"
           "abstract: 4, algebraic, value, 2.5;\n"
           "abstract: 5, differential, value, 1., derivative, 0.7;\n"
           "end: nodes;\n"
           "begin: elements;\n"
           "joint: 1, clamp, 1, node, node;\n"
           "joint: 2, revolute hinge, 1, position, 0., 0., 0., 2, position, -1.01, 0., 0.;\n"
           "body: 1, 2, 1., null, diag, 0.1, 0.1, 0.1;\n"
           "genel: 1, clamp, 4, abstract, algebraic, const, 2.5;\n"
           "genel: 2, mass, 5, abstract, differential, const, 1.;\n"
           "gravity: uniform, 0., -1., 0., const, 9.81;\n"
           "end: elements;\n";
}

int own_first_dof(Engine& e, const char* category, int label) {
    for (const auto& el : e.elements())
        if (el->desc().category == category && el->desc().label == label) return el->first_dof();
    return -1;
}

TEST(Simulation, AssemblyKeepsTheStartValuesOfOtherElementUnknowns) {
    Model m = build(deck());
    SolverSettings s = SolverSettings::from_model(m);
    s.assembly_max_iter = 10;
    s.assembly_tol = 1e-12;
    Simulation sim(m, s);
    Engine& e = sim.engine();
    const int a4 = own_first_dof(e, "abstract", 4), a5 = own_first_dof(e, "abstract", 5);
    const int hinge = own_first_dof(e, "joint", 2);
    ASSERT_GE(a4, 0);
    ASSERT_GE(a5, 0);
    ASSERT_GE(hinge, 0);
    EXPECT_EQ(e.yp[a4], 2.5);
    EXPECT_EQ(e.yp[a5], 0.7);
    EXPECT_EQ(e.y[a5], 1.0);

    // The hinge is 0.01 m off: the assembly moves node 2 and iterates.
    EXPECT_GT(sim.assemble(), 0);
    const StructNode& n2 = e.nodes()[1];
    EXPECT_NEAR(n2.x.x(), 1.01, 1e-9);
    // The hinge's multipliers (assembly reactions) are reset; the abstract nodes keep theirs.
    for (int i = 0; i < 5; ++i) EXPECT_EQ(e.yp[hinge + i], 0.0) << i;
    EXPECT_EQ(e.yp[a4], 2.5);
    EXPECT_EQ(e.yp[a5], 0.7);
    EXPECT_EQ(e.y[a5], 1.0);
}

// A 2 kg point mass at r = 0.5 m from a revolute hinge about z, spinning at 3 rad/s.
std::string spinning_deck() {
    return deck_head +
           "begin: control data; structural nodes: 2; rigid bodies: 1; joints: 2; end: control "
           "data;\n"
           "begin: nodes;\n"
           "structural: 1, static, null, eye, null, null;\n"
           "structural: 2, dynamic, 0., 0.5, 0., eye, -1.5, 0., 0., 0., 0., 3.;\n"
           "end: nodes;\n"
           "begin: elements;\n"
           "joint: 1, clamp, 1, node, node;\n"
           "joint: 2, revolute hinge, 1, position, null, 2, position, 0., -0.5, 0.;\n"
           "body: 1, 2, 2., null, null;\n"
           "end: elements;\n";
}

TEST(Simulation, DerivativesPhaseHasTheCentripetalReaction) {
    Model m = build(spinning_deck());
    SolverSettings s = SolverSettings::from_model(m);
    Simulation sim(m, s);
    Engine& e = sim.engine();
    sim.assemble();
    sim.derivatives();
    const StructNode& n2 = e.nodes()[1];
    // Velocities as on the card (the phase solves for derivatives at fixed positions and
    // velocities; the point mass's rotation is fixed by the hinge, not by its momenta).
    EXPECT_EQ(n2.xdot, Vec3(-1.5, 0., 0.));
    EXPECT_EQ(n2.w, Vec3(0., 0., 3.));
    // beta' = m a = -m w^2 r e_y = -9 N along y.
    EXPECT_NEAR(n2.beta_dot.y(), -9.0, 1e-8);
    EXPECT_NEAR(n2.beta_dot.x(), 0.0, 1e-8);
    EXPECT_NEAR(n2.gamma_dot.norm(), 0.0, 1e-8);
    const Element* hinge = nullptr;
    for (const auto& el : e.elements())
        if (el->desc().category == "joint" && el->desc().label == 2) hinge = el.get();
    ASSERT_NE(hinge, nullptr);
    Vec3 f, mm, F, M;
    ASSERT_TRUE(hinge->reaction(f, mm, F, M));
    EXPECT_NEAR(F.norm(), 2.0 * 9.0 * 0.5, 1e-8);
    EXPECT_NEAR(std::abs(F.y()), 9.0, 1e-8);
    EXPECT_NEAR(M.norm(), 0.0, 1e-8);
}

// A crank on an axial rotation at 20 rad/s (body off the axis), a free body pushed by linear and
// angular velocity joints, a free body with a linear acceleration joint; all at rest on the
// cards except the last, given 0.3 m/s along y (its joint's direction).
std::string imposed_velocity_deck() {
    return deck_head +
           "begin: control data; structural nodes: 4; rigid bodies: 3; joints: 5;\n"
           "end: control data;\n"
           "begin: nodes;\n"
           "structural: 1, static, null, eye, null, null;\n"
           "structural: 2, dynamic, 0., 0., 0., eye, null, null;\n"
           "structural: 3, dynamic, 1., 0., 0., eye, null, null;\n"
           "structural: 4, dynamic, 2., 0., 0., eye, 0., 0.3, 0., null;\n"
           "end: nodes;\n"
           "begin: elements;\n"
           "joint: 1, clamp, 1, node, node;\n"
           "joint: 2, axial rotation, 1, null, 2, null, const, 20.;\n"
           "joint: 3, linear velocity, 3, 1., 0., 0., const, 2.;\n"
           "joint: 4, angular velocity, 3, 0., 1., 0., const, -3.;\n"
           "joint: 5, linear acceleration, 4, 0., 1., 0., const, 1.;\n"
           "body: 1, 2, 1., 0.2, 0., 0., diag, 0.01, 0.05, 0.05;\n"
           "body: 2, 3, 1., null, diag, 0.1, 0.1, 0.1;\n"
           "body: 3, 4, 1., null, diag, 0.1, 0.1, 0.1;\n"
           "end: elements;\n";
}

TEST(Simulation, VelocityAssemblyImposesVelocityLevelConstraints) {
    Model m = build(imposed_velocity_deck());
    SolverSettings s = SolverSettings::from_model(m);
    Simulation sim(m, s);
    Engine& e = sim.engine();
    sim.assemble();
    const auto& n = e.nodes();
    EXPECT_NEAR((n[1].w - Vec3(0., 0., 20.)).norm(), 0.0, 1e-12);
    EXPECT_NEAR(n[1].xdot.norm(), 0.0, 1e-12);
    EXPECT_NEAR((n[2].xdot - Vec3(2., 0., 0.)).norm(), 0.0, 1e-12);
    EXPECT_NEAR((n[2].w - Vec3(0., -3., 0.)).norm(), 0.0, 1e-12);
    EXPECT_EQ(n[3].xdot, Vec3(0., 0.3, 0.));
    EXPECT_EQ(n[3].w, Vec3::Zero());
    EXPECT_NEAR(n[0].xdot.norm() + n[0].w.norm(), 0.0, 1e-13);
    // The multipliers stay zero (the derivatives phase finds the reactions).
    for (const auto& el : e.elements()) {
        if (el->desc().category != "joint") continue;
        for (int i = 0; i < el->own_dofs(); ++i) {
            if (el->own_dof_order(i) == DofOrder::algebraic) {
                EXPECT_EQ(e.yp[el->first_dof() + i], 0.0) << el->label();
            }
        }
    }
}

}  // namespace
}  // namespace mbs::test
