// Card readers for `joint: L, spherical hinge` and `spherical pin` (docs/deck-language.md 5.2).
//   spherical hinge, n1, [position,] off1 [, orientation, R1], n2, [position,] off2
//                    [, orientation, R2] [, orientation description, od]
//   spherical pin, node, [position,] off [, orientation, R (ignored)],
//                  [position,] <abs pin> [, orientation, <abs R> (ignored)]
// The hinge orientations only affect output.
// Props (hinge): "node1", "offset1", "orientation1", "node2", "offset2", "orientation2".
// Props (pin): "node", "offset", "position" (global).
// Relative-coordinate path: three rotations (a ball); as a cut, 3 rows.
#include "core/registry.hpp"
#include "core/tree_edge.hpp"
#include "elements/joints/joint_ends.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

void read_spherical_hinge(Reader& r, EntityDesc& e) {
    cards::EndOptions opt;
    auto end1 = cards::read_end1(r, "spherical hinge", opt);
    auto end2 = cards::read_end2(r, end1, "spherical hinge", opt);
    cards::store_end(e, end1, 1, true, true);
    cards::store_end(e, end2, 2, true, true);
    cards::read_optional_orientation_description(r, e);
}

void read_spherical_pin(Reader& r, EntityDesc& e) {
    const EntityDesc& n = cards::read_structural_node(r, "node", "spherical pin");
    e.props.set("node", cards::node_ref(n));
    r.accept("position");
    e.props.set("offset", r.position_rel(n, "offset"));
    if (r.accept("orientation")) r.orientation_rel(n, "orientation (unused)");
    r.accept("position");
    e.props.set("position", r.position_abs("pin position", &n));
    if (r.accept("orientation")) r.orientation_abs("pin orientation (unused)", &n);
}

tree::Edge ball_edge(tree::End a, tree::End b) {
    tree::Edge e;
    e.a = std::move(a);
    e.b = std::move(b);
    e.cut_cost = 3;
    e.tree_capable = true;
    e.grow = [](tree::Growth& g, const tree::Context&) { tree::ball(g.steps, g.Rrel); };
    e.cut = [](tree::CutEquations& c, bool, const tree::Context&) {
        c.kind = tree::CutKind::ball, c.rows = 3;
    };
    return e;
}

tree::EdgePart spherical_hinge_edge(const EntityDesc& d, const tree::Context&) {
    return ball_edge(cards::tree_end(d, "node1", "offset1", "orientation1"),
                     cards::tree_end(d, "node2", "offset2", "orientation2"));
}

tree::EdgePart spherical_pin_edge(const EntityDesc& d, const tree::Context&) {
    tree::End ground;
    ground.o = d.props.get<Vec3>("position");
    return ball_edge(cards::tree_end(d, "node", "offset", nullptr), ground);
}

}  // namespace

MBS_REGISTER_ELEMENT("joint", "spherical hinge", read_spherical_hinge);
MBS_REGISTER_ELEMENT("joint", "spherical pin", read_spherical_pin);
MBS_REGISTER_ELEMENT("joint", "pin", read_spherical_pin);

MBS_REGISTER_TREE_EDGE("joint", "spherical hinge", spherical_hinge_edge);
MBS_REGISTER_TREE_EDGE("joint", "spherical pin", spherical_pin_edge);
}  // namespace mbs
