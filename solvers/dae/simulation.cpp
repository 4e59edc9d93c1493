// Derivatives phase, time loop, Newton iterations and step control.
#include "solvers/dae/simulation.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/source.hpp"

namespace mbs {

namespace {

// Spectral radii are drive callers restricted to constants in [0, 1] (docs/deck-language.md 2.1);
// errors point at the drive in the deck.
double spectral_radius(const Props& p, const char* key, double fallback) {
    const auto* v = p.find(key);
    const auto* d = v ? std::get_if<std::shared_ptr<const DriveSpec>>(v) : nullptr;
    if (!d) return fallback;
    const DriveSpec& s = **d;
    double rho = s.type == "const"                       ? s.params.get<double>("value")
                 : s.type == "null"                      ? 0.0
                 : (s.type == "unit" || s.type == "one") ? 1.0
                                                         : -1.0;
    if (s.type != "const" && rho < 0.0)
        throw InputError(s.loc, "the spectral radius must be a constant",
                         "write a number in [0, 1]");
    if (rho < 0.0 || rho > 1.0)
        throw InputError(s.loc, "spectral radius " + std::to_string(rho) + " is outside [0, 1]");
    return rho;
}

double real_or(const Props& p, const char* key, double fallback) {
    const auto* v = p.find(key);
    if (!v) return fallback;
    if (const auto* x = std::get_if<double>(v)) return *x;
    if (const auto* l = std::get_if<long>(v)) return static_cast<double>(*l);
    return fallback;
}

}  // namespace

SolverSettings SolverSettings::from_model(const Model& m) {
    const Props& p = m.solver;
    SolverSettings s;
    s.t0 = real_or(p, "initial time", 0.0);
    if (p.get_or<std::string>("final time", "") == "forever")
        s.forever = true;
    else
        s.tf = real_or(p, "final time", s.t0 + 1.0);
    s.dt = real_or(p, "time step", 1e-3);
    s.min_dt = real_or(p, "min time step", 0.0);
    s.tol = real_or(p, "residual tolerance", 1e-6);
    std::string test = p.get_or<std::string>("residual test", "norm");
    s.test = test == "minmax" ? Test::minmax : test == "none" ? Test::none : Test::norm;
    s.sol_tol = real_or(p, "solution tolerance", 0.0);
    s.max_iter = static_cast<int>(p.get_or<long>("max iterations", 1));
    s.modified_newton = static_cast<int>(p.get_or<long>("newton modified iterations", 0));
    s.linear_solver = p.get_or<std::string>("linear solver", "klu");
    s.der_coef = real_or(p, "derivatives coefficient", 1e-6);
    s.der_tol = real_or(p, "derivatives tolerance", 1e-6);
    s.der_max_iter = static_cast<int>(p.get_or<long>("derivatives max iterations", 1));
    s.der_auto = p.get_or<bool>("derivatives coefficient auto", false);
    s.dummy_steps = static_cast<int>(p.get_or<long>("dummy steps number", 0));
    s.dummy_ratio = real_or(p, "dummy steps ratio", 1e-3);
    s.dummy_tol = real_or(p, "dummy steps tolerance", s.tol);
    s.dummy_max_iter = static_cast<int>(p.get_or<long>("dummy steps max iterations", s.max_iter));
    std::string abort = p.get_or<std::string>("abort after", "");
    s.abort_after = abort == "input"         ? Abort::input
                    : abort == "assembly"    ? Abort::assembly
                    : abort == "derivatives" ? Abort::derivatives
                    : abort == "dummy steps" ? Abort::dummy_steps
                                             : Abort::none;
    s.der_auto_tries =
        static_cast<int>(p.get_or<long>("derivatives coefficient max iterations", 6));
    s.der_auto_factor = real_or(p, "derivatives coefficient factor", 10.0);

    std::string method = p.get_or<std::string>("method", "bdf");
    Method& md = s.method;
    md.name = method;
    if (method == "ms" || method == "hope") {
        md.kind = method == "ms" ? Method::Kind::ms : Method::Kind::hope;
        md.rho = spectral_radius(p, "rho", 0.0);
        md.rho_alg = spectral_radius(p, "rho algebraic", md.rho);
    } else if (method == "bdf") {
        md.kind =
            p.get_or<long>("bdf order", 2) == 1 ? Method::Kind::implicit_euler : Method::Kind::ms;
        md.rho = md.rho_alg = 0.0;
    } else if (method == "implicit euler") {
        md.kind = Method::Kind::implicit_euler;
    } else if (method == "crank nicolson") {
        md.kind = Method::Kind::crank_nicolson;
    } else {
        // The solver block keeps no location for its cards.
        throw InputError(SourceLoc{}, "integration method '" + method + "' is not supported yet",
                         "use ms, hope, bdf, implicit euler or crank nicolson");
    }

    const Props& ctl = m.control;
    s.skip_assembly = ctl.get_or<bool>("skip initial joint assembly", false);
    s.assembly_stiffness = real_or(ctl, "initial stiffness", 1.0);
    s.assembly_vel_stiffness = real_or(ctl, "initial velocity stiffness", 1.0);
    s.assembly_tol = real_or(ctl, "assembly tolerance", 1e-6);
    s.assembly_max_iter = static_cast<int>(ctl.get_or<long>("assembly max iterations", 1));

    if (p.get_or<std::string>("nonlinear solver", "") == "line search") {
        s.line_search = true;
        auto& l = s.ls;
        l.tol_x = real_or(p, "line search tolerance x", l.tol_x);
        l.tol_min = real_or(p, "line search tolerance min", l.tol_min);
        l.max_iter = static_cast<int>(p.get_or<long>("line search max iterations", l.max_iter));
        l.alpha = real_or(p, "line search alpha", l.alpha);
        l.lambda_min = real_or(p, "line search lambda min", l.lambda_min);
        l.lambda_relative = p.get_or<bool>("line search lambda min relative", l.lambda_relative);
        l.lambda_factor_min = real_or(p, "line search lambda factor min", l.lambda_factor_min);
        l.max_step = real_or(p, "line search max step", l.max_step);
        l.zero_gradient_continue = p.get_or<bool>("line search zero gradient continue", false);
        l.divergence_check = p.get_or<bool>("line search divergence check", l.divergence_check);
        l.divergence_factor = real_or(p, "line search divergence factor", l.divergence_factor);
        l.cubic = p.get_or<std::string>("line search algorithm", "cubic") == "cubic";
        l.scale_newton_step = p.get_or<bool>("line search scale newton step", l.scale_newton_step);
        l.min_scale = real_or(p, "line search min scale", l.min_scale);
        l.verbose = p.get_or<bool>("line search verbose", false);
        l.print = l.verbose || p.get_or<bool>("line search print convergence info", false);
        l.abort_at_lambda_min =
            p.get_or<bool>("line search abort at lambda min", l.abort_at_lambda_min);
    }

    if (p.get_or<std::string>("strategy", "") == "factor") {
        s.strategy_factor = true;
        s.red_factor = real_or(p, "strategy reduction factor", 0.5);
        s.steps_before_red = static_cast<int>(p.get_or<long>("strategy steps before reduction", 1));
        s.raise_factor = real_or(p, "strategy raise factor", 1.0);
        s.steps_before_raise = static_cast<int>(p.get_or<long>("strategy steps before raise", 1));
        s.min_iter = static_cast<int>(p.get_or<long>("strategy min iterations", 1));
        s.max_iter_raise = static_cast<int>(p.get_or<long>("strategy max iterations", 0));
        if (const auto* v = p.find("max time step"))
            if (const auto* d = std::get_if<std::shared_ptr<const DriveSpec>>(v))
                if ((*d)->type == "const") s.max_dt = (*d)->params.get<double>("value");
        if (s.min_dt <= 0.0) s.min_dt = s.dt * 1e-6;
    }
    return s;
}

Simulation::Simulation(const Model& m, const SolverSettings& s) : set_(s) {
    engine_ = std::make_unique<Engine>(m, s.linear_solver);
    int n = engine_->size();
    for (auto* v : {&r_, &y1_, &yp1_, &y2_, &yp2_, &b0_, &scale_, &yb_, &ypb_}) v->assign(n, 0.0);
    if (s.line_search)
        for (auto* v : {&ls_y_, &ls_yp_, &ls_p_, &ls_g_}) v->assign(n, 0.0);
    t_ = s.t0;
    T_ = s.dt;
}

double Simulation::residual_norm() const {
    double acc = 0.0;
    if (set_.test == SolverSettings::Test::minmax) {
        for (double v : r_) acc = std::max(acc, std::fabs(v));
        return acc;
    }
    for (double v : r_) acc += v * v;
    return std::sqrt(acc);
}

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

std::string Simulation::describe_failure(const std::string& what, const StepInfo& info) const {
    // The first non-finite entry, else the largest one.
    int worst = 0;
    for (int i = 0; i < engine_->size(); ++i) {
        if (!std::isfinite(r_[i])) {
            worst = i;
            break;
        }
        if (std::fabs(r_[i]) > std::fabs(r_[worst])) worst = i;
    }
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "%s at t = %.9g (step %ld, dt = %.6g), iteration %d, residual norm %.6g",
                  what.c_str(), info.time, info.step, info.dt, info.iterations, info.res_err);
    std::string s = buf;
    if (engine_->size() > 0 && r_[worst] != 0.0) {
        const EquationInfo& e = engine_->equation(worst);
        std::snprintf(buf, sizeof buf, "\n  worst equation: %s, %s (residual %.6g)",
                      e.owner.c_str(), e.name.c_str(), r_[worst]);
        s += buf;
    }
    return s;
}

