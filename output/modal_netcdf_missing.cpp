// Built when MBS_WITH_NETCDF is OFF: asking for the modal NetCDF file is then an input error.
#include <stdexcept>

#include "output/modal_netcdf.hpp"

namespace mbs::output {

void write_modal_netcdf(const std::string&, const ModalColumns&, const std::string&) {
    throw std::invalid_argument("this mbsolve was built without NetCDF (MBS_WITH_NETCDF=OFF)");
}

}  // namespace mbs::output
