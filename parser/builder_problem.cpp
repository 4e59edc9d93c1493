// The problem block (`begin: initial value;`, or a reduced problem's block, and the options-only
// `begin: equilibrium;` block) into the typed settings Model::solver (core/settings.hpp).
#include <cmath>
#include <cstdio>

#include "core/const_drive.hpp"
#include "parser/builder_impl.hpp"

namespace mbs::parser {

// A run of more than max_time_steps steps is refused before anything is built (with the
// engine's defaults, ProblemSettings: initial time 0, final time initial + 1, time step 1e-3).
void Builder::check_run_length(const SourceLoc& end_card) {
    const ProblemSettings& s = st_.model.solver;
    check_change_strategy_step();
    if (s.forever()) return;
    double t0 = s.t0();
    double tf = s.tf_or(t0 + ProblemSettings::default_duration);
    double dt = s.dt();
    // A final time before the initial one used to run no step at all and exit 0 (issue 20).
    if (tf < t0) {
        char msg[160];
        std::snprintf(msg, sizeof msg, "final time %g is before initial time %g", tf, t0);
        throw InputError(s.final_time.given() ? s.final_time.loc : end_card, msg,
                         "the run goes from the initial time forward to the final time");
    }
    double steps = (tf - t0) / dt;
    if (!(steps > max_time_steps)) return;
    SourceLoc at = s.time_step.given()    ? s.time_step.loc
                   : s.final_time.given() ? s.final_time.loc
                                          : end_card;
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "initial time %g, final time %g and time step %g make %.3g steps, more than "
                  "mbsolve accepts (%g)",
                  t0, tf, dt, steps, max_time_steps);
    throw InputError(
        at, buf,
        "raise the time step or lower the final time ('final time: forever;' runs until stopped)");
}

// `strategy: change`: like MBDyn (base/TimeStepControl.cc, ChangeStep::Init), the time step
// must lie within the min and max time steps (a max time step that is not a constant, e.g.
// `postponed`, is not checked: MBDyn takes it as unlimited there). The steps the drive gives
// later are clamped into them instead.
void Builder::check_change_strategy_step() {
    const ProblemSettings& s = st_.model.solver;
    if (!s.strategy.given() || s.strategy.value != StepStrategy::change) return;
    const double dt = s.dt();
    const SourceLoc at = s.time_step.given() ? s.time_step.loc : s.strategy.loc;
    char buf[200];
    if (s.min_time_step.given() && dt < s.min_time_step.value) {
        std::snprintf(buf, sizeof buf,
                      "the initial time step %g is less than the min time step %g ('strategy: "
                      "change' does not clamp it)",
                      dt, s.min_time_step.value);
        throw InputError(at, buf, "raise the time step or lower the min time step");
    }
    if (!s.max_time_step.given() || s.max_time_step.value.unlimited) return;
    const auto max = constant_value(*s.max_time_step.value.drive);
    if (max && s.min_time_step.given() && s.min_time_step.value > *max) {
        std::snprintf(buf, sizeof buf, "the min time step %g is greater than the max time step %g",
                      s.min_time_step.value, *max);
        throw InputError(s.min_time_step.loc, buf);
    }
    if (max && dt > *max) {
        std::snprintf(buf, sizeof buf,
                      "the initial time step %g is greater than the max time step %g ('strategy: "
                      "change' does not clamp it)",
                      dt, *max);
        throw InputError(at, buf, "lower the time step or raise the max time step");
    }
}

