// Internals of the sweep driver shared by the serial and the MPI schedulers (sweep.cpp,
// sweep_mpi.cpp): the plan of a sweep, running one case as a child process, completion records.
#pragma once

#include <sys/types.h>

#include <csignal>
#include <map>
#include <string>
#include <vector>

#include "mbsolve/sweep_record.hpp"
#include "mbsolve/sweep_report.hpp"
#include "mbsolve/sweep_table.hpp"

namespace mbs::sweep {

// SIGINT/SIGTERM received by the sweep (0: none). Running cases are stopped and not recorded.
extern volatile std::sig_atomic_t g_sweep_stop;

struct Plan {
    std::string exe;   // this executable (/proc/self/exe)
    std::string deck;  // absolute
    std::string dir;   // absolute output directory
    Table table;
    std::vector<std::string> report_specs;
    std::vector<Report> reports;
    std::map<std::string, std::string> defines;  // -D given to the sweep (the table overrides)
    std::vector<std::string> pass_args;          // --format/--flush-every/--compress for cases
    int first = 1, last = 0;                     // rows run by this invocation (1-based, inclusive)
    std::vector<std::string> signatures;         // per row (index row - 1)
    bool quiet = false;
    int rows() const { return static_cast<int>(table.rows.size()); }
};

std::string case_prefix(const Plan& p, int row);
std::string record_text(const Record& r);
bool parse_record(const std::string& text, Record& r);
// Writes DIR/case-<row>.done atomically.
void write_record(const Plan& p, const Record& r);
// The record of `row` if it exists and matches the row's signature.
bool read_done(const Plan& p, int row, Record& r);

// Starts the case of `row`; returns the child's pid.
pid_t spawn_case(const Plan& p, int row);
// The record of a finished case from its wait status and wall time.
Record collect_case(const Plan& p, int row, int wait_status, double wall_s);
// spawn_case + wait (stops the child on g_sweep_stop) + collect_case.
Record run_case(const Plan& p, int row);

double now_s();

}  // namespace mbs::sweep
