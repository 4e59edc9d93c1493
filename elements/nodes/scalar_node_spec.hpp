// What a scalar node card says (docs/deck-language.md 4.2), typed: abstract, electric, thermal
// and hydraulic nodes (ScalarNodeSpec) and parameter nodes (ParameterNodeSpec). The readers and
// runtimes are in elements/nodes/scalar_nodes.cpp; the genels, abstract forces and piezo beams
// read whether an abstract node is algebraic and its initial value. describe() gives the generic
// view (--dump-model) under the names the props used.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "core/model.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {

// abstract: L, [algebraic|differential], [value, x0 [, derivative, xp0]];  (also electric,
// thermal; hydraulic: no derivative)
struct ScalarNodeSpec final : NodeSpec {
    bool abstract = false;              // has a kind ("algebraic" / "differential")
    bool algebraic = false;             // abstract only
    double value = 0.0;                 // x0
    std::optional<double> derivative;   // xp0 (all but hydraulic nodes)
    std::optional<bool> accelerations;  // `output: <type>, accelerations, ...` (no effect)

    void describe(Props& out) const override;
    std::shared_ptr<const NodeSpec> with_output_accelerations() const override;
};

// parameter: L, {[value,] x0 | element | sample and hold, <NodeDof>, T | beam strain gage, y, z};
struct ParameterNodeSpec final : NodeSpec {
    std::optional<double> value;                // the constant form
    bool element = false;                       // bound by a `bind` card (also strain gages)
    std::optional<cards::NodeDofSpec> sampled;  // sample and hold: the dof, sampled every period
    double period = 0.0;
    std::optional<double> gage_y, gage_z;  // beam strain gage: the point of the section
    std::optional<bool> accelerations;     // `output: parameter, accelerations, ...`

    void describe(Props& out) const override;
    std::shared_ptr<const NodeSpec> with_output_accelerations() const override;
};

// True for an abstract node declared algebraic (its value is in the y' slot).
inline bool is_algebraic_abstract_node(const EntityDesc& n) {
    const auto* s = dynamic_cast<const ScalarNodeSpec*>(n.spec.get());
    return n.category == "abstract" && s && s->algebraic;
}

}  // namespace mbs
