// SolverSettings::from_model: the run's settings from the model's typed settings.
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/const_drive.hpp"
#include "core/source.hpp"
#include "solvers/dae/simulation.hpp"

namespace mbs {

namespace {

// The value of a constant drive (spectral radii and the max time step are checked to be constants
// in [0, 1] by the builder, parser/builder_problem.cpp).
double constant(const DriveSpec& d, double fallback) {
    return constant_value(d).value_or(fallback);
}

}  // namespace

// The run's settings from the problem block and control data (core/settings.hpp), with the
// defaults of the DAE runtime for what the deck does not give.
SolverSettings SolverSettings::from_model(const Model& m) {
    const ProblemSettings& p = m.solver;
    SolverSettings s;
    s.t0 = p.t0();
    s.forever = p.forever();
    if (!s.forever) s.tf = p.tf_or(s.t0 + ProblemSettings::default_duration);
    s.dt = p.dt();
    s.min_dt = p.min_time_step.value_or(0.0);
    s.tol = p.residual_tolerance.value_or(1e-6);
    s.test = p.residual_test.value_or(ResidualTest::norm);
    s.sol_tol = p.solution_tolerance.value_or(0.0);
    s.max_iter = static_cast<int>(p.max_iterations.value_or(1));
    s.modified_newton = static_cast<int>(p.newton_modified_iterations.value_or(0));
    s.linear_solver = p.linear_solver.value_or("klu");
    s.der_coef = p.derivatives_coefficient.value_or(1e-6);
    s.der_tol = p.derivatives_tolerance.value_or(1e-6);
    s.der_max_iter = static_cast<int>(p.derivatives_max_iterations.value_or(1));
    s.der_auto = p.derivatives_coefficient_auto.value_or(false);
    s.dummy_steps = static_cast<int>(p.dummy_steps_number.value_or(0));
    s.dummy_ratio = p.dummy_steps_ratio.value_or(1e-3);
    s.dummy_tol = p.dummy_steps_tolerance.value_or(s.tol);
    s.dummy_max_iter = static_cast<int>(p.dummy_steps_max_iterations.value_or(s.max_iter));
    if (p.abort_after.given()) {
        switch (p.abort_after.value) {
            case AbortAfter::input:
                s.abort_after = Abort::input;
                break;
            case AbortAfter::assembly:
                s.abort_after = Abort::assembly;
                break;
            case AbortAfter::derivatives:
                s.abort_after = Abort::derivatives;
                break;
            case AbortAfter::dummy_steps:
                s.abort_after = Abort::dummy_steps;
                break;
        }
    }
    s.der_auto_tries = static_cast<int>(p.derivatives_coefficient_max_iterations.value_or(6));
    s.der_auto_factor = p.derivatives_coefficient_factor.value_or(10.0);

    const IntegrationMethod method = p.method.value_or(IntegrationMethod::bdf);
    Method& md = s.method;
    md.name = std::string(keyword_name(method));
    switch (method) {
        case IntegrationMethod::ms:
        case IntegrationMethod::hope:
            md.kind = method == IntegrationMethod::ms ? Method::Kind::ms : Method::Kind::hope;
            md.rho = p.rho.given() ? constant(*p.rho.value, 0.0) : 0.0;
            md.rho_alg =
                p.rho_algebraic.given() ? constant(*p.rho_algebraic.value, md.rho) : md.rho;
            break;
        case IntegrationMethod::bdf:
            md.kind =
                p.bdf_order.value_or(2) == 1 ? Method::Kind::implicit_euler : Method::Kind::ms;
            md.rho = md.rho_alg = 0.0;
            break;
        case IntegrationMethod::implicit_euler:
            md.kind = Method::Kind::implicit_euler;
            break;
        case IntegrationMethod::crank_nicolson:
            md.kind = Method::Kind::crank_nicolson;
            break;
    }

    const ControlSettings& ctl = m.control;
    s.skip_assembly = ctl.skip_initial_joint_assembly.value_or(false);
    s.assembly_stiffness = ctl.initial_stiffness.value_or(1.0);
    s.assembly_vel_stiffness = ctl.initial_velocity_stiffness.value_or(1.0);
    s.assembly_tol = ctl.assembly_tolerance.value_or(1e-6);
    s.assembly_max_iter = static_cast<int>(ctl.assembly_max_iterations.value_or(1));

    if (p.nonlinear_solver.value_or(NonlinearSolverKind::default_solver) ==
        NonlinearSolverKind::line_search) {
        s.line_search = true;
        auto& l = s.ls;
        const LineSearchSettings& o = p.line_search;
        l.tol_x = o.tolerance_x.value_or(l.tol_x);
        l.tol_min = o.tolerance_min.value_or(l.tol_min);
        l.max_iter = static_cast<int>(o.max_iterations.value_or(l.max_iter));
        l.alpha = o.alpha.value_or(l.alpha);
        l.lambda_min = o.lambda_min.value_or(l.lambda_min);
        l.lambda_relative = o.lambda_min_relative.value_or(l.lambda_relative);
        l.lambda_factor_min = o.lambda_factor_min.value_or(l.lambda_factor_min);
        l.max_step = o.max_step.value_or(l.max_step);
        l.zero_gradient_continue = o.zero_gradient_continue.value_or(false);
        l.divergence_check = o.divergence_check.value_or(l.divergence_check);
        l.divergence_factor = o.divergence_factor.value_or(l.divergence_factor);
        l.cubic = o.algorithm.value_or(LineSearchAlgorithm::cubic) == LineSearchAlgorithm::cubic;
        l.scale_newton_step = o.scale_newton_step.value_or(l.scale_newton_step);
        l.min_scale = o.min_scale.value_or(l.min_scale);
        l.verbose = o.verbose.value_or(false);
        l.print = l.verbose || o.print_convergence_info.value_or(false);
        l.abort_at_lambda_min = o.abort_at_lambda_min.value_or(l.abort_at_lambda_min);
    }

    if (p.strategy.given() && p.strategy.value == StepStrategy::factor) {
        s.strategy_factor = true;
        s.red_factor = p.strategy_reduction_factor.value_or(0.5);
        s.steps_before_red = static_cast<int>(p.strategy_steps_before_reduction.value_or(1));
        s.raise_factor = p.strategy_raise_factor.value_or(1.0);
        s.steps_before_raise = static_cast<int>(p.strategy_steps_before_raise.value_or(1));
        s.min_iter = static_cast<int>(p.strategy_min_iterations.value_or(1));
        s.max_iter_raise = static_cast<int>(p.strategy_max_iterations.value_or(0));
        if (p.max_time_step.given() && !p.max_time_step.value.unlimited &&
            p.max_time_step.value.drive->type == "const")
            s.max_dt = *constant_value(*p.max_time_step.value.drive);
        if (s.min_dt <= 0.0) s.min_dt = s.dt * 1e-6;
    }
    if (p.strategy.given() && p.strategy.value == StepStrategy::change) {
        s.strategy_change = true;
        s.change_drive = p.strategy_change_drive.value;
        if (p.max_time_step.given() && !p.max_time_step.value.unlimited)
            s.change_max_drive = p.max_time_step.value.drive;
    }
    return s;
}

RunSettings SolverSettings::run_settings() const {
    RunSettings r;
    r.method = method.name;
    r.rho = method.rho;
    r.rho_algebraic = method.rho_alg;
    r.initial_time = t0;
    r.final_time = forever ? std::numeric_limits<double>::infinity() : tf;
    r.time_step = dt;
    r.tolerance = tol;
    r.max_iterations = max_iter;
    r.linear_solver = linear_solver;
    r.strategy_factor = strategy_factor;
    return r;
}

}  // namespace mbs
