// Card reader for `joint: L, drive hinge` (docs/deck-language.md 5.2): imposes the relative
// rotation.
//   drive hinge, n1 [, orientation, R1h], n2 [, orientation, R2h], <TplDC Vec3 rotation vector>
// Props: "node1", "orientation1", "node2", "orientation2" (node frames), "drive" (the relative
// rotation vector, radians, in the frame R1 R1h; its norm must stay below pi).
// Relative-coordinate path: a total joint with the rotation imposed (total_tree_edge.cpp).
#include "core/registry.hpp"
#include "elements/joints/joint_ends.hpp"
#include "elements/joints/total_tree_edge.hpp"

namespace mbs {
namespace {

void read_drive_hinge(Reader& r, EntityDesc& e) {
    cards::EndOptions opt;
    opt.offset = cards::Offset::none;
    auto end1 = cards::read_end1(r, "drive hinge", opt);
    auto end2 = cards::read_end2(r, end1, "drive hinge", opt);
    cards::store_end(e, end1, 1, false, true);
    cards::store_end(e, end2, 2, false, true);
    e.props.set("drive", r.tpl_drive(3, "imposed relative rotation"));
}

}  // namespace

MBS_REGISTER_ELEMENT("joint", "drive hinge", read_drive_hinge);

MBS_REGISTER_TREE_EDGE("joint", "drive hinge",
                       [](const EntityDesc& d, const tree::Context& c) -> tree::EdgePart {
                           return cards::total_tree_edge(d, c, cards::TotalForm::drive_hinge);
                       });
}  // namespace mbs
