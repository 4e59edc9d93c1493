// Finite-difference Jacobian tests of the constraint joints: in line, in plane, prismatic, cardano
// hinge/pin/rotation, revolute rotation, distance (constant, `from nodes`, driven, displacement
// nodes), linear/angular velocity and acceleration, at random states (jacobian_check.hpp), with
// offsets and frames off the identity so that every term of the derivations is exercised.
#include "solvers/dae/test/jacobian_check.hpp"

namespace mbs::test {
namespace {

// Node 1 static, nodes 2 and 3 dynamic (rigid), node 4 a dynamic displacement node (distance only:
// the readers of the other joints ask for nodes with rotations, as MBDyn does).
std::string deck(const std::string& elements, int joints) {
    return deck_head +
           "begin: control data; structural nodes: 4; joints: " + std::to_string(joints) +
           "; end: control data;\n"
           "begin: nodes;\n"
           "structural: 1, static, -0.2, 0.4, 0.1, euler123, 0.3, -0.1, 0.2, null, null;\n"
           "structural: 2, dynamic, 0.9, 0.3, -0.4, euler123, 0.2, 0.5, -0.7, 0.1, 0.4, -0.3, 0.6, "
           "-0.2, 0.3;\n"
           "structural: 3, dynamic, 0.2, -0.8, 0.5, euler123, -0.6, 0.1, 0.9, -0.4, 0.2, 0.5, 0.1, "
           "0.7, -0.5;\n"
           "structural: 4, dynamic displacement, 0.5, 0.4, 0.3, 0.1, 0.2, 0.3;\n"
           "end: nodes;\nbegin: elements;\n" +
           elements + "end: elements;\n";
}

TEST(ConstraintJointsJacobian, InLine) {
    expect_exact_jacobian(
        deck("joint: 1, in line, 2, 0.1, -0.2, 0.3, euler123, 0.4, -0.3, 0.2, 3;\n"
             "joint: 2, in line, 1, 0.3, 0.1, -0.2, euler123, -0.2, 0.6, 0.1, 2;\n",
             2));
}

TEST(ConstraintJointsJacobian, InLineWithOffset) {
    expect_exact_jacobian(
        deck("joint: 1, in line, 2, 0.1, -0.2, 0.3, euler123, 0.4, -0.3, 0.2, 3, offset, -0.3, "
             "0.2, 0.1;\n"
             "joint: 2, in line, 3, null, eye, 1;\n",
             2));
}

TEST(ConstraintJointsJacobian, InPlane) {
    expect_exact_jacobian(
        deck("joint: 1, in plane, 2, 0.1, -0.2, 0.3, 0.3, 1., -0.4, 3;\n"
             "joint: 2, in plane, 3, -0.2, 0.1, 0.4, 1., 0.2, 0.1, 2, offset, 0.2, 0.3, -0.1;\n"
             "joint: 3, in plane, 1, 0.1, 0.1, 0.1, 0., 0., 1., 3;\n",
             3));
}

TEST(ConstraintJointsJacobian, Prismatic) {
    expect_exact_jacobian(
        deck("joint: 1, prismatic, 2, orientation, euler123, 0.3, 0.2, -0.1,"
             " 3, orientation, euler123, -0.2, 0.5, 0.4;\n"
             "joint: 2, prismatic, 1, 3;\n",
             2));
}

TEST(ConstraintJointsJacobian, CardanoHingeAndRotation) {
    expect_exact_jacobian(
        deck("joint: 1, cardano hinge, 2, 0.1, 0.2, 0.3, orientation, euler123, 0.2, 0.1, 0.3,"
             " 3, -0.3, 0.1, 0.2, orientation, euler123, -0.1, 0.4, 0.2;\n"
             "joint: 2, cardano rotation, 1, orientation, euler123, 0.4, -0.2, 0.1,"
             " 2, orientation, euler123, 0.1, 0.3, -0.5;\n",
             2));
}

TEST(ConstraintJointsJacobian, CardanoPin) {
    expect_exact_jacobian(
        deck("joint: 1, cardano pin, 3, 0.2, -0.1, 0.4, orientation, euler123, 0.1, 0.1, 0.1,"
             " 1., 2., 3., orientation, euler123, 0.5, 0.2, -0.3;\n",
             1));
}

TEST(ConstraintJointsJacobian, RevoluteRotation) {
    expect_exact_jacobian(
        deck("joint: 1, revolute rotation, 2, orientation, euler123, 0.2, 0.1, 0.3,"
             " 3, orientation, euler123, -0.1, 0.4, 0.2;\n"
             "joint: 2, revolute rotation, 3, 1, orientation, euler123, 0.3, -0.2, 0.1;\n",
             2));
}

TEST(ConstraintJointsJacobian, DistanceWithOffsets) {
    expect_exact_jacobian(deck(
        "joint: 1, distance, 2, position, 0.1, 0.2, -0.3, 3, position, -0.2, 0.4, 0.1,"
        " from nodes;\n"
        "joint: 2, distance, 1, position, 0.3, -0.1, 0.2, 2, sine, 0., 2., 0.3, forever, 1.2;\n",
        2));
}

TEST(ConstraintJointsJacobian, DistanceDisplacementNode) {
    expect_exact_jacobian(
        deck("joint: 1, distance, 3, 4, const, 0.7;\n"
             "joint: 2, distance, 4, 1, from nodes;\n",
             2));
}

TEST(ConstraintJointsJacobian, LinearAndAngularVelocity) {
    expect_exact_jacobian(
        deck("joint: 1, linear velocity, 2, 0.3, -0.5, 0.8, sine, 0., 2., 0.5, forever, 0.1;\n"
             "joint: 2, angular velocity, 3, -0.2, 0.4, 1., const, 1.5;\n"
             "joint: 3, linear velocity, 1, 1., 0., 0., const, 0.2;\n",
             3));
}

// The acceleration joints' differential unknown (the velocity gained) enters the velocity row with
// dCoef; random states give it a nonzero value and derivative.
TEST(ConstraintJointsJacobian, LinearAndAngularAcceleration) {
    expect_exact_jacobian(
        deck("joint: 1, linear acceleration, 2, 0.3, -0.5, 0.8, sine, 0., 2., 0.5, forever, 0.1;\n"
             "joint: 2, angular acceleration, 3, -0.2, 0.4, 1., const, 1.5;\n",
             2));
}

}  // namespace
}  // namespace mbs::test
