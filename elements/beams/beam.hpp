// The parts of the beam cards (beam.cpp) that the card readers next to the runtime beams
// (read_beam3, read_beam2 in beam_element.cpp) share, and the custom output flags, which the
// runtime beams turn into NetCDF/HDF5 quantities (Beam::output_schema()).
#pragma once

#include <string>
#include <vector>

#include "core/math.hpp"
#include "core/reader.hpp"

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

namespace cards {

struct BeamNode {
    const EntityDesc* node = nullptr;
    Vec3 offset = Vec3::Zero();  // node frame
    Mat3 R = Mat3::Identity();   // node frame
};

// Beam node k: <node>, [position,] <offset> [, {orientation|rot}, <R>]; stores "node<k>",
// "offset<k>", "orientation<k>".
BeamNode read_beam_node(Reader& r, EntityDesc& e, int k, const char* element);
// Errors at `at` when a node is used twice.
void check_beam_nodes_distinct(Reader& r, EntityDesc& e, const std::vector<BeamNode>& nodes,
                               const SourceLoc& at);
// `from nodes` (or `node`): sets from_nodes and returns the identity; otherwise an absolute
// orientation matrix.
Mat3 read_beam_section(Reader& r, bool& from_nodes, const std::string& what);
// The optional `piezoelectric actuator` with one 6 x N matrix per evaluation point (`points`).
void read_beam_piezo(Reader& r, EntityDesc& e, int points);
// The optional `custom output` (viscous: the law has a viscous part, so strain rates count).
void read_beam_tail(Reader& r, EntityDesc& e, bool viscous);

}  // namespace cards

}  // namespace mbs
