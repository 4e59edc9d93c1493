// Plain mode (built without MBS_MPI): one process, no ranks.
#include <cstdlib>
#include <string>

#include "mbsolve/sweep_mpi.hpp"

namespace mbs::sweep {

MpiSession::MpiSession() = default;
MpiSession::~MpiSession() = default;

bool MpiSession::launched_with_several_ranks() {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MPI_LOCALNRANKS", "SLURM_STEP_NUM_TASKS"}) {
        const char* s = std::getenv(v);
        if (s && std::atoi(s) > 1) return true;
    }
    return false;
}

int MpiSession::schedule(const Plan&, const std::vector<int>&, const std::function<void(const Record&)>&) { return 0; }

int MpiSession::finish(int code) { return code; }

}  // namespace mbs::sweep
