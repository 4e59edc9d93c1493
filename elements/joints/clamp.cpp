// Card reader for `joint: L, clamp` (docs/deck-language.md 5.2): fixes a node's position and
// orientation.
//   clamp, node, [position,] {node | <Vec3 abs>}, [orientation,] {node | <OrMat abs>}
// `node` keeps the node's current value; absolute data is read with the node as context, so
// `reference, node, null` also means the node's position.
// Props: "node", "position" (global), "orientation" (global).
#include "core/registry.hpp"
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

}  // namespace

MBS_REGISTER_ELEMENT("joint", "clamp", read_clamp);

}  // namespace mbs
