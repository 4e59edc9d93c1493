// Finite-difference Jacobian tests of the total joint family (total joint, total pin joint,
// drive hinge, drive displacement [pin], axial rotation): one test per joint type and status
// combination, at random states, with drives that are nonzero (and moving) at t = 0.3.
// Element::constraint_rate() (the explicit time derivative of the assembly rows, used by the
// velocity part of the initial assembly) against central differences in time of the residual.
#include <cstdio>

#include "core/rotations.hpp"
#include "solvers/dae/test/jacobian_check.hpp"

namespace mbs::test {
namespace {

// Node 1 static, nodes 2 and 3 dynamic (all rigid: these joints need nodes with rotations).
std::string joints_deck(const std::string& elements, int joints) {
    return deck_head +
           "begin: control data; structural nodes: 3; joints: " + std::to_string(joints) +
           "; end: control data;\n"
           "begin: nodes;\n"
           "structural: 1, static, -0.2, 0.4, 0.1, euler123, 0.3, -0.1, 0.2, null, null;\n"
           "structural: 2, dynamic, 0.9, 0.3, -0.4, euler123, 0.2, 0.5, -0.7, 0.1, 0.4, -0.3, 0.6, "
           "-0.2, 0.3;\n"
           "structural: 3, dynamic, 0.2, -0.8, 0.5, euler123, -0.6, 0.1, 0.9, -0.4, 0.2, 0.5, 0.1, "
           "0.7, -0.5;\n"
           "end: nodes;\nbegin: elements;\n" +
           elements + "end: elements;\n";
}

// Offsets and frames on both sides of a total joint between nodes a and b.
std::string total_sides(int a, int b) {
    return std::to_string(a) +
           ", position, 0.1, -0.2, 0.3, position orientation, euler123, 0.4, -0.3, 0.2,"
           " rotation orientation, euler123, -0.2, 0.6, 0.1, " +
           std::to_string(b) +
           ", position, -0.3, 0.2, 0.1, position orientation, euler123, 0.1, 0.1, 0.5,"
           " rotation orientation, euler123, 0.3, -0.4, 0.2";
}

const std::string pos_drive =
    "component, sine, 0., 2., 0.3, forever, 0.1, const, -0.2, linear, 0.05, 0.4";
const std::string rot_drive =
    "component, const, 0.4, sine, 0., 3., 0.7, forever, 0.2, linear, 0.3, 1.5";

std::string total(int label, int a, int b, const std::string& ps, const std::string& os) {
    return "joint: " + std::to_string(label) + ", total joint, " + total_sides(a, b) +
           ", position constraint, " + ps + ", " + pos_drive + ", orientation constraint, " + os +
           ", " + rot_drive + ";\n";
}

TEST(JointsJacobian, TotalJointAllPositionLevel) {
    expect_exact_jacobian(
        joints_deck(total(1, 2, 3, "active, active, active", "active, active, active"), 1));
}

TEST(JointsJacobian, TotalJointStaticNodeOne) {
    expect_exact_jacobian(joints_deck(
        total(1, 1, 3, "position, position, position", "rotation, rotation, rotation"), 1));
}

TEST(JointsJacobian, TotalJointMixedStatuses) {
    expect_exact_jacobian(joints_deck(
        total(1, 2, 3, "position, inactive, velocity", "rotation, angular velocity, inactive") +
            total(2, 3, 2, "velocity, position, inactive", "inactive, rotation, angular velocity"),
        2));
}

TEST(JointsJacobian, TotalJointVelocityLevelOnly) {
    expect_exact_jacobian(joints_deck(total(1, 2, 3, "velocity, velocity, velocity",
                                            "angular velocity, angular velocity, angular velocity"),
                                      1));
}

std::string total_pin(int label, int node, const std::string& ps, const std::string& os) {
    return "joint: " + std::to_string(label) + ", total pin joint, " + std::to_string(node) +
           ", position, 0.2, 0.1, -0.3, rotation orientation, euler123, 0.5, 0.1, -0.2,"
           " position, 1., -0.5, 0.3, position orientation, euler123, 0.2, -0.4, 0.6,"
           " rotation orientation, euler123, -0.3, 0.2, 0.4, position constraint, " +
           ps + ", " + pos_drive + ", orientation constraint, " + os + ", " + rot_drive + ";\n";
}

TEST(JointsJacobian, TotalPinJointAllPositionLevel) {
    expect_exact_jacobian(
        joints_deck(total_pin(1, 2, "active, active, active", "active, active, active"), 1));
}

TEST(JointsJacobian, TotalPinJointMixedStatuses) {
    expect_exact_jacobian(joints_deck(
        total_pin(1, 2, "inactive, velocity, position", "angular velocity, inactive, rotation") +
            total_pin(2, 3, "velocity, velocity, inactive",
                      "angular velocity, rotation, angular velocity"),
        2));
}

std::string drive_hinge(const std::string& drive) {
    return "joint: 1, drive hinge, 2, orientation, euler123, 0.3, 0.2, -0.1, 3, orientation, "
           "euler123, -0.2, 0.5, "
           "0.4, " +
           drive + ";\n";
}

TEST(JointsJacobian, DriveHinge) { expect_exact_jacobian(joints_deck(drive_hinge(rot_drive), 1)); }

// The series branch of the log map (|log E| < 0.05): the relative rotation of the random state of
// seed 1 is measured once, then imposed (plus 0.01 rad) by a constant drive, so that the harness
// sees a nearly satisfied constraint. The random state depends only on the deck's unknowns.
TEST(JointsJacobian, DriveHingeNearlySatisfied) {
    std::string probe = joints_deck(drive_hinge("null"), 1);
    Model m = build(probe);
    Engine e(m, "dense");
    randomize_state(e, 1);
    e.update(0.3, 1e-3);
    Mat3 Ra = e.nodes()[1].R * euler123_to_matrix(Vec3(0.3, 0.2, -0.1));
    Mat3 Rb = e.nodes()[2].R * euler123_to_matrix(Vec3(-0.2, 0.5, 0.4));
    Vec3 th = matrix_to_rotation_vector(Ra.transpose() * Rb) + Vec3(0.01, -0.005, 0.003);
    EXPECT_LT(
        matrix_to_rotation_vector(rotation_vector_to_matrix(th).transpose() * Ra.transpose() * Rb)
            .norm(),
        0.05);
    char buf[160];
    std::snprintf(buf, sizeof buf, "component, %.17g, %.17g, %.17g", th[0], th[1], th[2]);
    JacobianCheck r = check_jacobian(joints_deck(drive_hinge(buf), 1), 1);
    EXPECT_LT(r.rel(), 1e-6) << "max |J - FD| = " << r.max_abs_err << " at " << r.where;
}

TEST(JointsJacobian, DriveDisplacement) {
    expect_exact_jacobian(joints_deck(
        "joint: 1, drive displacement, 2, 0.1, 0.2, -0.3, 3, -0.2, 0.4, 0.1, " + pos_drive + ";\n" +
            "joint: 2, drive displacement, 1, 0.3, -0.1, 0.2, 2, null, " + pos_drive + ";\n",
        2));
}

TEST(JointsJacobian, DriveDisplacementPin) {
    expect_exact_jacobian(
        joints_deck("joint: 1, drive displacement pin, 2, 0.1, 0.2, -0.3, 0.5, -0.4, 0.2, " +
                        pos_drive + ";\n" +
                        "joint: 2, drive displacement pin, 3, null, -0.3, 0.6, 0.1, single, 1., "
                        "-2., 0.5, sine, 0., 2., 0.4, "
                        "forever, 0.1;\n",
                    2));
}

TEST(JointsJacobian, AxialRotation) {
    expect_exact_jacobian(joints_deck(
        "joint: 1, axial rotation, 2, 0.1, 0.2, 0.3, orientation, euler123, 0.2, 0.1, 0.3,"
        " 3, -0.3, 0.1, 0.2, orientation, euler123, -0.1, 0.4, 0.2, sine, 0., 2., 3., forever, "
        "1.;\n"
        "joint: 2, axial rotation, 1, 0.3, 0.1, -0.2, orientation, euler123, -0.4, 0.2, 0.1,"
        " 3, 0.2, 0.2, -0.1, const, 2.5;\n",
        2));
}

// The constraint rows' time derivative at fixed unknowns (Phase::assembly, dCoef = 1) against
// (r(t + h) - r(t - h)) / (2 h), h = 1e-5, at random states (the relative rotation is not small,
// so Jl^-1(phi) is exercised); every element of these decks gives it. Measured 1.3e-10 .. 1.8e-10
// relative (the central difference's own error); tolerance 1e-9.
void expect_exact_rate(const std::string& deck) {
    for (unsigned seed = 1; seed <= 3; ++seed) {
        Model m = build(deck);
        Engine e(m, "dense");
        randomize_state(e, seed);
        const int n = e.size();
        const double t = 0.3, h = 1e-5;
        std::vector<double> rate(n, 0.0), rp(n), rm(n);
        e.update(t, 1e-3);
        for (const auto& el : e.elements()) {
            if (!el->in_assembly()) continue;
            EXPECT_TRUE(el->constraint_rate(StepContext{t, 1e-3, 1.0, Phase::assembly}, e.state(),
                                            rate.data()))
                << el->desc().type;
        }
        e.update(t + h, 1e-3);
        e.residual(StepContext{t + h, 1e-3, 1.0, Phase::assembly}, rp.data());
        e.update(t - h, 1e-3);
        e.residual(StepContext{t - h, 1e-3, 1.0, Phase::assembly}, rm.data());
        // The elements' own (constraint) rows; node rows are not part of the rate.
        int own = n;
        for (const auto& el : e.elements())
            if (el->own_dofs() > 0) own = std::min(own, el->first_dof());
        double err = 0.0, scale = 0.0;
        int worst = -1;
        for (int i = own; i < n; ++i) {
            const double fd = (rp[i] - rm[i]) / (2.0 * h);
            scale = std::max(scale, std::fabs(fd));
            if (std::fabs(rate[i] - fd) > err) err = std::fabs(rate[i] - fd), worst = i;
        }
        EXPECT_GT(scale, 0.1);
        EXPECT_LT(err, 1e-9 * scale)
            << "state " << seed << ": " << e.equation(std::max(worst, 0)).owner << " "
            << e.equation(std::max(worst, 0)).name;
    }
}

TEST(JointsConstraintRate, TotalJointMixedStatuses) {
    expect_exact_rate(joints_deck(
        total(1, 2, 3, "position, inactive, velocity", "rotation, angular velocity, inactive") +
            total(2, 3, 2, "velocity, position, position", "rotation, rotation, rotation"),
        2));
}

TEST(JointsConstraintRate, TotalPinJoint) {
    expect_exact_rate(joints_deck(
        total_pin(1, 2, "position, position, position", "rotation, rotation, rotation"), 1));
}

TEST(JointsConstraintRate, DriveHingeAndDisplacement) {
    expect_exact_rate(joints_deck(
        drive_hinge(rot_drive) +
            "joint: 2, drive displacement, 2, 0.1, 0.2, -0.3, 3, -0.2, 0.4, 0.1, " + pos_drive +
            ";\n" + "joint: 3, drive displacement pin, 3, null, -0.3, 0.6, 0.1, " + pos_drive +
            ";\n",
        3));
}

// Only the position-level rows depend on the time (the speed is a velocity-level row).
TEST(JointsConstraintRate, AxialRotationHasNone) {
    Model m =
        build(joints_deck("joint: 1, axial rotation, 2, null, 3, null, linear, 2., 3.;\n", 1));
    Engine e(m, "dense");
    randomize_state(e, 1);
    e.update(0.3, 1e-3);
    std::vector<double> rate(e.size(), 0.0);
    for (const auto& el : e.elements()) {
        if (!el->in_assembly()) continue;
        EXPECT_TRUE(el->constraint_rate(StepContext{0.3, 1e-3, 1.0, Phase::assembly}, e.state(),
                                        rate.data()));
    }
    for (double v : rate) EXPECT_EQ(v, 0.0);
}

}  // namespace
}  // namespace mbs::test
