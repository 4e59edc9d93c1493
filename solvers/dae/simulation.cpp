// The run: construction, the time loop with step control (`strategy: factor`, `strategy:
// change`), one step, output to the sinks and the failure messages. The phases are in
// simulation_assembly.cpp, simulation_derivatives.cpp, simulation_dummy_steps.cpp; Newton and the
// line search in simulation_newton.cpp, simulation_line_search.cpp; redundant constraints in
// simulation_redundancy.cpp; the settings in simulation_settings.cpp.
#include "solvers/dae/simulation.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/source.hpp"

namespace mbs {

Simulation::Simulation(const Model& m, const SolverSettings& s) : set_(s) {
    engine_ = std::make_unique<Engine>(m, s.linear_solver);
    int n = engine_->size();
    for (auto* v : {&r_, &y1_, &yp1_, &y2_, &yp2_, &b0_, &scale_, &yb_, &ypb_}) v->assign(n, 0.0);
    if (s.line_search)
        for (auto* v : {&ls_y_, &ls_yp_, &ls_p_, &ls_g_}) v->assign(n, 0.0);
    t_ = s.t0;
    T_ = s.dt;
    if (s.strategy_change) {
        change_drive_ = make_drive(*s.change_drive, engine_->drive_env());
        if (s.change_max_drive)
            change_max_drive_ = make_drive(*s.change_max_drive, engine_->drive_env());
    }
}

// MBDyn's ChangeStep::dGetNewStepTime (base/TimeStepControl.cc): max(min(drive, max time step),
// min time step), both drives taken at the time reached. MBDyn goes on with a step <= 0 (no min
// time step given); mbsolve stops.
double Simulation::change_clamp(double t, double drive_value) const {
    const double max_dt = change_max_drive_ ? change_max_drive_->value(t) : set_.max_dt;
    return std::max(std::min(drive_value, max_dt), set_.min_dt);
}

double Simulation::change_step(double t, double drive_value) const {
    const double h = change_clamp(t, drive_value);
    if (h > 0.0) return h;
    const double max_dt = change_max_drive_ ? change_max_drive_->value(t) : set_.max_dt;
    char buf[240];
    std::snprintf(buf, sizeof buf,
                  "'strategy: change': the drive gives the time step %.6g at t = %.9g (max time "
                  "step %.6g); a time step must be positive",
                  drive_value, t, max_dt);
    throw SolverFailure(std::string(buf) + "\n  drive: " + set_.change_drive->loc.where() +
                        "\n  hint: give a positive 'min time step' to bound it from below");
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
    // A non-finite residual is most often a drive (division by zero, sqrt or log of a negative
    // number in a string drive): name it at its card.
    if (engine_->size() > 0 && !std::isfinite(r_[worst])) {
        const std::string d = engine_->non_finite_drive(info.time);
        if (!d.empty()) s += "\n  cause: " + d;
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
    for (auto* k : sinks_) k->step(engine_->view(), s);
}

RunStats Simulation::run() {
    prepare_node_accelerations(*engine_);  // the flags the sinks size their groups from
    for (auto* k : sinks_) k->begin(engine_->view());
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
            for (auto* k : sinks_) k->end(engine_->view(), "");
            return stats_;
        }
        double h = set_.dt;
        int easy_steps = 0;
        long change_steps = 0;  // regular steps done under `strategy: change`
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
                if (abandon && *abandon) break;  // a forced stop: end at the last converged step
                ++stats_.rejected;
                if (set_.strategy_factor && hs * set_.red_factor >= set_.min_dt * (1.0 - 1e-12)) {
                    h = hs * set_.red_factor;
                    easy_steps = 0;
                    continue;
                }
                // MBDyn's REPEATSTEP: the drive at the end of the failed step; the same step
                // again becomes half the min time step; retried only when smaller.
                if (set_.strategy_change && hs > set_.min_dt) {
                    const double d = change_drive_->value(t_ + hs);
                    const double nh = d == hs ? set_.min_dt / 2.0 : change_clamp(t_ + hs, d);
                    if (nh > 0.0 && nh < hs) {
                        h = nh;
                        continue;
                    }
                }
                throw SolverFailure(describe_failure(
                    fail_reason_ ? std::string(fail_reason_)
                                 : "Newton iterations did not converge (max iterations " +
                                       std::to_string(set_.max_iter) + ")",
                    info));
            }
            ++stats_.steps;
            emit(info);
            // The drive's own state (sample and hold, a filter, ...) moves on after every
            // step, as MBDyn's drives do; MBDyn computes no new step after the first regular
            // one (Solver::Start): the second step has the initial size too.
            if (set_.strategy_change) {
                change_drive_->after_step();
                if (++change_steps >= 2) h = change_step(t_, change_drive_->value(t_));
            }
            if (set_.strategy_factor) {
                easy_steps = info.iterations <= set_.min_iter ? easy_steps + 1 : 0;
                if (easy_steps >= set_.steps_before_raise && set_.raise_factor > 1.0) {
                    h = std::min(h * set_.raise_factor, set_.max_dt);
                    easy_steps = 0;
                }
            }
        }
    } catch (const SolverFailure& f) {
        for (auto* k : sinks_) k->end(engine_->view(), f.what());
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
    for (auto* k : sinks_) k->end(engine_->view(), "");
    return stats_;
}

}  // namespace mbs
