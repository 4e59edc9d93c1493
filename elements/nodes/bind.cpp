// Card reader of `bind` (docs/deck-language.md 5; MBDyn's parameter-node binding):
//   bind: <element label>, <element type>, <parameter node label>,
//         {string | name}, "<datum name>" | index, <i>;
// The element and the parameter node (declared `parameter: L, element;`) must be defined
// before; bind cards are not counted in control data. Props: "element" (EntityRef, category as
// on the element's card), "node" (EntityRef parameter), "string" or "index". Whether the element
// has the datum is checked by the runtime (elements/nodes/scalar_nodes.cpp).
#include "core/registry.hpp"
#include "elements/drives/drive_util.hpp"

namespace mbs {
namespace {

void read_bind(Reader& r, EntityDesc& e) {
    const EntityDesc& el = drives::read_element_ref(r, "bind the element after its card");
    e.props.set("element", EntityRef{el.category, el.label});
    SourceLoc node_at = r.loc();
    long node = r.label("parameter node label");
    const EntityDesc* n = r.model().find_node("parameter", node);
    if (!n) r.error_at(node_at, "parameter node " + std::to_string(node) + " is not defined");
    if (!n->props.get_or<bool>("element", false))
        r.error_at(node_at, "parameter node " + std::to_string(node) + " has a value of its own",
                   "declare it as 'parameter: " + std::to_string(node) + ", element;'");
    e.props.set("node", EntityRef{"parameter", node});
    e.label = node;
    if (r.accept("string") || r.accept("name")) {
        SourceLoc s = r.loc();
        std::string name = r.string("private data name");
        if (name.empty()) r.error_at(s, "empty private data name");
        e.props.set("string", std::move(name));
    } else if (r.accept("index")) {
        SourceLoc s = r.loc();
        long i = r.integer("private data index");
        if (i < 1) r.error_at(s, "private data indices start at 1, got " + std::to_string(i));
        e.props.set("index", i);
    } else {
        r.error("expected 'string, \"name\"' or 'index, i' (the element's private datum)");
    }
}

}  // namespace

MBS_REGISTER_ELEMENT_CARD("bind", {"", "bind", false, false});
MBS_REGISTER_ELEMENT("bind", "", read_bind);

}  // namespace mbs
