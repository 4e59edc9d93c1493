// Finite-difference Jacobian tests of the deformable elements (rod, deformable displacement
// joint, deformable hinge, deformable joint, viscous body) at random states with large
// rotations (jacobian_check.hpp), with linear and nonlinear, elastic and viscous laws.
#include "solvers/dae/test/jacobian_check.hpp"

namespace mbs::test {
namespace {

// One static rigid node, two dynamic rigid nodes and two dynamic displacement nodes with
// bodies; `joints` joint cards follow.
std::string deck(int joints, const std::string& elements) {
    return test_deck(
        "structural nodes: 5; rigid bodies: 4; joints: " + std::to_string(joints) + ";",
        displacement_test_nodes, displacement_test_bodies, elements);
}

const std::string visco1 = "linear viscoelastic, 1.e3, 25.";
// Full (non-symmetric) 3 x 3 stiffness and damping.
const std::string visco3 =
    "linear viscoelastic generic, 100., 10., -5., 3., 200., 7., -2., 4., 300.,"
    " 1., 0.2, 0.1, -0.3, 2., 0.4, 0.5, 0.1, 3.";
const std::string visco6 =
    "linear viscoelastic generic, sym, 100., 1., 2., 3., 4., 5., 200., 6., 7., 8., 9., 300., 10.,"
    " 11., 12., 40., 1., 2., 50., 3., 60.,"
    " diag, 1., 2., 3., 0.4, 0.5, 0.6";
const std::string viscous6 =
    "linear viscous generic, sym, 10., 1., 2., 3., 4., 5., 20., 1., 2., 3., 4., 30., 1., 2., 3.,"
    " 4., 1., 2., 5., 1., 6.";

TEST(DeformableJacobian, RodPlain) {
    expect_exact_jacobian(deck(1, "joint: 1, rod, 2, 3, 1.5, " + visco1 + ";\n"));
}

TEST(DeformableJacobian, RodWithOffsets) {
    expect_exact_jacobian(deck(1,
                               "joint: 1, rod, 2, position, 0.1, -0.2, 0.3, 3, position, -0.2,"
                               " 0.1, 0.4, from nodes, " +
                                   visco1 + ";\n"));
}

// Displacement-only nodes, and a rigid node with a displacement-only one.
TEST(DeformableJacobian, RodOnDisplacementNodes) {
    expect_exact_jacobian(deck(2, "joint: 1, rod, 4, 5, from nodes, " + visco1 +
                                      ";\n"
                                      "joint: 2, rod, 2, 4, 0.8, cubic viscoelastic generic,"
                                      " 1.e3, 2.e2, 3.e3, 10.;\n"));
}

// Time-dependent prestrain and a prestress; a nonlinear viscoelastic law.
TEST(DeformableJacobian, RodPrestrainAndNonlinearLaw) {
    expect_exact_jacobian(deck(2, "joint: 1, rod, 2, 3, 1.5, " + visco1 +
                                      ", prestress, 3., prestrain, single, 0.1, sine, 0., 2., 1.,"
                                      " forever, 0.;\n"
                                      "joint: 2, rod, 3, position, 0.2, 0.1, 0., 1, 2., "
                                      "turbulent viscoelastic, 100., 5., 0.01;\n"));
}

TEST(DeformableJacobian, DeformableDisplacementJoint) {
    expect_exact_jacobian(deck(1,
                               "joint: 1, deformable displacement joint, 2, 0.1, -0.2, 0.3,"
                               " orientation, euler123, 0.2, -0.5, 0.3, 3, -0.2, 0.1, 0.4,"
                               " orientation, euler123, -0.1, 0.4, 0.2, " +
                                   visco3 + ";\n"));
}

// A nonlinear elastic law (exact tangent with e e^T terms) on a static node.
TEST(DeformableJacobian, DeformableDisplacementJointNonlinear) {
    expect_exact_jacobian(
        deck(1,
             "joint: 1, deformable displacement joint, 1, 0.3, 0.1, -0.2, 2, null,"
             " array, 2, isotropic hardening elastic, 100., 0.5, linear stiffness, 10.,"
             " axial wrapper, 1., 1., 0., linear viscous, 3.;\n"));
}

TEST(DeformableJacobian, DeformableHinge) {
    expect_exact_jacobian(deck(1,
                               "joint: 1, deformable hinge, 2, orientation, euler123, 0.2, -0.5,"
                               " 0.3, 3, orientation, euler123, -0.1, 0.4, 0.2, " +
                                   visco3 + ";\n"));
}

// Moment and omega in the mid frame Ra exp(theta/2).
TEST(DeformableJacobian, InvariantDeformableHinge) {
    expect_exact_jacobian(deck(1,
                               "joint: 1, invariant deformable hinge, 2, orientation, euler123,"
                               " 0.2, -0.5, 0.3, 3, orientation, euler123, -0.1, 0.4, 0.2, " +
                                   visco3 + ";\n"));
}

// A 1D law on theta_3 and omega_3.
TEST(DeformableJacobian, DeformableAxialJoint) {
    expect_exact_jacobian(deck(1,
                               "joint: 1, deformable axial joint, 2, orientation, euler123,"
                               " 0.2, -0.5, 0.3, 3, orientation, euler123, -0.1, 0.4, 0.2, "
                               "cubic viscoelastic generic, 10., 20., 30., 2.;\n"));
}

TEST(DeformableJacobian, DeformableJoint) {
    expect_exact_jacobian(
        deck(1,
             "joint: 1, deformable joint, 2, 0.1, -0.2, 0.3, orientation, euler123, 0.2, -0.5,"
             " 0.3, 3, -0.2, 0.1, 0.4, orientation, euler123, -0.1, 0.4, 0.2, " +
                 visco6 + ";\n"));
}

TEST(DeformableJacobian, DeformableJointToStaticNode) {
    expect_exact_jacobian(
        deck(1, "joint: 1, deformable joint, 1, null, 3, 0.2, 0.1, -0.3, " + visco6 + ";\n"));
}

TEST(DeformableJacobian, ViscousBody) {
    expect_exact_jacobian(deck(2,
                               "joint: 1, viscous body, 2, 0.3, -0.1, 0.2,"
                               " orientation, euler123, 0.4, -0.2, 0.1, " +
                                   viscous6 +
                                   ";\n"
                                   "joint: 2, viscous body, 1, null, linear viscous, 2.;\n"));
}

// The initial assembly (Phase::assembly: rods and deformable joints take part, as in MBDyn):
// the position Jacobian of every deformable kind, viscous laws at the state's velocities.
TEST(DeformableJacobian, InitialAssembly) {
    const std::string cards =
        "joint: 1, rod, 2, 3, 1.5, " + visco1 +
        ";\n"
        "joint: 2, rod, 2, position, 0.1, -0.2, 0.3, 3, position, -0.2, 0.1, 0.4, from nodes, " +
        visco1 +
        ";\n"
        "joint: 3, rod, 4, 5, from nodes, " +
        visco1 +
        ";\n"
        "joint: 4, deformable displacement joint, 2, 0.1, -0.2, 0.3, orientation, euler123, 0.2,"
        " -0.5, 0.3, 3, -0.2, 0.1, 0.4, orientation, euler123, -0.1, 0.4, 0.2, " +
        visco3 +
        ";\n"
        "joint: 5, deformable hinge, 2, orientation, euler123, 0.2, -0.5, 0.3, 3, orientation,"
        " euler123, -0.1, 0.4, 0.2, " +
        visco3 +
        ";\n"
        "joint: 6, invariant deformable hinge, 1, 3, " +
        visco3 +
        ";\n"
        "joint: 7, deformable axial joint, 2, orientation, euler123, 0.2, -0.5, 0.3, 3,"
        " orientation, euler123, -0.1, 0.4, 0.2, cubic viscoelastic generic, 10., 20., 30., 2.;\n"
        "joint: 8, deformable joint, 2, 0.1, -0.2, 0.3, orientation, euler123, 0.2, -0.5, 0.3, 3,"
        " -0.2, 0.1, 0.4, orientation, euler123, -0.1, 0.4, 0.2, " +
        visco6 + ";\n";
    for (unsigned seed = 1; seed <= 3; ++seed) {
        JacobianCheck r = check_jacobian(deck(8, cards), seed, 1.0, 1e-6, Phase::assembly);
        EXPECT_LT(r.rel(), 1e-6) << "state " << seed << ": max |J - FD| = " << r.max_abs_err
                                 << " (max |J| " << r.max_abs_J << ") at " << r.where;
        EXPECT_GT(r.max_abs_J, 0.0);
    }
}

}  // namespace
}  // namespace mbs::test
