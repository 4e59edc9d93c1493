// Command-line options of mbsolve (MBDyn-compatible -f/-o plus mbsolve's own).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace mbs::cli {

struct Options {
    std::string deck;
    std::string output_prefix;
    std::map<std::string, std::string> defines;
    // Parameter sweeps (mbsolve/sweep.hpp): --sweep TABLE, --sweep-rows A:B, --rows-per-task N,
    // --sweep-merge DIR; run results: --report EXPR (repeatable), --report-file FILE.
    std::string sweep_table;
    std::string sweep_rows;
    int rows_per_task = 0;
    std::string sweep_merge;
    std::vector<std::string> reports;
    std::string report_file;
    bool check = false;
    bool dump_model = false;
    bool quiet = false;
    bool help = false;
    bool version = false;
    std::string working_dir;
    // --format: result formats ("text", "netcdf", "hdf5"), replacing the deck's `output results`;
    // empty: as the deck says.
    std::vector<std::string> formats;
    int flush_every = 0;   // --flush-every N (0: default)
    int compression = -1;  // --compress N, HDF5 deflate level (-1: default)
    int output_threads =
        -1;  // --output-threads 0|1: result files written on a thread (-1: default 1)
    // --module NAME (repeatable): modules loaded before the deck is read (core/plugin).
    std::vector<std::string> modules;
    // Relative-coordinate path: --tree prints the tree and exits; --analysis NAME runs NAME
    // (equilibrium, modal, reduced-dynamics) on the deck instead of the DAE time integration.
    bool tree = false;
    std::string analysis;
    std::vector<int> independent;  // --independent LIST: proposed independent coordinates (1-based)
};

// Parses argv; throws std::invalid_argument with a user-facing message on bad usage.
Options parse(int argc, char** argv);
std::string usage();

}  // namespace mbs::cli
