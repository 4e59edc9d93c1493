// Card readers for `joint: L, distance` and the deprecated `distance with offset`
// (docs/deck-language.md 5.2).
//   distance, n1 [, position, off1], n2 [, position, off2], {from nodes | <DriveCaller length>}
//   distance with offset, n1, [position,] off1, n2, [position,] off2, {from nodes | <dc>}
// Without offsets, displacement-only nodes are allowed.
// Props: "node1", "offset1", "node2", "offset2" (offsets only when given), then "length"
// (double: `from nodes`, the current distance) or "drive" (the imposed distance).
// Relative-coordinate path: a loop cut only (one row).
#include <string>

#include "core/registry.hpp"
#include "core/tree_edge.hpp"
#include "elements/joints/joint_ends.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

void read_distance_common(Reader& r, EntityDesc& e, std::string_view element,
                          cards::Offset offset) {
    cards::EndOptions opt;
    opt.offset = offset;
    opt.orientation = false;
    opt.need_rotations = false;
    auto end1 = cards::read_end1(r, element, opt);
    auto end2 = cards::read_end2(r, end1, element, opt);
    bool offsets = end1.has_offset || end2.has_offset;
    if (offsets && !(cards::has_rotations(*end1.node) && cards::has_rotations(*end2.node)))
        r.error_at(end2.node_loc,
                   std::string(element) + " with offsets needs nodes with rotations");
    cards::store_end(e, end1, 1, offsets, false);
    cards::store_end(e, end2, 2, offsets, false);
    Vec3 d = cards::node_position(*end2.node) + cards::node_orientation(*end2.node) * end2.offset -
             cards::node_position(*end1.node) - cards::node_orientation(*end1.node) * end1.offset;
    SourceLoc at = r.loc();
    if (r.accept("from nodes")) {
        if (!(d.norm() > 0.0))
            r.error_at(at,
                       "the two points coincide: a distance joint of zero length has no direction",
                       "use a spherical hinge to join two points");
        e.props.set("length", d.norm());
    } else {
        e.props.set("drive", r.drive("imposed distance"));
    }
}

void read_distance(Reader& r, EntityDesc& e) {
    read_distance_common(r, e, "distance joint", cards::Offset::keyword);
}

void read_distance_with_offset(Reader& r, EntityDesc& e) {
    r.warn("'distance with offset' is deprecated; use 'distance' with 'position' offsets");
    read_distance_common(r, e, "distance joint", cards::Offset::mandatory);
}

// Only a cut: one row |pB - pA| = length (or the drive's value).
tree::EdgePart distance_edge(const EntityDesc& d, const tree::Context&) {
    if (!d.props.has("length") && !d.props.has("drive"))
        tree::unsupported(d, "a distance needs its length or its drive");
    tree::Edge e;
    e.a = cards::tree_end(d, "node1", "offset1", nullptr);
    e.b = cards::tree_end(d, "node2", "offset2", nullptr);
    e.cut_cost = 1;
    e.cut = [&d](tree::CutEquations& c, bool, const tree::Context& ctx) {
        c.kind = tree::CutKind::rod;
        c.rows = 1;
        if (d.props.has("drive"))
            c.length_drive =
                make_drive(*d.props.get<std::shared_ptr<const DriveSpec>>("drive"), ctx.env);
        else
            c.length = d.props.get<double>("length");
    };
    return e;
}

}  // namespace

MBS_REGISTER_ELEMENT("joint", "distance", read_distance);
MBS_REGISTER_ELEMENT("joint", "distance with offset", read_distance_with_offset);

MBS_REGISTER_TREE_EDGE("joint", "distance", distance_edge);
}  // namespace mbs
