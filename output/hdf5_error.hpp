// What HDF5 says went wrong, for an error message of the NetCDF and HDF5 sinks.
#pragma once

#include <string>

namespace mbs::output {

// The innermost entry of the calling thread's HDF5 error stack, where the failure was
// detected; for a failed read or write of a file, only the system's message in it ("No space
// left on device", "File too large"). Empty if the stack is empty.
std::string hdf5_error_reason();

}  // namespace mbs::output
