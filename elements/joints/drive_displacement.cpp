// Card readers for `joint: L, drive displacement` and `drive displacement pin`
// (docs/deck-language.md 5.2): impose the relative position of two points.
//   drive displacement, n1, [position,] off1, n2, [position,] off2, <TplDC Vec3>
//   drive displacement pin, node, [position,] off, [position,] <abs x>, <TplDC Vec3>
// The imposed vector is the position of point 2 relative to point 1 (pin: of the node point
// relative to x), in the node-1 frame (pin: the global frame).
// Props: "node1", "offset1", "node2", "offset2", "drive"; pin: "node", "offset", "position",
// "drive".
// Relative-coordinate path: a total (pin) joint with the position imposed
// (total_tree_edge.cpp).
#include "core/registry.hpp"
#include "elements/joints/joint_ends.hpp"
#include "elements/joints/total_tree_edge.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

void read_drive_displacement(Reader& r, EntityDesc& e) {
    cards::EndOptions opt;
    opt.orientation = false;
    auto end1 = cards::read_end1(r, "drive displacement joint", opt);
    auto end2 = cards::read_end2(r, end1, "drive displacement joint", opt);
    cards::store_end(e, end1, 1, true, false);
    cards::store_end(e, end2, 2, true, false);
    e.props.set("drive", r.tpl_drive(3, "imposed relative displacement"));
}

void read_drive_displacement_pin(Reader& r, EntityDesc& e) {
    const EntityDesc& n = cards::read_structural_node(r, "node", "drive displacement pin");
    e.props.set("node", cards::node_ref(n));
    r.accept("position");
    e.props.set("offset", r.position_rel(n, "offset"));
    r.accept("position");
    e.props.set("position", r.position_abs("ground point", &n));
    e.props.set("drive", r.tpl_drive(3, "imposed displacement"));
}

}  // namespace

MBS_REGISTER_ELEMENT("joint", "drive displacement", read_drive_displacement);
MBS_REGISTER_ELEMENT("joint", "drive displacement pin", read_drive_displacement_pin);

MBS_REGISTER_TREE_EDGE("joint", "drive displacement",
                       [](const EntityDesc& d, const tree::Context& c) -> tree::EdgePart {
                           return cards::total_tree_edge(d, c,
                                                         cards::TotalForm::drive_displacement);
                       });
MBS_REGISTER_TREE_EDGE("joint", "drive displacement pin",
                       [](const EntityDesc& d, const tree::Context& c) -> tree::EdgePart {
                           return cards::total_tree_edge(d, c,
                                                         cards::TotalForm::drive_displacement_pin);
                       });
}  // namespace mbs
