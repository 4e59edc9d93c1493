// Built when MBS_WITH_NETCDF is OFF: asking for the modal NetCDF file is then an input error.
#include <stdexcept>

#include "solvers/reduced/modal_netcdf.hpp"

namespace mbs::reduced {

void write_modal_netcdf(const Model&, const Setup&, const ModalResult&, const std::string&) {
    throw std::invalid_argument("this mbsolve was built without NetCDF (MBS_WITH_NETCDF=OFF)");
}

}  // namespace mbs::reduced
