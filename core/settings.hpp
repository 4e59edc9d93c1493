// Typed settings of the problem block (`begin: initial value;` or a reduced problem's block,
// docs/deck-language.md 2.1) and of control data (2.2). The builder fills them once
// (parser/builder_problem.cpp, parser/builder_control.cpp); the DAE runtime
// (SolverSettings::from_model), the reduced path and the output read the fields. Every option
// keeps where the deck gave it, so that an error found later points at it, and the order in which
// it was given, so that --dump-model prints the options in card order (settings_view(),
// core/model.hpp).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/source.hpp"

namespace mbs {

struct DriveSpec;

// One option: its value, the deck location of the argument (or card) it was read from, and its
// place in the deck's order (0: not given).
template <class T>
struct Setting {
    T value{};
    SourceLoc loc;
    int seq = 0;
    bool given() const { return seq != 0; }
    T value_or(T fallback) const { return given() ? value : fallback; }
};

// Hands out the deck order of the options of one settings block.
struct SettingsOrder {
    int last = 0;
    template <class T, class V>
    void set(Setting<T>& s, V&& v, const SourceLoc& at) {
        if (!s.seq) s.seq = ++last;
        s.value = std::forward<V>(v);
        s.loc = at;
    }
};

// Keyword values, each with its deck spelling (keyword_name()).
enum class IntegrationMethod { ms, hope, crank_nicolson, bdf, implicit_euler };
enum class ResidualTest { norm, minmax, none };
enum class NonlinearSolverKind { default_solver, newton_raphson, line_search };
enum class LineSearchAlgorithm { cubic, factor };
enum class StepStrategy { factor, no_change, change };
enum class AbortAfter { input, assembly, derivatives, dummy_steps };
std::string_view keyword_name(IntegrationMethod v);
std::string_view keyword_name(ResidualTest v);
std::string_view keyword_name(NonlinearSolverKind v);
std::string_view keyword_name(LineSearchAlgorithm v);
std::string_view keyword_name(StepStrategy v);
std::string_view keyword_name(AbortAfter v);

// `final time: <t> | forever;`
struct FinalTime {
    bool forever = false;
    double t = 0.0;
};

// `max time step: <drive> | unlimited;`
struct MaxTimeStep {
    bool unlimited = false;
    std::shared_ptr<const DriveSpec> drive;
};

// `exchange:`, `extra:`, `spin:`, `time:` of the relative-coordinate equilibrium (read by
// solvers/reduced/equilibrium.cpp): the card's arguments in order, words as strings and
// expressions evaluated to numbers.
struct EquilibriumCard {
    std::string name;  // "exchange", "extra", "spin", "time"
    SourceLoc loc;     // the card
    int seq = 0;
    std::vector<std::variant<std::string, double>> args;
};

// `nonlinear solver: line search, <option>, <value>, ...` (docs/deck-language.md 2.1).
struct LineSearchSettings {
    Setting<double> tolerance_x, tolerance_min, alpha, max_step;
    Setting<long> max_iterations;
    Setting<double> lambda_min;
    Setting<bool> lambda_min_relative;
    Setting<double> lambda_factor_min;
    Setting<bool> zero_gradient_continue, divergence_check;
    Setting<double> divergence_factor;
    Setting<LineSearchAlgorithm> algorithm;
    Setting<bool> scale_newton_step;
    Setting<double> min_scale;
    Setting<bool> print_convergence_info, verbose, abort_at_lambda_min;
};

// MBDyn's `eigenanalysis` card of the initial value block (docs/deck-language.md 2.1): the times
// at which the run linearizes the DAE after the converged step and writes its modes
// (solvers/dae/eigenanalysis.cpp).
struct EigenanalysisSettings {
    std::vector<double> times;  // strictly ascending
    SourceLoc loc;              // the card
    double parameter = 0.0;     // MBDyn's `parameter` (0: the time step); dCoef = parameter / 2
    bool output_eigenvectors = false, output_geometry = false;
    double lower_frequency_Hz = 0.0, upper_frequency_Hz = -1.0;  // -1: no upper limit
    int results_precision = 0;                                   // 0: 16 significant digits
    int suffix_width = 0;                                        // -1: `compute`
    bool given() const { return !times.empty(); }
};

// The problem block.
struct ProblemSettings {
    // The defaults of the run length, written once (the builder's run-length bound, the DAE
    // runtime and the reduced path use them).
    static constexpr double default_initial_time = 0.0;
    static constexpr double default_duration = 1.0;  // final time = initial time + this
    static constexpr double default_time_step = 1e-3;

