// NetCDF output in MBDyn's layout (docs/deck-language.md 8): `time`, `run.step`, `run.timestep`,
// `node.struct.<L>.{X, R|Phi|E, XP, Omega}`, `elem.joint.<L>.{f, m, F, M}`,
// `elem.force.<L>.{F, Arm}` (internal: F1, Arm1, F2, Arm2; total: f, m), `elem.couple.<L>.M`
// (internal: M1, M2); each variable with `description`, `units` and `type` attributes. The time
// dimension is unlimited; the file is NetCDF-4 (HDF5-based), written in blocks of output steps.
#pragma once

#include <memory>
#include <string>

#include "output/results.hpp"

namespace mbs::output {

// Creates the NetCDF sink writing to `path`; throws std::runtime_error when mbsolve was built
// without NetCDF (MBS_WITH_NETCDF=OFF).
// With o.exit_after_run the file is flushed at the end of the run (complete and valid on disk)
// and its 1600-odd datasets are left open for the process's exit to drop, and HDF5 is told not
// to clean up at exit (H5dont_atexit, which works when no HDF5 call came before): closing the
// datasets and the file and freeing the library's memory took 0.035 s after chain_200's last
// step (3% of its run). Without it, or on an error, the file is closed.
std::unique_ptr<OutputSink> make_netcdf_output(const Model& m, const std::string& path,
                                               const SinkOptions& o);

}  // namespace mbs::output
