// MPI for sweeps. Built from sweep_mpi.cpp with MBS_MPI (OpenMPI), from sweep_nompi.cpp without:
// then active() is false and the sweep runs in plain mode (serial, or sliced into job arrays).
#pragma once

#include <functional>
#include <vector>

#include "mbsolve/sweep_exec.hpp"

namespace mbs::sweep {

class MpiSession {
public:
    // Initializes MPI when this process was started by an MPI launcher (mpirun, srun with PMI);
    // a sweep started without one runs in plain mode even when MPI is built in.
    MpiSession();
    ~MpiSession();
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;
    bool active() const { return active_; }
    int rank() const { return rank_; }
    int size() const { return size_; }
    // Whether the environment says this process is one of several ranks of a parallel launch.
    static bool launched_with_several_ranks();
    // Runs the rows of `todo` over all ranks; rank 0 hands them out one at a time and calls
    // `done` for each finished case (its own and the other ranks'). Returns the number of cases
    // run (rank 0) or 0. Stops early on g_sweep_stop.
    int schedule(const Plan& p, const std::vector<int>& todo, const std::function<void(const Record&)>& done);
    // The exit status decided by rank 0, on every rank.
    int finish(int code);

private:
    bool active_ = false;
    int rank_ = 0, size_ = 1;
};

}  // namespace mbs::sweep
