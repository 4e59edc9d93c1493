// Entry point of the relative-coordinate path for the command line (`--tree`, `--analysis`).
#pragma once

#include <string>
#include <vector>

#include "core/model.hpp"
#include "core/step_view.hpp"

namespace mbs::reduced {

struct StopRequest;  // analyses.hpp

// `tree`: print the tree and exit; otherwise run `analysis` (a name of core/analysis.hpp's table;
// each has its run function in run.cpp) with output prefix `prefix`.
// Returns the exit status: 0 ok, 3 solver failure; throws InputError / std::invalid_argument for
// bad input (exit 2).
// independent: a user-proposed partition (coordinate numbers as printed, 1-based; empty:
// automatic).
// stop: mbsolve's signal handler (may be null): reduced and inverse dynamics end after the current
// step when it asks (PREFIX.out then ends with `# run stopped: ...`); equilibrium and modal
// analysis finish their solve and write their files. The caller turns the stop into the exit
// status (128 + signal, 4 after a second one).
// output: the result files (core/step_view.hpp RunOutput: mbsolve's): reduced and inverse
// dynamics' .mov .out .log, NetCDF, HDF5; the modal analysis' NetCDF and HDF5 files, as
// --format or the deck's `output results` ask. Required for those analyses.
int run_cli(const Model& model, bool tree, const std::string& analysis, const std::string& prefix,
            bool quiet, const std::vector<int>& independent = {}, const StopRequest* stop = nullptr,
            RunOutput* output = nullptr);

}  // namespace mbs::reduced