// `nonlinear solver: line search [, modified, n], <keyword>, <value>, ...`
// (docs/deck-language.md 2.1) into ProblemSettings::line_search; the solver checks none of them
// again.
void Builder::read_line_search_options(DeckReader& r) {
    ProblemSettings& ps = st_.model.solver;
    LineSearchSettings& s = ps.line_search;
    SettingsOrder& o = ps.order;
    // `, yes|no` (or a number) after a flag; a bare flag means yes.
    auto yes_no = [&](Setting<bool>& field, const char* key) {
        SourceLoc a = r.loc();
        bool v = r.at_end() || !(r.peek("yes") || r.peek("no") || r.peek("true") ||
                                 r.peek("false") || r.next_is_value())
                     ? true
                     : r.boolean(key);
        o.set(field, v, a);
    };
    while (!r.at_end()) {
        SourceLoc at = r.loc();
        std::string k = r.keyword(
            {"keep jacobian matrix", "keep jacobian", "honor element requests", "tolerance x",
             "tolerance min", "max iterations", "alpha", "lambda min", "lambda factor min",
             "max step", "zero gradient", "divergence check", "algorithm", "scale newton step",
             "print convergence info", "verbose", "abort at lambda min"},
            "line search option");
        if (k == "keep jacobian matrix" || k == "keep jacobian" || k == "honor element requests")
            throw InputError(at, "line search option '" + k + "' is not supported", "remove it");
        SourceLoc a = r.loc();
        if (k == "tolerance x") {
            o.set(s.tolerance_x, r.nonnegative(k), a);
        } else if (k == "tolerance min") {
            o.set(s.tolerance_min, r.nonnegative(k), a);
        } else if (k == "alpha") {
            o.set(s.alpha, r.nonnegative(k), a);
        } else if (k == "max step") {
            o.set(s.max_step, r.nonnegative(k), a);
        } else if (k == "max iterations") {
            long n = r.integer(k);
            if (n < 1) throw InputError(a, "line search max iterations must be at least 1");
            o.set(s.max_iterations, n, a);
        } else if (k == "lambda min") {
            double v = r.nonnegative(k);
            if (v > 1.0) throw InputError(a, "lambda min must be in [0, 1]");
            o.set(s.lambda_min, v, a);
            if (r.accept("relative")) yes_no(s.lambda_min_relative, "lambda min relative");
        } else if (k == "lambda factor min") {
            double v = r.real(k);
            if (!(v > 0.0 && v < 1.0)) throw InputError(a, "lambda factor min must be in (0, 1)");
            o.set(s.lambda_factor_min, v, a);
        } else if (k == "zero gradient") {
            r.expect("continue");
            yes_no(s.zero_gradient_continue, "zero gradient continue");
        } else if (k == "divergence check") {
            yes_no(s.divergence_check, "divergence check");
            SourceLoc f = r.loc();
            if (r.accept("factor"))
                o.set(s.divergence_factor, r.positive("divergence check factor"), f);
        } else if (k == "algorithm") {
            o.set(s.algorithm,
                  r.keyword({"cubic", "factor"}, "line search algorithm") == "cubic"
                      ? LineSearchAlgorithm::cubic
                      : LineSearchAlgorithm::factor,
                  a);
        } else if (k == "scale newton step") {
            yes_no(s.scale_newton_step, "scale newton step");
            if (r.accept("min scale")) {
                SourceLoc m = r.loc();
                double v = r.nonnegative("min scale");
                if (v > 1.0) throw InputError(m, "min scale must be in [0, 1]");
                o.set(s.min_scale, v, m);
            }
        } else if (k == "print convergence info") {
            yes_no(s.print_convergence_info, "print convergence info");
        } else if (k == "verbose") {
            yes_no(s.verbose, "verbose");
        } else {
            yes_no(s.abort_at_lambda_min, "abort at lambda min");
        }
    }
}

// Options of the relative-coordinate equilibrium (`exchange:`, `extra:`, `spin:`, `time:`; read
// by solvers/reduced/equilibrium.cpp): kept as located records of their arguments (words as
// strings, expressions evaluated to numbers), in ProblemSettings::equilibrium_cards.
void Builder::equilibrium_card(const std::string& name, DeckReader& r) {
    ProblemSettings& s = st_.model.solver;
    EquilibriumCard card;
    card.name = name;
    card.loc = r.card_loc();
    card.seq = ++s.order.last;
    while (!r.at_end()) {
        if (r.peek_empty()) {
            r.skip();
            continue;
        }
        std::string w = r.peek_word();
        if (!w.empty() && !r.next_is_value()) {
            card.args.emplace_back(w);
            r.skip();
            continue;
        }
        Value v = r.value(name);
        if (v.type == Type::string)
            card.args.emplace_back(v.s);
        else
            card.args.emplace_back(v.as_real());
    }
    s.equilibrium_cards.push_back(std::move(card));
}

