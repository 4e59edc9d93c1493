// Finite-difference Jacobian tests of the core elements (one per element type).
#include "solvers/dae/test/jacobian_check.hpp"

namespace mbs::test {
namespace {

// Two rigid dynamic nodes, one static node, gravity; the cards under test follow.
std::string deck(const std::string& control, const std::string& elements, int extra_nodes = 0) {
    return deck_head + "begin: control data; structural nodes: " + std::to_string(3 + extra_nodes) +
           "; " + control +
           " end: control data;\n"
           "begin: nodes;\n"
           "structural: 1, static, 0.1, 0.2, 0.3, euler123, 0.1, 0.2, 0.3, null, null;\n"
           "structural: 2, dynamic, 1., 0.5, -0.2, euler123, -0.4, 0.3, 1.1, 0.3, -0.1, 0.2, 0.5, "
           "0.4, -0.6;\n"
           "structural: 3, dynamic, 0.3, -1., 0.7, euler123, 0.7, -0.2, 0.4, -0.2, 0.6, 0.1, -0.3, "
           "0.8, 0.2;\n" +
           (extra_nodes ? "structural: 4, dynamic displacement, 0.5, 0.4, 0.3, 0.1, 0.2, 0.3;\n"
                        : std::string()) +
           "end: nodes;\nbegin: elements;\n" + elements + "end: elements;\n";
}

TEST(EngineJacobian, AutomaticStructuralNodes) { expect_exact_jacobian(deck("", "")); }

TEST(EngineJacobian, BodyWithOffsetAndFullInertia) {
    expect_exact_jacobian(
        deck("rigid bodies: 2; gravity;",
             "body: 1, 2, 2.5, 0.1, -0.2, 0.3, 1.,0.1,0.2, 0.1,2.,0.3, 0.2,0.3,3.;\n"
             "body: 2, 3, 1.5, -0.3, 0.2, 0.1, diag, 0.5, 0.7, 0.9;\n"
             "gravity: uniform, 0.1, -1., 0.2, const, 9.81;\n"));
}

TEST(EngineJacobian, PointMassOnDisplacementNode) {
    expect_exact_jacobian(deck("rigid bodies: 1; gravity;",
                               "body: 1, 4, 2.;\ngravity: uniform, 0., 0., -1., const, 9.81;\n",
                               1));
}

TEST(EngineJacobian, Clamp) {
    expect_exact_jacobian(
        deck("joints: 2;",
             "joint: 1, clamp, 1, node, node;\njoint: 2, clamp, 2, 0.1, 0.2, 0.3, "
             "euler123, 0.3, 0.2, 0.1;\n"));
}

TEST(EngineJacobian, SphericalHingeAndPin) {
    expect_exact_jacobian(deck("joints: 2;",
                               "joint: 1, spherical hinge, 2, 0.1, 0.2, 0.3, 3, -0.3, 0.1, 0.2;\n"
                               "joint: 2, spherical pin, 3, 0.2, -0.1, 0.4, 1., 2., 3.;\n"));
}

TEST(EngineJacobian, RevoluteHingeAndPin) {
    expect_exact_jacobian(
        deck("joints: 2;",
             "joint: 1, revolute hinge, 2, 0.1, 0.2, 0.3, orientation, euler123, 0.2, 0.1, 0.3,"
             " 3, -0.3, 0.1, 0.2, orientation, euler123, -0.1, 0.4, 0.2;\n"
             "joint: 2, revolute pin, 3, 0.2, -0.1, 0.4, orientation, euler123, 0.1, 0.1, 0.1,"
             " 1., 2., 3., orientation, euler123, 0.5, 0.2, -0.3;\n"));
}

}  // namespace
}  // namespace mbs::test
