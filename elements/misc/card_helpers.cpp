// Helpers shared by the element card readers (see card_helpers.hpp).
#include "elements/misc/card_helpers.hpp"

#include <string>

#include "core/struct_node_spec.hpp"
#include "elements/nodes/scalar_node_spec.hpp"

namespace mbs::cards {

Vec3 node_position(const EntityDesc& node) {
    const StructuralNodeSpec* s = structural_node_spec(node);
    return s ? s->x : Vec3(Vec3::Zero());
}

Mat3 node_orientation(const EntityDesc& node) {
    const StructuralNodeSpec* s = structural_node_spec(node);
    return s ? s->R : Mat3(Mat3::Identity());
}

bool has_rotations(const EntityDesc& node) {
    return node.category == "structural" && node.type != "static displacement" &&
           node.type != "dynamic displacement";
}

EntityRef node_ref(const EntityDesc& node) { return EntityRef{node.category, node.label}; }

const EntityDesc& read_structural_node(Reader& r, std::string_view what, std::string_view element,
                                       bool need_rotations) {
    SourceLoc at = r.loc();
    const EntityDesc& n = r.node("structural", what);
    if (need_rotations && !has_rotations(n))
        r.error_at(at,
                   std::string(element) + " needs a structural node with rotations, but node " +
                       std::to_string(n.label) + " is a '" + n.type + "' node",
                   "use a static or dynamic structural node");
    return n;
}

void check_distinct_nodes(Reader& r, const SourceLoc& at, const EntityDesc& n1,
                          const EntityDesc& n2, std::string_view element) {
    if (n1.category == n2.category && n1.label == n2.label)
        r.error_at(
            at, std::string(element) + " connects node " + std::to_string(n1.label) + " to itself",
            "the two nodes of a joint must be different");
}

bool accept_orientation_keyword(Reader& r) {
    if (r.accept("orientation")) return true;
    if (r.peek("hinge")) {
        r.warn("keyword 'hinge' is deprecated; use 'orientation'");
        r.skip();
        return true;
    }
    return false;
}

std::string read_orientation_description(Reader& r) {
    if (!r.accept("orientation description")) return {};
    return r.keyword(
        {"euler123", "euler313", "euler321", "orientation vector", "orientation matrix"},
        "orientation description");
}

void read_optional_output(Reader& r, EntityDesc& e) {
    if (r.accept("output")) e.output = r.boolean("output flag");
}

std::shared_ptr<const TplDriveSpec> make_single_tpl_vec3(const Vec3& v,
                                                         std::shared_ptr<const DriveSpec> drive,
                                                         const SourceLoc& at) {
    auto spec = std::make_shared<TplDriveSpec>();
    spec->type = "single";
    spec->dim = 3;
    spec->loc = at;
    spec->entity.assign(v.data(), v.data() + 3);
    spec->drive = std::move(drive);
    return spec;
}

std::shared_ptr<const TplDriveSpec> read_tpl_vec3(Reader& r, std::string_view what,
                                                  const EntityDesc* context, const Mat3* R_frame) {
    SourceLoc at = r.loc();
    if (!r.accept("single")) return r.tpl_drive(3, what);
    bool prefixed = r.peek("reference");
    Vec3 v = r.direction_abs(context, what);
    if (prefixed && R_frame) v = R_frame->transpose() * v;
    auto drive = r.drive(what);
    return make_single_tpl_vec3(v, std::move(drive), at);
}

LawKind law_kind(const LawSpec& law) {
    // Every law's reader sets LawSpec::kind (wrappers and arrays combine the kinds they wrap).
    switch (law.kind) {
        case LawResponse::viscous:
            return LawKind::viscous;
        case LawResponse::viscoelastic:
            return LawKind::viscoelastic;
        default:
            return LawKind::elastic;
    }
}

namespace {

// Number of scalar degrees of freedom a node exposes to a NodeDof.
int node_dof_count(const EntityDesc& n) {
    if (n.category == "structural") {
        if (n.type == "dummy") return 0;
        if (n.type == "static displacement" || n.type == "dynamic displacement") return 3;
        return 6;
    }
    if (n.category == "parameter") return 0;
    return 1;
}

// Abstract nodes may be declared algebraic; every other dof here is differential.
bool node_dof_is_differential(const EntityDesc& n) { return !is_algebraic_abstract_node(n); }

}  // namespace

void NodeDofSpec::describe(Props& out, const std::string& suffix) const {
    out.set("node" + suffix, node);
    out.set("dof" + suffix, index);
    if (order) out.set("order" + suffix, std::string(*order == 0 ? "algebraic" : "differential"));
}

NodeDofSpec NodeDof::spec() const {
    NodeDofSpec s{EntityRef{node->category, node->label}, index, std::nullopt};
    if (with_order) s.order = order;
    return s;
}

NodeDof read_node_dof(Reader& r, std::string_view element, bool with_order) {
    NodeDof d;
    d.with_order = with_order;
    SourceLoc at_label = r.loc();
    long label = r.label("node label");
    std::string category = r.keyword(
        {"structural", "abstract", "electric", "hydraulic", "thermal", "parameter"}, "node type");
    const EntityDesc* n = r.model().find_node(category, label);
    if (!n)
        r.error_at(at_label,
                   "unknown label " + std::to_string(label) + " for " + category + " node",
                   "nodes must be defined in the nodes block before elements use them");
    d.node = n;
    int count = node_dof_count(*n);
    if (count == 0)
        r.error_at(at_label, std::string(element) + ": " + category + " node " +
                                 std::to_string(label) + " has no degrees of freedom");
    if (count > 1) {
        SourceLoc at = r.loc();
        d.index = r.integer("dof index");
        if (d.index < 1 || d.index > count)
            r.error_at(at, "dof index " + std::to_string(d.index) + " out of range: " + category +
                               " node " + std::to_string(label) + " has dofs 1 to " +
                               std::to_string(count));
    }
    SourceLoc at_order = r.loc();
    if (!with_order) {
        d.order = 0;
    } else if (r.accept("algebraic")) {
        d.order = 0;
    } else if (r.accept("differential")) {
        d.order = 1;
    } else if (r.accept("order")) {
        at_order = r.loc();
        long o = r.integer("dof order");
        if (o < 0 || o > 1)
            r.error_at(at_order, "dof order must be 0 (algebraic) or 1 (differential), got " +
                                     std::to_string(o));
        d.order = static_cast<int>(o);
    }
    if (d.order > 0 && !node_dof_is_differential(*n))
        r.error_at(at_order,
                   "'differential' is not valid for algebraic " + category + " node " +
                       std::to_string(label),
                   "use 'algebraic' (the node value)");
    return d;
}

}  // namespace mbs::cards
