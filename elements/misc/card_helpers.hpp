// Small helpers shared by the element card readers (joints, bodies, forces, beams, genels):
// node checks, optional keyword groups, template drives whose vector is given in a node or
// hinge frame, and the NodeDof form of scalar degrees of freedom.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/reader.hpp"

namespace mbs::cards {

// Resolved kinematics of a structural node (global frame), from its StructuralNodeSpec; zero
// and identity for other nodes.
Vec3 node_position(const EntityDesc& node);
Mat3 node_orientation(const EntityDesc& node);  // identity for displacement-only nodes

// True for structural nodes that carry rotations (not "static/dynamic displacement").
bool has_rotations(const EntityDesc& node);

EntityRef node_ref(const EntityDesc& node);

// Reads a structural node label; `element` names the card in the error message.
// With `need_rotations`, displacement-only nodes are rejected at the label.
const EntityDesc& read_structural_node(Reader& r, std::string_view what, std::string_view element,
                                       bool need_rotations = true);

// Errors at `at` (the second node's label) when both nodes are the same.
void check_distinct_nodes(Reader& r, const SourceLoc& at, const EntityDesc& n1,
                          const EntityDesc& n2, std::string_view element);

// `orientation` (or the deprecated `hinge`) keyword, if present.
bool accept_orientation_keyword(Reader& r);

// `orientation description, <od>` if present: the keyword read, else "".
std::string read_orientation_description(Reader& r);

// `output, {yes|no|bool}` if present, for cards whose optional data follows `output`.
void read_optional_output(Reader& r, EntityDesc& e);

// A Vec3 template drive whose `single` vector may carry a `reference, <frame>,` prefix.
// The vector is resolved to the frame R_frame (global when R_frame is null): with a prefix,
// v_frame = R_frame^T v_global, where v_global follows GetVecAbs rules with `context` as the
// node for `reference, node`; without a prefix the vector is taken as written.
// Every other form (null, component, array, reference label, bare vector) is left to
// Reader::tpl_drive.
std::shared_ptr<const TplDriveSpec> read_tpl_vec3(Reader& r, std::string_view what,
                                                  const EntityDesc* context, const Mat3* R_frame);

// A `single` template drive built from a constant vector and a scalar drive.
std::shared_ptr<const TplDriveSpec> make_single_tpl_vec3(const Vec3& v,
                                                         std::shared_ptr<const DriveSpec> drive,
                                                         const SourceLoc& at);

// What a constitutive law does (its LawSpec::kind; wrappers and arrays are combined).
enum class LawKind { elastic, viscous, viscoelastic };
LawKind law_kind(const LawSpec& law);

// A scalar degree of freedom, written
//   node_label, node_type [, dof_index] [, {algebraic | differential | order, n}]
// The dof index is read only for nodes with more than one dof (structural); the order only
// `with_order` ("algebraic" = the value, the default; "differential" = its derivative).
// NodeDofSpec is what a spec keeps of it; describe() gives "node<suffix>" (EntityRef),
// "dof<suffix>" (long, 1-based) and, when read, "order<suffix>" ("algebraic" | "differential").
struct NodeDofSpec {
    EntityRef node;
    long index = 1;
    std::optional<int> order;  // 0 value, 1 derivative; read `with_order` only
    void describe(Props& out, const std::string& suffix) const;
};
struct NodeDof {
    const EntityDesc* node = nullptr;  // valid while the card is read
    long index = 1;
    int order = 0;
    bool with_order = true;
    NodeDofSpec spec() const;
};
NodeDof read_node_dof(Reader& r, std::string_view element, bool with_order = true);

}  // namespace mbs::cards
