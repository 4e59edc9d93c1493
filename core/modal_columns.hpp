// The results of a modal analysis as the output writes them (PREFIX.h5 /modal, PREFIX.nc modal.*;
// output/modal_hdf5.cpp, output/modal_netcdf.cpp): the eigenvalues and their figures, the mode
// shapes, mode-major ([k nq + i] is coordinate i of mode k; phase in degrees, 0 where the
// modulus is 0) and the coordinates (joint label, node label, axis name padded to 8 bytes). The
// relative-coordinate path fills it (solvers/reduced, modal_columns()).
#pragma once

#include <string>
#include <vector>

namespace mbs {

struct ModalColumns {
    std::vector<double> real, imag, frequency_Hz, damping_percent, damped_frequency_Hz;
    std::vector<double> shape_real, shape_imag, shape_modulus, shape_phase_deg;
    std::vector<long long> joint_label, node_label;
    std::string axes;
    std::size_t modes() const { return real.size(); }
    std::size_t coordinates() const { return joint_label.size(); }
};

}  // namespace mbs
