// Drive callers fed by model data instead of time: dof, node, element (docs/deck-language.md
// section 7). The value is func(datum); the datum's time derivative feeds func's Var_dot.
//
// Parameters (DriveSpec::params, in card order; the function drive is children[0]):
//   dof      "node" (EntityRef) ["index" (long, 1..6, structural nodes only)]
//            ["order" (long: 0 algebraic, 1 differential, 2 second derivative)]
//   node     "node" (EntityRef) [{"string" (datum name) | "index" (long >= 1)}]
//   element  "element" (EntityRef) [{"string" | "index"}]
// The node or element must be defined earlier; whether it has the named datum is checked by
// the engine. Without `string` or `index` the entity must have exactly one datum.
//
// As in MBDyn, `string` right after the entity type selects a datum name, so a `string`
// function drive needs the datum given first: node, 1, abstract, string, "x", string, "2*Var".
#include "core/registry.hpp"
#include "elements/drives/drive_util.hpp"

namespace mbs::drives {
namespace {

EntityRef read_node_ref(Reader& r) {
    SourceLoc at = r.loc();
    long label = r.label("node label");
    std::string type = r.keyword(
        {"structural", "abstract", "electric", "hydraulic", "parameter", "thermal"}, "node type");
    if (!r.model().find_node(type, label))
        r.error_at(at, type + " node " + std::to_string(label) + " is not defined",
                   "nodes must be defined before drive callers that read them");
    return EntityRef{type, label};
}

void read_private_datum(Reader& r, DriveSpec& d, const std::string& entity) {
    if (r.accept("string")) {
        SourceLoc at = r.loc();
        std::string name = r.string("private data name");
        if (name.empty()) r.error_at(at, "empty private data name for " + entity);
        d.params.set("string", std::move(name));
    } else if (r.accept("index")) {
        SourceLoc at = r.loc();
        long i = r.integer("private data index");
        if (i < 1) r.error_at(at, "private data indices start at 1, got " + std::to_string(i));
        d.params.set("index", i);
    }
    d.children.push_back(r.drive("function of the private datum"));
}

// dof, <label>, <type> [, <index>] [, {algebraic | differential | order, n}], <func>
// Structural nodes have 6 dofs, so the index is required; scalar nodes have one.
void read_dof(Reader& r, DriveSpec& d) {
    EntityRef node = read_node_ref(r);
    d.params.set("node", node);
    if (node.category == "structural") {
        SourceLoc at = r.loc();
        long i = r.integer("dof index");
        if (i < 1 || i > 6)
            r.error_at(at, "structural nodes have dofs 1 to 6, got " + std::to_string(i));
        d.params.set("index", i);
    }
    if (r.accept("algebraic")) {
        d.params.set("order", 0L);
    } else if (r.accept("differential")) {
        d.params.set("order", 1L);
    } else if (r.accept("order")) {
        SourceLoc at = r.loc();
        long o = r.integer("dof order");
        if (o < 0 || o > 2) r.error_at(at, "dof order must be 0, 1 or 2, got " + std::to_string(o));
        d.params.set("order", o);
    }
    d.children.push_back(r.drive("function of the dof"));
}

void read_node(Reader& r, DriveSpec& d) {
    EntityRef node = read_node_ref(r);
    d.params.set("node", node);
    read_private_datum(r, d, node.category + " node " + std::to_string(node.label));
}

// element, <label>, <type>, ...: the type is an element card name ("joint", "body", ...).
void read_element(Reader& r, DriveSpec& d) {
    const EntityDesc& e =
        read_element_ref(r, "elements must be defined before drive callers that read them");
    d.params.set("element", EntityRef{e.category, e.label});
    read_private_datum(r, d, e.category + " " + std::to_string(e.label));
}

}  // namespace

MBS_REGISTER_DRIVE("dof", read_dof);
MBS_REGISTER_DRIVE("node", read_node);
MBS_REGISTER_DRIVE("element", read_element);

}  // namespace mbs::drives
