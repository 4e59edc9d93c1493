// Card readers for `joint: L, {linear|angular} {velocity|acceleration}`
// (docs/deck-language.md 5.2): impose the component of a node's (angular) velocity or acceleration
// along a direction.
//   linear velocity, node, <Vec3 rel direction>, <DriveCaller>
// Props: "node", "direction" (unit, node frame), "drive".
#include "core/registry.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

void read_imposed_motion(Reader& r, EntityDesc& e) {
    const EntityDesc& n = cards::read_structural_node(r, "node", e.type);
    e.props.set("node", cards::node_ref(n));
    SourceLoc at = r.loc();
    Vec3 v = r.direction_rel(n, "direction");
    if (!(v.norm() > 0.0)) r.error_at(at, "the direction is a null vector");
    e.props.set("direction", Vec3(v.normalized()));
    e.props.set("drive", r.drive("imposed value"));
}

}  // namespace

MBS_REGISTER_ELEMENT("joint", "linear velocity", read_imposed_motion);
MBS_REGISTER_ELEMENT("joint", "angular velocity", read_imposed_motion);
MBS_REGISTER_ELEMENT("joint", "linear acceleration", read_imposed_motion);
MBS_REGISTER_ELEMENT("joint", "angular acceleration", read_imposed_motion);

}  // namespace mbs
