// Card reader for `joint: L, in line` (docs/deck-language.md 5.2): a point of node 2 stays on a
// line fixed to node 1.
//   in line, n1, [position,] <rel point>, [orientation,] <rel R (axis 3 = line)>, n2
//       [, offset, <rel off2>] [, friction, ...]
// Props: "node1", "offset1" (a point of the line), "orientation1" (axis 3 = line direction),
// "node2", "offset2" (only with `offset`; `reference, other ...` frames allowed).
// Relative-coordinate path: a translation along the line and a ball; as a cut, 2 rows.
#include "core/registry.hpp"
#include "core/tree_edge.hpp"
#include "elements/joints/joint_ends.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

void read_in_line(Reader& r, EntityDesc& e) {
    const EntityDesc& n1 = cards::read_structural_node(r, "node 1", "in line joint");
    r.accept("position");
    Vec3 p = r.position_rel(n1, "point of the line");
    r.accept("orientation");
    Mat3 R = r.orientation_rel(n1, "line orientation");
    SourceLoc at2 = r.loc();
    const EntityDesc& n2 = cards::read_structural_node(r, "node 2", "in line joint");
    cards::check_distinct_nodes(r, at2, n1, n2, "in line joint");
    e.props.set("node1", cards::node_ref(n1));
    e.props.set("offset1", p);
    e.props.set("orientation1", R);
    e.props.set("node2", cards::node_ref(n2));
    if (r.accept("offset"))
        e.props.set("offset2", r.position_rel_other(n2, n1, p, "offset of node 2"));
    if (r.peek("friction"))
        r.error("in line joint friction is not supported yet", "remove the friction block");
}

// The point of node 2 moves along axis 3 of the line frame and turns freely.
tree::EdgePart in_line_edge(const EntityDesc& d, const tree::Context&) {
    tree::Edge e;
    e.a = cards::tree_end(d, "node1", "offset1", "orientation1");
    e.b = cards::tree_end(d, "node2", "offset2", nullptr);
    e.cut_cost = 2;
    e.tree_capable = true;
    e.grow = [](tree::Growth& g, const tree::Context&) { tree::slide_and_ball(g, 2, 1); };
    e.cut = [](tree::CutEquations& c, bool, const tree::Context&) {
        c.kind = tree::CutKind::in_line, c.rows = 2;
    };
    return e;
}

}  // namespace

MBS_REGISTER_ELEMENT("joint", "in line", read_in_line);

MBS_REGISTER_TREE_EDGE("joint", "in line", in_line_edge);
}  // namespace mbs