std::string Simulation::singular_failure(const std::string& what, const StepInfo& info) const {
    std::string s = describe_failure(what, info);
    int k = engine_->linear_solver().singular_index();
    if (k >= 0 && k < engine_->size()) {
        const EquationInfo& q = engine_->equation(k);
        s += "\n  no equation determines the unknown '" + q.unknown + "' of " + q.owner;
        if (q.owner.rfind("structural node", 0) == 0 && engine_->static_position(k))
            s += "\n  hint: a static node has no inertia: it needs a stiffness (a joint, a "
                 "deformable element, a "
                 "rod, ...) in every direction it can move; a mechanism has no unique static "
                 "equilibrium";
        else if (q.owner.rfind("structural node", 0) == 0)
            s += "\n  hint: a dynamic node needs a mass (a body) in every direction it can move, "
                 "or a joint "
                 "that holds it";
    }
    return s;
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
        // scaled by dCoef, those rows are also required to meet the tolerance unscaled.
        bool may_stop = derivatives_phase ? it != 1 : it > 0;
        if (derivatives_phase && der_constraints_on_ && !der_move_y_ &&
            der_constraints_.violation() > tol)
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

// A failed line search leaves the start point and its residual (for the failure message).
bool Simulation::restore_line_search_start(const StepContext& c) {
    Engine& e = *engine_;
    for (int i = 0; i < e.size(); ++i) {
        e.y[i] = ls_y_[i];
        e.yp[i] = ls_yp_[i];
        r_[i] = ls_g_[i];
    }
    e.update(c.time, c.dt);
    return false;
}

// Backtracking line search (Numerical Recipes' lnsrch, MBDyn's `line search` options). With F
// the residual at the start point and p = -J^-1 F the Newton correction of y' (y moves by b0 p),
// f(lambda) = 1/2 |F(y' + lambda gamma p)|^2 has the initial slope f'(0) = -gamma F^T F = -2 gamma
// f0 (J exact). gamma = max(min scale, min(1, max step * max(|(y, y')|, n) / |p|)) limits the step
// (`scale newton step`). lambda = 1 is tried first; while f > f0 + alpha lambda f'(0), lambda is
// replaced by the minimiser of the quadratic (first backtrack) or cubic (later ones) through
// f(0), f'(0) and the last one or two trials (`algorithm, cubic`), kept in
// [lambda factor min * lambda, lambda / 2], or multiplied by `lambda factor min` (`algorithm,
// factor`). lambda never goes below lambda_min' = max(lambda min, min(1, tolerance x / t)),
// t = max_i |p_i| / max(|y_i|, |y'_i|, 1) (`relative, yes`, the default). At lambda_min' without
// sufficient decrease: the step fails (`abort at lambda min`, default) or the point is taken;
// then a gradient test max_j |(J^T F)_j| max(|y'_j|, 1) / max(f0, n / 2) < `tolerance min` flags
// a local minimum of f (fails unless `zero gradient, continue`), and `divergence check` fails the
// step when f > factor * f0. No allocation: start point, direction and F live in ls_* buffers.
bool Simulation::line_search(const StepContext& c, double f0, StepInfo& info, const char*& why) {
    Engine& e = *engine_;
    const auto& L = set_.ls;
    const int n = e.size();
    double* y = e.y.data();
    double* yp = e.yp.data();
    double pn2 = 0.0, ref2 = 0.0, t_rel = 0.0;
    for (int i = 0; i < n; ++i) {
        ls_p_[i] = r_[i];
        ls_y_[i] = y[i];
        ls_yp_[i] = yp[i];
        pn2 += r_[i] * r_[i];
        ref2 += y[i] * y[i] + yp[i] * yp[i];
        t_rel =
            std::max(t_rel, std::fabs(r_[i]) / std::max({std::fabs(y[i]), std::fabs(yp[i]), 1.0}));
    }
    double gamma = 1.0;
    if (L.scale_newton_step) {
        const double stpmax = L.max_step * std::max(std::sqrt(ref2), static_cast<double>(n));
        const double pn = std::sqrt(pn2);
        if (pn > stpmax) gamma = std::max(L.min_scale, stpmax / pn);
    }
    const double slope = -2.0 * f0 * gamma;
    double lam_min = L.lambda_min;
    if (L.lambda_relative && t_rel > 0.0)
        lam_min = std::max(lam_min, std::min(L.tol_x / t_rel, 1.0));
    double lam = 1.0, lam2 = 0.0, f2 = 0.0, f = 0.0;
    bool have_prev = false, at_min = false;
    for (int k = 1;; ++k) {
        const double step = lam * gamma;
        for (int i = 0; i < n; ++i) {
            yp[i] = ls_yp_[i] + step * ls_p_[i];
            y[i] = ls_y_[i] + b0_[i] * step * ls_p_[i];
        }
        e.update(c.time, c.dt);
        e.residual(c, r_.data());
        f = 0.0;
        for (int i = 0; i < n; ++i) f += 0.5 * r_[i] * r_[i];
        if (L.verbose)
            std::fprintf(stderr, "line search: t = %.9g, trial %d: lambda %.6g, f %.6g (f0 %.6g)\n",
                         c.time, k, lam, f, f0);
        if (std::isfinite(f) && f <= f0 + L.alpha * lam * slope) break;
        if (lam <= lam_min || k >= L.max_iter) {
            at_min = true;
            if (L.abort_at_lambda_min || !std::isfinite(f)) {
                why =
                    "line search: lambda reached its minimum without a sufficient decrease of the "
                    "residual";
                return restore_line_search_start(c);
            }
            break;
        }
        double next;
        if (!std::isfinite(f)) {
            next = lam * L.lambda_factor_min;
            have_prev = false;
        } else if (!L.cubic) {
            next = lam * L.lambda_factor_min;
        } else if (!have_prev) {
            next = -slope * lam * lam / (2.0 * (f - f0 - slope * lam));
        } else {
            const double r1 = f - f0 - lam * slope, r2 = f2 - f0 - lam2 * slope;
            const double a = (r1 / (lam * lam) - r2 / (lam2 * lam2)) / (lam - lam2);
            const double b = (-lam2 * r1 / (lam * lam) + lam * r2 / (lam2 * lam2)) / (lam - lam2);
            if (a == 0.0) {
                next = -slope / (2.0 * b);
            } else {
                const double disc = b * b - 3.0 * a * slope;
                next = disc < 0.0 ? 0.5 * lam
                       : b <= 0.0 ? (-b + std::sqrt(disc)) / (3.0 * a)
                                  : -slope / (b + std::sqrt(disc));
            }
            next = std::min(next, 0.5 * lam);
        }
        if (std::isfinite(f)) {
            lam2 = lam;
            f2 = f;
            have_prev = true;
        }
        if (!(next >= L.lambda_factor_min * lam)) next = L.lambda_factor_min * lam;  // also NaN
        lam = std::max(next, lam_min);
    }
    if (at_min) {
        // Gradient of f: J^T F (J as factored; F saved in ls_g_ by newton()).
        const CscMatrix& J = e.jac().matrix();
        double test = 0.0;
        for (int col = 0; col < n; ++col) {
            double g = 0.0;
            for (int q = J.col_start()[col]; q < J.col_start()[col + 1]; ++q)
                g += J.values()[q] * ls_g_[J.row_index()[q]];
            test = std::max(test, std::fabs(g) * std::max(std::fabs(ls_yp_[col]), 1.0));
        }
        test /= std::max(f0, 0.5 * n);
        if (test < L.tol_min && !L.zero_gradient_continue) {
            why =
                "line search: zero gradient of the residual norm (a local minimum that is not a "
                "solution)";
            return restore_line_search_start(c);
        }
    }
    if (L.divergence_check && f > L.divergence_factor * f0) {
        why = "line search: the residual grew (divergence check)";
        return restore_line_search_start(c);
    }
    info.sol_err = lam * gamma * std::sqrt(pn2);
    if (L.print)
        std::fprintf(stderr,
                     "line search: t = %.9g, iteration %d: lambda %.6g%s, residual %.6g -> %.6g\n",
                     c.time, info.iterations + 1, lam * gamma, at_min ? " (minimum)" : "",
                     std::sqrt(2.0 * f0), std::sqrt(2.0 * f));
    return true;
}

// Factors the iteration matrix; a singular one, or one whose pivot-ratio estimate is below
// 1e-13 (dependent rows leave round-off pivots that KLU does not call singular), is first
// checked for redundant constraints (among the rows `consider`, null: all). Returns false only
// for a singular matrix: an ill-conditioned one without redundancy goes on as before.
bool Simulation::factor_or_drop_redundant(const std::function<void()>& rebuild,
                                          const std::vector<char>* consider) {
    LinearSolver& ls = engine_->linear_solver();
    bool ok = ls.factor(engine_->jac().matrix());
    if (ok && !(ls.rcond() < 1e-13)) return true;
    if (!resolve_redundancy(consider)) return ok;
    rebuild();
    return ls.factor(engine_->jac().matrix());
}

// Redundant constraints (closed loops with more equations than independent ones, e.g. a planar
// four-bar modelled with spatial revolute hinges). The constraint rows of the iteration matrix
// just built, restricted to the node columns, are Phi_q (for position constraints the phi/dCoef
// scaling makes them exactly dphi/dy; velocity constraints contribute their dr/dy' + dCoef dr/dy).
// They are orthogonalized in deck order (modified Gram-Schmidt, applied twice for stability); a
// row whose remainder is below 1e-9 of its norm depends on earlier rows. Each such equation is
// replaced by lambda = 0 (Engine::set_redundant): the motion is that of the independent
// equations; the reactions of the joints involved are not unique (this choice carries them on
// the earlier equations). Done once, at the first singular factorization; dense, so limited to
// (constraint rows) x (node unknowns) <= 1e7.
bool Simulation::resolve_redundancy(const std::vector<char>* consider) {
    if (redundancy_checked_) return false;
    redundancy_checked_ = true;
    return drop_redundant(consider);
}

// The check of resolve_redundancy() on the rows `consider` (null: every element-owned algebraic
// row) that are not dropped yet; the rows found join those dropped before.
bool Simulation::drop_redundant(const std::vector<char>* consider) {
    Engine& e = *engine_;
    const int n = e.size();
    int nn = n;  // node unknowns come first
    for (const auto& el : e.elements())
        if (el->own_dofs() > 0) nn = std::min(nn, el->first_dof());
    std::vector<char> dropped(n, 0);
    for (int i : e.redundant()) dropped[i] = 1;
    std::vector<int> rows;
    for (int i = nn; i < n; ++i)
        if (e.order(i) == DofOrder::algebraic && !dropped[i] && (!consider || (*consider)[i]))
            rows.push_back(i);
    if (rows.empty() || static_cast<double>(rows.size()) * nn > 1e7) return false;
    std::vector<int> where(n, -1);
    for (std::size_t k = 0; k < rows.size(); ++k) where[rows[k]] = static_cast<int>(k);
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(rows.size()), nn);
    const CscMatrix& J = e.jac().matrix();
    for (int col = 0; col < nn; ++col)
        for (int k = J.col_start()[col]; k < J.col_start()[col + 1]; ++k)
            if (int r = where[J.row_index()[k]]; r >= 0) A(r, col) = J.values()[k];
    std::vector<Eigen::VectorXd> basis;
    std::vector<int> redundant;
    for (std::size_t k = 0; k < rows.size(); ++k) {
        Eigen::VectorXd v = A.row(static_cast<Eigen::Index>(k)).transpose();
        const double norm0 = v.norm();
        for (int pass = 0; pass < 2; ++pass)
            for (const auto& q : basis) v -= q.dot(v) * q;
        if (norm0 == 0.0 || v.norm() <= 1e-9 * norm0) {
            redundant.push_back(rows[k]);
        } else {
            basis.push_back(v / v.norm());
        }
    }
    if (redundant.empty()) return false;
    std::vector<int> all = e.redundant();
    all.insert(all.end(), redundant.begin(), redundant.end());
    std::sort(all.begin(), all.end());
    e.set_redundant(all);
    std::string msg = "redundant constraints: " + std::to_string(redundant.size()) + " of " +
                      std::to_string(rows.size()) + " constraint equations depend on the others";
    std::string owner;
    for (int i : redundant) {
        const EquationInfo& q = e.equation(i);
        if (q.owner != owner) msg += "\n  " + q.owner + ":", owner = q.owner;
        msg += " " + q.name + ";";
    }
    msg +=
        "\n  they are replaced by zero multipliers: the motion is unaffected, the reactions of "
        "these "
        "joints are not unique";
    if (on_warning) on_warning(msg);
    return true;
}

