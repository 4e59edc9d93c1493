// Built when MBS_WITH_NETCDF is OFF: asking for NetCDF output is then an input error.
#include <stdexcept>

#include "output/netcdf_output.hpp"

namespace mbs::output {

std::unique_ptr<OutputSink> make_netcdf_output(const Model&, const std::string&,
                                               const SinkOptions&) {
    throw std::invalid_argument("this mbsolve was built without NetCDF (MBS_WITH_NETCDF=OFF)");
}

}  // namespace mbs::output