// initial time, final time, time step, min time step, max time step.
void Builder::time_card(const std::string& name, DeckReader& r) {
    ProblemSettings& s = st_.model.solver;
    SettingsOrder& o = s.order;
    SourceLoc a = r.loc();
    if (name == "initialtime") {
        o.set(s.initial_time, r.real("initial time"), a);
    } else if (name == "finaltime") {
        FinalTime f;
        if (r.accept("forever"))
            f.forever = true;
        else
            f.t = r.real("final time");
        o.set(s.final_time, f, a);
    } else if (name == "timestep") {
        double dt = r.real("time step");
        if (dt == 0.0) throw InputError(a, "time step must not be zero");
        if (dt < 0) r.warn_at(a, "negative time step replaced by its absolute value");
        o.set(s.time_step, std::fabs(dt), a);
    } else if (name == "mintimestep") {
        o.set(s.min_time_step, r.positive("min time step"), a);
    } else {  // max time step
        MaxTimeStep m;
        if (r.accept("unlimited"))
            m.unlimited = true;
        else
            m.drive = r.drive("max time step");
        o.set(s.max_time_step, m, a);
        SourceLoc h = r.loc();
        if (r.accept("hard limit"))
            throw InputError(h, "'hard limit' of the max time step is not supported yet",
                             "remove it");
    }
}

// max iterations, tolerance.
void Builder::convergence_card(const std::string& name, DeckReader& r) {
    ProblemSettings& s = st_.model.solver;
    SettingsOrder& o = s.order;
    SourceLoc a = r.loc();
    if (name == "maxiterations") {
        long n = r.integer("max iterations");
        if (n < 1) throw InputError(a, "max iterations must be at least 1");
        o.set(s.max_iterations, n, a);
        SourceLoc b = r.loc();
        if (r.accept("at most"))
            r.warn_at(b, "'at most' is ignored: a step that has not converged after " +
                             std::to_string(n) +
                             " iterations stops the run (or is retried with a smaller step under "
                             "'strategy: factor')");
        return;
    }
    // tolerance: {null|res} [, test, {norm|minmax|none} [, scale]] [, {null|sol} [, test, ...]]
    o.set(s.residual_tolerance, r.accept("null") ? 0.0 : r.nonnegative("residual tolerance"), a);
    if (r.accept("test")) {
        SourceLoc t = r.loc();
        std::string k = r.keyword({"norm", "minmax", "none"}, "residual test");
        o.set(s.residual_test,
              k == "norm"     ? ResidualTest::norm
              : k == "minmax" ? ResidualTest::minmax
                              : ResidualTest::none,
              t);
        SourceLoc sc = r.loc();
        if (r.accept("scale"))
            throw InputError(sc, "a scaled residual test ('test, ..., scale') is not supported yet",
                             "remove 'scale': the residual is tested unscaled");
    }
    if (!r.at_end()) {
        SourceLoc b = r.loc();
        o.set(s.solution_tolerance, r.accept("null") ? 0.0 : r.nonnegative("solution tolerance"),
              b);
        if (r.accept("test")) {
            SourceLoc t = r.loc();
            if (r.keyword({"norm", "minmax", "none"}, "solution test") != "norm")
                throw InputError(t, "only the 'norm' solution test is supported yet",
                                 "write 'test, norm' or omit the test");
        }
    }
}

