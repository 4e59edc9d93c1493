// What an analysis shows its output at each step, and the output's interface: the structural
// nodes' states and the elements (their output_values(), reactions and output points), the
// step's record, and the sinks that write them (text, NetCDF, HDF5, progress, sweep reports;
// output/). The absolute-coordinate DAE (solvers/dae) and the relative-coordinate path
// (solvers/reduced) both present a StepView, so the output depends on core/ only.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/element.hpp"
#include "core/modal_columns.hpp"
#include "core/struct_node.hpp"
#include "core/value_block.hpp"

namespace mbs {

// The state an output step writes: the nodes (position, orientation, velocities; accelerations
// and momenta where computed) and the elements, both in model order. A view: the analysis owns
// them and keeps them alive from its sinks' begin() to their end().
struct StepView {
    std::span<const StructNode> nodes;
    std::span<const std::unique_ptr<Element>> elements;
    // Whether the analysis computes the nodes' momenta (StructNode::beta, gamma and their
    // derivatives: MBDyn's .ine); the relative-coordinate path does not.
    bool momenta = true;
    // Values that are neither nodes nor elements (core/value_block.hpp), declared before
    // begin(): their values change from step to step, their rows and quantities do not.
    std::span<const ValueBlock> blocks;
};

// One step's record.
struct StepInfo {
    long step = 0;
    double time = 0.0, dt = 0.0;
    int iterations = 0;
    double res_err = 0.0, sol_err = 0.0;
    bool sol_conv = false;
    // Accepted at the residual floor of a stalled Newton iteration (Simulation::floor_accept()).
    bool floor_conv = false;
    bool output = true;  // an output step (`output meter`)
};

// The settings a run used, as its result files record them (HDF5 /solver attributes).
struct RunSettings {
    std::string method = "ms";
    double rho = 0.0, rho_algebraic = 0.0;
    double initial_time = 0.0, final_time = 1.0;  // +inf: `forever`
    double time_step = 0.0, tolerance = 0.0;
    long max_iterations = 0;
    std::string linear_solver;
    bool strategy_factor = false;
};

// A run's counts, for the summary.
struct RunStats {
    long steps = 0, rejected = 0, iterations = 0, factorizations = 0;
    long floor_steps = 0;      // steps accepted at the residual floor (StepInfo::floor_conv)
    double floor_worst = 0.0;  // their largest |r| / S (Simulation::force_scale())
};

// What a run writes: sinks receive every step (StepInfo::output says whether it is an
// output step) and the end of the run, also when it stops on a failure.
class OutputSink {
  public:
    virtual ~OutputSink() = default;
    virtual void begin(const StepView& /*v*/) {}
    virtual void step(const StepView& v, const StepInfo& s) = 0;
    virtual void end(const StepView& /*v*/, const std::string& /*status*/) {}
};

// The result files of a run: the command line's set of sinks (text, NetCDF, HDF5, progress;
// mbsolve/main.cpp), made once the analysis knows its settings, then fed by it.
class RunOutput {
  public:
    virtual ~RunOutput() = default;
    // The sinks of a run with these settings (made on the first call).
    virtual OutputSink& open(const RunSettings& s) = 0;
    // The files written so far.
    virtual std::vector<std::string> files() const = 0;
    // A modal analysis' results in the formats asked for (NetCDF, HDF5; its text file
    // PREFIX.modal is the analysis' own); returns the files written.
    virtual std::vector<std::string> write_modal(const ModalColumns& c) = 0;
};

}  // namespace mbs