// Unknowns: node positions and incremental rotations (in y), multipliers of the joints that take
// part (in y'). Node rows get the regularization -Kp (x - x0) and -Kp g (g: the rotation from
// the initial orientation); momentum unknowns and the multipliers of other elements are frozen
// (identity rows, zero residual).
int Simulation::assemble() {
    Engine& e = *engine_;
    const int n = e.size();
    if (set_.skip_assembly || n == 0) return 0;
    std::vector<char> active(n, 0);
    std::vector<double> kp(n, 0.0), x0(n, 0.0);
    // Elements outside the position part may still impose velocities (velocity joints: their
    // rows join the velocity part), so only a model without element unknowns skips it.
    bool any = false;
    for (const auto& el : e.elements()) {
        any = any || el->own_dofs() > 0;
        if (el->in_assembly())
            for (int i = 0; i < el->own_dofs(); ++i) active[el->first_dof() + i] = 1;
    }
    if (!any) return 0;
    for (const auto& nd : e.nodes()) {
        if (nd.is_dummy()) continue;
        double k =
            nd.desc().props.get_or<double>("assembly position stiffness", set_.assembly_stiffness);
        for (int i = 0; i < nd.pos_cols(); ++i) {
            active[nd.first_dof() + i] = 1;
            kp[nd.first_dof() + i] = k;
            x0[nd.first_dof() + i] = e.y[nd.first_dof() + i];
        }
    }
    StepContext c{t_, set_.dt, 1.0, Phase::assembly};
    StepInfo info;
    info.time = t_;
    int max_iter = std::max(set_.assembly_max_iter, 1);
    int polish = 2;
    for (int it = 0;; ++it) {
        e.update(c.time, c.dt);
        e.residual(c, r_.data());
        for (int i = 0; i < n; ++i) r_[i] = active[i] ? r_[i] - kp[i] * (e.y[i] - x0[i]) : 0.0;
        info.iterations = it;
        info.res_err = residual_norm();
        if (!std::isfinite(info.res_err))
            throw SolverFailure(
                describe_failure("non-finite residual in the initial assembly", info));
        // Once converged after moving the nodes, two more (quadratically converging) iterations
        // leave the constraints at round-off: the derivatives phase divides them by its small
        // coefficient and cannot move positions to reduce them.
        if (info.res_err <= set_.assembly_tol && (it == 0 || polish-- == 0)) break;
        if (it >= max_iter && info.res_err > set_.assembly_tol)
            throw SolverFailure(
                describe_failure("initial assembly did not converge (max iterations " +
                                     std::to_string(max_iter) + ")",
                                 info) +
                "\n  hint: check the joints' initial geometry, raise 'max iterations' in control "
                "data, or 'skip initial joint assembly;'");
        // After dropping redundant equations, residual and matrix are evaluated again.
        auto build = [&] {
            e.update(c.time, c.dt);
            e.residual(c, r_.data());
            for (int i = 0; i < n; ++i) r_[i] = active[i] ? r_[i] - kp[i] * (e.y[i] - x0[i]) : 0.0;
            e.jacobian(c);
            for (int i = 0; i < n; ++i) e.jac().add_to_diagonal(i, active[i] ? -kp[i] : 1.0);
        };
        e.jacobian(c);
        for (int i = 0; i < n; ++i) e.jac().add_to_diagonal(i, active[i] ? -kp[i] : 1.0);
        // Only the assembly's own rows: the frozen rows of other elements (a velocity joint's)
        // have no entries in the node columns, which would read as a degenerate constraint.
        if (!factor_or_drop_redundant(build, &active))
            throw SolverFailure(singular_failure("singular matrix in the initial assembly", info));
        for (int i = 0; i < n; ++i) r_[i] = -r_[i];
        e.linear_solver().solve(r_.data());
        for (int i = 0; i < n; ++i)
            if (active[i]) (e.order(i) == DofOrder::differential ? e.y[i] : e.yp[i]) += r_[i];
        ++stats_.factorizations;
    }
    // The assembled orientations become the reference ones (g = 0), velocities stay as given.
    e.update(c.time, c.dt);
    for (auto& nd : e.nodes()) {
        if (nd.is_dummy() || !nd.has_rotation()) continue;
        nd.Rref = nd.R_prev = nd.R_prev2 = nd.R;
        for (int i = 3; i < 6; ++i) e.y[nd.first_dof() + i] = 0.0;
    }
    // The multipliers of the assembly's elements held its reactions: reset. Other element-owned
    // unknowns were frozen and keep their start values (an algebraic abstract node's value lives
    // in its y' slot, a differential one's derivative in y').
    for (const auto& el : e.elements())
        if (el->in_assembly())
            for (int i = 0; i < el->own_dofs(); ++i)
                if (el->own_dof_order(i) == DofOrder::algebraic) e.yp[el->first_dof() + i] = 0.0;
    e.update(c.time, c.dt);
    assemble_velocities(active);
    return info.iterations;
}

