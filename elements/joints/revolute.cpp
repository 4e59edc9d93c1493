// Card readers for the revolute family (docs/deck-language.md 5.2): `revolute hinge`, `revolute
// pin`, `revolute rotation`, `axial rotation` (and the deprecated `plane hinge`, `plane pin`).
//   revolute hinge, n1, [position,] off1 [, orientation, R1h], n2, [position,] off2
//       [, orientation, R2h] [, orientation description, od] [, output, ...]
//       [, initial theta, th] [, friction, ...]
//   axial rotation: as revolute hinge up to R2h, then <DriveCaller omega>
//       [, orientation description, od] [, output, ...] [, friction, ...]
//   revolute rotation: as revolute hinge, offsets only with `position` and ignored.
//   revolute pin, node, [position,] off [, orientation, Rh], [position,] <abs x>
//       [, orientation, <abs R>] [, output, ...] [, initial theta, th]
// Rotation is allowed about axis 3 of the hinge frames. `initial theta` and `friction` come
// after `output` (MBDyn source order), so these readers read `output` themselves.
// Props: "node1", "offset1", "orientation1", "node2", "offset2", "orientation2" (node frames),
// "omega" (axial rotation), "orientation description", "initial theta" (rad);
// pin: "node", "offset", "hinge orientation", "position", "orientation", "initial theta".
// Relative-coordinate path (core/tree_edge.hpp): one rotation about axis 3 of the hinge frames,
// as a cut the 5 rows of a hinge; axial rotation: that rotation driven at velocity level.
#include "core/registry.hpp"
#include "core/tree_edge.hpp"
#include "elements/joints/joint_ends.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

void reject_friction(Reader& r) {
    if (r.peek("friction"))
        r.error("hinge friction is not supported yet", "remove the friction block");
}

void read_optional_initial_theta(Reader& r, EntityDesc& e) {
    if (r.accept("initial theta")) e.props.set("initial theta", r.real("initial theta"));
}

void read_hinge_pair(Reader& r, EntityDesc& e, std::string_view element, bool offsets) {
    cards::EndOptions opt;
    opt.offset = offsets ? cards::Offset::mandatory : cards::Offset::keyword;
    auto end1 = cards::read_end1(r, element, opt);
    auto end2 = cards::read_end2(r, end1, element, opt);
    cards::store_end(e, end1, 1, offsets, true);
    cards::store_end(e, end2, 2, offsets, true);
}

void read_revolute_hinge(Reader& r, EntityDesc& e) {
    read_hinge_pair(r, e, "revolute hinge", true);
    cards::read_optional_orientation_description(r, e);
    cards::read_optional_output(r, e);
    read_optional_initial_theta(r, e);
    reject_friction(r);
}

void read_plane_hinge(Reader& r, EntityDesc& e) {
    r.warn("'plane hinge' is deprecated; use 'revolute hinge'");
    read_revolute_hinge(r, e);
}

void read_revolute_rotation(Reader& r, EntityDesc& e) {
    read_hinge_pair(r, e, "revolute rotation", false);
    cards::read_optional_orientation_description(r, e);
}

void read_axial_rotation(Reader& r, EntityDesc& e) {
    read_hinge_pair(r, e, "axial rotation", true);
    e.props.set("omega", r.drive("imposed relative angular velocity"));
    cards::read_optional_orientation_description(r, e);
    cards::read_optional_output(r, e);
    reject_friction(r);
}

void read_revolute_pin(Reader& r, EntityDesc& e) {
    cards::read_pin(r, e, "revolute pin");
    cards::read_optional_output(r, e);
    read_optional_initial_theta(r, e);
}

void read_plane_pin(Reader& r, EntityDesc& e) {
    r.warn("'plane pin' is deprecated; use 'revolute pin'");
    read_revolute_pin(r, e);
}

void hinge_cut(tree::CutEquations& c, bool, const tree::Context&) {
    c.kind = tree::CutKind::revolute, c.rows = 5;
}

tree::Edge hinge_edge(tree::End a, tree::End b) {
    tree::Edge e;
    e.a = std::move(a);
    e.b = std::move(b);
    e.cut_cost = 5;
    e.tree_capable = true;
    e.grow = [](tree::Growth& g, const tree::Context&) {
        g.steps.push_back(tree::rotation(2, tree::angle_about_z(g.Rrel)));
    };
    e.cut = hinge_cut;
    return e;
}

tree::EdgePart revolute_hinge_edge(const EntityDesc& d, const tree::Context&) {
    return hinge_edge(cards::tree_end(d, "node1", "offset1", "orientation1"),
                      cards::tree_end(d, "node2", "offset2", "orientation2"));
}

tree::EdgePart revolute_pin_edge(const EntityDesc& d, const tree::Context&) {
    tree::End ground;
    ground.o = d.props.get<Vec3>("position");
    ground.R = d.props.get_or<Mat3>("orientation", Mat3::Identity());
    return hinge_edge(cards::tree_end(d, "node", "offset", "hinge orientation"), ground);
}

// The rotation's rate is the drive; a tree running from node 2 to node 1 turns it the other way.
tree::EdgePart axial_rotation_edge(const EntityDesc& d, const tree::Context&) {
    tree::Edge e = hinge_edge(cards::tree_end(d, "node1", "offset1", "orientation1"),
                              cards::tree_end(d, "node2", "offset2", "orientation2"));
    e.driven = true;
    e.grow = [&d](tree::Growth& g, const tree::Context& c) {
        tree::Step st = tree::rotation(2, tree::angle_about_z(g.Rrel));
        st.velocity_drive =
            make_drive(*d.props.get<std::shared_ptr<const DriveSpec>>("omega"), c.env);
        st.sign = g.sign;
        g.steps.push_back(st);
    };
    return e;
}

}  // namespace

MBS_REGISTER_ELEMENT("joint", "revolute hinge", read_revolute_hinge);
MBS_REGISTER_ELEMENT("joint", "plane hinge", read_plane_hinge);
MBS_REGISTER_ELEMENT("joint", "revolute rotation", read_revolute_rotation);
MBS_REGISTER_ELEMENT("joint", "axial rotation", read_axial_rotation);
MBS_REGISTER_ELEMENT("joint", "revolute pin", read_revolute_pin);
MBS_REGISTER_ELEMENT("joint", "plane pin", read_plane_pin);
MBS_REGISTER_TREE_EDGE("joint", "revolute hinge", revolute_hinge_edge);
MBS_REGISTER_TREE_EDGE("joint", "axial rotation", axial_rotation_edge);
MBS_REGISTER_TREE_EDGE("joint", "revolute pin", revolute_pin_edge);

}  // namespace mbs
