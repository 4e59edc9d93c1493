// Card readers for `joint: L, total joint` and `total pin joint` (docs/deck-language.md 5.2).
//   total joint, n1 [, position, f1] [, position orientation, R1p] [, rotation orientation, R1r],
//                n2 [, position, f2] [, position orientation, R2p] [, rotation orientation, R2r]
//                [, position constraint, s1, s2, s3, <TplDC Vec3>]
//                [, orientation constraint, s1, s2, s3, <TplDC Vec3>]
//   total pin joint, node [, position, f] [, position orientation, Rp] [, rotation orientation, Rr]
//                [, position, <x>] [, position orientation, <Rp>] [, rotation orientation, <Rr>]
//                [constraint blocks as above]
// Position status: {inactive | active | position | velocity | <bool>}; orientation status:
// {inactive | active | rotation | angular velocity | <bool>}. The imposed relative position is
// expressed in the frame R1 R1p (pin: Rp, global), the imposed rotation vector (radians) in the
// frame R1 R1r (pin: Rr). With `single, reference, <frame>, v, <dc>` the vector is resolved to
// that frame. In inverse dynamics (problem: inverse dynamics) each block takes three template
// drives: value, first and second derivative.
// Props (total joint): "node1", "offset1", "position orientation1", "rotation orientation1",
// then the same with 2, "status position" (e.g. "position, inactive, velocity"),
// ["position drive"], "status orientation" (e.g. "rotation, rotation, angular velocity"),
// ["orientation drive"]. Pin: "node", "offset", "position orientation", "rotation orientation"
// (node frame), "position", "ground position orientation", "ground rotation orientation"
// (global), then the constraint props.
// Relative-coordinate path: elements/joints/total_tree_edge.cpp.
#include <string>

#include "core/registry.hpp"
#include "elements/joints/total_tree_edge.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

struct Side {
    Vec3 f = Vec3::Zero();
    Mat3 Rp = Mat3::Identity();
    Mat3 Rr = Mat3::Identity();
};

// The absolute frame, as a "node" at the origin: lets the ground side of the pin use the
// `reference, other ...` forms relative to the node, as MBDyn's GetPosRel(AbsRefFrame, ...).
EntityDesc ground_frame() {
    EntityDesc g;
    g.category = "structural";
    g.type = "static";
    g.props.set("position", Vec3(Vec3::Zero()));
    g.props.set("orientation", Mat3(Mat3::Identity()));
    return g;
}

Side read_side(Reader& r, const EntityDesc& n, const EntityDesc* first, const Side* first_side,
               const std::string& what) {
    Side s;
    if (r.accept("position"))
        s.f = first ? r.position_rel_other(n, *first, first_side->f, "offset " + what)
                    : r.position_rel(n, "offset " + what);
    if (r.accept("position orientation"))
        s.Rp = first ? r.orientation_rel_other(n, *first, first_side->Rp,
                                               "position orientation " + what)
                     : r.orientation_rel(n, "position orientation " + what);
    if (r.accept("rotation orientation"))
        s.Rr = first ? r.orientation_rel_other(n, *first, first_side->Rr,
                                               "rotation orientation " + what)
                     : r.orientation_rel(n, "rotation orientation " + what);
    return s;
}

std::string read_statuses(Reader& r, bool position) {
    std::string out;
    for (int k = 0; k < 3; ++k) {
        std::string s;
        if (r.accept("inactive"))
            s = "inactive";
        else if (r.accept("active"))
            s = position ? "position" : "rotation";
        else if (position && r.accept("position"))
            s = "position";
        else if (position && r.accept("velocity"))
            s = "velocity";
        else if (!position && r.accept("rotation"))
            s = "rotation";
        else if (!position && r.accept("angular velocity"))
            s = "angular velocity";
        else {
            if (r.at_end() || r.peek_empty())
                r.error(std::string("missing status of ") +
                            (position ? "position" : "orientation") + " component " +
                            std::to_string(k + 1),
                        "all three components must be given");
            // Anything else is a boolean expression (true: position/rotation imposed).
            bool on = r.boolean(std::string(position ? "position" : "orientation") +
                                " status (inactive, active, " +
                                (position ? "position, velocity" : "rotation, angular velocity") +
                                " or a boolean)");
            s = on ? (position ? "position" : "rotation") : "inactive";
        }
        out += (k ? ", " : "") + s;
    }
    return out;
}

