// Built when MBS_WITH_HDF5 is OFF: asking for the modal HDF5 file is then an input error.
#include <stdexcept>

#include "solvers/reduced/modal_hdf5.hpp"

namespace mbs::reduced {

void write_modal_hdf5(const Model&, const Setup&, const ModalResult&, const std::string&) {
    throw std::invalid_argument("this mbsolve was built without HDF5 (MBS_WITH_HDF5=OFF)");
}

}  // namespace mbs::reduced