// Spectral radii are drive callers restricted to constants in [0, 1] (docs/deck-language.md
// 2.1), checked here so that --check finds a bad one; errors point at the drive.
std::shared_ptr<const DriveSpec> spectral_radius(DeckReader& r, const char* what) {
    auto d = r.drive(what);
    double rho = constant_value(*d).value_or(-1.0);
    if (d->type != "const" && rho < 0.0)
        throw InputError(d->loc, "the spectral radius must be a constant",
                         "write a number in [0, 1]");
    if (rho < 0.0 || rho > 1.0)
        throw InputError(d->loc, "spectral radius " + std::to_string(rho) + " is outside [0, 1]");
    return d;
}

void Builder::method_card(DeckReader& r) {
    ProblemSettings& s = st_.model.solver;
    SettingsOrder& o = s.order;
    SourceLoc at = r.card_loc();
    SourceLoc ma = r.loc();
    std::string m = r.keyword({"ms", "nostro", "hope", "crank nicolson", "crank nicholson", "bdf",
                               "implicit euler", "third order"},
                              "integration method");
    if (m == "crank nicholson")
        r.warn_at(at, "'crank nicholson' is a misspelling of 'crank nicolson'"),
            m = "crank nicolson";
    if (m == "nostro") r.warn_at(at, "'nostro' is a deprecated alias of 'ms'"), m = "ms";
    if (m == "third order")
        throw InputError(ma, "integration method 'third order' is not supported yet",
                         "use ms, hope, bdf, implicit euler or crank nicolson");
    const IntegrationMethod kind = m == "ms"               ? IntegrationMethod::ms
                                   : m == "hope"           ? IntegrationMethod::hope
                                   : m == "crank nicolson" ? IntegrationMethod::crank_nicolson
                                   : m == "bdf"            ? IntegrationMethod::bdf
                                                           : IntegrationMethod::implicit_euler;
    o.set(s.method, kind, ma);
    if (kind == IntegrationMethod::ms || kind == IntegrationMethod::hope) {
        SourceLoc a = r.loc();
        auto rho = spectral_radius(r, "spectral radius");
        o.set(s.rho, rho, a);
        SourceLoc b = r.loc();
        o.set(s.rho_algebraic, r.at_end() ? rho : spectral_radius(r, "algebraic spectral radius"),
              r.at_end() ? a : b);
    } else if (kind == IntegrationMethod::bdf) {
        long order = 2;
        SourceLoc a = r.loc();
        if (r.accept("order")) {
            a = r.loc();
            order = r.integer("bdf order");
            if (order != 1 && order != 2) throw InputError(a, "bdf order must be 1 or 2");
        }
        o.set(s.bdf_order, order, a);
    }
}

// linear solver (solver), nonlinear solver, newton raphson.
void Builder::solver_card(const std::string& name, DeckReader& r) {
    ProblemSettings& s = st_.model.solver;
    SettingsOrder& o = s.order;
    SourceLoc at = r.card_loc();
    SourceLoc a = r.loc();
    if (name == "linearsolver" || name == "solver") {
        std::string ls = r.keyword({"naive", "umfpack", "umfpack3", "klu", "y12", "lapack",
                                    "superlu", "taucs", "watson", "empty"},
                                   "linear solver");
        if (ls == "umfpack3") ls = "umfpack";  // MBDyn's legacy name of umfpack
        if (ls != "naive" && ls != "umfpack" && ls != "klu")
            r.warn_at(at, "linear solver '" + ls + "' is not available; klu is used instead"),
                ls = "klu";
        o.set(s.linear_solver, ls, a);
        // MBDyn's options choose storage, ordering, pivoting and threads (e.g. 'umfpack, cc',
        // 'naive, colamd'): they change the factorization's cost, not the solution.
        if (!r.at_end())
            ignore_card(r, r.loc(), "linear solver options",
                        "mbsolve orders and pivots " + ls +
                            " itself; the solution does not depend on them");
    } else if (name == "nonlinearsolver") {
        std::string ns = r.keyword({"default", "newton raphson", "line search", "matrix free"},
                                   "nonlinear solver");
        if (ns == "matrix free")
            throw InputError(a, "nonlinear solver 'matrix free' is not supported",
                             "use newton raphson or line search");
        o.set(s.nonlinear_solver,
              ns == "default"          ? NonlinearSolverKind::default_solver
              : ns == "newton raphson" ? NonlinearSolverKind::newton_raphson
                                       : NonlinearSolverKind::line_search,
              a);
        if (r.accept("modified")) {
            SourceLoc m = r.loc();
            o.set(s.newton_modified_iterations, r.integer("iterations between Jacobian updates"),
                  m);
        } else {
            r.accept("true");
        }
        if (ns == "line search")
            read_line_search_options(r);
        else if (!r.at_end())
            throw InputError(r.loc(), "these nonlinear solver options are not supported yet",
                             "'modified, N' is; remove the rest");
    } else {  // newton raphson
        if (r.accept("modified")) {
            SourceLoc m = r.loc();
            o.set(s.newton_modified_iterations, r.at_end() ? 1L : r.integer("iterations"), m);
        } else {
            r.accept("true");
        }
        r.accept("keep jacobian");
    }
}

