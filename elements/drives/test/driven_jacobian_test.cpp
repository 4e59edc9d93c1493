// Finite-difference Jacobian (solvers/dae/test/jacobian_check.hpp, at t = 0.3) of a `driven`
// element (driven_element.cpp) while active (its element's equations) and inactive (identity
// rows on its multipliers), in the card form and the `existing:` form.
#include <gtest/gtest.h>

#include <string>

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

}  // namespace
