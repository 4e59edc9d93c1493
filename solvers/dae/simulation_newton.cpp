// Newton iterations of a step and the residual floor of a stalled iteration.
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/source.hpp"
#include "solvers/dae/simulation.hpp"

namespace mbs {

// Residual floor of a stalled Newton iteration (near-singular configurations).
//
// Near a singular position of a closed loop (the N four-bar's collinear position) the smallest
// singular value sigma of the constraint Jacobian goes to 0, the loop force grows like 1/sigma and
// the iteration matrix J has a near-null direction v (a motion along the second mobility with the
// loop force that drives it). Newton's correction dy = -J^-1 r has a component ~|r| / sigma_J along
// v, and the next residual is the second-order remainder r(y + dy) - r(y) - J dy ~ C |dy|^2.
// Measured on the N four-bar at dt = 1e-5, t = 0.71434 s: a fraction t of the correction leaves a
// remainder scaling as t^2 (2.6e-8 at t = 1, 2.6e-10 at t = 0.1); the linear solve's own residual
// is 1e-13..1e-16 and the residual's evaluation noise ~1e-12 N, so neither round-off nor an inexact
// Jacobian is the cause. Once |r| reaches ~sigma_J^2 / C the iteration cannot reduce it: the
// residual 2-cycles between 2.9e-9 and 1.0e-8 N, in the transverse rows (force y, moment z, whose
// terms are ~10 N) of a mechanism whose loop forces are 7e3 .. 1.4e4 N, above the tolerance 1e-9.
//
// Test: |r| <= tol + min(eta S, K tol) (the deck's norm), S = max_i S_i, S_i = sum_j |J_ij| |y'_j|
// the magnitudes of the linearized terms of equation i: reactions phi_x^T lambda (lambda = y' of
// the multipliers), inertia forces (beta') and dCoef K x' (the change of the elastic forces over
// about a step), with J the step's last iteration matrix and y' the last converged step's (the
// stalled iterates' own multipliers wander along v by |r| / sigma_J: S from the iterate itself was
// 1.2e7 N where the last converged step gives 4.5e3 N, which would let the test pass itself; see
// the dt = 5e-5 case below). S is the largest force (or moment)
// acting in the model; eta = 1e-11 (kFloorEta, about 45 units of round-off of S); K = 1e4
// (kFloorTolFactor: the deck's tolerance is missed by at most that factor; a deck asking for
// 1e-30 still fails). The N four-bar's floors at dt = 1e-5 are 2.6e-15 .. 4e-12 of S (residuals
// 2.4e-9 .. 3.9e-7 N, up to 400 tol); the stalled steps that this test rejects (dt = 5e-5 at t
// = 6.5419 s: 1.8e-9 of S; dt = 2e-5 at t = 1.22816 s: 1.6e-10) are steps whose best iterate, when
// taken, put a 10..30-fold jump into the trajectory's error.
//
// When: only where the step would otherwise stop the run (Newton used all its iterations, and
// `strategy: factor` has no smaller step left to try), only if the iteration stalled on the way
// (some iteration from the second on did not improve on the smallest residual of the step), never
// in the derivatives phase; the iterate taken is the step's best one. So a deck that runs today
// runs exactly as before (same iterations, same answers): the test replaces a failure, nothing
// else.
//
// Why it cannot accept an unconverged iterate: an iterate that passes is the exact solution of the
// step's equations with a force of at most tol + 1e-11 S added to them (a backward-error bound: the
// model's forces perturbed by 1e-11 of its largest force, beyond the deck's absolute tolerance),
// and Newton has shown that it cannot reduce that residual further. What it does not bound is the
// forward error along v (the multipliers there are determined only to |r| / sigma_J, hundreds of N
// at the N four-bar's singular steps); steps that the absolute test accepts next to a singular
// position carry that error already (residual 4e-10 N after corrections of 300 N at dt = 1e-5),
// and the positions after the crossing stay second-order accurate (regression/dae_small_steps).
namespace {
constexpr double kFloorEta = 1e-11;
constexpr double kFloorTolFactor = 1e4;
}  // namespace

double Simulation::force_scale() {
    Engine& e = *engine_;
    const int n = e.size();
    const CscMatrix& J = e.jac().matrix();
    std::fill(scale_.begin(), scale_.end(), 0.0);
    for (int col = 0; col < n; ++col) {
        const double a = std::fabs(yp1_[col]);
        if (a == 0.0) continue;
        for (int q = J.col_start()[col]; q < J.col_start()[col + 1]; ++q)
            scale_[J.row_index()[q]] += std::fabs(J.values()[q]) * a;
    }
    double s = 0.0;
    for (double v : scale_) s = std::max(s, v);
    return s;
}

// Newton used all its iterations without meeting the tolerance and stalled on the way: take the
// best iterate of the step if it is at the residual floor (see above); else the step fails.
bool Simulation::floor_accept(const StepContext& c, double tol, StepInfo& info) {
    Engine& e = *engine_;
    std::copy(yb_.begin(), yb_.end(), e.y.begin());
    std::copy(ypb_.begin(), ypb_.end(), e.yp.begin());
    e.update(c.time, c.dt);
    e.residual(c, r_.data());
    const double res = residual_norm();
    const double S = force_scale();
    info.res_err = res;
    if (!(res <= tol + std::min(kFloorEta * S, kFloorTolFactor * tol))) return false;
    info.floor_conv = true;
    ++stats_.floor_steps;
    stats_.floor_worst = std::max(stats_.floor_worst, res / S);
    return true;
}

// Newton on y' with y = (known) + b0 y' (docs/formulation.md 3). Returns true on convergence.
// Static nodes (no inertia) have equilibrium rows that depend on y only: a step solves
// F(y, t_k) = 0 for them, i.e. a load step. In the derivatives phase (y fixed, docs/formulation.md
// 4) their position unknowns do move (y += dCoef dy'): their equations are algebraic, so the phase
// brings them to equilibrium at the initial time (see derivatives()). With `nonlinear solver: line
// search` the correction dy' is scaled by lambda (line_search()); with `modified, n` a search that
// fails along a kept matrix is retried once with a new one.
bool Simulation::newton(const StepContext& c, const StepCoefficients& cd,
                        const StepCoefficients& ca, int max_iter, double tol, StepInfo& info,
                        bool derivatives_phase) {
    Engine& e = *engine_;
    const int n = e.size();
    double* y = e.y.data();
    double* yp = e.yp.data();
    for (int i = 0; i < n; ++i)
        b0_[i] = derivatives_phase ? (e.static_position(i) ||
                                              (der_move_y_ && e.order(i) == DofOrder::differential)
                                          ? c.dCoef
                                          : 0.0)
                                   : (e.order(i) == DofOrder::differential ? cd.b0 : ca.b0);
    fail_reason_ = nullptr;
    bool have_residual = false;  // the line search leaves the residual of its accepted point
    bool refresh = false;        // a line search failed along a kept (modified Newton) matrix
    double best = HUGE_VAL;      // smallest residual norm of the step so far (iterations >= 1)
    bool stalled = false;        // an iteration >= 2 did not improve on it
    for (int it = 0;; ++it) {
        if (abandon && *abandon && c.phase == Phase::dynamic) {
            fail_reason_ = "abandoned";
            return false;  // step() restores the last converged state
        }
        if (!have_residual) {
            e.update(c.time, c.dt);
            e.residual(c, r_.data());
            if (derivatives_phase && der_constraints_on_ && !der_move_y_)
                der_constraints_.apply(e, c.dCoef, r_.data());
        }
        have_residual = false;
        info.iterations = it;
        info.res_err = residual_norm();
        if (!std::isfinite(info.res_err))
            throw SolverFailure(describe_failure("non-finite residual", info));
        // At least one iteration per time step: accepting the predicted state when its residual is
        // already below the tolerance leaves the multipliers inconsistent with the positions by
        // O(tol / h^2), which the two-step formula then carries along (index-3 sensitivity).
        // The derivatives phase converges linearly (its matrix carries dCoef terms the residual
        // does not have, y being fixed): one more iteration after convergence takes the error
        // from tol to about dCoef * tol.
        // With the acceleration-level constraint rows (derivatives()), which the residual holds
        // scaled by dCoef, those rows are also required to meet the tolerance unscaled, or their
        // round-off floor when that is larger (a tolerance below it cannot be met: the phase
        // then fell back on MBDyn's update and moved the initial state, constraint_rows.cpp).
        bool may_stop = derivatives_phase ? it != 1 : it > 0;
        if (derivatives_phase && der_constraints_on_ && !der_move_y_ &&
            der_constraints_.violation() > std::max(tol, der_constraints_.floor()))
            may_stop = false;
        if (may_stop && (set_.test == SolverSettings::Test::none || info.res_err <= tol))
            return true;
        if (info.sol_conv) return true;
        // The residual floor of a near-singular step (floor_accept()), only in place of a failure.
        if (it >= 2 && info.res_err >= best) stalled = true;
        if (it >= 1 && info.res_err < best) {
            best = info.res_err;
            if (floor_ok_ && !derivatives_phase) {
                std::copy(e.y.begin(), e.y.end(), yb_.begin());
                std::copy(e.yp.begin(), e.yp.end(), ypb_.begin());
            }
        }
        if (it >= max_iter && floor_ok_ && !derivatives_phase && stalled &&
            set_.test != SolverSettings::Test::none)
            return floor_accept(c, tol, info);
        if (it >= max_iter) return false;
        // `newton raphson: modified, n`: a new iteration matrix every n iterations of a step.
        const bool fresh = refresh || set_.modified_newton <= 1 || it % set_.modified_newton == 0;
        refresh = false;
        if (fresh) {
            e.jacobian(c);
            ++stats_.factorizations;
            // A singular matrix, or one whose pivot-ratio estimate is below 1e-13 (dependent
            // rows leave round-off pivots that KLU does not call singular: Bricard's linkage),
            // may come from redundant constraints (checked once per run).
            const bool factored = e.linear_solver().factor(e.jac().matrix());
            if (!factored || e.linear_solver().rcond() < 1e-13) {
                if (resolve_redundancy()) {
                    e.update(c.time, c.dt);
                    e.residual(c, r_.data());
                    if (derivatives_phase && der_constraints_on_ && !der_move_y_)
                        der_constraints_.apply(e, c.dCoef, r_.data());
                    e.jacobian(c);
                    if (!e.linear_solver().factor(e.jac().matrix()))
                        throw SolverFailure(singular_failure("singular iteration matrix", info));
                } else if (!factored) {
                    throw SolverFailure(singular_failure("singular iteration matrix", info));
                }
            }
        }
        // The line search acts on unconverged iterates only (an iteration taken past the
        // tolerance, as in the derivatives phase, polishes round-off the search cannot see), and
        // not in the derivatives phase of dynamic models, whose matrix is not the residual's
        // derivative (y is fixed there), so its correction need not be a descent direction.
        const bool search =
            set_.line_search && info.res_err > tol && (!derivatives_phase || e.static_model());
        double f0 = 0.0;
        for (int i = 0; i < n; ++i) {
            f0 += 0.5 * r_[i] * r_[i];
            if (search) ls_g_[i] = r_[i];
            r_[i] = -r_[i];
        }
        e.linear_solver().solve(r_.data());
        ++stats_.iterations;
        if (search) {
            if (!line_search(c, f0, info, fail_reason_)) {
                // A kept matrix may give no descent direction: retry once with a new one.
                if (fresh) return false;
                refresh = true;
                have_residual = true;  // the start point and its residual, restored
                fail_reason_ = nullptr;
                continue;
            }
            have_residual = true;
            info.sol_conv = set_.sol_tol > 0.0 && info.sol_err <= set_.sol_tol;
            continue;
        }
        double dnorm = 0.0;
        for (int i = 0; i < n; ++i) {
            yp[i] += r_[i];
            y[i] += b0_[i] * r_[i];
            dnorm += r_[i] * r_[i];
        }
        info.sol_err = std::sqrt(dnorm);
        info.sol_conv = set_.sol_tol > 0.0 && info.sol_err <= set_.sol_tol;
    }
}

}  // namespace mbs
