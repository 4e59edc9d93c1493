// Card reader for `joint: L, clamp` (docs/deck-language.md 5.2): fixes a node's position and
// orientation.
//   clamp, node, [position,] {node | <Vec3 abs>}, [orientation,] {node | <OrMat abs>}
// `node` keeps the node's current value; absolute data is read with the node as context, so
// `reference, node, null` also means the node's position.
// Props: "node", "position" (global), "orientation" (global).
// Relative-coordinate path: the node becomes part of the ground.
#include "core/registry.hpp"
#include "core/tree_edge.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

void read_clamp(Reader& r, EntityDesc& e) {
    const EntityDesc& n = cards::read_structural_node(r, "node", "clamp");
    e.props.set("node", cards::node_ref(n));

    r.accept("position");
    Vec3 x = r.accept("node") ? cards::node_position(n) : r.position_abs("clamp position", &n);
    r.accept("orientation");
    Mat3 R =
        r.accept("node") ? cards::node_orientation(n) : r.orientation_abs("clamp orientation", &n);
    e.props.set("position", x);
    e.props.set("orientation", R);
}

// The node is the ground, at the clamp's pose.
tree::EdgePart clamp_edge(const EntityDesc& d, const tree::Context&) {
    tree::Clamp c;
    c.node.node = d.props.get<EntityRef>("node");
    c.node.key = "node";
    if (const PropValue* v = d.props.find("position"); v && std::holds_alternative<Vec3>(*v))
        c.position = std::get<Vec3>(*v);
    if (const PropValue* v = d.props.find("orientation"); v && std::holds_alternative<Mat3>(*v))
        c.orientation = std::get<Mat3>(*v);
    return c;
}

}  // namespace

MBS_REGISTER_ELEMENT("joint", "clamp", read_clamp);

MBS_REGISTER_TREE_EDGE("joint", "clamp", clamp_edge);
}  // namespace mbs
