// Card readers for the cardano (universal) family (docs/deck-language.md 5.2).
//   cardano hinge, n1, [position,] off1 [, orientation, R1], n2, [position,] off2
//       [, orientation, R2]
//   cardano rotation: same, offsets only with `position` and ignored,
//       [, orientation description, od]
//   cardano pin, node, [position,] off [, orientation, Rh], [position,] <abs x>
//       [, orientation, <abs R>]
// Positions are constrained (not for the rotation form); axis 3 of the node-1 hinge frame is
// kept orthogonal to axis 2 of the node-2 hinge frame. `universal hinge|rotation|pin` are
// deprecated aliases.
// Props: as the revolute family (see revolute.cpp).
// Relative-coordinate path (cardano hinge): two rotations, about axis 3 of frame 1 and the
// turned axis 2; as a cut, 4 rows.
#include "core/registry.hpp"
#include "core/tree_edge.hpp"
#include "elements/joints/joint_ends.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

void read_pair(Reader& r, EntityDesc& e, std::string_view element, bool offsets) {
    cards::EndOptions opt;
    opt.offset = offsets ? cards::Offset::mandatory : cards::Offset::keyword;
    auto end1 = cards::read_end1(r, element, opt);
    auto end2 = cards::read_end2(r, end1, element, opt);
    cards::store_end(e, end1, 1, offsets, true);
    cards::store_end(e, end2, 2, offsets, true);
}

void read_cardano_hinge(Reader& r, EntityDesc& e) { read_pair(r, e, "cardano hinge", true); }

void read_cardano_rotation(Reader& r, EntityDesc& e) {
    read_pair(r, e, "cardano rotation", false);
    cards::read_optional_orientation_description(r, e);
}

void read_cardano_pin(Reader& r, EntityDesc& e) { cards::read_pin(r, e, "cardano pin"); }

void warn_universal(Reader& r, const char* replacement) {
    r.warn(std::string("'universal' joints are deprecated; use '") + replacement + "'");
}
void read_universal_hinge(Reader& r, EntityDesc& e) {
    warn_universal(r, "cardano hinge");
    read_cardano_hinge(r, e);
}
void read_universal_rotation(Reader& r, EntityDesc& e) {
    warn_universal(r, "cardano rotation");
    read_cardano_rotation(r, e);
}
void read_universal_pin(Reader& r, EntityDesc& e) {
    warn_universal(r, "cardano pin");
    read_cardano_pin(r, e);
}

// R_rel = Rz(a) Ry(b): about axis 3 of frame 1, then about the turned axis 2 (axis 3 of frame 1
// stays normal to axis 2 of frame 2; the two axes are always orthogonal).
tree::EdgePart cardano_hinge_edge(const EntityDesc& d, const tree::Context&) {
    tree::Edge e;
    e.a = cards::tree_end(d, "node1", "offset1", "orientation1");
    e.b = cards::tree_end(d, "node2", "offset2", "orientation2");
    e.cut_cost = 4;
    e.tree_capable = true;
    e.grow = [](tree::Growth& g, const tree::Context&) {
        g.steps.push_back(tree::rotation(2, std::atan2(-g.Rrel(0, 1), g.Rrel(1, 1))));
        g.steps.push_back(tree::rotation(1, std::atan2(-g.Rrel(2, 0), g.Rrel(2, 2))));
    };
    e.cut = [](tree::CutEquations& c, bool, const tree::Context&) {
        c.kind = tree::CutKind::cardano, c.rows = 4;
    };
    return e;
}

}  // namespace

MBS_REGISTER_ELEMENT("joint", "cardano hinge", read_cardano_hinge);
MBS_REGISTER_ELEMENT("joint", "cardano rotation", read_cardano_rotation);
MBS_REGISTER_ELEMENT("joint", "cardano pin", read_cardano_pin);
MBS_REGISTER_ELEMENT("joint", "universal hinge", read_universal_hinge);
MBS_REGISTER_ELEMENT("joint", "universal rotation", read_universal_rotation);
MBS_REGISTER_ELEMENT("joint", "universal pin", read_universal_pin);

MBS_REGISTER_TREE_EDGE("joint", "cardano hinge", cardano_hinge_edge);
}  // namespace mbs
