// The derivatives phase (docs/formulation.md 4.2).
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/source.hpp"
#include "solvers/dae/simulation.hpp"

namespace mbs {

void Simulation::derivatives() {
    Engine& e = *engine_;
    StepContext c{t_, set_.dt, set_.der_coef, Phase::dynamic};
    e.initialize_momenta(c, r_.data());
    // Constraint rows at acceleration level (constraint_rows.hpp): the velocity-dependent
    // reactions (centripetal forces, drives' accelerations) at the initial state.
    der_constraints_on_ = der_constraints_.setup(e, c.dCoef);
    e.update(c.time, c.dt);
    StepInfo info;
    info.time = t_;
    info.dt = set_.dt;
    StepCoefficients none;
    // MBDyn's default is one iteration; more are allowed when the residual is not yet small.
    // In a static model this phase is the equilibrium at the initial time, a load step like the
    // others: the steps' tolerance applies, and their iteration limit when it is the larger.
    int max_iter = std::max(set_.der_max_iter, 10);
    double tol = set_.der_tol;
    if (e.static_model()) max_iter = std::max(max_iter, set_.max_iter), tol = set_.tol;
    // y stays fixed in this phase, except the positions of static nodes (newton()): a failed try
    // is undone by restoring y and y' (`auto` retries with a larger coefficient, which
    // regularizes the matrix more).
    //
    // With y fixed the iteration matrix dr/dy' + dCoef dr/dy is not the derivative of the
    // residual, so Newton converges only linearly, with a rate of about dCoef^2 lambda_max(K)/m
    // (the dCoef terms of the stiffness, fed back through the dCoef term of the momentum rows):
    // stiff models (cantilever_100: rate ~1.6) diverge. A failed try is then repeated with
    // MBDyn's own update (DerivativeSolver::Update: y += dCoef dy' for differential unknowns),
    // for which the matrix is the exact derivative: Newton converges quadratically, and the
    // positions and momenta move by dCoef dy' (reported as a warning with its size).
    const std::vector<double> y0 = e.y, yp0 = e.yp;
    der_move_y_ = false;
    for (int attempt = 0;; ++attempt) {
        bool ok = false;
        try {
            ok = newton(c, none, none, max_iter, tol, info, true);
        } catch (const SolverFailure& f) {
            if (!set_.der_auto && der_move_y_) throw;
            if (der_move_y_ && attempt >= 2 * set_.der_auto_tries + 1) {
                char tries[128];
                std::snprintf(tries, sizeof tries,
                              "\n  derivatives coefficient: auto, last tried %.3g (%d tries)",
                              c.dCoef, attempt + 1);
                throw SolverFailure(f.what() + std::string(tries));
            }
        }
        if (ok) break;
        if (!der_move_y_) {
            // Same coefficient, MBDyn's update.
            der_move_y_ = true;
            e.y = y0;
            e.yp = yp0;
            continue;
        }
        if (!set_.der_auto || attempt >= 2 * set_.der_auto_tries + 1) {
            char coef[64];
            std::snprintf(coef, sizeof coef, " (derivatives coefficient %.3g)", c.dCoef);
            std::string what = e.static_model()
                                   ? "initial equilibrium (derivatives phase) did not converge"
                                   : "derivatives phase did not converge";
            if (fail_reason_) what += std::string(": ") + fail_reason_;
            throw SolverFailure(
                describe_failure(what + coef, info) +
                (set_.der_auto ? ""
                               : "\n  hint: 'derivatives coefficient: auto;' retries with larger "
                                 "coefficients; or raise 'derivatives max iterations'"));
        }
        c.dCoef *= set_.der_auto_factor;
        der_move_y_ = false;
        e.y = y0;
        e.yp = yp0;
    }
    // The acceleration-level constraint rows served unless MBDyn's update was needed.
    if (der_constraints_on_ && !der_move_y_) {
        e.update(t_, set_.dt);
        der_constraints_.finish(e);
    }
    der_constraints_on_ = false;
    if (der_move_y_) {
        double moved = 0.0;
        int worst = 0;
        for (int i = 0; i < e.size(); ++i)
            if (!e.static_position(i) && std::abs(e.y[i] - y0[i]) > moved)
                moved = std::abs(e.y[i] - y0[i]), worst = i;
        der_move_y_ = false;
        if (on_warning) {
            char buf[160];
            std::snprintf(buf, sizeof buf,
                          "derivatives phase: converged only with MBDyn's update (y += dCoef dy', "
                          "dCoef = %.3g); the "
                          "initial state moved by up to %.3g (",
                          c.dCoef, moved);
            on_warning(buf + e.equation(worst).owner + ")");
        }
    }
    // Static nodes reached equilibrium by y += dCoef dy': their y' holds that displacement over
    // dCoef, not a velocity; they keep the initial (assembled) velocities.
    for (int i = 0; i < e.size(); ++i)
        if (e.static_position(i)) e.yp[i] = yp0[i];
    e.update(t_, set_.dt);
    e.commit(c);
    last_info_ = info;
}

}  // namespace mbs
