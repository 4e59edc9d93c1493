// Finite-difference Jacobian tests of the structural forces and couples (one per card type), at
// random states with drives that are nonzero and time-varying at the check time t = 0.3.
#include "solvers/dae/test/jacobian_check.hpp"

namespace mbs::test {
namespace {

// Two rigid dynamic nodes, one static rigid node and two dynamic displacement nodes, with bodies
// so that the iteration matrix is regular; `loads` cards (forces and couples count together)
// follow.
std::string deck(int loads, const std::string& elements) {
    return test_deck("structural nodes: 5; rigid bodies: 4; forces: " + std::to_string(loads) + ";",
                     displacement_test_nodes, displacement_test_bodies, elements);
}

// Template drives, nonzero and time-varying at t = 0.3, in the component and single forms.
const std::string vec =
    "component, sine, 0., 2., 1.5, forever, 0.2, ramp, 3., 0., 1., -0.5, const, 0.7";
const std::string single = "single, 0.3, -0.8, 0.5, sine, 0., 1.7, 2., forever, 0.4";
// Arms of the two nodes and two orientations (force, moment) for the total forces.
const std::string arm2 = "position, 0.2, -0.4, 0.3, ";
const std::string arm3 = "position, -0.1, 0.3, 0.5, ";
const std::string orients =
    "force orientation, euler123, 0.3, -0.2, 0.5, "
    "moment orientation, euler123, -0.4, 0.1, 0.2, ";

TEST(ForcesJacobian, AbsoluteForceWithArm) {
    expect_exact_jacobian(deck(2, "force: 1, absolute, 2, " + arm2 + vec + ";\n" +
                                      "force: 2, absolute, 1, " + arm3 + single + ";\n"));
}

TEST(ForcesJacobian, FollowerForceWithArm) {
    expect_exact_jacobian(deck(2, "force: 1, follower, 2, " + arm2 + vec + ";\n" +
                                      "force: 2, follower, 3, " + arm3 + single +
                                      ", output relative;\n"));
}

TEST(ForcesJacobian, AbsoluteInternalForce) {
    expect_exact_jacobian(
        deck(1, "force: 1, absolute internal, 2, " + arm2 + "3, " + arm3 + vec + ";\n"));
}

TEST(ForcesJacobian, FollowerInternalForce) {
    expect_exact_jacobian(
        deck(1, "force: 1, follower internal, 2, " + arm2 + "3, " + arm3 + vec + ";\n"));
}

// Displacement-only nodes: force rows only, no rotation columns.
TEST(ForcesJacobian, AbsoluteDisplacementForces) {
    expect_exact_jacobian(deck(2, "force: 1, absolute displacement, 4, " + vec + ";\n" +
                                      "force: 2, absolute internal displacement, 4, 5, " + single +
                                      ";\n"));
}

TEST(ForcesJacobian, AbsoluteCouples) {
    expect_exact_jacobian(deck(2, "couple: 1, absolute, 2, " + vec + ";\n" +
                                      "couple: 2, absolute internal, 2, 3, " + single + ";\n"));
}

TEST(ForcesJacobian, FollowerCouple) {
    expect_exact_jacobian(
        deck(1, "couple: 1, follower, 3, position, 0.1, 0.2, 0.3, " + vec + ";\n"));
}

TEST(ForcesJacobian, FollowerInternalCouple) {
    expect_exact_jacobian(deck(1, "couple: 1, follower internal, 3, 2, " + single + ";\n"));
}

TEST(ForcesJacobian, TotalForce) {
    expect_exact_jacobian(deck(1, "force: 1, total, 2, " + arm2 + orients + "force, " + vec +
                                      ", moment, " + single + ";\n"));
}

// Both nodes loaded at node 2's point: node 1's moment rows depend on x1, x2 and theta2.
TEST(ForcesJacobian, TotalInternalForce) {
    expect_exact_jacobian(deck(1, "force: 1, total internal, 2, " + arm2 + orients + "3, " + arm3 +
                                      "force, " + vec + ", moment, " + single + ";\n"));
}

// A static node: the loads enter its force and moment rows only.
TEST(ForcesJacobian, ForcesOnStaticNode) {
    expect_exact_jacobian(deck(2, "force: 1, follower, 1, " + arm2 + vec + ";\n" +
                                      "couple: 2, follower, 1, " + single + ";\n"));
}

}  // namespace
}  // namespace mbs::test
