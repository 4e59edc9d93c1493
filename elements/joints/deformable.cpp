// Card readers for the deformable joints (docs/deck-language.md 5.2).
//   deformable hinge, n1 [, position, v (ignored)] [, orientation, R1], n2 [, position, v]
//       [, orientation, R2], <3D CL> [, orientation description, od]
//   deformable displacement joint, n1, [position,] off1 [, orientation, R1], n2, [position,] off2
//       [, orientation, R2], <3D CL>
//   deformable joint, n1, [position,] off1 [, {orientation|hinge}, R1], n2, [position,] off2
//       [, ..., R2], <6D CL> [, orientation description, od]
//   deformable axial joint: as deformable hinge, with a 1D law (the relative rotation about
//       axis 3).
// `invariant deformable hinge|displacement joint|joint` take the same arguments;
// `deformable displacement hinge` is a deprecated alias of the displacement joint.
// Props: "node1", ["offset1"], "orientation1", "node2", ["offset2"], "orientation2" (node
// frames; no offsets for the hinges), "law", "orientation description".
// Relative-coordinate path (deformable hinge): a link moment (linear isotropic laws only).
#include "core/registry.hpp"
#include "core/tree_edge.hpp"
#include "elements/joints/joint_ends.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

void read_ends(Reader& r, EntityDesc& e, std::string_view element, cards::Offset offset,
               bool store_offsets) {
    cards::EndOptions opt;
    opt.offset = offset;
    auto end1 = cards::read_end1(r, element, opt);
    auto end2 = cards::read_end2(r, end1, element, opt);
    cards::store_end(e, end1, 1, store_offsets, true);
    cards::store_end(e, end2, 2, store_offsets, true);
}

void read_deformable_hinge(Reader& r, EntityDesc& e) {
    read_ends(r, e, "deformable hinge", cards::Offset::keyword, false);
    e.props.set("law", r.law(3, "deformable hinge constitutive law"));
    cards::read_optional_orientation_description(r, e);
}

void read_deformable_axial_joint(Reader& r, EntityDesc& e) {
    read_ends(r, e, "deformable axial joint", cards::Offset::keyword, false);
    e.props.set("law", r.law(1, "deformable axial joint constitutive law"));
}

void read_deformable_displacement_joint(Reader& r, EntityDesc& e) {
    read_ends(r, e, "deformable displacement joint", cards::Offset::mandatory, true);
    e.props.set("law", r.law(3, "deformable displacement joint constitutive law"));
}

void read_deformable_displacement_hinge(Reader& r, EntityDesc& e) {
    r.warn("'deformable displacement hinge' is deprecated; use 'deformable displacement joint'");
    read_deformable_displacement_joint(r, e);
}

void read_deformable_joint(Reader& r, EntityDesc& e) {
    read_ends(r, e, "deformable joint", cards::Offset::mandatory, true);
    e.props.set("law", r.law(6, "deformable joint constitutive law"));
    cards::read_optional_orientation_description(r, e);
}

// A link moment about the hinge frames.
tree::LoadPart deformable_hinge_force(const EntityDesc& d, const tree::Context&) {
    tree::LinkForce f;
    cards::tree_linear_law(d, f);
    f.a = cards::tree_end(d, "node1", "offset1", "orientation1");
    f.b = cards::tree_end(d, "node2", "offset2", "orientation2");
    f.hinge = true;
    return f;
}

}  // namespace

MBS_REGISTER_ELEMENT("joint", "deformable hinge", read_deformable_hinge);
MBS_REGISTER_ELEMENT("joint", "invariant deformable hinge", read_deformable_hinge);
MBS_REGISTER_ELEMENT("joint", "deformable axial joint", read_deformable_axial_joint);
MBS_REGISTER_ELEMENT("joint", "deformable displacement joint", read_deformable_displacement_joint);
MBS_REGISTER_ELEMENT("joint", "invariant deformable displacement joint",
                     read_deformable_displacement_joint);
MBS_REGISTER_ELEMENT("joint", "deformable displacement hinge", read_deformable_displacement_hinge);
MBS_REGISTER_ELEMENT("joint", "deformable joint", read_deformable_joint);
MBS_REGISTER_ELEMENT("joint", "invariant deformable joint", read_deformable_joint);

MBS_REGISTER_TREE_LOAD("joint", "deformable hinge", deformable_hinge_force);
}  // namespace mbs