// derivatives tolerance, derivatives max iterations, derivatives coefficient.
void Builder::derivatives_card(const std::string& name, DeckReader& r) {
    ProblemSettings& s = st_.model.solver;
    SettingsOrder& o = s.order;
    SourceLoc a = r.loc();
    if (name == "derivativestolerance") {
        o.set(s.derivatives_tolerance, r.nonnegative("derivatives tolerance"), a);
    } else if (name == "derivativesmaxiterations") {
        o.set(s.derivatives_max_iterations, r.integer("derivatives max iterations"), a);
    } else {
        if (!r.peek("auto"))
            o.set(s.derivatives_coefficient, r.positive("derivatives coefficient"), a);
        SourceLoc b = r.loc();
        if (r.accept("auto")) {
            // `auto [, max iterations, n] [, factor, f]`: on failure the coefficient grows by f, n
            // times.
            o.set(s.derivatives_coefficient_auto, true, b);
            while (!r.at_end()) {
                SourceLoc c = r.loc();
                if (r.accept("max iterations"))
                    o.set(s.derivatives_coefficient_max_iterations, r.integer("max iterations"), c);
                else if (r.accept("factor"))
                    o.set(s.derivatives_coefficient_factor, r.positive("factor"), c);
                else
                    r.keyword({"max iterations", "factor"}, "derivatives coefficient option");
            }
        }
    }
}

// dummy steps number | ratio | tolerance | max iterations | method (and `fictitious steps ...`).
void Builder::dummy_steps_card(const std::string& name, DeckReader& r) {
    ProblemSettings& s = st_.model.solver;
    SettingsOrder& o = s.order;
    SourceLoc at = r.card_loc();
    std::string what = name.substr(name.rfind("steps") + 5);
    if (name[0] == 'f') r.warn_at(at, "'fictitious steps' is a deprecated alias of 'dummy steps'");
    SourceLoc a = r.loc();
    if (what == "method") {
        throw InputError(at, "'dummy steps method' is not supported yet",
                         "remove it: dummy steps use the integration method of the run");
    } else if (what == "number") {
        o.set(s.dummy_steps_number, r.integer("dummy steps"), a);
    } else if (what == "maxiterations") {
        o.set(s.dummy_steps_max_iterations, r.integer("dummy steps"), a);
    } else if (what == "ratio") {
        o.set(s.dummy_steps_ratio, r.nonnegative("dummy steps ratio"), a);
    } else if (what == "tolerance") {
        o.set(s.dummy_steps_tolerance, r.nonnegative("dummy steps tolerance"), a);
    } else {
        throw InputError(at, "unknown card 'dummy steps " + what + "'",
                         "number, ratio, tolerance, max iterations or method");
    }
}