// Velocity part of the initial assembly (docs/formulation.md 4): the velocities closest to the
// given ones v0 in the norm of the velocity stiffnesses Kv that satisfy the constraints' time
// derivative,
//   Kv (v - v0) - B mu = 0,   Phi_q v + Phi_t = 0,   A v - b(t) = 0,
// where v = (xdot, w) of the nodes (w = g' at g = 0, which assemble() has just set) and B mu the
// constraint reactions. With dv = v - v0 this is the assembly matrix [-Kv B; Phi_q 0] at zero
// multipliers (its constraint rows are r_c(y, t) with Phi_q = dr_c/dy) and the right-hand side
// -(Phi_q v0 + Phi_t) on the constraint rows; Phi_t is the elements' own time derivative of r_c
// at fixed positions (Element::constraint_rate(): the total joint family, from the drives'
// derivatives as MBDyn's dGetP) or else a forward difference in time. Linear in dv: one solve.
//
// Velocity-level rows A v = b(t) (axial rotation, the total joint's velocity statuses, linear
// and angular velocity joints; MBDyn's InitialAssRes imposes those of the axial rotation and of
// the velocity joints) hold their multipliers at zero in the position part, and some elements
// take no part in it: their rows come from the run's own residual, r_v = b(t) - A v
// (classify_constraint_rows(): rows whose residual does not scale with dCoef), with
// A = dr_v/d(xdot, w) the dCoef -> 0 limit 2 J(1) - J(2) of the run's iteration matrix on the
// node columns (at g = 0 the columns of g' are those of w), and B's columns of their
// multipliers from the same matrix. Such a row adds A dv = -r_v(v0); a row with entries in
// other unknowns' columns (an acceleration joint's state, an abstract node's own value) is not
// a velocity constraint on the nodes and stays frozen.
void Simulation::assemble_velocities(const std::vector<char>& assembly_active) {
    assemble_velocities(assembly_active, true);
}

