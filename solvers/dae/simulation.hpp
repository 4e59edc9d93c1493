// The initial-value run: derivatives phase, then the time loop with Newton iterations, step
// control (`strategy: factor`, `strategy: change`) and output sinks fed once per step.
#pragma once

#include <csignal>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/step_view.hpp"
#include "solvers/dae/accelerations.hpp"
#include "solvers/dae/constraint_rows.hpp"
#include "solvers/dae/engine.hpp"
#include "solvers/dae/integrator.hpp"

namespace mbs {

// Solver settings from the `initial value` block (docs/deck-language.md 2.1).
struct SolverSettings {
    double t0 = 0.0, tf = 1.0, dt = ProblemSettings::default_time_step;
    bool forever = false;
    double min_dt = 0.0, max_dt = std::numeric_limits<double>::infinity();
    Method method;
    double tol = 1e-6;
    using Test = ResidualTest;
    Test test = Test::norm;
    double sol_tol = 0.0;
    int max_iter = 1;
    int modified_newton = 0;  // keep the factorization for this many iterations (0: full Newton)
    std::string linear_solver = "klu";
    double der_coef = 1e-6, der_tol = 1e-6;
    int der_max_iter = 1;
    // `derivatives coefficient: auto`: when the phase fails, retry with the coefficient times
    // der_auto_factor, at most der_auto_tries more times.
    bool der_auto = false;
    // dummy steps (docs/deck-language.md 2.1): number, size ratio to dt, tolerance, max iterations
    int dummy_steps = 0;
    double dummy_ratio = 1e-3, dummy_tol = 1e-6;
    int dummy_max_iter = 1;
    // `abort after:` stop (successfully) after that phase
    enum class Abort { none, input, assembly, derivatives, dummy_steps } abort_after = Abort::none;
    int der_auto_tries = 6;
    double der_auto_factor = 10.0;
    // strategy: factor
    bool strategy_factor = false;
    double red_factor = 0.5, raise_factor = 1.0;
    int steps_before_red = 1, steps_before_raise = 1, min_iter = 1, max_iter_raise = 0;
    // strategy: change (MBDyn's ChangeStep): after each regular step but the first, the next
    // step is change_drive at the time reached, clamped into [min_dt, max time step]; the max
    // time step is change_max_drive at that time (none: max_dt).
    bool strategy_change = false;
    std::shared_ptr<const DriveSpec> change_drive, change_max_drive;
    // initial assembly (control data)
    bool skip_assembly = false;
    double assembly_stiffness = 1.0, assembly_vel_stiffness = 1.0, assembly_tol = 1e-6;
    int assembly_max_iter = 1;
    // `nonlinear solver: line search, ...` (MBDyn's options; docs/deck-language.md 2.4).
    bool line_search = false;
    struct LineSearch {
        double tol_x = 1e-7, tol_min = 1e-8, alpha = 1e-4;
        int max_iter = 200;
        double lambda_min = 1e-2;
        bool lambda_relative = true;
        double lambda_factor_min = 1e-1;
        double max_step = 100.0;
        bool zero_gradient_continue = false;
        bool divergence_check = true;
        double divergence_factor = 1.0;
        bool cubic = true;  // algorithm: cubic (default) or factor
        bool scale_newton_step = true;
        double min_scale = 1e-3;
        bool print = false, verbose = false;
        bool abort_at_lambda_min = true;
    } ls;

    static SolverSettings from_model(const Model& m);
    // What the result files record of them (core/step_view.hpp).
    RunSettings run_settings() const;
};

// A run that cannot continue (exit status 3): time, step, iteration, residual and the worst
// equation, already formatted.
class SolverFailure : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

class Simulation {
  public:
    Simulation(const Model& m, const SolverSettings& s);
    Engine& engine() { return *engine_; }
    void add_sink(OutputSink* s) { sinks_.push_back(s); }
    // Called before each step with the current time; returning false stops the run cleanly.
    std::function<bool(double)> keep_going;
    // When non-null and *abandon becomes non-zero (a second SIGINT/SIGTERM/SIGHUP), the time step
    // in progress is given up at its next Newton iteration and the run ends at the last
    // converged step, as if keep_going had returned false before it. Read once per iteration.
    const volatile std::sig_atomic_t* abandon = nullptr;
    // Whether step n (at time t) is an output step (default: all).
    std::function<bool(long, double)> is_output_step;
    // Warnings of the run (redundant constraints); default: printed to stderr.
    std::function<void(const std::string&)> on_warning = [](const std::string& w) {
        std::fprintf(stderr, "mbsolve: warning: %s\n", w.c_str());
    };

