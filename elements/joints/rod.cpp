// Card readers for `joint: L, rod` and the deprecated `rod with offset`
// (docs/deck-language.md 5.2).
//   rod, n1 [, position, off1], n2 [, position, off2], {l0 | from nodes}, <1D CL>
//   rod, n1, n2, l0, offset, off1, off2, <1D CL>                       (legacy)
//   rod with offset, n1, [position,] off1, n2, [position,] off2, {l0 | from nodes}, <1D CL>
// The law's input is the strain (l - l0)/l0 and its output the axial force. Without offsets,
// displacement-only nodes are allowed.
// Props: "node1", "offset1", "node2", "offset2" (offsets only when given), "l0" (reference
// length; with `from nodes`, the current length), "law".
// Relative-coordinate path: a link force (linear laws only).
#include <string>

#include "core/registry.hpp"
#include "core/tree_edge.hpp"
#include "elements/joints/joint_ends.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

double current_length(const cards::JointEnd& a, const cards::JointEnd& b) {
    Vec3 d = cards::node_position(*b.node) + cards::node_orientation(*b.node) * b.offset -
             cards::node_position(*a.node) - cards::node_orientation(*a.node) * a.offset;
    return d.norm();
}

void read_rod_common(Reader& r, EntityDesc& e, cards::Offset offset, bool legacy_offsets) {
    cards::EndOptions opt;
    opt.offset = offset;
    opt.orientation = false;
    opt.need_rotations = false;
    auto end1 = cards::read_end1(r, "rod", opt);
    auto end2 = cards::read_end2(r, end1, "rod", opt);

    SourceLoc at_l0 = r.loc();
    bool from_nodes = r.accept("from nodes");
    double l0 = from_nodes ? 0.0 : r.real("reference length l0");

    // Legacy: `l0, offset, off1, off2` after the length.
    if (legacy_offsets && r.peek("offset")) {
        r.warn(
            "keyword 'offset' after the rod length is deprecated; use 'position' after each node");
        if (end1.has_offset || end2.has_offset) r.error("rod offsets are already defined");
        r.skip();
        if (!cards::has_rotations(*end1.node) || !cards::has_rotations(*end2.node))
            r.error("rod offsets need nodes with rotations");
        end1.offset = r.position_rel(*end1.node, "offset of node 1");
        end2.offset = r.position_rel_other(*end2.node, *end1.node, end1.offset, "offset of node 2");
        end1.has_offset = end2.has_offset = true;
    }
    bool offsets = end1.has_offset || end2.has_offset;
    if (offsets && !(cards::has_rotations(*end1.node) && cards::has_rotations(*end2.node)))
        r.error_at(end2.node_loc, "a rod with offsets needs nodes with rotations");

    double l = current_length(end1, end2);
    if (from_nodes) l0 = l;
    if (!(l0 > 0.0))
        r.error_at(at_l0,
                   from_nodes
                       ? "the rod ends coincide: the length from the nodes is zero"
                       : "the rod reference length l0 must be positive, got " + std::to_string(l0),
                   "the law's input is the strain (l - l0)/l0");

    cards::store_end(e, end1, 1, offsets, false);
    cards::store_end(e, end2, 2, offsets, false);
    e.props.set("l0", l0);
    e.props.set("law", r.law(1, "rod constitutive law"));
}

void read_rod(Reader& r, EntityDesc& e) { read_rod_common(r, e, cards::Offset::keyword, true); }

void read_rod_with_offset(Reader& r, EntityDesc& e) {
    r.warn("'rod with offset' is deprecated; use 'rod' with 'position' offsets");
    read_rod_common(r, e, cards::Offset::mandatory, false);
}

// A link force along the line of the two points.
tree::LoadPart rod_force(const EntityDesc& d, const tree::Context&) {
    tree::LinkForce f;
    cards::tree_linear_law(d, f);
    f.a = cards::tree_end(d, "node1", "offset1", nullptr);
    f.b = cards::tree_end(d, "node2", "offset2", nullptr);
    f.l0 = d.props.get<double>("l0");
    return f;
}

}  // namespace

MBS_REGISTER_ELEMENT("joint", "rod", read_rod);
MBS_REGISTER_ELEMENT("joint", "rod with offset", read_rod_with_offset);

MBS_REGISTER_TREE_LOAD("joint", "rod", rod_force);
}  // namespace mbs
