// NetCDF file of a modal analysis (docs/relative-coordinates.md 2.4): the numbers of
// PREFIX.modal in full precision, as netCDF-4 variables `modal.*` with units/type/description
// attributes in the style of output/netcdf_output.cpp.
#pragma once

#include <string>

#include "core/modal_columns.hpp"

namespace mbs::output {

// Writes `path`; throws std::invalid_argument when mbsolve was built without NetCDF or the file
// cannot be written.
void write_modal_netcdf(const std::string& deck_path, const ModalColumns& cols,
                        const std::string& path);

}  // namespace mbs::output