    // Runs the derivatives phase and the time loop; throws SolverFailure.
    RunStats run();

    // Individual phases (tests).
    // Initial position assembly (docs/formulation.md 4): Kp (x - x0) + phi_x^T lambda = 0, phi = 0.
    // Returns the number of iterations (0 when the initial state already satisfies it).
    int assemble();
    // Its velocity part (called by assemble()): assembly_active = unknowns taking part in the
    // position part; velocity-level constraint rows join them here.
    void assemble_velocities(const std::vector<char>& assembly_active);
    void derivatives();
    // The dummy steps (after derivatives(); restart the regular step numbering).
    void dummy_steps();
    // One step of size h from the current state; returns false if Newton did not converge.
    bool step(double h, StepInfo& info);
    bool step(double h, StepInfo& info, int max_iter, double tol);

  private:
    bool newton(const StepContext& c, const StepCoefficients& cd, const StepCoefficients& ca,
                int max_iter, double tol, StepInfo& info, bool derivatives_phase);
    // One line search along the Newton correction r_ (y' += lambda r_, y += lambda b0 r_);
    // leaves the residual of the accepted point in r_. False: the step failed (reason in why).
    bool line_search(const StepContext& c, double f0, StepInfo& info, const char*& why);
    bool restore_line_search_start(const StepContext& c);
    double residual_norm() const;
    // The largest force (moment) acting in the model: the step's last iteration matrix with the
    // last converged y' (see simulation.cpp).
    double force_scale();
    // A step that would stop the run: its best iterate, if Newton stalled at the residual floor.
    bool floor_accept(const StepContext& c, double tol, StepInfo& info);
    // `strategy: change`: the step the drive gives at time t, clamped like MBDyn's; throws when
    // it is not positive.
    double change_step(double t, double drive_value) const;
    double change_clamp(double t, double drive_value) const;
    bool factor_or_drop_redundant(const std::function<void()>& rebuild,
                                  const std::vector<char>* consider = nullptr);
    bool resolve_redundancy(const std::vector<char>* consider = nullptr);
    bool drop_redundant(const std::vector<char>* consider);
    void assemble_velocities(const std::vector<char>& assembly_active, bool may_drop);
    std::string describe_failure(const std::string& what, const StepInfo& info) const;
    std::string singular_failure(const std::string& what, const StepInfo& info) const;
    void emit(const StepInfo& info);

    SolverSettings set_;
    std::unique_ptr<Engine> engine_;
    std::vector<double> r_, y1_, yp1_, y2_, yp2_;
    std::vector<double> b0_;        // per unknown: dy / dy' of the current Newton solve
    std::vector<double> scale_;     // per equation: magnitude of its terms (force_scale())
    std::vector<double> yb_, ypb_;  // the best iterate of the current step (floor_accept())
    bool floor_ok_ = true;  // a failed step would stop the run (no smaller step to retry with)
    std::vector<double> ls_y_, ls_yp_, ls_p_, ls_g_;  // line search: start point, direction, J^T r
    double t_ = 0.0, T_ = 0.0;
    double t_base_ = 0.0;  // time of the last step-size change
    long k_const_ = 0;     // steps of the current size since then
    long step_ = 0;
    bool have_two_ = false;
    std::vector<OutputSink*> sinks_;
    bool redundancy_checked_ = false;
    const char* fail_reason_ = nullptr;  // why the last Newton solve stopped early (line search)
    bool der_move_y_ =
        false;  // derivatives phase with MBDyn's update y += dCoef dy' (see derivatives())
    // The derivatives phase's constraint rows at acceleration level (constraint_rows.hpp).
    AccelerationConstraints der_constraints_;
    bool der_constraints_on_ = false;
    NodeAccelerations accel_;  // XPP, OmegaP after each step (solvers/dae/accelerations.hpp)
    StepInfo last_info_;       // step 0 (after derivatives or dummy steps), emitted by run()
    DrivePtr change_drive_, change_max_drive_;  // `strategy: change` (built from set_)
    RunStats stats_;
};

}  // namespace mbs
