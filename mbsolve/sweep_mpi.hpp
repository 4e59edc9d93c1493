// MPI for sweeps. The MPI scheduler lives in a module, libmbs_sweep_mpi.so (sweep_mpi.cpp,
// built with MBS_MPI and linked with OpenMPI), that mbsolve loads only for a sweep started by an
// MPI launcher (mpirun, srun with PMI). mbsolve itself does not link libmpi: every case and
// every ordinary run is spared loading OpenMPI and its libraries (about 10 ms per process start,
// measured: mbsolve --version 24 ms -> 35 ms with libmpi linked, on a busy machine).
#pragma once

#include <sys/types.h>

#include <csignal>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "mbsolve/sweep_record.hpp"

namespace mbs::sweep {

// What the MPI scheduler needs from the sweep driver (implemented in sweep.cpp).
class CaseRunner {
  public:
    virtual ~CaseRunner() = default;
    virtual Record run(int row) = 0;  // spawn, wait (stopping the case on a signal), collect
    virtual pid_t spawn(int row) = 0;
    virtual Record collect(int row, int wait_status, double wall_s) = 0;
    virtual std::string to_text(const Record& r) = 0;
    virtual bool from_text(const std::string& text, Record& r) = 0;
    virtual double now() = 0;
};

// The module's scheduler.
class MpiBackend {
  public:
    virtual ~MpiBackend() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;
    // Runs the rows of `todo` over all ranks; rank 0 hands them out one at a time and calls
    // `done` for each finished case (its own and the other ranks'). Returns the number of cases
    // run (rank 0) or 0. Stops early when *stop becomes non-zero.
    virtual int schedule(CaseRunner& runner, const std::vector<int>& todo,
                         const std::function<void(const Record&)>& done) = 0;
    // The exit status decided by rank 0, on every rank.
    virtual int finish(int code) = 0;
};

// Entry point of libmbs_sweep_mpi.so: initializes MPI; `stop` is the sweep's signal flag.
extern "C" MpiBackend* mbs_sweep_mpi_open(volatile std::sig_atomic_t* stop);
using MpiOpenFn = MpiBackend* (*)(volatile std::sig_atomic_t*);

// The driver's side: the backend when started by an MPI launcher, else plain mode.
class MpiSession {
  public:
    // Throws std::invalid_argument when launched with several ranks but the module is missing.
    MpiSession();
    bool active() const { return backend_ != nullptr; }
    int rank() const { return backend_ ? backend_->rank() : 0; }
    int size() const { return backend_ ? backend_->size() : 1; }
    int schedule(CaseRunner& runner, const std::vector<int>& todo,
                 const std::function<void(const Record&)>& done) {
        return backend_ ? backend_->schedule(runner, todo, done) : 0;
    }
    int finish(int code) { return backend_ ? backend_->finish(code) : code; }
    static bool launched_by_mpi();
    static bool launched_with_several_ranks();

  private:
    std::unique_ptr<MpiBackend> backend_;
};

}  // namespace mbs::sweep
