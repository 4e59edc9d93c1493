// HDF5 output for analysis (schema: docs/hdf5-schema.md): per entity group one dataset per
// quantity shaped (time, entity, component), `labels`, `names` and `types` of the entities,
// `/time`, `/step`, `/timestep`, `/iterations`; units, frames, orientation convention, deck,
// mbsolve version and solver settings as attributes. Datasets are chunked along time and
// optionally compressed; rows are written in blocks (BlockSink) in SWMR mode, so that a run
// killed at any point leaves a file readable up to its last block.
#pragma once

#include <memory>
#include <string>

#include "output/results.hpp"

namespace mbs::output {

// compression: deflate level 0 (none) to 9.
// Throws std::runtime_error when mbsolve was built without HDF5 (MBS_WITH_HDF5=OFF).
std::unique_ptr<OutputSink> make_hdf5_output(const Model& m, const std::string& path,
                                             const SinkOptions& o, int compression);

}  // namespace mbs::output