// may_drop: a singular (or ill-conditioned) matrix is checked once for redundant constraints
// among its constraint rows (a velocity joint imposing what position constraints already do);
// the dependent ones are dropped for the run, as in the steps, and the system is built again.
void Simulation::assemble_velocities(const std::vector<char>& assembly_active, bool may_drop) {
    Engine& e = *engine_;
    const int n = e.size();
    std::vector<char> active = assembly_active, node_col(n, 0), vel_row(n, 0);
    std::vector<double> kv(n, 0.0), v0(n, 0.0), rt(n, 0.0);
    for (const auto& nd : e.nodes()) {
        if (nd.is_dummy()) continue;
        double k = nd.desc().props.get_or<double>("assembly velocity stiffness",
                                                  set_.assembly_vel_stiffness);
        for (int i = 0; i < nd.pos_cols(); ++i) {
            node_col[nd.first_dof() + i] = 1;
            kv[nd.first_dof() + i] = k;
            v0[nd.first_dof() + i] = e.yp[nd.first_dof() + i];
        }
    }
    // Velocity-level rows: A (K) and r_v (rv) from the run's equations at the initial time.
    const CscMatrix& J = e.jac().matrix();
    const int nnz = J.col_start()[n];
    std::vector<double> K, rv;
    const ConstraintRows cr = classify_constraint_rows(e);
    bool any_vel = false;
    for (std::size_t k = 0; k < cr.rows.size(); ++k)
        if (!cr.position[k]) vel_row[cr.rows[k]] = 1, any_vel = true;
    if (any_vel) {
        e.update(t_, set_.dt);
        e.jacobian(StepContext{t_, set_.dt, 1.0, Phase::dynamic});
        K.assign(J.values(), J.values() + nnz);
        for (int col = 0; col < n; ++col)
            for (int k = J.col_start()[col]; k < J.col_start()[col + 1]; ++k)
                if (vel_row[J.row_index()[k]] && !node_col[col] && K[k] != 0.0)
                    vel_row[J.row_index()[k]] = 0;
        e.jacobian(StepContext{t_, set_.dt, 2.0, Phase::dynamic});
        for (int k = 0; k < nnz; ++k) K[k] = 2.0 * K[k] - J.values()[k];
        rv.assign(n, 0.0);
        e.residual(StepContext{t_, set_.dt, 1.0, Phase::dynamic}, rv.data());
        for (int i = 0; i < n; ++i) active[i] = active[i] || vel_row[i];
    }
    // Phi_t by a one-sided (second-order) difference of the constraint rows at fixed positions:
    // drives usually start at the initial time and are constant before it, so a central
    // difference would see half their slope.
    const double eps = 1e-6 * std::max(1.0, std::fabs(t_));
    for (int k : {0, 1, 2}) {
        StepContext c{t_ + k * eps, set_.dt, 1.0, Phase::assembly};
        e.update(c.time, c.dt);
        e.residual(c, r_.data());
        const double w = k == 0 ? -3.0 : k == 1 ? 4.0 : -1.0;
        for (int i = 0; i < n; ++i) rt[i] += w * r_[i] / (2.0 * eps);
    }
    StepContext c{t_, set_.dt, 1.0, Phase::assembly};
    e.update(c.time, c.dt);
    // Elements that give the time derivative of their rows (Element::constraint_rate(): the
    // drives' derivatives) replace the difference on them; rows dropped as redundant stay 0.
    {
        std::vector<double> ra(n, 0.0);
        const StateView s = e.state();
        for (const auto& el : e.elements()) {
            if (!el->in_assembly() || el->own_dofs() == 0) continue;
            const int f = el->first_dof();
            if (el->constraint_rate(c, s, ra.data()))
                std::copy(ra.begin() + f, ra.begin() + f + el->own_dofs(), rt.begin() + f);
        }
        for (int i : e.redundant()) rt[i] = 0.0;
    }
    e.jacobian(c);
    // The velocity rows and their multipliers' columns: the run's matrix on the node columns.
    if (any_vel) {
        double* val = e.jac().matrix().values();
        for (int col = 0; col < n; ++col)
            for (int k = J.col_start()[col]; k < J.col_start()[col + 1]; ++k) {
                const int row = J.row_index()[k];
                if (vel_row[row])
                    val[k] = node_col[col] ? K[k] : 0.0;
                else if (vel_row[col] && node_col[row])
                    val[k] = K[k];
            }
    }
    // rhs = -(Phi_q v0 + Phi_t) on position constraint rows, -r_v(v0) on velocity rows, 0 on node
    // rows and frozen rows.
    for (int i = 0; i < n; ++i)
        r_[i] = (active[i] && !node_col[i]) ? (vel_row[i] ? -rv[i] : -rt[i]) : 0.0;
    double norm = 0.0;
    for (int col = 0; col < n; ++col) {
        if (!node_col[col] || v0[col] == 0.0) continue;
        for (int k = J.col_start()[col]; k < J.col_start()[col + 1]; ++k) {
            int row = J.row_index()[k];
            if (active[row] && !node_col[row] && !vel_row[row]) r_[row] -= J.values()[k] * v0[col];
        }
    }
    for (int i = 0; i < n; ++i) norm = std::max(norm, std::fabs(r_[i]));
    if (norm <= 1e-14) return;  // the given velocities already satisfy the constraints
    for (int i = 0; i < n; ++i)
        e.jac().add_to_diagonal(i, !active[i] ? 1.0 : node_col[i] ? -kv[i] : 0.0);
    ++stats_.factorizations;
    const bool factored = e.linear_solver().factor(e.jac().matrix());
    if (!factored || e.linear_solver().rcond() < 1e-13) {
        std::vector<char> constraint(n, 0);
        for (int i = 0; i < n; ++i) constraint[i] = active[i] && !node_col[i];
        if (may_drop && drop_redundant(&constraint))
            return assemble_velocities(assembly_active, false);
        if (!factored) {
            StepInfo info;
            info.time = t_;
            throw SolverFailure(singular_failure(
                "singular matrix in the velocity part of the initial assembly", info));
        }
    }
    e.linear_solver().solve(r_.data());
    for (int i = 0; i < n; ++i)
        if (node_col[i]) e.yp[i] += r_[i];
    e.update(t_, set_.dt);
}

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

