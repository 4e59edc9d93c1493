// Built when MBS_WITH_HDF5 is OFF: asking for the modal HDF5 file is then an input error.
#include <stdexcept>

#include "output/modal_hdf5.hpp"

namespace mbs::output {

void write_modal_hdf5(const std::string&, const ModalColumns&, const std::string&) {
    throw std::invalid_argument("this mbsolve was built without HDF5 (MBS_WITH_HDF5=OFF)");
}

}  // namespace mbs::output
