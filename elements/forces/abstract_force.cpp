// Card readers for `force: L, abstract` and `abstract internal` (docs/deck-language.md 5.4): a
// scalar generalized force on one degree of freedom (or equal and opposite on two).
//   force: L, abstract, <NodeDof>, <DriveCaller>
//   force: L, abstract internal, <NodeDof 1>, <NodeDof 2>, <DriveCaller>
// NodeDof = node_label, node_type [, dof_index (structural nodes)].
// Props: "node", "dof", "drive"; internal: "node1", "dof1", "node2", "dof2", "drive".
#include "core/registry.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

void read_abstract(Reader& r, EntityDesc& e) {
    cards::read_node_dof(r, e, "", "abstract force", false);
    e.props.set("drive", r.drive("force value"));
}

void read_abstract_internal(Reader& r, EntityDesc& e) {
    cards::read_node_dof(r, e, "1", "abstract internal force", false);
    cards::read_node_dof(r, e, "2", "abstract internal force", false);
    e.props.set("drive", r.drive("force value"));
}

}  // namespace

MBS_REGISTER_ELEMENT("force", "abstract", read_abstract);
MBS_REGISTER_ELEMENT("force", "abstract internal", read_abstract_internal);

}  // namespace mbs
