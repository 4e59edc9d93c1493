// Card reader for `joint: L, in plane` (docs/deck-language.md 5.2): a point of node 2 stays on a
// plane fixed to node 1.
//   in plane, n1, [position,] <rel point>, <Vec3 rel normal>, n2 [, offset, <rel off2>]
// Props: "node1", "offset1" (a point of the plane), "normal" (unit, node-1 frame), "node2",
// "offset2" (only with `offset`).
#include "core/registry.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

void read_in_plane(Reader& r, EntityDesc& e) {
    const EntityDesc& n1 = cards::read_structural_node(r, "node 1", "in plane joint");
    r.accept("position");
    Vec3 p = r.position_rel(n1, "point of the plane");
    SourceLoc at_v = r.loc();
    Vec3 v = r.direction_rel(n1, "plane normal");
    if (!(v.norm() > 0.0)) r.error_at(at_v, "the plane normal is a null vector");
    SourceLoc at2 = r.loc();
    const EntityDesc& n2 = cards::read_structural_node(r, "node 2", "in plane joint");
    cards::check_distinct_nodes(r, at2, n1, n2, "in plane joint");
    e.props.set("node1", cards::node_ref(n1));
    e.props.set("offset1", p);
    e.props.set("normal", Vec3(v.normalized()));
    e.props.set("node2", cards::node_ref(n2));
    if (r.accept("offset"))
        e.props.set("offset2", r.position_rel_other(n2, n1, p, "offset of node 2"));
}

}  // namespace

MBS_REGISTER_ELEMENT("joint", "in plane", read_in_plane);

}  // namespace mbs
