// Finite-difference check of the iteration matrix: J = dr/dy' + dCoef dr/dy is compared with
// central differences of the residual, perturbing y'_j by h and y_j by dCoef h together (which
// is exactly how Newton moves them). Used by one test per element type. In the initial assembly
// (Phase::assembly) the matrix is dr/dy for the differential unknowns (y_j alone is perturbed by
// h) and dr/dy' for the algebraic ones (joint multipliers: y'_j alone), as assemble() moves them.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "parser/test_support.hpp"
#include "solvers/dae/engine.hpp"

namespace mbs::test {

struct JacobianCheck {
    double max_abs_err = 0.0;  // max |J - FD|
    double max_abs_J = 0.0;    // max |J| (scale)
    int row = -1, col = -1;    // worst entry
    std::string where;         // "row owner/name, col owner/name"
    double rel() const { return max_abs_err / std::max(max_abs_J, 1e-300); }
};

// Random state around the deck's initial one: node positions moved by up to `amp`, incremental
// rotations g of size up to `amp`, random velocities, momenta and multipliers of order 1.
inline void randomize_state(Engine& e, unsigned seed, double amp = 0.3) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int i = 0; i < e.size(); ++i) {
        e.y[i] += amp * u(gen);
        e.yp[i] = u(gen);
    }
    // Reference orientations off the identity as well.
    for (auto& n : e.nodes()) {
        Vec3 phi(u(gen), u(gen), u(gen));
        n.Rref = rotation_vector_to_matrix(phi) * n.Rref;
    }
}

// Compares the Jacobian of the whole system built from `deck` at a random state.
inline JacobianCheck check_jacobian(const std::string& deck, unsigned seed = 1, double dCoef = 0.37,
                                    double h = 1e-6, Phase phase = Phase::dynamic) {
    Model m = build(deck);
    Engine e(m, "dense");
    randomize_state(e, seed);
    StepContext c{0.3, 1e-3, dCoef, phase};
    const double dy = phase == Phase::assembly ? h : dCoef * h;
    const double dyp = phase == Phase::assembly ? 0.0 : h;
    const int n = e.size();
    e.update(c.time, c.dt);
    e.jacobian(c);
    // Dense copy of J.
    std::vector<double> J(static_cast<std::size_t>(n) * n, 0.0);
    const CscMatrix& A = e.jac().matrix();
    for (int col = 0; col < n; ++col)
        for (int k = A.col_start()[col]; k < A.col_start()[col + 1]; ++k)
            J[static_cast<std::size_t>(A.row_index()[k]) * n + col] += A.values()[k];
    std::vector<double> rp(n), rm(n);
    JacobianCheck out;
    for (int j = 0; j < n; ++j) {
        // The assembly moves an algebraic unknown (a joint's multiplier) in y', the others in y
        // (Simulation::assemble).
        const bool in_yp = phase == Phase::assembly && e.order(j) == DofOrder::algebraic;
        const double dyj = in_yp ? 0.0 : dy, dypj = in_yp ? h : dyp;
        double y0 = e.y[j], yp0 = e.yp[j];
        e.yp[j] = yp0 + dypj, e.y[j] = y0 + dyj;
        e.update(c.time, c.dt);
        e.residual(c, rp.data());
        e.yp[j] = yp0 - dypj, e.y[j] = y0 - dyj;
        e.update(c.time, c.dt);
        e.residual(c, rm.data());
        e.yp[j] = yp0, e.y[j] = y0;
        for (int i = 0; i < n; ++i) {
            double fd = (rp[i] - rm[i]) / (2 * h);
            double a = J[static_cast<std::size_t>(i) * n + j];
            out.max_abs_J = std::max(out.max_abs_J, std::fabs(a));
            double err = std::fabs(a - fd);
            if (err > out.max_abs_err) out.max_abs_err = err, out.row = i, out.col = j;
        }
    }
    if (out.row >= 0)
        out.where = e.equation(out.row).owner + " " + e.equation(out.row).name + " / unknown of " +
                    e.equation(out.col).owner + " " + e.equation(out.col).name;
    e.update(c.time, c.dt);
    return out;
}

// gtest assertion: relative error below `tol` for several random states.
inline void expect_exact_jacobian(const std::string& deck, double tol = 1e-6, int states = 3) {
    for (int s = 1; s <= states; ++s) {
        JacobianCheck r = check_jacobian(deck, static_cast<unsigned>(s));
        EXPECT_LT(r.rel(), tol) << "state " << s << ": max |J - FD| = " << r.max_abs_err
                                << " (max |J| " << r.max_abs_J << ") at " << r.where;
    }
}

// The Jacobian tests' models: node 1 static, nodes 2 and 3 dynamic (states away from the
// identity) with bodies 101 and 102, then `nodes` and `bodies` of the test's own. `control`: the
// control data's counts; `elements`: the cards under test, after the bodies.
inline std::string test_deck(const std::string& control, const std::string& nodes,
                             const std::string& bodies, const std::string& elements) {
    return deck_head + "begin: control data; " + control +
           " end: control data;\n"
           "begin: nodes;\n"
           "structural: 1, static, 0.1, 0.2, 0.3, euler123, 0.1, 0.2, 0.3, null, null;\n"
           "structural: 2, dynamic, 1., 0.5, -0.2, euler123, -0.4, 0.3, 1.1,"
           " 0.3, -0.1, 0.2, 0.5, 0.4, -0.6;\n"
           "structural: 3, dynamic, 0.3, -1., 0.7, euler123, 0.7, -0.2, 0.4,"
           " -0.2, 0.6, 0.1, -0.3, 0.8, 0.2;\n" +
           nodes +
           "end: nodes;\nbegin: elements;\n"
           "body: 101, 2, 2.5, 0.1, -0.2, 0.3, diag, 1., 2., 3.;\n"
           "body: 102, 3, 1.5, -0.3, 0.2, 0.1, diag, 0.5, 0.7, 0.9;\n" +
           bodies + elements + "end: elements;\n";
}

// Two dynamic displacement nodes (4, 5) with point masses, for test_deck.
inline const char* const displacement_test_nodes =
    "structural: 4, dynamic displacement, 0.5, 0.4, 0.3, 0.1, 0.2, 0.3;\n"
    "structural: 5, dynamic displacement, -0.5, 0.2, 0.1, -0.1, 0.3, 0.2;\n";
inline const char* const displacement_test_bodies = "body: 103, 4, 2.;\nbody: 104, 5, 3.;\n";

// test_deck with a displacement-only node 4 without a body; `joints` joint cards follow (the
// screw and gimbal joint tests' model, at random states).
inline std::string joint_test_deck(int joints, const std::string& elements) {
    return test_deck(
        "structural nodes: 4; rigid bodies: 2; joints: " + std::to_string(joints) + ";",
        "structural: 4, dynamic displacement, 3., 0., 0., null;\n", "", elements);
}

}  // namespace mbs::test
