// The parts of the beam cards (beam.cpp) that the card readers next to the runtime beams
// (read_beam3, read_beam2 in beam_element.cpp) share, and the custom output flags, which the
// runtime beams turn into NetCDF/HDF5 quantities (Beam::output_schema()).
#pragma once

#include <memory>
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

// What a `beam3` (alias `beam`) or `beam2` card read (ElementSpec, core/model.hpp): the nodes with
// their offsets and orientations (node frames), one section per evaluation point (two for beam3,
// one for beam2) with its absolute orientation, law and piezoelectric matrix, the electrodes and
// the custom output. Its generic view (beam.cpp): "node<k>", "offset<k>", "orientation<k>";
// beam3: "section orientation I", "section I from nodes" (when interpolated), "law I", the same
// for II; beam2: "section orientation", "section from nodes", "law"; piezo: "piezo electrodes"
// (N), "electrode1" ... "electrodeN", "piezo matrix I" and "piezo matrix II" (beam3) or "piezo
// matrix" (beam2); custom output: "orientation description" (when given), "custom output",
// "custom output flags".
struct BeamSpec final : ElementSpec {
    struct Node {
        EntityRef node;
        SourceLoc node_loc;
        Vec3 offset = Vec3::Zero();  // node frame
        Mat3 R = Mat3::Identity();   // node frame
    };
    struct Section {
        Mat3 R = Mat3::Identity();  // absolute, axis 1 = beam axis
        bool from_nodes = false;    // interpolated from the nodes (`from nodes`)
        std::shared_ptr<const LawSpec> law;
        VecN piezo;  // 6 x N, row-major (with electrodes only)
    };
    std::vector<Node> nodes;            // 3 (beam3) or 2 (beam2)
    Section section[2];                 // I, II (beam3); only the first for beam2
    std::vector<EntityRef> electrodes;  // the piezoelectric actuator's abstract nodes
    bool custom_output = false;         // `custom output` given
    std::string custom_output_text;     // its flags as written, space-separated
    long custom_output_flags = beam_output_bits::ep_default;  // beam_output_bits
    std::string orientation_description;  // "": the control data's `default orientation`

    int points() const { return static_cast<int>(nodes.size()) - 1; }
    void describe(Props& p) const override;
};

namespace cards {

struct BeamNode {
    const EntityDesc* node = nullptr;
    Vec3 offset = Vec3::Zero();  // node frame
    Mat3 R = Mat3::Identity();   // node frame
};

// Beam node k: <node>, [position,] <offset> [, {orientation|rot}, <R>]; appended to spec.nodes.
BeamNode read_beam_node(Reader& r, BeamSpec& spec, int k, const char* element);
// Errors at `at` when a node is used twice (`element` names the card).
void check_beam_nodes_distinct(Reader& r, const std::string& element,
                               const std::vector<BeamNode>& nodes, const SourceLoc& at);
// `from nodes` (or `node`): sets from_nodes and returns the identity; otherwise an absolute
// orientation matrix.
Mat3 read_beam_section(Reader& r, bool& from_nodes, const std::string& what);
// The optional `piezoelectric actuator` with one 6 x N matrix per evaluation point (`points`).
void read_beam_piezo(Reader& r, BeamSpec& spec, int points);
// The optional `custom output` (viscous: the law has a viscous part, so strain rates count).
void read_beam_tail(Reader& r, BeamSpec& spec, bool viscous);

}  // namespace cards

}  // namespace mbs