// strategy: factor, <reduction factor>, <steps before reduction>, <raise factor>, <steps before
// raise>, <min iterations> [, <max iterations>] (MBDyn's base/TimeStepControl.cc, class Factor);
// strategy: change, <drive caller> (class ChangeStep; the run is in solvers/dae/simulation.cpp);
// strategy: no change.
void Builder::strategy_card(DeckReader& r) {
    ProblemSettings& s = st_.model.solver;
    SettingsOrder& o = s.order;
    SourceLoc k_at = r.loc();
    std::string k = r.keyword({"factor", "change", "no change"}, "strategy");
    o.set(s.strategy,
          k == "factor"   ? StepStrategy::factor
          : k == "change" ? StepStrategy::change
                          : StepStrategy::no_change,
          k_at);
    if (k == "change") {
        // The drive is usually `postponed, L` (a `drive caller: L` card later in the deck),
        // resolved when the run builds it (solvers/dae/simulation.cpp).
        SourceLoc d = r.loc();
        o.set(s.strategy_change_drive, r.drive("strategy change drive"), d);
        return;
    }
    if (k != "factor") return;
    SourceLoc a = r.loc();
    double red = r.real("reduction factor");
    if (!(red > 0 && red < 1)) throw InputError(a, "strategy reduction factor must be in (0, 1)");
    o.set(s.strategy_reduction_factor, red, a);
    a = r.loc();
    long before_red = r.integer("steps before reduction");
    if (before_red < 1) throw InputError(a, "strategy steps before reduction must be at least 1");
    o.set(s.strategy_steps_before_reduction, before_red, a);
    a = r.loc();
    double raise = r.real("raise factor");
    if (!(raise >= 1)) throw InputError(a, "strategy raise factor must be at least 1");
    o.set(s.strategy_raise_factor, raise, a);
    a = r.loc();
    o.set(s.strategy_steps_before_raise, r.integer("steps before raise"), a);
    a = r.loc();
    o.set(s.strategy_min_iterations, r.integer("min iterations"), a);
    if (!r.at_end()) {
        a = r.loc();
        long max_it = r.integer("max iterations");
        if (max_it <= s.strategy_min_iterations.value)
            throw InputError(a, "strategy max iterations must be more than min iterations (" +
                                    std::to_string(s.strategy_min_iterations.value) + ")");
        o.set(s.strategy_max_iterations, max_it, a);
    }
}

// The problem block's cards: keyword (as users write it) and the reader that takes it. Every
// card accepted here is stored in ProblemSettings, or refused ("not supported yet"), or warned
// about and dropped where MBDyn treats it as cosmetic (parser/test/settings_keywords_test.cpp).
const std::vector<Builder::CardReader>& Builder::problem_cards() {
    using B = Builder;
    auto time = &B::time_card, conv = &B::convergence_card, solver = &B::solver_card,
         der = &B::derivatives_card, dummy = &B::dummy_steps_card, other = &B::problem_misc_card;
    static const std::vector<CardReader> v = {
        {"initial time", time},
        {"final time", time},
        {"time step", time},
        {"min time step", time},
        {"max time step", time},
        {"max iterations", conv},
        {"tolerance", conv},
        {"method", [](B& b, const std::string&, DeckReader& r) { b.method_card(r); }},
        {"linear solver", solver},
        {"solver", solver},
        {"nonlinear solver", solver},
        {"newton raphson", solver},
        {"derivatives tolerance", der},
        {"derivatives max iterations", der},
        {"derivatives coefficient", der},
        {"dummy steps number", dummy},
        {"dummy steps ratio", dummy},
        {"dummy steps tolerance", dummy},
        {"dummy steps max iterations", dummy},
        {"dummy steps method", dummy},
        {"fictitious steps number", dummy},
        {"fictitious steps ratio", dummy},
        {"fictitious steps tolerance", dummy},
        {"fictitious steps max iterations", dummy},
        {"fictitious steps method", dummy},
        {"strategy", [](B& b, const std::string&, DeckReader& r) { b.strategy_card(r); }},
        {"output", other},
        {"abort after", other},
        {"output meter", other},
        {"threads", other},
        {"eigenanalysis", other},
        {"modify residual test", other},
        {"enforce constraint equations", other},
    };
    return v;
}

