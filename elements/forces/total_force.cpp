// Card readers for `force: L, total` and `total internal` (docs/deck-language.md 5.4): a force and
// a couple applied in frames attached to the node(s).
//   force: L, total [internal], node [, position, arm] [, force orientation, Rf]
//          [, moment orientation, Rm] [, node2 [, position, arm2] [, force orientation, ...]
//          [, moment orientation, ...]] [, force, {null | <TplDC Vec3>}]
//          [, moment, {null | <TplDC Vec3>}]
// (node2 only for `total internal`). A missing force or moment is null.
// Props: "node", "offset", "force orientation", "moment orientation" (node frame) or, for the
// internal form, the same with suffixes 1 and 2; "force", "moment" (template drives, absent =
// null).
#include "core/registry.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

void read_side(Reader& r, EntityDesc& e, const EntityDesc& n, const std::string& s) {
    e.props.set("node" + s, cards::node_ref(n));
    Vec3 f = r.accept("position") ? r.position_rel(n, "arm") : Vec3::Zero();
    Mat3 Rf = r.accept("force orientation") ? r.orientation_rel(n, "force orientation")
                                            : Mat3::Identity();
    Mat3 Rm = r.accept("moment orientation") ? r.orientation_rel(n, "moment orientation")
                                             : Mat3::Identity();
    e.props.set("offset" + s, f);
    e.props.set("force orientation" + s, Rf);
    e.props.set("moment orientation" + s, Rm);
}

void read_drives(Reader& r, EntityDesc& e) {
    for (const char* key : {"force", "moment"}) {
        if (!r.accept(key)) continue;
        if (r.accept("null")) continue;
        e.props.set(key, r.tpl_drive(3, key));
    }
}

void read_total(Reader& r, EntityDesc& e) {
    const EntityDesc& n = cards::read_structural_node(r, "node", "total force");
    read_side(r, e, n, "");
    read_drives(r, e);
}

void read_total_internal(Reader& r, EntityDesc& e) {
    const EntityDesc& n1 = cards::read_structural_node(r, "node 1", "total internal force");
    read_side(r, e, n1, "1");
    SourceLoc at2 = r.loc();
    const EntityDesc& n2 = cards::read_structural_node(r, "node 2", "total internal force");
    cards::check_distinct_nodes(r, at2, n1, n2, "total internal force");
    read_side(r, e, n2, "2");
    read_drives(r, e);
}

}  // namespace

MBS_REGISTER_ELEMENT("force", "total", read_total);
MBS_REGISTER_ELEMENT("force", "total internal", read_total_internal);

}  // namespace mbs
