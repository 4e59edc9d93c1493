// Parameter sweeps: mbsolve --sweep TABLE.csv -f DECK -o DIR [--report EXPR ...]
//
// Every row of TABLE is one case: the deck run with the row's variables set as by -D, writing
// DIR/case-<row>.h5 (with --format: the formats given), DIR/case-<row>.out/.log, and the case's
// stderr in DIR/case-<row>.err. Rows are numbered from 1 (the first line after the header).
//
// Execution: each case is a child process (this same executable, with -D, -o and
// --report-file). A case that crashes (SIGSEGV, abort), fails (exit 3) or runs out of memory
// takes only its own process down; the sweep records it and goes on, and nothing a run leaves
// behind (signal state, solver workspaces, the HDF5 library's global state and lock) leaks into
// the next case. The cost is one process start and one deck parse per case (process start
// about 7 ms on an idle core, docs/sweeps.md 5): small against a run, and the parse would be
// needed in-process too since every case builds its own model. A child also lets MPI rank 0
// keep answering the other ranks while its own case runs.
//
// Completion records: when a case ends (ok, solver failure, bad input, crash), the process that
// hands out the rows (serial: the sweep itself; MPI: rank 0) writes DIR/case-<row>.done,
// atomically (write to a temporary file, then rename), holding the case's status, steps, wall
// time, report values, error, and a signature of the deck text, the row's values, the reports
// and the output formats. A re-run skips every row whose record exists with the same signature.
// A case stopped by SIGINT/SIGTERM/SIGKILL/SIGHUP, or whose sweep was stopped, gets no record, so a
// killed sweep re-runs exactly the cases that had not finished. (If the sweep process dies,
// its running case receives SIGTERM: PR_SET_PDEATHSIG.) A case killed by SIGKILL alone (the
// OOM killer) is therefore "interrupted" too: not recorded, run again by the next run.
//
// Summary: DIR/summary.csv, one line per row in row order:
//   row, <variables>, status, exit, steps, wall_s, <reports>, error
// status: ok, failed (solver failure, exit 3), error (bad input or internal error, exit 2/1),
// crashed (killed by a signal other than the stop signals), interrupted (no record), missing
// (--sweep-merge only). With --sweep-rows / --rows-per-task only the slice runs and its
// summary is DIR/summary-rows-A-B.csv; --sweep-merge DIR builds DIR/summary.csv from all records.
//
// MPI (module libmbs_sweep_mpi.so, built with MBS_MPI, loaded under mpirun/srun; see
// sweep_mpi.hpp): rank 0 hands out rows one at a time, to
// itself and to every rank that asks, so cases of uneven length balance; only rank 0 writes
// records and the summary. Waiting ranks poll with short sleeps instead of spinning in MPI
// calls, so K ranks on K cores leave the cores to the cases.
//
// Exit status: 0 every case ok, 3 some case not ok (see the summary), 2 bad input before any
// case started (table, deck, reports), 130/143 stopped by SIGINT/SIGTERM.
#pragma once

#include <string>
#include <vector>

#include "mbsolve/cli.hpp"

namespace mbs::sweep {

// The whole --sweep / --sweep-merge command; returns the exit status.
int run(const cli::Options& opt, const char* argv0);
int merge(const cli::Options& opt);

// First thing in main(): in a case started by a sweep (MBS_SWEEP_PARENT set), arranges for
// SIGTERM when the sweep process dies, so a killed sweep leaves no case running.
void case_child_setup();

}  // namespace mbs::sweep
