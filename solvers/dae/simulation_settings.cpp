// SolverSettings::from_model: the run's settings from the model's typed settings.
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/source.hpp"
#include "solvers/dae/simulation.hpp"

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

}  // namespace mbs
