// Card reader for `joint: L, in plane` (docs/deck-language.md 5.2): a point of node 2 stays on a
// plane fixed to node 1.
//   in plane, n1, [position,] <rel point>, <Vec3 rel normal>, n2 [, offset, <rel off2>]
// Props: "node1", "offset1" (a point of the plane), "normal" (unit, node-1 frame), "node2",
// "offset2" (only with `offset`).
// Relative-coordinate path: two translations in the plane and a ball; as a cut, 1 row.
#include "core/registry.hpp"
#include "core/tree_edge.hpp"
#include "elements/joints/joint_ends.hpp"
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

// The point of node 2 moves along axes 1 and 2 of a frame whose axis 3 is the normal, and turns
// freely.
tree::EdgePart in_plane_edge(const EntityDesc& d, const tree::Context&) {
    tree::Edge e;
    e.a = cards::tree_end(d, "node1", "offset1", nullptr);
    Vec3 n = d.props.get<Vec3>("normal").normalized();
    Vec3 t1 = std::abs(n.x()) < 0.9 ? Vec3(n.cross(Vec3::UnitX()).normalized())
                                    : Vec3(n.cross(Vec3::UnitY()).normalized());
    e.a.R.col(0) = t1;
    e.a.R.col(1) = n.cross(t1);
    e.a.R.col(2) = n;
    e.b = cards::tree_end(d, "node2", "offset2", nullptr);
    e.cut_cost = 1;
    e.tree_capable = true;
    e.grow = [](tree::Growth& g, const tree::Context&) { tree::slide_and_ball(g, 0, 2); };
    e.cut = [](tree::CutEquations& c, bool, const tree::Context&) {
        c.kind = tree::CutKind::in_plane, c.rows = 1;
    };
    return e;
}

}  // namespace

MBS_REGISTER_ELEMENT("joint", "in plane", read_in_plane);

MBS_REGISTER_TREE_EDGE("joint", "in plane", in_plane_edge);
}  // namespace mbs
