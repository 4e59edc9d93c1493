// Derivatives phase, time loop, Newton iterations and step control.
#include "solvers/dae/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <Eigen/Dense>

#include "core/source.hpp"

namespace mbs {

namespace {

// Spectral radii are drive callers restricted to constants in [0, 1] (mbdyn-syntax.md 2.1);
// errors point at the drive in the deck.
double spectral_radius(const Props& p, const char* key, double fallback) {
    const auto* v = p.find(key);
    const auto* d = v ? std::get_if<std::shared_ptr<const DriveSpec>>(v) : nullptr;
    if (!d) return fallback;
    const DriveSpec& s = **d;
    double rho = s.type == "const" ? s.params.get<double>("value")
                 : s.type == "null" ? 0.0
                 : (s.type == "unit" || s.type == "one") ? 1.0
                 : -1.0;
    if (s.type != "const" && rho < 0.0)
        throw InputError(s.loc, "the spectral radius must be a constant", "write a number in [0, 1]");
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
    if (p.get_or<std::string>("final time", "") == "forever") s.forever = true;
    else s.tf = real_or(p, "final time", s.t0 + 1.0);
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
    if (p.find("dummy steps method"))
        throw InputError(SourceLoc{}, "'dummy steps method' is not supported yet",
                         "remove it: dummy steps use the integration method of the run");
    std::string abort = p.get_or<std::string>("abort after", "");
    s.abort_after = abort == "input"         ? Abort::input
                    : abort == "assembly"    ? Abort::assembly
                    : abort == "derivatives" ? Abort::derivatives
                    : abort == "dummy steps" ? Abort::dummy_steps
                                             : Abort::none;
    s.der_auto_tries = static_cast<int>(p.get_or<long>("derivatives coefficient max iterations", 6));
    s.der_auto_factor = real_or(p, "derivatives coefficient factor", 10.0);

    std::string method = p.get_or<std::string>("method", "bdf");
    Method& md = s.method;
    md.name = method;
    if (method == "ms" || method == "hope") {
        md.kind = method == "ms" ? Method::Kind::ms : Method::Kind::hope;
        md.rho = spectral_radius(p, "rho", 0.0);
        md.rho_alg = spectral_radius(p, "rho algebraic", md.rho);
    } else if (method == "bdf") {
        md.kind = p.get_or<long>("bdf order", 2) == 1 ? Method::Kind::implicit_euler : Method::Kind::ms;
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
    for (auto* v : {&r_, &y1_, &yp1_, &y2_, &yp2_}) v->assign(n, 0.0);
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
    std::snprintf(buf, sizeof buf, "%s at t = %.9g (step %ld, dt = %.6g), iteration %d, residual norm %.6g",
                  what.c_str(), info.time, info.step, info.dt, info.iterations, info.res_err);
    std::string s = buf;
    if (engine_->size() > 0 && r_[worst] != 0.0) {
        const EquationInfo& e = engine_->equation(worst);
        std::snprintf(buf, sizeof buf, "\n  worst equation: %s, %s (residual %.6g)", e.owner.c_str(), e.name.c_str(),
                      r_[worst]);
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
        if (q.owner.rfind("structural node", 0) == 0)
            s += "\n  hint: a dynamic node needs a mass (a body) in every direction it can move, or a joint "
                 "that holds it";
    }
    return s;
}

// Newton on y' with y = (known) + b0 y' (DESIGN.md 3). Returns true on convergence.
bool Simulation::newton(const StepContext& c, const StepCoefficients& cd, const StepCoefficients& ca, int max_iter,
                        double tol, StepInfo& info, bool derivatives_phase) {
    Engine& e = *engine_;
    const int n = e.size();
    double* y = e.y.data();
    double* yp = e.yp.data();
    for (int it = 0;; ++it) {
        e.update(c.time, c.dt);
        e.residual(c, r_.data());
        info.iterations = it;
        info.res_err = residual_norm();
        if (!std::isfinite(info.res_err)) throw SolverFailure(describe_failure("non-finite residual", info));
        // At least one iteration per time step: accepting the predicted state when its residual is
        // already below the tolerance leaves the multipliers inconsistent with the positions by
        // O(tol / h^2), which the two-step formula then carries along (index-3 sensitivity).
        // The derivatives phase converges linearly (its matrix carries dCoef terms the residual
        // does not have, y being fixed): one more iteration after convergence takes the error
        // from tol to about dCoef * tol.
        bool may_stop = derivatives_phase ? it != 1 : it > 0;
        if (may_stop && (set_.test == SolverSettings::Test::none || info.res_err <= tol)) return true;
        if (info.sol_conv) return true;
        if (it >= max_iter) return false;
        // `newton raphson: modified, n`: a new iteration matrix every n iterations of a step.
        if (set_.modified_newton <= 1 || it % set_.modified_newton == 0) {
            e.jacobian(c);
            ++stats_.factorizations;
            if (!e.linear_solver().factor(e.jac().matrix())) {
                // A singular matrix may come from redundant constraints (checked once per run).
                if (!resolve_redundancy()) throw SolverFailure(singular_failure("singular iteration matrix", info));
                e.update(c.time, c.dt);
                e.residual(c, r_.data());
                e.jacobian(c);
                if (!e.linear_solver().factor(e.jac().matrix()))
                    throw SolverFailure(singular_failure("singular iteration matrix", info));
            }
        }
        for (int i = 0; i < n; ++i) r_[i] = -r_[i];
        e.linear_solver().solve(r_.data());
        double dnorm = 0.0;
        for (int i = 0; i < n; ++i) {
            // The derivatives phase keeps y fixed (DESIGN.md 4); dCoef only regularizes J.
            double b0 = derivatives_phase ? 0.0 : (e.order(i) == DofOrder::differential ? cd.b0 : ca.b0);
            yp[i] += r_[i];
            y[i] += b0 * r_[i];
            dnorm += r_[i] * r_[i];
        }
        info.sol_err = std::sqrt(dnorm);
        info.sol_conv = set_.sol_tol > 0.0 && info.sol_err <= set_.sol_tol;
        ++stats_.iterations;
    }
}

// Factors the iteration matrix; a singular one, or one whose pivot-ratio estimate is below
// 1e-13 (dependent rows leave round-off pivots that KLU does not call singular), is first
// checked for redundant constraints. Returns false only for a singular matrix: an
// ill-conditioned one without redundancy goes on as before.
bool Simulation::factor_or_drop_redundant(const std::function<void()>& rebuild) {
    LinearSolver& ls = engine_->linear_solver();
    bool ok = ls.factor(engine_->jac().matrix());
    if (ok && !(ls.rcond() < 1e-13)) return true;
    if (!resolve_redundancy()) return ok;
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
bool Simulation::resolve_redundancy() {
    if (redundancy_checked_) return false;
    redundancy_checked_ = true;
    Engine& e = *engine_;
    const int n = e.size();
    int nn = n;  // node unknowns come first
    for (const auto& el : e.elements())
        if (el->own_dofs() > 0) nn = std::min(nn, el->first_dof());
    std::vector<int> rows;
    for (int i = nn; i < n; ++i)
        if (e.order(i) == DofOrder::algebraic) rows.push_back(i);
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
    e.set_redundant(redundant);
    std::string msg = "redundant constraints: " + std::to_string(redundant.size()) + " of " +
                      std::to_string(rows.size()) + " constraint equations depend on the others";
    std::string owner;
    for (int i : redundant) {
        const EquationInfo& q = e.equation(i);
        if (q.owner != owner) msg += "\n  " + q.owner + ":", owner = q.owner;
        msg += " " + q.name + ";";
    }
    msg += "\n  they are replaced by zero multipliers: the motion is unaffected, the reactions of these "
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
    bool any = false;
    for (const auto& el : e.elements())
        if (el->in_assembly()) {
            any = any || el->own_dofs() > 0;
            for (int i = 0; i < el->own_dofs(); ++i) active[el->first_dof() + i] = 1;
        }
    if (!any) return 0;
    for (const auto& nd : e.nodes()) {
        if (nd.is_dummy()) continue;
        double k = nd.desc().props.get_or<double>("assembly position stiffness", set_.assembly_stiffness);
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
            throw SolverFailure(describe_failure("non-finite residual in the initial assembly", info));
        // Once converged after moving the nodes, two more (quadratically converging) iterations
        // leave the constraints at round-off: the derivatives phase divides them by its small
        // coefficient and cannot move positions to reduce them.
        if (info.res_err <= set_.assembly_tol && (it == 0 || polish-- == 0)) break;
        if (it >= max_iter && info.res_err > set_.assembly_tol)
            throw SolverFailure(describe_failure("initial assembly did not converge (max iterations " +
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
        if (!factor_or_drop_redundant(build))
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
    for (const auto& el : e.elements())
        for (int i = 0; i < el->own_dofs(); ++i) e.yp[el->first_dof() + i] = 0.0;
    e.update(c.time, c.dt);
    assemble_velocities(active);
    return info.iterations;
}

// Velocity part of the initial assembly (DESIGN.md 4): the velocities closest to the given ones
// v0 in the norm of the velocity stiffnesses Kv that satisfy the constraints' time derivative,
//   Kv (v - v0) - B mu = 0,   Phi_q v + Phi_t = 0,
// where v = (xdot, w) of the nodes (w = g' at g = 0, which assemble() has just set) and B mu the
// constraint reactions. With dv = v - v0 this is the assembly matrix [-Kv B; Phi_q 0] at zero
// multipliers (its constraint rows are r_c(y, t) with Phi_q = dr_c/dy) and the right-hand side
// -(Phi_q v0 + Phi_t) on the constraint rows; Phi_t is a forward difference in time of r_c at
// fixed positions. Linear in dv: one solve.
void Simulation::assemble_velocities(const std::vector<char>& active) {
    Engine& e = *engine_;
    const int n = e.size();
    std::vector<char> node_col(n, 0);
    std::vector<double> kv(n, 0.0), v0(n, 0.0), rt(n, 0.0);
    for (const auto& nd : e.nodes()) {
        if (nd.is_dummy()) continue;
        double k = nd.desc().props.get_or<double>("assembly velocity stiffness", set_.assembly_vel_stiffness);
        for (int i = 0; i < nd.pos_cols(); ++i) {
            node_col[nd.first_dof() + i] = 1;
            kv[nd.first_dof() + i] = k;
            v0[nd.first_dof() + i] = e.yp[nd.first_dof() + i];
        }
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
    e.jacobian(c);
    const CscMatrix& J = e.jac().matrix();
    // rhs = -(Phi_q v0 + Phi_t) on constraint rows, 0 on node rows and frozen rows.
    for (int i = 0; i < n; ++i) r_[i] = (active[i] && !node_col[i]) ? -rt[i] : 0.0;
    double norm = 0.0;
    for (int col = 0; col < n; ++col) {
        if (!node_col[col] || v0[col] == 0.0) continue;
        for (int k = J.col_start()[col]; k < J.col_start()[col + 1]; ++k) {
            int row = J.row_index()[k];
            if (active[row] && !node_col[row]) r_[row] -= J.values()[k] * v0[col];
        }
    }
    for (int i = 0; i < n; ++i) norm = std::max(norm, std::fabs(r_[i]));
    if (norm <= 1e-14) return;  // the given velocities already satisfy the constraints
    for (int i = 0; i < n; ++i) e.jac().add_to_diagonal(i, !active[i] ? 1.0 : node_col[i] ? -kv[i] : 0.0);
    ++stats_.factorizations;
    if (!e.linear_solver().factor(e.jac().matrix())) {
        StepInfo info;
        info.time = t_;
        throw SolverFailure(singular_failure("singular matrix in the velocity part of the initial assembly", info));
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
    StepInfo info;
    info.time = t_;
    info.dt = set_.dt;
    StepCoefficients none;
    // MBDyn's default is one iteration; more are allowed when the residual is not yet small.
    int max_iter = std::max(set_.der_max_iter, 10);
    // y stays fixed in this phase: a failed try is undone by restoring y' (`auto` retries with a
    // larger coefficient, which regularizes the matrix more).
    const std::vector<double> yp0 = e.yp;
    for (int attempt = 0;; ++attempt) {
        bool ok = false;
        try {
            ok = newton(c, none, none, max_iter, set_.der_tol, info, true);
        } catch (const SolverFailure& f) {
            if (!set_.der_auto) throw;
            if (attempt >= set_.der_auto_tries) {
                char tries[128];
                std::snprintf(tries, sizeof tries, "\n  derivatives coefficient: auto, last tried %.3g (%d tries)",
                              c.dCoef, attempt + 1);
                throw SolverFailure(f.what() + std::string(tries));
            }
        }
        if (ok) break;
        if (!set_.der_auto || attempt >= set_.der_auto_tries) {
            char coef[64];
            std::snprintf(coef, sizeof coef, " (derivatives coefficient %.3g)", c.dCoef);
            throw SolverFailure(describe_failure(std::string("derivatives phase did not converge") + coef, info) +
                                (set_.der_auto ? "" : "\n  hint: 'derivatives coefficient: auto;' retries with larger "
                                                      "coefficients; or raise 'derivatives max iterations'"));
        }
        c.dCoef *= set_.der_auto_factor;
        e.yp = yp0;
    }
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
                                                     std::to_string(set_.dummy_steps) + " did not converge",
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
        double ypp = k.two_step ? (k.m0 * y1_[i] + k.m1 * y2_[i]) / T_ + k.n0 * yp1_[i] + k.n1 * yp2_[i] : yp1_[i];
        yp[i] = ypp;
        y[i] = k.a1 * y1_[i] + k.a2 * y2_[i] + k.b0 * ypp + k.b1 * yp1_[i] + k.b2 * yp2_[i];
    }
    e.clock().step = step_ + 1;
    double t_new = (h == T_ && k_const_ > 0) ? t_base_ + static_cast<double>(k_const_ + 1) * h : t_ + h;
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
            std::snprintf(buf, sizeof buf, "a constraint dropped as redundant is violated by %.3g at t = %.9g (step %ld)",
                          phi, t_new, step_ + 1);
            throw SolverFailure(std::string(buf) + "\n  equation: " + q.owner + ", " + q.name +
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
            if (!step(hs, info)) {
                ++stats_.rejected;
                if (set_.strategy_factor && hs * set_.red_factor >= set_.min_dt * (1.0 - 1e-12)) {
                    h = hs * set_.red_factor;
                    easy_steps = 0;
                    continue;
                }
                throw SolverFailure(describe_failure("Newton iterations did not converge (max iterations " +
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
    for (auto* k : sinks_) k->end(*engine_, "");
    return stats_;
}

}  // namespace mbs