// The constraint blocks; `R_pos` and `R_rot` are the absolute frames the imposed vectors
// are written in, `context` the node that `reference, node` refers to.
void read_constraints(Reader& r, EntityDesc& e, const EntityDesc& context, const Mat3& R_pos,
                      const Mat3& R_rot) {
    bool inverse = r.model().problem == "inverse dynamics";
    bool got_position = false, got_orientation = false;
    std::string pos_status = "inactive, inactive, inactive";
    std::string rot_status = pos_status;
    std::shared_ptr<const TplDriveSpec> pos_drive[3], rot_drive[3];
    if (r.accept("position constraint")) {
        got_position = true;
        pos_status = read_statuses(r, true);
        for (int k = 0; k < (inverse ? 3 : 1); ++k)
            pos_drive[k] = cards::read_tpl_vec3(r, "imposed relative position", &context, &R_pos);
    }
    if (r.accept("orientation constraint")) {
        got_orientation = true;
        rot_status = read_statuses(r, false);
        for (int k = 0; k < (inverse ? 3 : 1); ++k)
            rot_drive[k] = cards::read_tpl_vec3(r, "imposed relative rotation", &context, &R_rot);
    }
    if (!got_position && !got_orientation)
        r.warn("total joint without constraint blocks constrains nothing");
    static const char* suffix[3] = {"", " derivative", " second derivative"};
    e.props.set("status position", pos_status);
    for (int k = 0; k < 3; ++k)
        if (pos_drive[k]) e.props.set(std::string("position drive") + suffix[k], pos_drive[k]);
    e.props.set("status orientation", rot_status);
    for (int k = 0; k < 3; ++k)
        if (rot_drive[k]) e.props.set(std::string("orientation drive") + suffix[k], rot_drive[k]);
}

void read_total_joint(Reader& r, EntityDesc& e) {
    const EntityDesc& n1 = cards::read_structural_node(r, "node 1", "total joint");
    Side s1 = read_side(r, n1, nullptr, nullptr, "of node 1");
    SourceLoc at2 = r.loc();
    const EntityDesc& n2 = cards::read_structural_node(r, "node 2", "total joint");
    cards::check_distinct_nodes(r, at2, n1, n2, "total joint");
    Side s2 = read_side(r, n2, &n1, &s1, "of node 2");
    e.props.set("node1", cards::node_ref(n1));
    e.props.set("offset1", s1.f);
    e.props.set("position orientation1", s1.Rp);
    e.props.set("rotation orientation1", s1.Rr);
    e.props.set("node2", cards::node_ref(n2));
    e.props.set("offset2", s2.f);
    e.props.set("position orientation2", s2.Rp);
    e.props.set("rotation orientation2", s2.Rr);
    Mat3 R1 = cards::node_orientation(n1);
    read_constraints(r, e, n1, R1 * s1.Rp, R1 * s1.Rr);
}

void read_total_pin_joint(Reader& r, EntityDesc& e) {
    const EntityDesc& n = cards::read_structural_node(r, "node", "total pin joint");
    Side sn = read_side(r, n, nullptr, nullptr, "of the node");
    EntityDesc ground = ground_frame();
    Side sg = read_side(r, ground, &n, &sn, "of the ground");
    e.props.set("node", cards::node_ref(n));
    e.props.set("offset", sn.f);
    e.props.set("position orientation", sn.Rp);
    e.props.set("rotation orientation", sn.Rr);
    e.props.set("position", sg.f);
    e.props.set("ground position orientation", sg.Rp);
    e.props.set("ground rotation orientation", sg.Rr);
    read_constraints(r, e, n, sg.Rp, sg.Rr);
}

}  // namespace

MBS_REGISTER_ELEMENT("joint", "total joint", read_total_joint);
MBS_REGISTER_ELEMENT("joint", "total pin joint", read_total_pin_joint);

MBS_REGISTER_TREE_EDGE("joint", "total joint",
                       [](const EntityDesc& d, const tree::Context& c) -> tree::EdgePart {
                           return cards::total_tree_edge(d, c, cards::TotalForm::total);
                       });
MBS_REGISTER_TREE_EDGE("joint", "total pin joint",
                       [](const EntityDesc& d, const tree::Context& c) -> tree::EdgePart {
                           return cards::total_tree_edge(d, c, cards::TotalForm::total_pin);
                       });
}  // namespace mbs