// MBDyn's dummy steps: `number` steps of size ratio * dt after the derivatives phase, with their
// own tolerance and iteration limit. Time advances by them; the regular integration then starts
// afresh (one-step first step) from the state they reach, which is output as step 0. Their use:
// multipliers and accelerations consistent with the positions before the first regular step
// (the index-3 start transient decays during the tiny steps).
void Simulation::dummy_steps() {
    if (set_.dummy_steps <= 0) return;
    const double h = set_.dummy_ratio * set_.dt;
    for (int k = 0; k < set_.dummy_steps; ++k) {
        StepInfo info;
        if (!step(h, info, set_.dummy_max_iter, set_.dummy_tol))
            throw SolverFailure(describe_failure("dummy step " + std::to_string(k + 1) + " of " +
                                                     std::to_string(set_.dummy_steps) +
                                                     " did not converge",
                                                 info));
        last_info_ = info;
    }
    // Regular steps restart from here: numbering, history, time base.
    step_ = 0;
    have_two_ = false;
    T_ = set_.dt;
    k_const_ = 0;
    t_base_ = t_;
    last_info_.step = 0;
    last_info_.time = t_;
}

bool Simulation::step(double h, StepInfo& info) { return step(h, info, set_.max_iter, set_.tol); }

bool Simulation::step(double h, StepInfo& info, int max_iter, double tol) {
    Engine& e = *engine_;
    const int n = e.size();
    bool first = !have_two_;
    StepCoefficients cd = set_.method.differential(h, T_, first, step_ + 1);
    StepCoefficients ca = set_.method.algebraic(h, T_, first, step_ + 1);
    // History: y1 = current converged state; y2 = the one before (kept from the last step).
    y1_ = e.y;
    yp1_ = e.yp;
    for (auto& nd : e.nodes()) nd.rebase(y1_.data(), yp1_.data(), y2_.data(), yp2_.data());
    double* y = e.y.data();
    double* yp = e.yp.data();
    for (int i = 0; i < n; ++i) {
        const StepCoefficients& k = e.order(i) == DofOrder::differential ? cd : ca;
        double ypp = k.two_step
                         ? (k.m0 * y1_[i] + k.m1 * y2_[i]) / T_ + k.n0 * yp1_[i] + k.n1 * yp2_[i]
                         : yp1_[i];
        yp[i] = ypp;
        y[i] = k.a1 * y1_[i] + k.a2 * y2_[i] + k.b0 * ypp + k.b1 * yp1_[i] + k.b2 * yp2_[i];
    }
    e.clock().step = step_ + 1;
    double t_new =
        (h == T_ && k_const_ > 0) ? t_base_ + static_cast<double>(k_const_ + 1) * h : t_ + h;
    StepContext c{t_new, h, cd.b0, Phase::dynamic};
    info = StepInfo{};
    info.step = step_ + 1;
    info.time = t_new;
    info.dt = h;
    bool ok = newton(c, cd, ca, max_iter, tol, info, false);
    if (!ok) {
        // The rebased history is the last converged state in the current node frames.
        e.y = y1_;
        e.yp = yp1_;
        e.update(t_, T_);
        return false;
    }
    // Equations dropped as redundant must stay satisfied: if one is violated, the dependency
    // held only in the configuration where it was detected (e.g. a mechanism started at a
    // singular configuration) and the motion would leave the constraint: stop instead.
    const auto& dropped = e.dropped_residuals();
    for (std::size_t k = 0; k < dropped.size(); ++k) {
        double phi = dropped[k] * c.dCoef;  // position constraints: residual = phi / dCoef
        if (!(std::fabs(phi) <= 1e-6)) {
            const EquationInfo& q = e.equation(e.redundant()[k]);
            char buf[160];
            std::snprintf(
                buf, sizeof buf,
                "a constraint dropped as redundant is violated by %.3g at t = %.9g (step %ld)", phi,
                t_new, step_ + 1);
            throw SolverFailure(
                std::string(buf) + "\n  equation: " + q.owner + ", " + q.name +
                "\n  hint: the constraints were dependent only in the initial configuration (a "
                "singular configuration?); start the mechanism away from it");
        }
    }
    e.commit(c);
    y2_ = y1_;
    yp2_ = yp1_;
    have_two_ = true;
    // Time as t_base + k h while the step is constant: no drift from repeated additions.
    if (h != T_ || k_const_ == 0) t_base_ = t_, k_const_ = 0;
    t_ = t_base_ + static_cast<double>(++k_const_) * h;
    T_ = h;
    ++step_;
    return true;
}

