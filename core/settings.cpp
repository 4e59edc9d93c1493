// Keyword names of the settings' enumerations, the control-data queries and the generic view of
// the settings that --dump-model prints (core/settings.hpp).
#include "core/settings.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <tuple>

#include "core/model.hpp"

namespace mbs {

std::string_view keyword_name(IntegrationMethod v) {
    static constexpr std::string_view n[] = {"ms", "hope", "crank nicolson", "bdf",
                                             "implicit euler"};
    return n[static_cast<int>(v)];
}
std::string_view keyword_name(ResidualTest v) {
    static constexpr std::string_view n[] = {"norm", "minmax", "none"};
    return n[static_cast<int>(v)];
}
std::string_view keyword_name(NonlinearSolverKind v) {
    static constexpr std::string_view n[] = {"default", "newton raphson", "line search"};
    return n[static_cast<int>(v)];
}
std::string_view keyword_name(LineSearchAlgorithm v) {
    static constexpr std::string_view n[] = {"cubic", "factor"};
    return n[static_cast<int>(v)];
}
std::string_view keyword_name(StepStrategy v) {
    static constexpr std::string_view n[] = {"factor", "no change", "change"};
    return n[static_cast<int>(v)];
}
std::string_view keyword_name(AbortAfter v) {
    static constexpr std::string_view n[] = {"input", "assembly", "derivatives", "dummy steps"};
    return n[static_cast<int>(v)];
}

int ControlSettings::precision() const {
    return static_cast<int>(
        std::clamp(output_precision.value_or(default_output_precision), 1L, 17L));
}

namespace {
bool lists(const Setting<std::vector<std::string>>& s, std::string_view w) {
    return std::find(s.value.begin(), s.value.end(), w) != s.value.end();
}
}  // namespace

bool ControlSettings::uses_in_assembly(std::string_view kind) const {
    return lists(use_in_assembly, kind);
}
bool ControlSettings::default_output_lists(std::string_view kind) const {
    return lists(default_output, kind);
}
bool ControlSettings::output_result(std::string_view format) const {
    return lists(output_results, format);
}

bool ControlSettings::outputs_by_default(std::string_view counter) const {
    bool on = counter != "gravity";
    for (const auto& item : default_output.value) {
        if (item == "all")
            on = true;
        else if (item == "none")
            on = false;
        else if (item == counter)
            on = true;
    }
    return on;
}

namespace {

// The generic (key, value) view, in the deck's order; the keys and value types are those
// --dump-model has always printed.
class View {
  public:
    template <class T>
    void add(const char* key, const Setting<T>& s) {
        if (s.given()) items_.emplace_back(s.seq, key, value(s.value));
    }
    void add(std::string key, int seq, PropValue v) {
        items_.emplace_back(seq, std::move(key), std::move(v));
    }
    Props props() {
        std::stable_sort(items_.begin(), items_.end(), [](const auto& a, const auto& b) {
            return std::get<0>(a) < std::get<0>(b);
        });
        Props p;
        for (auto& [seq, k, v] : items_) p.set(k, std::move(v));
        return p;
    }

