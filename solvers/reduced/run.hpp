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
// formats: --format's list; with "hdf5" (or, without --format, the deck's `output results:
// ..., hdf5`) the modal analysis also writes PREFIX.h5.
// stop: mbsolve's signal handler (may be null): reduced and inverse dynamics end after the current
// step when it asks (PREFIX.out then ends with `# run stopped: ...`); equilibrium and modal
// analysis finish their solve and write their files. The caller turns the stop into the exit
// status (128 + signal, 4 after a second one).
// output: the result files of reduced dynamics (.mov .out .log, NetCDF, HDF5 as the command line
// asks: mbsolve's sinks, core/step_view.hpp); required for that analysis.
int run_cli(const Model& model, bool tree, const std::string& analysis, const std::string& prefix,
            bool quiet, const std::vector<int>& independent = {},
            const std::vector<std::string>& formats = {}, const StopRequest* stop = nullptr,
            RunOutput* output = nullptr);

}  // namespace mbs::reduced
