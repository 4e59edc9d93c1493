// Card readers for scalar genels (docs/deck-language.md 5.5): elements acting on single degrees of
// freedom written as NodeDof = node_label, node_type [, dof_index] [, {algebraic|differential}].
//   genel: L, clamp, <NodeDof>, <DriveCaller>             (imposes the dof value or derivative)
//   genel: L, distance, <NodeDof 1>, <NodeDof 2>, <DriveCaller>
//   genel: L, spring, <NodeDof 1>, <NodeDof 2>, <1D CL>   (elastic laws only)
//   genel: L, spring support, <NodeDof>, <1D CL> [, position, {from node | x0}]
//   genel: L, cross spring support, <NodeDof row>, <NodeDof col>, <1D CL>
//   genel: L, mass, <NodeDof>, <DriveCaller mass>
// The order keyword picks the value (`algebraic`, the default) or its derivative
// (`differential`); MBDyn requires it for differential dofs, we default to the value.
// Spring supports act on the value of a differential dof; masses need a differential dof.
// Props: "node", "dof", "order" (suffixes 1 and 2 for two dofs), then "drive" | "law" | "mass",
// "position" (spring support reference value).
#include <string>

#include "core/registry.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

cards::NodeDof dof(Reader& r, EntityDesc& e, const std::string& suffix) {
    return cards::read_node_dof(r, e, suffix, "genel " + e.type);
}

void read_clamp(Reader& r, EntityDesc& e) {
    dof(r, e, "");
    e.props.set("drive", r.drive("imposed value"));
}

void read_distance(Reader& r, EntityDesc& e) {
    dof(r, e, "1");
    dof(r, e, "2");
    e.props.set("drive", r.drive("imposed difference"));
}

void read_spring(Reader& r, EntityDesc& e) {
    dof(r, e, "1");
    dof(r, e, "2");
    SourceLoc at = r.loc();
    auto law = r.law(1, "spring constitutive law");
    if (cards::law_kind(*law) != cards::LawKind::elastic)
        r.error_at(at,
                   "genel spring accepts elastic constitutive laws only, got '" + law->type + "'",
                   "use 'spring support' or a rod for viscous laws");
    e.props.set("law", law);
}

// The value (order 0) of a differential dof.
void require_value_of_differential(Reader& r, const SourceLoc& at, const cards::NodeDof& d) {
    bool algebraic_node = d.node->category == "abstract" &&
                          (d.node->props.get_or<bool>("algebraic", false) ||
                           d.node->props.get_or<std::string>("kind", "") == "algebraic" ||
                           d.node->props.get_or<std::string>("order", "") == "algebraic");
    if (d.order != 0 || algebraic_node)
        r.error_at(at,
                   "genel " + std::string(d.order != 0
                                              ? "needs the value ('algebraic') of the dof, not its "
                                                "derivative"
                                              : "needs a differential dof"));
}

void read_spring_support(Reader& r, EntityDesc& e) {
    SourceLoc at = r.loc();
    auto d = dof(r, e, "");
    require_value_of_differential(r, at, d);
    e.props.set("law", r.law(1, "spring support constitutive law"));
    if (r.accept("position")) {
        double x0 = 0.0;
        if (r.accept("from node")) {
            x0 = d.node->props.get_or<double>("value", 0.0);
            if (d.node->category == "structural") {
                Vec3 x = cards::node_position(*d.node);
                x0 = d.index <= 3 ? x[d.index - 1] : 0.0;
            }
        } else {
            x0 = r.real("reference value");
        }
        e.props.set("position", x0);
    }
}

void read_cross_spring_support(Reader& r, EntityDesc& e) {
    dof(r, e, "1");
    SourceLoc at = r.loc();
    auto d = dof(r, e, "2");
    require_value_of_differential(r, at, d);
    e.props.set("law", r.law(1, "cross spring support constitutive law"));
}

void read_mass(Reader& r, EntityDesc& e) {
    SourceLoc at = r.loc();
    auto d = dof(r, e, "");
    bool algebraic_node = d.node->category == "abstract" &&
                          (d.node->props.get_or<bool>("algebraic", false) ||
                           d.node->props.get_or<std::string>("kind", "") == "algebraic");
    if (algebraic_node) r.error_at(at, "genel mass needs a differential dof");
    e.props.set("mass", r.drive("mass"));
}

}  // namespace

MBS_REGISTER_ELEMENT("genel", "clamp", read_clamp);
MBS_REGISTER_ELEMENT("genel", "distance", read_distance);
MBS_REGISTER_ELEMENT("genel", "spring", read_spring);
MBS_REGISTER_ELEMENT("genel", "spring support", read_spring_support);
MBS_REGISTER_ELEMENT("genel", "cross spring support", read_cross_spring_support);
MBS_REGISTER_ELEMENT("genel", "mass", read_mass);

}  // namespace mbs