// The cards that take a message of their own: cosmetic ones dropped with a warning, and refusals.
void Builder::problem_misc_card(const std::string& name, DeckReader& r) {
    ProblemSettings& s = st_.model.solver;
    SourceLoc at = r.card_loc();
    if (name == "output") {
        ignore_card(
            r, at, "output",
            "mbsolve does not print MBDyn's solver diagnostics (iterations, residual, ...)");
    } else if (name == "abortafter") {
        SourceLoc a = r.loc();
        std::string k =
            r.keyword({"input", "assembly", "derivatives", "dummy steps"}, "abort phase");
        s.order.set(s.abort_after,
                    k == "input"         ? AbortAfter::input
                    : k == "assembly"    ? AbortAfter::assembly
                    : k == "derivatives" ? AbortAfter::derivatives
                                         : AbortAfter::dummy_steps,
                    a);
    } else if (name == "outputmeter") {
        throw InputError(
            at, "'output meter' belongs in the control data block, not in the initial value block",
            "move it to 'begin: control data;'");
    } else if (name == "threads") {
        ignore_card(r, at, "threads", "mbsolve assembles and solves on one thread");
    } else if (name == "eigenanalysis") {
        eigenanalysis_card(r);
    } else {
        throw InputError(
            at,
            "'" +
                std::string(name == "modifyresidualtest" ? "modify residual test"
                                                         : "enforce constraint equations") +
                "' is not supported yet",
            "remove the card");
    }
}

void Builder::problem_card(const std::string& name, DeckReader& r) {
    auto at = r.card_loc();
    // The equilibrium cards in a `problem: equilibrium;` or `problem: modal;` deck's block and in
    // the options-only equilibrium block of any other deck, which takes nothing else.
    const bool eq_card = name == "exchange" || name == "extra" || name == "spin" || name == "time";
    if (equilibrium_options_ && !eq_card)
        throw InputError(
            at, "'" + name + "' is not an equilibrium option",
            "this 'begin: equilibrium;' block takes exchange, extra, spin and time cards; the '" +
                st_.model.problem + "' problem's cards go in its own block");
    if ((st_.model.problem == "equilibrium" || st_.model.problem == "modal" ||
         equilibrium_options_) &&
        eq_card) {
        equilibrium_card(name, r);
        r.finish();
        return;
    }
    for (const auto& c : problem_cards())
        if (normalize_keyword(c.keyword) == name) {
            c.read(*this, name, r);
            r.finish();
            return;
        }
    if (name.rfind("dummysteps", 0) == 0 || name.rfind("fictitioussteps", 0) == 0)
        return dummy_steps_card(name, r);  // refused there, naming the option
    static const std::vector<std::string> known = {"initial time",
                                                   "final time",
                                                   "time step",
                                                   "min time step",
                                                   "max time step",
                                                   "max iterations",
                                                   "tolerance",
                                                   "method",
                                                   "linear solver",
                                                   "nonlinear solver",
                                                   "newton raphson",
                                                   "derivatives tolerance",
                                                   "derivatives max iterations",
                                                   "derivatives coefficient",
                                                   "dummy steps number",
                                                   "dummy steps ratio",
                                                   "dummy steps tolerance",
                                                   "dummy steps max iterations",
                                                   "strategy",
                                                   "output",
                                                   "abort after",
                                                   "eigenanalysis",
                                                   "threads",
                                                   "modify residual test"};
    std::string near = closest_match(name, known);
    throw InputError(at, "unknown card '" + name + "' in the initial value block",
                     near.empty() ? "" : "did you mean '" + near + "'?");
}

}  // namespace mbs::parser
