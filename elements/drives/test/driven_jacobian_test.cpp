// Finite-difference Jacobian (solvers/dae/test/jacobian_check.hpp, at t = 0.3) of a `driven`
// element (driven_element.cpp) while active (its element's equations) and inactive (identity
// rows on its multipliers), in the card form and the `existing:` form; hints (driven_hints.hpp):
// at the switch-on from a random configuration the constraints the hints re-define hold
// exactly, and the Jacobian with the new geometry is exact.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "solvers/dae/engine.hpp"
#include "solvers/dae/test/jacobian_check.hpp"

namespace {

std::string deck(const std::string& driven) {
    return "begin: data; problem: initial value; end: data;\n"
           "begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-3; end: "
           "initial value;\n"
           "begin: control data; structural nodes: 2; rigid bodies: 1; joints: 3; end: control "
           "data;\n"
           "begin: nodes;\n"
           "structural: 1, static, null, eye, null, null;\n"
           "structural: 2, dynamic, 0.1, 0.2, 0., eye, null, 0., 0., 3.;\n"
           "end: nodes;\nbegin: elements;\n"
           "joint: 1, clamp, 1, node, node;\n"
           "body: 1, 2, 2., 0.5, 0., 0., diag, 0.1, 0.2, 0.3;\n" +
           driven + "end: elements;\n";
}

const std::string hinge =
    "joint: 2, revolute hinge, 1, null, orientation, eye, 2, reference, global, null,\n"
    "    orientation, reference, global, eye;\n";

TEST(DrivenJacobian, ActiveAndInactiveCardForm) {
    for (const char* t0 : {"0.2", "0.5"})  // active / inactive at t = 0.3
        mbs::test::expect_exact_jacobian(
            deck("driven: 2, step, " + std::string(t0) + ", 1., 0.,\n" + hinge +
                 "joint: 3, angular velocity, 2, 0., 0., 1., const, 0.5;\n"));
}

TEST(DrivenJacobian, ActiveAndInactiveExistingForm) {
    for (const char* t0 : {"0.2", "0.5"})
        mbs::test::expect_exact_jacobian(
            deck(hinge + "joint: 3, angular velocity, 2, 0., 0., 1., const, 0.5;\n" +
                 "driven: 3, step, " + t0 + ", 1., 0., existing: joint, 3;\n"));
}

// Switches the driven joint 2 on (step at 0.2) from a random state: the residual at t = 0.1
// (off), then at t = 0.3 (on: hints applied). Returns the largest |row| of joint 2's equations
// whose name starts with `rows` (the constraints the hints make hold), and the largest relative
// error of the Jacobian against central differences in that state.
struct SwitchOn {
    double constraint = 0.0, jac_rel = 0.0;
};
SwitchOn switch_on(const std::string& driven, const std::string& rows) {
    mbs::Model m = mbs::test::build(deck(driven));
    mbs::Engine e(m, "dense");
    mbs::test::randomize_state(e, 7);
    const int n = e.size();
    std::vector<double> r(n), rp(n), rm(n);
    mbs::StepContext off{0.1, 1e-3, 0.37, mbs::Phase::dynamic},
        on{0.3, 1e-3, 0.37, mbs::Phase::dynamic};
    e.update(off.time, off.dt);
    e.residual(off, r.data());
    e.update(on.time, on.dt);
    e.residual(on, r.data());
    SwitchOn out;
    for (int i = 0; i < n; ++i)
        if (e.equation(i).owner.rfind("joint 2", 0) == 0 && e.equation(i).name.rfind(rows, 0) == 0)
            out.constraint = std::max(out.constraint, std::fabs(r[i]));
    e.jacobian(on);
    std::vector<double> J(static_cast<std::size_t>(n) * n, 0.0);
    const mbs::CscMatrix& A = e.jac().matrix();
    for (int col = 0; col < n; ++col)
        for (int k = A.col_start()[col]; k < A.col_start()[col + 1]; ++k)
            J[static_cast<std::size_t>(A.row_index()[k]) * n + col] += A.values()[k];
    const double h = 1e-6;
    double err = 0.0, scale = 0.0;
    for (int j = 0; j < n; ++j) {
        const double y0 = e.y[j], yp0 = e.yp[j];
        e.yp[j] = yp0 + h, e.y[j] = y0 + on.dCoef * h;
        e.update(on.time, on.dt);
        e.residual(on, rp.data());
        e.yp[j] = yp0 - h, e.y[j] = y0 - on.dCoef * h;
        e.update(on.time, on.dt);
        e.residual(on, rm.data());
        e.yp[j] = yp0, e.y[j] = y0;
        for (int i = 0; i < n; ++i) {
            const double a = J[static_cast<std::size_t>(i) * n + j];
            scale = std::max(scale, std::fabs(a));
            err = std::max(err, std::fabs(a - (rp[i] - rm[i]) / (2 * h)));
        }
    }
    out.jac_rel = err / scale;
    return out;
}

TEST(DrivenHints, RevoluteHingeOffsetAndHinge) {
    // Written with both offsets zero: far from holding in the random state. offset{1} moves the
    // ground node's point onto node 2's, hinge{1} aligns the frames: position and axis rows 0.
    const std::string j =
        "driven: 2, step, 0.2, 1., 0., hint, \"offset{1}\", hint, \"hinge{1}\",\n" + hinge +
        "joint: 3, angular velocity, 2, 0., 0., 1., const, 0.5;\n";
    SwitchOn s = switch_on(j, "");
    EXPECT_LT(s.constraint, 1e-12);
    EXPECT_LT(s.jac_rel, 1e-6);
    // Without the hints the same rows are far from zero (the test can fail).
    std::string plain = j;
    plain.erase(plain.find(", hint"), plain.find(",\n") - plain.find(", hint"));
    EXPECT_GT(switch_on(plain, "").constraint, 1e-2);
}

TEST(DrivenHints, TotalJointOffsetAndOrientationHinges) {
    // Positions and rotations locked, with imposed d(t) = (0.1, 0.2 t, 0) and theta(t) =
    // (0, 0, 0.3): offset{2} and orientation-hinge{2} make all six rows hold at t = 0.3.
    const std::string j =
        "driven: 2, step, 0.2, 1., 0., hint, \"offset{2}\", hint, \"orientation-hinge{2}\",\n"
        "joint: 2, total joint, 1, position, 0.1, 0., 0., 2, position, 0., 0.2, 0.,\n"
        "    position constraint, active, active, active,\n"
        "        component, 0.1, linear, 0., 0.2, 0.,\n"
        "    orientation constraint, active, active, active, 0., 0., 1., const, 0.3;\n"
        "joint: 3, angular velocity, 2, 0., 0., 1., const, 0.5;\n";
    SwitchOn s = switch_on(j, "");
    EXPECT_LT(s.constraint, 1e-12);
    EXPECT_LT(s.jac_rel, 1e-6);
    // offset{1} and orientation-hinge{1} do the same from end 1's side.
    std::string one = j;
    for (const char* k : {"offset{2}", "orientation-hinge{2}"}) {
        std::size_t p = one.find(k);
        one[one.find('2', p)] = '1';
    }
    EXPECT_LT(switch_on(one, "").constraint, 1e-12);
    std::string plain = j;
    plain.erase(plain.find(", hint"), plain.find(",\n") - plain.find(", hint"));
    EXPECT_GT(switch_on(plain, "").constraint, 1e-2);
}

}  // namespace