void Simulation::emit(const StepInfo& info) {
    StepInfo s = info;
    s.output = !is_output_step || is_output_step(s.step, s.time);
    accel_.update(*engine_, s.output);  // XPP, OmegaP for the sinks and node drives
    for (auto* k : sinks_) k->step(*engine_, s);
}

RunStats Simulation::run() {
    for (auto* k : sinks_) k->begin(*engine_);
    try {
        using Abort = SolverSettings::Abort;
        last_info_.time = t_;
        last_info_.dt = set_.dt;
        if (set_.abort_after != Abort::input) {
            assemble();
            if (set_.abort_after != Abort::assembly) {
                derivatives();
                if (set_.abort_after != Abort::derivatives) dummy_steps();
            }
        }
        emit(last_info_);
        if (set_.abort_after != Abort::none) {
            for (auto* k : sinks_) k->end(*engine_, "");
            return stats_;
        }
        double h = set_.dt;
        int easy_steps = 0;
        const double eps = 1e-6 * set_.dt;
        while (set_.forever || t_ < set_.tf - eps) {
            if (keep_going && !keep_going(t_)) break;
            StepInfo info;
            // The last step lands on the final time.
            double hs = set_.forever ? h : std::min(h, set_.tf - t_);
            // A step that would stop the run may end at the residual floor (floor_accept()).
            floor_ok_ =
                !(set_.strategy_factor && hs * set_.red_factor >= set_.min_dt * (1.0 - 1e-12));
            if (!step(hs, info)) {
                ++stats_.rejected;
                if (set_.strategy_factor && hs * set_.red_factor >= set_.min_dt * (1.0 - 1e-12)) {
                    h = hs * set_.red_factor;
                    easy_steps = 0;
                    continue;
                }
                throw SolverFailure(describe_failure(
                    fail_reason_ ? std::string(fail_reason_)
                                 : "Newton iterations did not converge (max iterations " +
                                       std::to_string(set_.max_iter) + ")",
                    info));
            }
            ++stats_.steps;
            emit(info);
            if (set_.strategy_factor) {
                easy_steps = info.iterations <= set_.min_iter ? easy_steps + 1 : 0;
                if (easy_steps >= set_.steps_before_raise && set_.raise_factor > 1.0) {
                    h = std::min(h * set_.raise_factor, set_.max_dt);
                    easy_steps = 0;
                }
            }
        }
    } catch (const SolverFailure& f) {
        for (auto* k : sinks_) k->end(*engine_, f.what());
        throw;
    }
    if (stats_.floor_steps > 0 && on_warning) {
        char buf[256];
        std::snprintf(buf, sizeof buf,
                      "%ld step(s) accepted at the residual floor of a stalled Newton iteration "
                      "(near-singular "
                      "configuration; residual up to %.3g of the largest force, floor 1e-11)",
                      stats_.floor_steps, stats_.floor_worst);
        on_warning(buf);
    }
    for (auto* k : sinks_) k->end(*engine_, "");
    return stats_;
}

}  // namespace mbs