  private:
    static PropValue value(double v) { return v; }
    static PropValue value(long v) { return v; }
    static PropValue value(bool v) { return v; }
    static PropValue value(const std::string& v) { return v; }
    static PropValue value(const std::shared_ptr<const DriveSpec>& v) { return v; }
    template <class E>
    requires std::is_enum_v<E>
    static PropValue value(E e) { return std::string(keyword_name(e)); }
    static PropValue value(const FinalTime& f) {
        return f.forever ? PropValue(std::string("forever")) : PropValue(f.t);
    }
    static PropValue value(const MaxTimeStep& m) {
        return m.unlimited ? PropValue(std::string("unlimited")) : PropValue(m.drive);
    }
    static PropValue value(const std::vector<std::string>& list) {
        std::string s;
        for (const auto& w : list) s += (s.empty() ? "" : ", ") + w;
        return s;
    }
    std::vector<std::tuple<int, std::string, PropValue>> items_;
};

// An equilibrium card (exchange, extra, spin, time) shown as a drive caller of that name in the
// view: its arguments, in card order, under the keys "1", "2", ...
struct EquilibriumCardArgs final : KindArgs {
    std::vector<std::variant<std::string, double>> args;
    void describe(Props& out) const override {
        int k = 0;
        for (const auto& a : args)
            std::visit([&](const auto& x) { out.set(std::to_string(++k), x); }, a);
    }
};

}  // namespace

Props settings_view(const ProblemSettings& s) {
    View v;
    int n = 0;
    for (const auto& card : s.equilibrium_cards) {
        auto rec = std::make_shared<DriveSpec>();
        rec->type = card.name;
        rec->loc = card.loc;
        emplace_args<EquilibriumCardArgs>(*rec).args = card.args;
        v.add("equilibrium card " + std::to_string(++n), card.seq,
              std::shared_ptr<const DriveSpec>(rec));
    }
    v.add("initial time", s.initial_time);
    v.add("final time", s.final_time);
    v.add("time step", s.time_step);
    v.add("min time step", s.min_time_step);
    v.add("max time step", s.max_time_step);
    v.add("max iterations", s.max_iterations);
    v.add("residual tolerance", s.residual_tolerance);
    v.add("residual test", s.residual_test);
    v.add("solution tolerance", s.solution_tolerance);
    v.add("method", s.method);
    v.add("rho", s.rho);
    v.add("rho algebraic", s.rho_algebraic);
    v.add("bdf order", s.bdf_order);
    v.add("linear solver", s.linear_solver);
    v.add("nonlinear solver", s.nonlinear_solver);
    v.add("newton modified iterations", s.newton_modified_iterations);
    const LineSearchSettings& l = s.line_search;
    v.add("line search tolerance x", l.tolerance_x);
    v.add("line search tolerance min", l.tolerance_min);
    v.add("line search alpha", l.alpha);
    v.add("line search max step", l.max_step);
    v.add("line search max iterations", l.max_iterations);
    v.add("line search lambda min", l.lambda_min);
    v.add("line search lambda min relative", l.lambda_min_relative);
    v.add("line search lambda factor min", l.lambda_factor_min);
    v.add("line search zero gradient continue", l.zero_gradient_continue);
    v.add("line search divergence check", l.divergence_check);
    v.add("line search divergence factor", l.divergence_factor);
    v.add("line search algorithm", l.algorithm);
    v.add("line search scale newton step", l.scale_newton_step);
    v.add("line search min scale", l.min_scale);
    v.add("line search print convergence info", l.print_convergence_info);
    v.add("line search verbose", l.verbose);
    v.add("line search abort at lambda min", l.abort_at_lambda_min);
    v.add("derivatives tolerance", s.derivatives_tolerance);
    v.add("derivatives max iterations", s.derivatives_max_iterations);
    v.add("derivatives coefficient", s.derivatives_coefficient);
    v.add("derivatives coefficient auto", s.derivatives_coefficient_auto);
    v.add("derivatives coefficient max iterations", s.derivatives_coefficient_max_iterations);
    v.add("derivatives coefficient factor", s.derivatives_coefficient_factor);
    v.add("dummy steps number", s.dummy_steps_number);
    v.add("dummy steps ratio", s.dummy_steps_ratio);
    v.add("dummy steps tolerance", s.dummy_steps_tolerance);
    v.add("dummy steps max iterations", s.dummy_steps_max_iterations);
    v.add("strategy", s.strategy);
    v.add("strategy reduction factor", s.strategy_reduction_factor);
    v.add("strategy steps before reduction", s.strategy_steps_before_reduction);
    v.add("strategy raise factor", s.strategy_raise_factor);
    v.add("strategy steps before raise", s.strategy_steps_before_raise);
    v.add("strategy min iterations", s.strategy_min_iterations);
    v.add("strategy max iterations", s.strategy_max_iterations);
    v.add("strategy change drive", s.strategy_change_drive);
    v.add("abort after", s.abort_after);
    if (const EigenanalysisSettings& e = s.eigenanalysis; e.given()) {
        // One summary, after the other options (the card keeps no place in their order).
        std::string d = "times";
        char buf[64];
        for (double t : e.times) std::snprintf(buf, sizeof buf, " %.17g", t), d += buf;
        if (e.parameter > 0)
            std::snprintf(buf, sizeof buf, "; parameter %.17g", e.parameter), d += buf;
        if (e.output_eigenvectors) d += "; output eigenvectors";
        if (e.output_geometry) d += "; output geometry";
        if (e.results_precision > 0)
            d += "; results output precision " + std::to_string(e.results_precision);
        if (e.lower_frequency_Hz > 0)
            std::snprintf(buf, sizeof buf, "; lower frequency limit %.17g", e.lower_frequency_Hz),
                d += buf;
        if (e.upper_frequency_Hz > 0)
            std::snprintf(buf, sizeof buf, "; upper frequency limit %.17g", e.upper_frequency_Hz),
                d += buf;
        if (e.suffix_width != 0)
            d += "; suffix width " +
                 (e.suffix_width < 0 ? std::string("compute") : std::to_string(e.suffix_width));
        v.add("eigenanalysis", std::numeric_limits<int>::max(), d);
    }
    return v.props();
}

Props settings_view(const ControlSettings& c) {
    View v;
    v.add("gravity", c.gravity);
    v.add("skip initial joint assembly", c.skip_initial_joint_assembly);
    v.add("use in assembly", c.use_in_assembly);
    v.add("initial stiffness", c.initial_stiffness);
    v.add("initial velocity stiffness", c.initial_velocity_stiffness);
    v.add("assembly tolerance", c.assembly_tolerance);
    v.add("assembly max iterations", c.assembly_max_iterations);
    v.add("default output", c.default_output);
    v.add("output frequency", c.output_frequency);
    v.add("output meter", c.output_meter);
    v.add("output precision", c.output_precision);
    v.add("output results", c.output_results);
    v.add("default orientation", c.default_orientation);
    if (c.static_model.given()) v.add("model", c.static_model.seq, std::string("static"));
    v.add("title", c.title);
    return v.props();
}

}  // namespace mbs
