// Finite-difference Jacobian tests of the structural forces and couples (one per card type), at
// random states with drives that are nonzero and time-varying at the check time t = 0.3.
#include "solvers/dae/test/jacobian_check.hpp"

namespace mbs::test {
namespace {
void fd_report(const std::string& d){ for(unsigned st=1;st<=3;++st){auto r=check_jacobian(d,st); printf("FD %s state %u: max|J-FD|=%.3g max|J|=%.3g rel=%.3g\n", ::testing::UnitTest::GetInstance()->current_test_info()->name(), st, r.max_abs_err, r.max_abs_J, r.rel()); EXPECT_LT(r.rel(),1e-6);} }

// Two rigid dynamic nodes, one static rigid node and two dynamic displacement nodes, with bodies
// so that the iteration matrix is regular; the cards under test follow.
std::string deck(int forces, int couples, const std::string& elements) {
    return deck_head + "begin: control data; structural nodes: 5; rigid bodies: 4; forces: " +
           std::to_string(forces + couples) +  // couples count as forces
           "; end: control data;\n"
           "begin: nodes;\n"
           "structural: 1, static, 0.1, 0.2, 0.3, euler123, 0.1, 0.2, 0.3, null, null;\n"
           "structural: 2, dynamic, 1., 0.5, -0.2, euler123, -0.4, 0.3, 1.1, 0.3, -0.1, 0.2, 0.5, 0.4, -0.6;\n"
           "structural: 3, dynamic, 0.3, -1., 0.7, euler123, 0.7, -0.2, 0.4, -0.2, 0.6, 0.1, -0.3, 0.8, 0.2;\n"
           "structural: 4, dynamic displacement, 0.5, 0.4, 0.3, 0.1, 0.2, 0.3;\n"
           "structural: 5, dynamic displacement, -0.5, 0.2, 0.1, -0.1, 0.3, 0.2;\n"
           "end: nodes;\nbegin: elements;\n"
           "body: 101, 2, 2.5, 0.1, -0.2, 0.3, diag, 1., 2., 3.;\n"
           "body: 102, 3, 1.5, -0.3, 0.2, 0.1, diag, 0.5, 0.7, 0.9;\n"
           "body: 103, 4, 2.;\n"
           "body: 104, 5, 3.;\n" +
           elements + "end: elements;\n";
}

// Template drives that are nonzero and vary with time at t = 0.3 (so a missing time derivative
// or a wrong frame would show), in the component and single forms.
const std::string vec_drive = "component, sine, 0., 2., 1.5, forever, 0.2, ramp, 3., 0., 1., -0.5, const, 0.7";
const std::string single_drive = "single, 0.3, -0.8, 0.5, sine, 0., 1.7, 2., forever, 0.4";

TEST(ForcesJacobian, AbsoluteForceWithArm) {
    fd_report(deck(2, 0,
                               "force: 1, absolute, 2, position, 0.2, -0.4, 0.3, " + vec_drive + ";\n"
                               "force: 2, absolute, 1, position, -0.1, 0.3, 0.5, " + single_drive + ";\n"));
}

TEST(ForcesJacobian, FollowerForceWithArm) {
    fd_report(deck(2, 0,
                               "force: 1, follower, 2, position, 0.2, -0.4, 0.3, " + vec_drive + ";\n"
                               "force: 2, follower, 3, position, -0.1, 0.3, 0.5, " + single_drive +
                                   ", output relative;\n"));
}

TEST(ForcesJacobian, AbsoluteInternalForce) {
    fd_report(deck(1, 0,
                               "force: 1, absolute internal, 2, position, 0.2, -0.4, 0.3, 3, position, -0.1, "
                               "0.3, 0.5, " + vec_drive + ";\n"));
}

TEST(ForcesJacobian, FollowerInternalForce) {
    fd_report(deck(1, 0,
                               "force: 1, follower internal, 2, position, 0.2, -0.4, 0.3, 3, position, -0.1, "
                               "0.3, 0.5, " + vec_drive + ";\n"));
}

TEST(ForcesJacobian, AbsoluteDisplacementForces) {
    fd_report(deck(2, 0,
                               "force: 1, absolute displacement, 4, " + vec_drive + ";\n"
                               "force: 2, absolute internal displacement, 4, 5, " + single_drive + ";\n"));
}

TEST(ForcesJacobian, AbsoluteCouples) {
    fd_report(deck(0, 2,
                               "couple: 1, absolute, 2, " + vec_drive + ";\n"
                               "couple: 2, absolute internal, 2, 3, " + single_drive + ";\n"));
}

TEST(ForcesJacobian, FollowerCouple) {
    fd_report(deck(0, 1, "couple: 1, follower, 3, position, 0.1, 0.2, 0.3, " + vec_drive + ";\n"));
}

TEST(ForcesJacobian, FollowerInternalCouple) {
    fd_report(deck(0, 1, "couple: 1, follower internal, 3, 2, " + single_drive + ";\n"));
}

TEST(ForcesJacobian, TotalForce) {
    fd_report(deck(1, 0,
                               "force: 1, total, 2, position, 0.2, -0.4, 0.3, force orientation, euler123, "
                               "0.3, -0.2, 0.5, moment orientation, euler123, -0.4, 0.1, 0.2, force, " +
                                   vec_drive + ", moment, " + single_drive + ";\n"));
}

TEST(ForcesJacobian, TotalInternalForce) {
    fd_report(deck(1, 0,
                               "force: 1, total internal, 2, position, 0.2, -0.4, 0.3, force orientation, "
                               "euler123, 0.3, -0.2, 0.5, moment orientation, euler123, -0.4, 0.1, 0.2, "
                               "3, position, -0.1, 0.3, 0.5, force, " +
                                   vec_drive + ", moment, " + single_drive + ";\n"));
}

// A force on a static node mixes into the static node's rows only (no momentum rows).
TEST(ForcesJacobian, ForcesOnStaticNode) {
    fd_report(deck(1, 1,
                               "force: 1, follower, 1, position, 0.2, 0.1, -0.3, " + vec_drive + ";\n"
                               "couple: 2, follower, 1, " + single_drive + ";\n"));
}

}  // namespace
}  // namespace mbs::test