    Setting<double> initial_time;
    Setting<FinalTime> final_time;
    Setting<double> time_step;
    Setting<double> min_time_step;
    Setting<MaxTimeStep> max_time_step;
    Setting<long> max_iterations;
    Setting<double> residual_tolerance;
    Setting<ResidualTest> residual_test;
    Setting<double> solution_tolerance;
    Setting<IntegrationMethod> method;
    Setting<std::shared_ptr<const DriveSpec>> rho, rho_algebraic;  // ms, hope
    Setting<long> bdf_order;
    Setting<std::string> linear_solver;  // "naive", "umfpack", "klu"
    Setting<NonlinearSolverKind> nonlinear_solver;
    Setting<long> newton_modified_iterations;
    LineSearchSettings line_search;
    Setting<double> derivatives_tolerance;
    Setting<long> derivatives_max_iterations;
    Setting<double> derivatives_coefficient;
    Setting<bool> derivatives_coefficient_auto;
    Setting<long> derivatives_coefficient_max_iterations;
    Setting<double> derivatives_coefficient_factor;
    Setting<long> dummy_steps_number;
    Setting<double> dummy_steps_ratio, dummy_steps_tolerance;
    Setting<long> dummy_steps_max_iterations;
    Setting<StepStrategy> strategy;
    Setting<double> strategy_reduction_factor;
    Setting<long> strategy_steps_before_reduction;
    Setting<double> strategy_raise_factor;
    Setting<long> strategy_steps_before_raise, strategy_min_iterations, strategy_max_iterations;
    // `strategy: change, <drive>`: the time step after each step is the drive at the time reached
    Setting<std::shared_ptr<const DriveSpec>> strategy_change_drive;
    Setting<AbortAfter> abort_after;
    std::vector<EquilibriumCard> equilibrium_cards;
    EigenanalysisSettings eigenanalysis;
    SettingsOrder order;

    double t0() const { return initial_time.value_or(default_initial_time); }
    double dt() const { return time_step.value_or(default_time_step); }
    bool forever() const { return final_time.given() && final_time.value.forever; }
    // The final time when given (and not `forever`), else `fallback`.
    double tf_or(double fallback) const {
        return final_time.given() && !final_time.value.forever ? final_time.value.t : fallback;
    }
};

// Control data, apart from the counters (Model::declared_counts).
struct ControlSettings {
    Setting<bool> gravity;
    Setting<bool> skip_initial_joint_assembly;
    Setting<std::vector<std::string>> use_in_assembly;  // "rigid bodies", "forces", "beams", ...
    Setting<double> initial_stiffness, initial_velocity_stiffness;
    Setting<double> assembly_tolerance;
    Setting<long> assembly_max_iterations;
    Setting<std::vector<std::string>> default_output;  // "all", "none", "joints", ...
    Setting<long> output_frequency;
    Setting<std::shared_ptr<const DriveSpec>> output_meter;
    Setting<long> output_precision;
    Setting<std::vector<std::string>> output_results;  // "netcdf", "hdf5", "sync", "no text"
    Setting<std::string> default_orientation;          // "euler123", ...
    Setting<bool> static_model;                        // `model: static;`
    Setting<std::string> title;
    SettingsOrder order;

    static constexpr long default_output_precision = 6;
    std::string orientation() const { return default_orientation.value_or("euler123"); }
    int precision() const;  // output precision, 1-17 digits
    bool uses_in_assembly(std::string_view kind) const;
    // Whether entities of a control-data counter ("joints", ...) are output by default: `default
    // output` read in order, `all` and `none` included; gravity is off unless listed.
    bool outputs_by_default(std::string_view counter) const;
    bool default_output_lists(std::string_view kind) const;  // `default output` names it
    bool output_result(std::string_view format) const;       // `output results` lists it
};

}  // namespace mbs
