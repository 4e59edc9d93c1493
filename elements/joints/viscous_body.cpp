// Card reader for `joint: L, viscous body` (docs/deck-language.md 5.2): a viscous law between a
// node and the ground.
//   viscous body, node, [position,] off [, {orientation|hinge}, R], <6D viscous CL>
//       [, orientation description, od]
// Only viscous laws are accepted.
// Props: "node", "offset", "hinge orientation" (node frame), "law", "orientation description".
#include "core/registry.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

void read_viscous_body(Reader& r, EntityDesc& e) {
    const EntityDesc& n = cards::read_structural_node(r, "node", "viscous body");
    e.props.set("node", cards::node_ref(n));
    r.accept("position");
    e.props.set("offset", r.position_rel(n, "offset"));
    Mat3 R = cards::accept_orientation_keyword(r) ? r.orientation_rel(n, "orientation")
                                                  : Mat3::Identity();
    e.props.set("hinge orientation", R);
    SourceLoc at = r.loc();
    auto law = r.law(6, "viscous body constitutive law");
    if (cards::law_kind(*law) != cards::LawKind::viscous)
        r.error_at(at, "viscous body needs a viscous constitutive law, got '" + law->type + "'",
                   "e.g. 'linear viscous generic, diag, ...'");
    e.props.set("law", law);
    cards::read_optional_orientation_description(r, e);
}

}  // namespace

MBS_REGISTER_ELEMENT("joint", "viscous body", read_viscous_body);

}  // namespace mbs
