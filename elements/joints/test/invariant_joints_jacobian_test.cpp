// Finite-difference Jacobian tests of the invariant deformable displacement joint and the
// invariant deformable joint (deformable_element.cpp: strain and force in the mid frame
// Ra exp(theta/2), pair moment shared through P) at random states with large rotations
// (solvers/dae/test/jacobian_check.hpp), with anisotropic linear and nonlinear elastic laws.
#include "solvers/dae/test/jacobian_check.hpp"

namespace mbs::test {
namespace {

// One static rigid node and two dynamic rigid nodes with bodies; `joints` joint cards follow.
std::string deck(int joints, const std::string& elements) {
    return test_deck(
        "structural nodes: 3; rigid bodies: 2; joints: " + std::to_string(joints) + ";", "", "",
        elements);
}

// Full (non-symmetric) 3 x 3 stiffness.
const std::string elastic3 = "linear elastic generic, 100., 10., -5., 3., 200., 7., -2., 4., 300.";
const std::string elastic6 =
    "linear elastic generic, sym, 100., 1., 2., 3., 4., 5., 200., 6., 7., 8., 9., 300., 10.,"
    " 11., 12., 40., 1., 2., 50., 3., 60.";
const std::string ends =
    "2, 0.1, -0.2, 0.3, orientation, euler123, 0.2, -0.5, 0.3,"
    " 3, -0.2, 0.1, 0.4, orientation, euler123, -0.1, 0.4, 0.2, ";

TEST(InvariantJointsJacobian, InvariantDeformableDisplacementJoint) {
    expect_exact_jacobian(
        deck(1, "joint: 1, invariant deformable displacement joint, " + ends + elastic3 + ";\n"));
}

TEST(InvariantJointsJacobian, InvariantDeformableDisplacementJointNonlinear) {
    expect_exact_jacobian(deck(2, "joint: 1, invariant deformable displacement joint, " + ends +
                                      "cubic elastic generic, 100., 200., 300., 50., 60., 70.,"
                                      " 1.e3, 2.e3, 3.e3;\n"
                                      "joint: 2, invariant deformable displacement joint, 1, null,"
                                      " 3, null, isotropic hardening elastic, 100., 0.2;\n"));
}

TEST(InvariantJointsJacobian, InvariantDeformableJoint) {
    expect_exact_jacobian(
        deck(1, "joint: 1, invariant deformable joint, " + ends + elastic6 + ";\n"));
}

TEST(InvariantJointsJacobian, InvariantDeformableJointToStaticNode) {
    expect_exact_jacobian(
        deck(1, "joint: 1, invariant deformable joint, 1, 0.3, 0., 0.1, 3, 0.2, 0.1, -0.3, " +
                    elastic6 + ";\n"));
}

// MBDyn implements these two for elastic laws only; a viscous law is an input error.
TEST(InvariantJointsJacobian, ViscousLawsAreRefused) {
    for (const std::string type :
         {"invariant deformable displacement joint", "invariant deformable joint"}) {
        const std::string law = type == "invariant deformable joint"
                                    ? "linear viscoelastic, 100., 1."
                                    : "linear viscous, 1.";
        Model m = build(deck(1, "joint: 1, " + type + ", " + ends + law + ";\n"));
        EXPECT_ANY_THROW(Engine(m, "dense")) << type;
    }
}

}  // namespace
}  // namespace mbs::test
