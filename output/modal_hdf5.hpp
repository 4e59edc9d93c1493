// HDF5 file of a modal analysis (docs/hdf5-schema.md, "Modal analysis"): eigenvalues, frequencies,
// damping, and the mode shapes (complex, normalized to a largest modulus of 1 with phase 0 there)
// per joint coordinate.
#pragma once

#include <string>

#include "core/modal_columns.hpp"

namespace mbs::output {

// Writes `path`; throws std::invalid_argument when mbsolve was built without HDF5 or the file
// cannot be written.
void write_modal_hdf5(const std::string& deck_path, const ModalColumns& cols,
                      const std::string& path);

}  // namespace mbs::output
