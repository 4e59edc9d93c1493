// One scalar degree of freedom as the genels, abstract forces and `dof` drives see it
// (docs/deck-language.md 4.2, 5.5): the unknown of an abstract node (an element owning one unknown,
// elements/nodes/scalar_nodes.cpp) or a position component of a structural node.
//
// Storage (core/element.hpp): a differential unknown keeps its value in y and its derivative
// in y'; an algebraic one keeps its value in the y' slot. Newton moves y' and y = known +
// dCoef y', so d(value)/d(y'_i) is dCoef for a differential value (1 in the assembly phase)
// and 1 for an algebraic value or a derivative.
#pragma once

#include <string>

#include "core/element.hpp"
#include "core/struct_node.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs::genels {

struct ScalarDof {
    const Element* owner = nullptr;    // scalar node (its own unknown 0), or
    const StructNode* node = nullptr;  // structural node, position component k
    int k = 0;
    bool algebraic = false;
    std::string what;  // "abstract node 3", for messages

    int index() const { return owner ? owner->first_dof() : node->first_dof() + k; }
    double value(const StateView& s) const { return algebraic ? s.yp[index()] : s.y[index()]; }
    double derivative(const StateView& s) const { return s.yp[index()]; }
    double dvalue(const StepContext& c) const {
        return algebraic || c.phase == Phase::assembly ? 1.0 : c.dCoef;
    }
};

// The scalar node element of `ref` (abstract or parameter node), or nullptr.
const Element* find_scalar_node(const DriveEnv& env, const EntityRef& ref);

// The dof a card read (cards::read_node_dof) for the element d. Structural nodes: position
// components 1..3 only (rotation unknowns are incremental parameters). Errors at d's card.
ScalarDof resolve_dof(BuildContext& ctx, const EntityDesc& d, const cards::NodeDofSpec& dof);

// The dof's order: 0 value (also when the card reads none), 1 derivative.
int dof_order(const cards::NodeDofSpec& dof);

}  // namespace mbs::genels
