// What a structural node card says (docs/deck-language.md 4.1), typed: the reader of every
// structural node kind (elements/nodes/structural.cpp) fills it, the runtime StructNode
// (core/struct_node.hpp), the tree adapter, the deck reader's node frames (parser/data_forms.cpp)
// and the element readers (cards::node_position) read it. It lives in core because the runtime
// node does; describe() gives the generic view (--dump-model) under the names the props used.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/model.hpp"

namespace mbs {

struct StructuralNodeSpec final : NodeSpec {
    // Resolved absolute initial state (global frame). Displacement-only nodes: identity
    // orientation, zero angular velocity. Relative-frame dummy nodes: those of the base node.
    Vec3 x = Vec3::Zero();
    Mat3 R = Mat3::Identity();
    Vec3 v = Vec3::Zero();
    Vec3 w = Vec3::Zero();
    // `orientation description, od` ("": not given, the control data's `default orientation`).
    std::string orientation_description;

    // The optional tail of static/dynamic nodes: `assembly` stiffnesses, `accelerations` (also
    // set by `output: structural, accelerations, ...`), `output inertia`.
    std::optional<double> assembly_position_stiffness, assembly_velocity_stiffness;
    std::optional<bool> accelerations, output_inertia;
    enum class Tail : unsigned char { assembly, accelerations, output_inertia };
    std::vector<Tail> tail;  // the items above in the order first given (for describe())
    void note(Tail t) {
        for (Tail k : tail)
            if (k == t) return;
        tail.push_back(t);
    }
    void set_accelerations(bool on) {
        accelerations = on;
        note(Tail::accelerations);
    }

    // Dummy nodes: base node, "offset" or "relative frame"; offset: `offset` f and `relative
    // orientation` Rf (node frame of the base); relative frame: the reference node with the
    // optional `offset` / `relative orientation` of the frame, the optional pivot node with its
    // `pivot offset` / `pivot orientation`.
    bool dummy = false;
    EntityRef base;
    std::string dummy_type;
    std::optional<EntityRef> reference, pivot;
    std::optional<Vec3> offset, pivot_offset;
    std::optional<Mat3> relative_orientation, pivot_orientation;

    void describe(Props& out) const override;
    std::shared_ptr<const NodeSpec> with_output_accelerations() const override {
        auto copy = std::make_shared<StructuralNodeSpec>(*this);
        copy->set_accelerations(true);
        return copy;
    }
};

// The spec of a structural node card, nullptr for any other node.
inline const StructuralNodeSpec* structural_node_spec(const EntityDesc& node) {
    return dynamic_cast<const StructuralNodeSpec*>(node.spec.get());
}

}  // namespace mbs
