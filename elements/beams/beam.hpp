// Shared between the beam card reader (beam.cpp) and the runtime beams (beam_element.cpp, which
// declares the NetCDF/HDF5 quantities these flags select: Beam::output_schema()).
#pragma once

#include "core/math.hpp"

namespace mbs {

namespace beam_output_bits {

// Evaluation-point quantities selected by a beam's `custom output` (MBDyn's Beam::OUTPUT_EP_*).
// The text .act always has the forces and moments; ep_nu, ep_k, ep_nup, ep_kp append the
// linear strains, curvatures and their rates of every point (in this order, each for point I,
// then II). ep_x and ep_r (position, orientation) select NetCDF/HDF5 variables only, as in MBDyn.
// ep_f and ep_m select the NetCDF forces and moments: set unless `custom output` has `none`
// (MBDyn starts from its default beam output, forces and moments, and `none` clears it).
enum : long {
    ep_x = 1,
    ep_r = 2,
    ep_f = 4,
    ep_m = 8,
    ep_nu = 16,
    ep_k = 32,
    ep_nup = 64,
    ep_kp = 128,
    ep_all = 255,
    ep_default = ep_f | ep_m,
};

}  // namespace beam_output_bits

}  // namespace mbs
