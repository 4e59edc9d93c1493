// The "node, [position,] offset [, orientation, R]" groups that most joints start with, for one
// node (pins) or two nodes (the second may use the `other position|orientation|node` frames).
#pragma once

#include <string_view>

#include "core/reader.hpp"
#include "core/tree_edge.hpp"

namespace mbs::cards {

// How a joint end's offset is written.
enum class Offset {
    mandatory,  // [position,] <Vec3>: the keyword is optional, the vector is not (compatible input)
    keyword,    // [position, <Vec3>]: only with the keyword
    none,       // no offset field
};

// A joint end as the reader sees it (the node points into Model::nodes, valid while reading).
struct JointEnd {
    const EntityDesc* node = nullptr;
    SourceLoc node_loc;
    Vec3 offset = Vec3::Zero();  // node frame
    Mat3 R = Mat3::Identity();   // node frame
    bool has_offset = false;
    bool has_orientation = false;
    SourceLoc offset_loc, orientation_loc;  // where they were written (else the node's)
};

// A joint end as a typed spec keeps it (ElementSpec, core/model.hpp): the node by reference, the
// frame in the node frame, and where each field was written, for errors found after parsing.
struct EndSpec {
    EntityRef node;
    Vec3 offset = Vec3::Zero();
    Mat3 R = Mat3::Identity();
    SourceLoc node_loc, offset_loc, orientation_loc;
};
EndSpec end_spec(const JointEnd& e);

// The props a spec's describe() gives for an end, under the names the readers used before the
// specs: "node<k>", then "offset<k>" (when `offset`) and "orientation<k>" (when `orientation`).
void describe_end(Props& p, const EndSpec& e, const std::string& k, bool offset, bool orientation);

// The .log line of a joint laid out as MBDyn's hinges (struct/joint.cc): "<name>: L n1 f1 R1 n2
// f2 R2", offsets zero where the joint has none (`offsets` false: rotations, prismatic), the
// orientations left out where it has none (`orientations` false: distance, rod).
std::string log_two_ends(std::string_view name, long label, const EndSpec (&end)[2], bool offsets,
                         bool orientations);

// The relative-coordinate path's end (core/tree_edge.hpp) of a spec's end; `key` names it in
// messages ("node1").
tree::End tree_end(const EndSpec& e, const char* key);

struct EndOptions {
    Offset offset = Offset::mandatory;
    bool orientation = true;     // accepts [, {orientation|hinge}, <OrMat rel>]
    bool need_rotations = true;  // rejects displacement-only nodes
};

// First end: reads the node and its optional data.
JointEnd read_end1(Reader& r, std::string_view element, const EndOptions& opt);
// Second end: offsets and orientations may refer to end 1 through `reference, other ...`.
// Errors when the node is the node of end 1.
JointEnd read_end2(Reader& r, const JointEnd& end1, std::string_view element,
                   const EndOptions& opt);

// A pin's geometry, typed: the node's end (offset, hinge orientation) and the ground's frame.
struct PinGround {
    EndSpec node;
    Vec3 position = Vec3::Zero();         // global
    Mat3 orientation = Mat3::Identity();  // global
};
// node, [position,] off [, orientation, Rh], [position,] <abs x> [, orientation, <abs R>].
PinGround read_pin_ground(Reader& r, std::string_view element);

// `friction` after a hinge's `output` flag (revolute hinge, axial rotation): refused, "hinge
// friction is not supported yet".
void reject_friction(Reader& r);

// The relative-coordinate path's edge of a revolute hinge between ends a and b: one rotation
// about axis 3 of the hinge frames; as a cut, the 5 rows of a hinge (revolute hinge and pin;
// axial rotation, which drives the rotation).
tree::Edge revolute_tree_edge(tree::End a, tree::End b);

// A link force's (rod, deformable hinge) stiffness k and damping c for the relative-coordinate
// path, from its typed spec's law: linear elastic or linear viscoelastic (isotropic) only; `e`
// is the element the messages name.
void tree_linear_law(const EntityDesc& e, const LawSpec& law, tree::LinkForce& f);

}  // namespace mbs::cards
