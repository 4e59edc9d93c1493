// The outcome of one case of a sweep, as kept in its completion record DIR/case-<row>.done and
// sent between MPI ranks (standard types only: the MPI module includes it too).
#pragma once

#include <string>
#include <vector>

namespace mbs::sweep {

struct Record {
    int row = 0;
    std::string status;  // ok, failed, error, crashed; "interrupted": no record is written
    int exit_code = 0;   // exit status, or the signal number for crashed
    long steps = 0;
    double wall_s = 0.0;
    std::vector<std::string> reports;  // formatted %.17g
    std::string error;
    std::string signature;
    int rank =
        0;  // the MPI rank that ran the case (0 in plain mode); in the record, not the summary
    bool recorded() const { return status != "interrupted"; }
};

}  // namespace mbs::sweep
