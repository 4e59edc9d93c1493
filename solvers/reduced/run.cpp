// Command-line driver of the relative-coordinate path.
#include "solvers/reduced/run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "core/analysis.hpp"
#include "core/const_drive.hpp"
#include "core/source.hpp"
#include "solvers/reduced/analyses.hpp"

namespace mbs::reduced {

namespace {

// What an analysis's run function gets.
struct Run {
    const Model& model;
    Setup& s;
    const AnalysisInfo& a;
    const std::string& prefix;
    bool quiet;
    std::chrono::steady_clock::time_point t0;
    const StopRequest* stop;
    RunOutput* output;
    double wall() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
};

// Reduced and inverse dynamics step at the deck's constant time step: the DAE's step control
// (`strategy`, `min time step`, `max time step`) does not apply to them, nor its Newton settings
// (`tolerance`, `max iterations`: this path converges on other quantities). A deck that gives
// them (a DAE deck run with --analysis, to compare the formulations) is told so at the card, not
// silently run otherwise than it asks.
void warn_dae_settings(const Run& run, std::string_view analysis) {
    if (run.quiet) return;
    const ProblemSettings& p = run.model.solver;
    char hint[160];
    std::snprintf(hint, sizeof hint, "%.*s steps at the constant time step %g",
                  static_cast<int>(analysis.size()), analysis.data(), p.dt());
    auto warn = [&](const SourceLoc& at, const std::string& what) {
        std::cerr << format_diagnostic(
            Severity::warning, at,
            what + " is not used by " + std::string(analysis) + " (the DAE's step control)", hint);
    };
    if (p.strategy.given() && p.strategy.value != StepStrategy::no_change)
        warn(p.strategy.loc, "'strategy: " + std::string(keyword_name(p.strategy.value)) + "'");
    if (p.min_time_step.given()) warn(p.min_time_step.loc, "'min time step'");
    if (p.max_time_step.given() && !p.max_time_step.value.unlimited)
        warn(p.max_time_step.loc, "'max time step'");
    // The DAE's Newton settings: this path's tests are on other quantities (the loop
    // constraints' residual; the two-step method's correction of the state derivatives).
    const std::string own =
        analysis == "reduced dynamics"
            ? "solves the loop constraints to |h| <= 1e-12 and (two-step method) the state "
              "derivatives to |dy'| <= 1e-10 (1 + |y'|)"
            : "solves the loop constraints to |h| <= 1e-12";
    auto warn_newton = [&](const SourceLoc& at, const std::string& what) {
        std::cerr << format_diagnostic(
            Severity::warning, at,
            what + " is not used by " + std::string(analysis) + " (the DAE's Newton settings)",
            std::string(analysis) + " " + own);
    };
    if (p.residual_tolerance.given()) warn_newton(p.residual_tolerance.loc, "'tolerance'");
    if (p.max_iterations.given()) warn_newton(p.max_iterations.loc, "'max iterations'");
}

// The relative-coordinate analyses write no drive caller output (.drv, .trc: the DAE's
// elements/drives/drive_output.cpp): a card that asks for it is told so, not silently dropped.
void warn_drive_output(const Model& model, std::string_view analysis, bool quiet) {
    if (quiet) return;
    for (const auto& [label, spec] : model.drive_callers)
        if (spec->output || spec->trace)
            std::cerr << format_diagnostic(Severity::warning, spec->loc,
                                           "the output of drive caller " + std::to_string(label) +
                                               " is not written by " + std::string(analysis) +
                                               " (no .drv, .trc)",
                                           "run the deck without --analysis (the DAE) to write it");
}

void run_dynamics(const Run& run) {
    const Model& model = run.model;
    const AnalysisInfo& a = run.a;
    Setup* s = &run.s;
    const bool quiet = run.quiet;
    auto wall = [&] { return run.wall(); };
    // The implicit two-step method takes the deck's spectral radius ('method: ms, rho').
    // (a 'problem: reduced dynamics;' deck with 'method: ms, rho' also selects it).
    const bool implicit = a.name == "reduced-dynamics-implicit" ||
                          (model.problem == "reduced dynamics" && model.solver.method.given() &&
                           model.solver.method.value == IntegrationMethod::ms);
    check_inertia(model, *s, "reduced dynamics");
    warn_dae_settings(run, "reduced dynamics");
    double rho = 0.6;
    if (implicit && model.solver.rho.given()) {
        // The spectral radius of the two-step method: a constant here (the DAE evaluates a
        // drive at each step; this path does not): const, null (0) or unit (1).
        const std::optional<double> c = constant_value(*model.solver.rho.value);
        if (!c)
            throw InputError(model.solver.rho.loc,
                             "reduced dynamics takes a constant spectral radius",
                             "give a number, or run the time integration without --analysis");
        rho = *c;
    }
    if (!run.output) throw std::logic_error("reduced dynamics without its output");
    DynamicsStats st = run_reduced_dynamics(model, *s, *run.output,
                                            implicit ? ReducedMethod::two_step : ReducedMethod::rk4,
                                            rho, 1e-12, run.stop);
    std::string files;
    for (const std::string& f : run.output->files()) files += (files.empty() ? "" : " ") + f;
    if (!quiet)
        std::printf(
            "reduced dynamics (%s, %zu independent + %zu dependent + %zu driven "
            "coordinates): "
            "%ld steps (%ld in full coordinates near singular configurations), %ld "
            "re-partitions, "
            "max |h| = %.3g, %.3f s\nwritten: %s\n",
            implicit ? "two-step" : "RK4", s->part.u.size(), s->part.v.size(), s->part.c.size(),
            st.steps, st.full_steps, st.repartitions, st.max_violation, wall(), files.c_str());
    if (!quiet && st.stopped)
        std::printf("run stopped: %s at t = %.9g\n", run.stop->reason().c_str(), st.t_end);
}

void run_inverse(const Run& run) {
    const Model& model = run.model;
    Setup* s = &run.s;
    const bool quiet = run.quiet;
    auto wall = [&] { return run.wall(); };
    if (!run.output) throw std::logic_error("inverse dynamics without its output");
    warn_dae_settings(run, "inverse dynamics");
    InverseStats st = run_inverse_dynamics(model, *s, *run.output, run.stop);
    std::string files;
    for (const std::string& f : run.output->files()) files += (files.empty() ? "" : " ") + f;
    if (!quiet)
        std::printf(
            "inverse dynamics (%zu actuated + %zu dependent coordinates): %ld steps, max "
            "|h| = %.3g, "
            "%.3f s\nwritten: %s\n",
            s->part.c.size(), s->part.v.size(), st.steps, st.max_violation, wall(), files.c_str());
    if (!quiet && st.stopped)
        std::printf("run stopped: %s at t = %.9g\n", run.stop->reason().c_str(), st.t_end);
}

void run_equilibrium(const Run& run) {
    const Model& model = run.model;
    Setup* s = &run.s;
    const bool quiet = run.quiet;
    // The deck's equilibrium cards (exchange, extra, spin, time): in a `problem:
    // equilibrium;` deck's block or in the options-only `begin: equilibrium;` block of a
    // deck of another problem (docs/relative-coordinates.md 4); none: plain static equilibrium.
    EquilibriumResult r = solve_equilibrium(*s, read_equilibrium_spec(model, *s));
    if (!run.output) throw std::logic_error("equilibrium without its output");
    std::string files;
    for (const std::string& f : write_equilibrium(model, *s, r, *run.output))
        files += (files.empty() ? "" : " ") + f;
    if (!quiet) {
        std::printf("static equilibrium: %d Newton iterations, |F_r| = %.3g\n", r.iterations,
                    r.residual);
        for (int i : r.insensitive) std::printf("non-sensitive variable: q%d\n", i + 1);
        if (r.spin >= 0) std::printf("spin: q%d at %.10g\n", r.spin + 1, r.spin_rate);
        for (const auto& [name, value] : r.parameters)
            std::printf("parameter %s = %.10g\n", name.c_str(), value);
        for (const auto& [c, tau] : r.driving)
            std::printf("driven q%d (joint %ld) held at %.10g: %s %.10g\n", c + 1,
                        s->rm.links[static_cast<std::size_t>(c)].joint_label, s->q[c],
                        s->rm.links[static_cast<std::size_t>(c)].name[0] == 'R' ? "torque [N m]"
                                                                                : "force [N]",
                        tau);
        std::printf("written: %s\n", files.c_str());
    }
}

void run_modal_analysis(const Run& run) {
    const Model& model = run.model;
    Setup* s = &run.s;
    const std::string& prefix = run.prefix;
    const bool quiet = run.quiet;
    check_inertia(model, *s, "modal analysis");
    ModalResult r = run_modal(model, *s, prefix, read_equilibrium_spec(model, *s));
    if (!run.output) throw std::logic_error("modal analysis without its output");
    // NetCDF and HDF5 as --format or the deck's `output results` ask (mbsolve's RunOutput).
    std::string files = prefix + ".modal";
    for (const std::string& f : run.output->write_modal(modal_columns(r, s->rm))) files += " " + f;
    if (!quiet) {
        std::printf("modal analysis: equilibrium in %d Newton iterations, %ld eigenvalues\n",
                    r.equilibrium.iterations, static_cast<long>(r.eigenvalues.size()));
        std::printf("written: %s\n", files.c_str());
    }
}

// The run function of each row of core/analysis.hpp's table.
using RunFn = void (*)(const Run&);
const std::map<std::string_view, RunFn>& run_functions() {
    static const std::map<std::string_view, RunFn> fns = {
        {"reduced-dynamics", run_dynamics}, {"reduced-dynamics-implicit", run_dynamics},
        {"inverse-dynamics", run_inverse},  {"equilibrium", run_equilibrium},
        {"modal", run_modal_analysis},
    };
    return fns;
}

}  // namespace

int run_cli(const Model& model, bool tree, const std::string& analysis, const std::string& prefix,
            bool quiet, const std::vector<int>& independent, const StopRequest* stop,
            RunOutput* output) {
    try {
        auto t0 = std::chrono::steady_clock::now();
        std::vector<int> ind;
        for (int i : independent) ind.push_back(i - 1);
        std::unique_ptr<Setup> s = make_setup(model, ind);
        if (tree) {
            print_tree(model, *s, std::cout);
            return 0;
        }
        const AnalysisInfo* a = find_analysis(analysis);
        if (!a) throw std::invalid_argument("unknown analysis '" + analysis + "'");
        warn_drive_output(model, a->name, quiet);
        run_functions().at(a->name)(Run{model, *s, *a, prefix, quiet, t0, stop, output});
        return 0;
    } catch (const ReducedFailure& e) {
        std::cerr << "mbsolve: solver failure: " << e.what() << "\n";
        return 3;
    }
}

}  // namespace mbs::reduced
