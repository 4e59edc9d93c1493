// The problem block (`begin: initial value;`, or a reduced problem's block, and the options-only
// `begin: equilibrium;` block) into the typed settings Model::solver (core/settings.hpp).
#include <cmath>
#include <cstdio>

#include "parser/builder_impl.hpp"

namespace mbs::parser {

// A run of more than max_time_steps steps is refused before anything is built (with the
// engine's defaults: initial time 0, final time initial + 1, time step 1e-3).
void Builder::check_run_length(const SourceLoc& end_card) {
    const Props& s = st_.model.solver;
    auto real = [&](const char* key, double fallback) {
        const PropValue* v = s.find(key);
        if (const double* x = v ? std::get_if<double>(v) : nullptr) return *x;
        if (const long* l = v ? std::get_if<long>(v) : nullptr) return static_cast<double>(*l);
        return fallback;
    };
    if (s.get_or<std::string>("final time", "") == "forever") return;
    double t0 = real("initial time", 0.0);
    double tf = real("final time", t0 + 1.0);
    double dt = real("time step", 1e-3);
    // A final time before the initial one used to run no step at all and exit 0 (issue 20).
    if (tf < t0) {
        char msg[160];
        std::snprintf(msg, sizeof msg, "final time %g is before initial time %g", tf, t0);
        throw InputError(final_time_loc_.valid() ? final_time_loc_ : end_card, msg,
                         "the run goes from the initial time forward to the final time");
    }
    double steps = (tf - t0) / dt;
    if (!(steps > max_time_steps)) return;
    SourceLoc at = time_step_loc_.valid()    ? time_step_loc_
                   : final_time_loc_.valid() ? final_time_loc_
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

// `nonlinear solver: line search [, modified, n], <keyword>, <value>, ...`
// (docs/deck-language.md 2.1): each option as "line search <keyword>"; the solver checks none of
// them again.
void Builder::read_line_search_options(Props& s, DeckReader& r) {
    // `, yes|no` (or a number) after a flag; a bare flag means yes.
    auto yes_no = [&](const char* key) {
        bool v = r.at_end() || !(r.peek("yes") || r.peek("no") || r.peek("true") ||
                                 r.peek("false") || r.next_is_value())
                     ? true
                     : r.boolean(key);
        s.set(std::string("line search ") + key, v);
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
        std::string key = "line search " + k;
        if (k == "tolerance x" || k == "tolerance min" || k == "alpha" || k == "max step") {
            s.set(key, r.nonnegative(k));
        } else if (k == "max iterations") {
            SourceLoc a = r.loc();
            long n = r.integer(k);
            if (n < 1) throw InputError(a, "line search max iterations must be at least 1");
            s.set(key, n);
        } else if (k == "lambda min") {
            SourceLoc a = r.loc();
            double v = r.nonnegative(k);
            if (v > 1.0) throw InputError(a, "lambda min must be in [0, 1]");
            s.set(key, v);
            if (r.accept("relative")) yes_no("lambda min relative");
        } else if (k == "lambda factor min") {
            SourceLoc a = r.loc();
            double v = r.real(k);
            if (!(v > 0.0 && v < 1.0)) throw InputError(a, "lambda factor min must be in (0, 1)");
            s.set(key, v);
        } else if (k == "zero gradient") {
            r.expect("continue");
            yes_no("zero gradient continue");
        } else if (k == "divergence check") {
            yes_no("divergence check");
            if (r.accept("factor"))
                s.set("line search divergence factor", r.positive("divergence check factor"));
        } else if (k == "algorithm") {
            s.set(key, r.keyword({"cubic", "factor"}, "line search algorithm"));
        } else if (k == "scale newton step") {
            yes_no("scale newton step");
            if (r.accept("min scale")) {
                SourceLoc a = r.loc();
                double v = r.nonnegative("min scale");
                if (v > 1.0) throw InputError(a, "min scale must be in [0, 1]");
                s.set("line search min scale", v);
            }
        } else {
            yes_no(k.c_str());  // print convergence info, verbose, abort at lambda min
        }
    }
}

void Builder::problem_card(const std::string& name, DeckReader& r) {
    Props& s = st_.model.solver;
    auto at = r.card_loc();
    // Options of the relative-coordinate equilibrium (`exchange:`, `extra:`, `spin:`; read by
    // solvers/reduced/equilibrium.cpp): kept as located records, "equilibrium card <n>" = a
    // DriveSpec with type = the card name, loc = the card, params "1", "2", ... = its arguments
    // (words as strings, expressions evaluated to numbers).
    // The same cards (and `time:`) in a `problem: modal;` deck's block and in the options-only
    // equilibrium block of any other deck, which takes nothing else.
    const bool eq_card = name == "exchange" || name == "extra" || name == "spin" || name == "time";
    if (equilibrium_options_ && !eq_card)
        throw InputError(
            at, "'" + name + "' is not an equilibrium option",
            "this 'begin: equilibrium;' block takes exchange, extra, spin and time cards; the '" +
                st_.model.problem + "' problem's cards go in its own block");
    if ((st_.model.problem == "equilibrium" || st_.model.problem == "modal" ||
         equilibrium_options_) &&
        eq_card) {
        auto rec = std::make_shared<DriveSpec>();
        rec->type = name;
        rec->loc = at;
        int n = 0;
        while (!r.at_end()) {
            if (r.peek_empty()) {
                r.skip();
                continue;
            }
            std::string w = r.peek_word();
            if (!w.empty() && !r.next_is_value()) {
                rec->params.set(std::to_string(++n), w);
                r.skip();
                continue;
            }
            Value v = r.value(name);
            if (v.type == Type::string)
                rec->params.set(std::to_string(++n), v.s);
            else
                rec->params.set(std::to_string(++n), v.as_real());
        }
        long k = 0;
        for (const auto& item : s.items()) k += item.first.rfind("equilibrium card ", 0) == 0;
        s.set("equilibrium card " + std::to_string(k + 1), std::shared_ptr<const DriveSpec>(rec));
        r.finish();
        return;
    }
    if (name == "initialtime")
        s.set("initial time", r.real("initial time"));
    else if (name == "finaltime") {
        final_time_loc_ = r.loc();
        if (r.accept("forever"))
            s.set("final time", std::string("forever"));
        else
            s.set("final time", r.real("final time"));
    } else if (name == "timestep") {
        SourceLoc a = r.loc();
        time_step_loc_ = a;
        double dt = r.real("time step");
        if (dt == 0.0) throw InputError(a, "time step must not be zero");
        if (dt < 0) r.warn_at(a, "negative time step replaced by its absolute value");
        s.set("time step", std::fabs(dt));
    } else if (name == "mintimestep")
        s.set("min time step", r.positive("min time step"));
    else if (name == "maxtimestep") {
        if (r.accept("unlimited"))
            s.set("max time step", std::string("unlimited"));
        else
            s.set("max time step", r.drive("max time step"));
        SourceLoc a = r.loc();
        if (r.accept("hard limit"))
            throw InputError(a, "'hard limit' of the max time step is not supported yet",
                             "remove it");
    } else if (name == "maxiterations") {
        SourceLoc a = r.loc();
        long n = r.integer("max iterations");
        if (n < 1) throw InputError(a, "max iterations must be at least 1");
        s.set("max iterations", n);
        SourceLoc b = r.loc();
        if (r.accept("at most"))
            r.warn_at(b, "'at most' is ignored: a step that has not converged after " +
                             std::to_string(n) +
                             " iterations stops the run (or is retried with a smaller step under "
                             "'strategy: factor')");
    } else if (name == "tolerance") {
        // tolerance: {null|res} [, test, {norm|minmax|none} [, scale]] [, {null|sol} [, test, ...]]
        if (r.accept("null"))
            s.set("residual tolerance", 0.0);
        else
            s.set("residual tolerance", r.nonnegative("residual tolerance"));
        if (r.accept("test")) {
            s.set("residual test", r.keyword({"norm", "minmax", "none"}, "residual test"));
            SourceLoc a = r.loc();
            if (r.accept("scale"))
                throw InputError(a,
                                 "a scaled residual test ('test, ..., scale') is not supported yet",
                                 "remove 'scale': the residual is tested unscaled");
        }
        if (!r.at_end()) {
            if (r.accept("null"))
                s.set("solution tolerance", 0.0);
            else
                s.set("solution tolerance", r.nonnegative("solution tolerance"));
            if (r.accept("test")) {
                SourceLoc a = r.loc();
                if (r.keyword({"norm", "minmax", "none"}, "solution test") != "norm")
                    throw InputError(a, "only the 'norm' solution test is supported yet",
                                     "write 'test, norm' or omit the test");
            }
        }
    } else if (name == "method") {
        SourceLoc ma = r.loc();
        std::string m = r.keyword({"ms", "nostro", "hope", "crank nicolson", "crank nicholson",
                                   "bdf", "implicit euler", "third order"},
                                  "integration method");
        if (m == "crank nicholson")
            r.warn_at(at, "'crank nicholson' is a misspelling of 'crank nicolson'"),
                m = "crank nicolson";
        if (m == "nostro") r.warn_at(at, "'nostro' is a deprecated alias of 'ms'"), m = "ms";
        s.set("method", m);
        if (m == "ms" || m == "hope") {
            auto rho = r.drive("spectral radius");
            s.set("rho", rho);
            s.set("rho algebraic", r.at_end() ? rho : r.drive("algebraic spectral radius"));
        } else if (m == "bdf") {
            long order = 2;
            if (r.accept("order")) {
                SourceLoc a = r.loc();
                order = r.integer("bdf order");
                if (order != 1 && order != 2) throw InputError(a, "bdf order must be 1 or 2");
            }
            s.set("bdf order", order);
        } else if (m == "third order") {
            throw InputError(ma, "integration method 'third order' is not supported yet",
                             "use ms, hope, bdf, implicit euler or crank nicolson");
        }
    } else if (name == "linearsolver" || name == "solver") {
        std::string ls = r.keyword(
            {"naive", "umfpack", "klu", "y12", "lapack", "superlu", "taucs", "watson", "empty"},
            "linear solver");
        if (ls != "naive" && ls != "umfpack" && ls != "klu")
            r.warn_at(at, "linear solver '" + ls + "' is not available; klu is used instead"),
                ls = "klu";
        s.set("linear solver", ls);
        // MBDyn's options choose storage, ordering, pivoting and threads (e.g. 'umfpack, cc',
        // 'naive, colamd'): they change the factorization's cost, not the solution.
        if (!r.at_end())
            ignore_card(r, r.loc(), "linear solver options",
                        "mbsolve orders and pivots " + ls +
                            " itself; the solution does not depend on them");
    } else if (name == "nonlinearsolver") {
        SourceLoc ns_at = r.loc();
        std::string ns = r.keyword({"default", "newton raphson", "line search", "matrix free"},
                                   "nonlinear solver");
        if (ns == "matrix free")
            throw InputError(ns_at, "nonlinear solver 'matrix free' is not supported",
                             "use newton raphson or line search");
        s.set("nonlinear solver", ns);
        if (r.accept("modified")) {
            s.set("newton modified iterations", r.integer("iterations between Jacobian updates"));
        } else {
            r.accept("true");
        }
        if (ns == "line search")
            read_line_search_options(s, r);
        else if (!r.at_end())
            throw InputError(r.loc(), "these nonlinear solver options are not supported yet",
                             "'modified, N' is; remove the rest");
    } else if (name == "newtonraphson") {
        if (r.accept("modified"))
            s.set("newton modified iterations", r.at_end() ? 1L : r.integer("iterations"));
        else
            r.accept("true");
        r.accept("keep jacobian");
    } else if (name == "derivativestolerance")
        s.set("derivatives tolerance", r.nonnegative("derivatives tolerance"));
    else if (name == "derivativesmaxiterations")
        s.set("derivatives max iterations", r.integer("derivatives max iterations"));
    else if (name == "derivativescoefficient") {
        if (!r.peek("auto"))
            s.set("derivatives coefficient", r.positive("derivatives coefficient"));
        if (r.accept("auto")) {
            // `auto [, max iterations, n] [, factor, f]`: on failure the coefficient grows by f, n
            // times.
            s.set("derivatives coefficient auto", true);
            while (!r.at_end()) {
                if (r.accept("max iterations"))
                    s.set("derivatives coefficient max iterations", r.integer("max iterations"));
                else if (r.accept("factor"))
                    s.set("derivatives coefficient factor", r.positive("factor"));
                else
                    r.keyword({"max iterations", "factor"}, "derivatives coefficient option");
            }
        }
    } else if (name.rfind("dummysteps", 0) == 0 || name.rfind("fictitioussteps", 0) == 0) {
        std::string what = name.substr(name.rfind("steps") + 5);
        if (name[0] == 'f')
            r.warn_at(at, "'fictitious steps' is a deprecated alias of 'dummy steps'");
        if (what == "method") {
            throw InputError(at, "'dummy steps method' is not supported yet",
                             "remove it: dummy steps use the integration method of the run");
        } else if (what == "number" || what == "maxiterations") {
            s.set("dummy steps " + std::string(what == "number" ? "number" : "max iterations"),
                  r.integer("dummy steps"));
        } else if (what == "ratio" || what == "tolerance") {
            s.set("dummy steps " + what, r.nonnegative("dummy steps " + what));
        } else {
            throw InputError(at, "unknown card 'dummy steps " + what + "'",
                             "number, ratio, tolerance, max iterations or method");
        }
    } else if (name == "strategy") {
        std::string k = r.keyword({"factor", "change", "no change"}, "strategy");
        s.set("strategy", k);
        if (k == "factor") {
            SourceLoc a = r.loc();
            double red = r.real("reduction factor");
            if (!(red > 0 && red < 1))
                throw InputError(a, "strategy reduction factor must be in (0, 1)");
            s.set("strategy reduction factor", red);
            s.set("strategy steps before reduction", r.integer("steps before reduction"));
            SourceLoc b = r.loc();
            double raise = r.real("raise factor");
            if (!(raise >= 1)) throw InputError(b, "strategy raise factor must be at least 1");
            s.set("strategy raise factor", raise);
            s.set("strategy steps before raise", r.integer("steps before raise"));
            s.set("strategy min iterations", r.integer("min iterations"));
            if (!r.at_end()) s.set("strategy max iterations", r.integer("max iterations"));
        } else if (k == "change") {
            throw InputError(at,
                             "'strategy: change' (the time step from a drive) is not supported yet",
                             "remove it for a fixed step, or use 'strategy: factor, ...'");
        }
    } else if (name == "output") {
        ignore_card(
            r, at, "output",
            "mbsolve does not print MBDyn's solver diagnostics (iterations, residual, ...)");
    } else if (name == "abortafter") {
        s.set("abort after",
              r.keyword({"input", "assembly", "derivatives", "dummy steps"}, "abort phase"));
    } else if (name == "outputmeter") {
        throw InputError(
            at, "'output meter' belongs in the control data block, not in the initial value block",
            "move it to 'begin: control data;'");
    } else if (name == "threads") {
        ignore_card(r, at, "threads", "mbsolve assembles and solves on one thread");
    } else if (name == "eigenanalysis") {
        throw InputError(at, "'eigenanalysis' is not supported yet",
                         "remove the card; 'mbsolve --analysis modal' gives the modes of the "
                         "relative-coordinate model");
    } else if (name == "modifyresidualtest" || name == "enforceconstraintequations") {
        throw InputError(
            at,
            "'" +
                std::string(name == "modifyresidualtest" ? "modify residual test"
                                                         : "enforce constraint equations") +
                "' is not supported yet",
            "remove the card");
    } else {
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
    r.finish();
}

}  // namespace mbs::parser
