// Built when MBS_WITH_HDF5 is OFF: asking for HDF5 output is then an input error.
#include <stdexcept>

#include "output/hdf5_output.hpp"

namespace mbs::output {

std::unique_ptr<OutputSink> make_hdf5_output(const Model&, const std::string&, const SinkOptions&,
                                             int) {
    throw std::invalid_argument("this mbsolve was built without HDF5 (MBS_WITH_HDF5=OFF)");
}

}  // namespace mbs::output
