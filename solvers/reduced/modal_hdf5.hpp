// HDF5 file of a modal analysis (docs/hdf5-schema.md, "Modal analysis"): eigenvalues, frequencies,
// damping, and the mode shapes (complex, normalized to a largest modulus of 1 with phase 0 there)
// per joint coordinate.
#pragma once

#include <string>

#include "core/model.hpp"
#include "solvers/reduced/analyses.hpp"

namespace mbs::reduced {

// Writes `path`; throws std::invalid_argument when mbsolve was built without HDF5 or the file
// cannot be written.
void write_modal_hdf5(const Model& model, const Setup& s, const ModalResult& r,
                      const std::string& path);

}  // namespace mbs::reduced
