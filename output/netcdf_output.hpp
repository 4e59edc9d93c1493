// NetCDF output in MBDyn's layout (mbdyn-syntax.md 8): `time`, `run.step`, `run.timestep`,
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
std::unique_ptr<OutputSink> make_netcdf_output(const Model& m, const std::string& path,
                                               const SinkOptions& o);

}  // namespace mbs::output
