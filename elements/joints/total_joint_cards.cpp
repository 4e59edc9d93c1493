// The card syntax of `total joint` and `total pin joint` (their sides and constraint blocks) and
// the generic view of the total family's TotalSpec (total_joint.hpp). The readers, the runtime
// and the registrations of the family are in total_joint_element.cpp.
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
#include <string>

#include "core/struct_node_spec.hpp"
#include "elements/joints/total_joint.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs::cards {
namespace {

// One side's optional data: offset, position frame, rotation frame (`f`, `Rp`, `Rr`), and where
// the offset and the rotation frame were written (else `at`, the node's label).
struct Side {
    Vec3 f = Vec3::Zero();
    Mat3 Rp = Mat3::Identity();
    Mat3 Rr = Mat3::Identity();
    SourceLoc f_loc, Rr_loc;
};

// The absolute frame, as a static node at the origin (a StructuralNodeSpec with x = 0, R = I,
// what the deck reader's node frames read: parser/data_forms.cpp): lets the ground side of the
// pin use the `reference, other ...` forms relative to the node, as MBDyn's
// GetPosRel(AbsRefFrame, ...).
EntityDesc ground_frame() {
    EntityDesc g;
    g.category = "structural";
    g.type = "static";
    g.spec = std::make_shared<StructuralNodeSpec>();
    return g;
}

Side read_side(Reader& r, const EntityDesc& n, const EntityDesc* first, const Side* first_side,
               const std::string& what, const SourceLoc& at) {
    Side s;
    s.f_loc = s.Rr_loc = at;
    if (r.accept("position")) {
        s.f_loc = r.loc();
        s.f = first ? r.position_rel_other(n, *first, first_side->f, "offset " + what)
                    : r.position_rel(n, "offset " + what);
    }
    if (r.accept("position orientation"))
        s.Rp = first ? r.orientation_rel_other(n, *first, first_side->Rp,
                                               "position orientation " + what)
                     : r.orientation_rel(n, "position orientation " + what);
    if (r.accept("rotation orientation")) {
        s.Rr_loc = r.loc();
        s.Rr = first ? r.orientation_rel_other(n, *first, first_side->Rr,
                                               "rotation orientation " + what)
                     : r.orientation_rel(n, "rotation orientation " + what);
    }
    return s;
}

std::array<Level, 3> read_statuses(Reader& r, bool position) {
    std::array<Level, 3> out{};
    for (int k = 0; k < 3; ++k) {
        Level s;
        if (r.accept("inactive"))
            s = Level::inactive;
        else if (r.accept("active"))
            s = Level::position;
        else if (position && r.accept("position"))
            s = Level::position;
        else if (position && r.accept("velocity"))
            s = Level::velocity;
        else if (!position && r.accept("rotation"))
            s = Level::position;
        else if (!position && r.accept("angular velocity"))
            s = Level::velocity;
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
            s = on ? Level::position : Level::inactive;
        }
        out[static_cast<std::size_t>(k)] = s;
    }
    return out;
}

// The constraint blocks; `R_pos` and `R_rot` are the absolute frames the imposed vectors
// are written in, `context` the node that `reference, node` refers to.
void read_constraints(Reader& r, TotalSpec& s, const EntityDesc& context, const Mat3& R_pos,
                      const Mat3& R_rot) {
    bool inverse = r.model().problem == "inverse dynamics";
    bool got_position = false, got_orientation = false;
    if (r.accept("position constraint")) {
        got_position = true;
        s.pos = read_statuses(r, true);
        for (int k = 0; k < (inverse ? 3 : 1); ++k)
            s.pos_drive[k] = read_tpl_vec3(r, "imposed relative position", &context, &R_pos);
    }
    if (r.accept("orientation constraint")) {
        got_orientation = true;
        s.rot = read_statuses(r, false);
        for (int k = 0; k < (inverse ? 3 : 1); ++k)
            s.rot_drive[k] = read_tpl_vec3(r, "imposed relative rotation", &context, &R_rot);
    }
    if (!got_position && !got_orientation)
        r.warn("total joint without constraint blocks constrains nothing");
}

EndSpec node_side(const EntityDesc& n, const SourceLoc& at, const Side& side) {
    EndSpec e;
    e.node = node_ref(n);
    e.node_loc = at;
    e.offset = side.f;
    e.offset_loc = side.f_loc;
    e.R = side.Rr;
    e.orientation_loc = side.Rr_loc;
    return e;
}

std::string statuses(const std::array<Level, 3>& l, bool position) {
    std::string out;
    for (int k = 0; k < 3; ++k) {
        const Level v = l[static_cast<std::size_t>(k)];
        const char* s = v == Level::inactive   ? "inactive"
                        : v == Level::position ? (position ? "position" : "rotation")
                                               : (position ? "velocity" : "angular velocity");
        out += (k ? ", " : "") + std::string(s);
    }
    return out;
}

void describe_constraints(Props& p, const TotalSpec& s) {
    static const char* suffix[3] = {"", " derivative", " second derivative"};
    p.set("status position", statuses(s.pos, true));
    for (int k = 0; k < 3; ++k)
        if (s.pos_drive[k]) p.set(std::string("position drive") + suffix[k], s.pos_drive[k]);
    p.set("status orientation", statuses(s.rot, false));
    for (int k = 0; k < 3; ++k)
        if (s.rot_drive[k]) p.set(std::string("orientation drive") + suffix[k], s.rot_drive[k]);
}

}  // namespace

void read_total_joint_card(Reader& r, TotalSpec& s) {
    s.form = TotalForm::total;
    SourceLoc at1 = r.loc();
    const EntityDesc& n1 = read_structural_node(r, "node 1", "total joint");
    Side s1 = read_side(r, n1, nullptr, nullptr, "of node 1", at1);
    SourceLoc at2 = r.loc();
    const EntityDesc& n2 = read_structural_node(r, "node 2", "total joint");
    check_distinct_nodes(r, at2, n1, n2, "total joint");
    Side s2 = read_side(r, n2, &n1, &s1, "of node 2", at2);
    s.end[0] = node_side(n1, at1, s1);
    s.end[1] = node_side(n2, at2, s2);
    s.position_frame[0] = s1.Rp;
    s.position_frame[1] = s2.Rp;
    Mat3 R1 = node_orientation(n1);
    read_constraints(r, s, n1, R1 * s1.Rp, R1 * s1.Rr);
}

// The ground is end 1, as in MBDyn: the reaction reported is the one on the ground.
void read_total_pin_joint_card(Reader& r, TotalSpec& s) {
    s.form = TotalForm::total_pin;
    SourceLoc at = r.loc();
    const EntityDesc& n = read_structural_node(r, "node", "total pin joint");
    Side sn = read_side(r, n, nullptr, nullptr, "of the node", at);
    EntityDesc ground = ground_frame();
    SourceLoc atg = r.loc();
    Side sg = read_side(r, ground, &n, &sn, "of the ground", atg);
    s.end[1] = node_side(n, at, sn);
    s.position_frame[1] = sn.Rp;
    s.end[0].offset = sg.f;
    s.end[0].R = sg.Rr;
    s.end[0].node_loc = atg;
    s.end[0].offset_loc = sg.f_loc;
    s.end[0].orientation_loc = sg.Rr_loc;
    s.position_frame[0] = sg.Rp;
    read_constraints(r, s, n, sg.Rp, sg.Rr);
}

// MBDyn's obsolete `imposed displacement`, `imposed displacement pin` and `imposed orientation`
// (struct/joint.cc reads them as total joints, with a warning): the offsets and orientations
// have no keyword before them, and the template drive is the imposed relative position (in node
// 1's frame; pin: global) or rotation vector (in the frame R1 R1r). The other block is free.
//   imposed displacement, n1, <rel f1>, n2, <rel f2>, <TplDC Vec3>
//   imposed displacement pin, node, <rel f>, <abs x>, <TplDC Vec3>
//   imposed orientation, n1, <rel R1r>, n2, <rel R2r>, <TplDC Vec3>
void read_imposed_displacement_card(Reader& r, TotalSpec& s) {
    r.warn(
        "'imposed displacement' is deprecated: it is a 'total joint' with the relative position "
        "imposed (as MBDyn reads it)");
    s.form = TotalForm::total;
    EndSpec& a = s.end[0];
    a.node_loc = a.orientation_loc = r.loc();
    const EntityDesc& n1 = read_structural_node(r, "node 1", "imposed displacement");
    a.node = node_ref(n1);
    a.offset_loc = r.loc();
    a.offset = r.position_rel(n1, "offset of node 1");
    EndSpec& b = s.end[1];
    b.node_loc = b.orientation_loc = r.loc();
    const EntityDesc& n2 = read_structural_node(r, "node 2", "imposed displacement");
    check_distinct_nodes(r, b.node_loc, n1, n2, "imposed displacement");
    b.node = node_ref(n2);
    b.offset_loc = r.loc();
    b.offset = r.position_rel_other(n2, n1, a.offset, "offset of node 2");
    s.pos.fill(Level::position);
    const Mat3 R1 = node_orientation(n1);
    s.pos_drive[0] = read_tpl_vec3(r, "imposed relative position", &n1, &R1);
}

void read_imposed_displacement_pin_card(Reader& r, TotalSpec& s) {
    r.warn(
        "'imposed displacement pin' is deprecated: it is a 'total pin joint' with the position "
        "imposed (as MBDyn reads it)");
    s.form = TotalForm::total_pin;
    EndSpec& n = s.end[1];
    n.node_loc = n.orientation_loc = r.loc();
    const EntityDesc& node = read_structural_node(r, "node", "imposed displacement pin");
    n.node = node_ref(node);
    n.offset_loc = r.loc();
    n.offset = r.position_rel(node, "offset");
    EndSpec& g = s.end[0];
    g.node_loc = g.offset_loc = g.orientation_loc = r.loc();
    g.offset = r.position_abs("ground point", &node);
    s.pos.fill(Level::position);
    const Mat3 I = Mat3::Identity();
    s.pos_drive[0] = read_tpl_vec3(r, "imposed position", &node, &I);
}

void read_imposed_orientation_card(Reader& r, TotalSpec& s) {
    r.warn(
        "'imposed orientation' is deprecated: it is a 'total joint' with the relative rotation "
        "imposed (as MBDyn reads it)");
    s.form = TotalForm::total;
    EndSpec& a = s.end[0];
    a.node_loc = a.offset_loc = r.loc();
    const EntityDesc& n1 = read_structural_node(r, "node 1", "imposed orientation");
    a.node = node_ref(n1);
    a.orientation_loc = r.loc();
    a.R = r.orientation_rel(n1, "rotation orientation of node 1");
    EndSpec& b = s.end[1];
    b.node_loc = b.offset_loc = r.loc();
    const EntityDesc& n2 = read_structural_node(r, "node 2", "imposed orientation");
    check_distinct_nodes(r, b.node_loc, n1, n2, "imposed orientation");
    b.node = node_ref(n2);
    b.orientation_loc = r.loc();
    b.R = r.orientation_rel_other(n2, n1, a.R, "rotation orientation of node 2");
    s.rot.fill(Level::position);
    const Mat3 Rr = node_orientation(n1) * a.R;
    s.rot_drive[0] = read_tpl_vec3(r, "imposed relative rotation", &n1, &Rr);
}

// The props the readers stored before the typed spec, in their order.
void TotalSpec::describe(Props& p) const {
    switch (form) {
        case TotalForm::total:
            for (int k = 0; k < 2; ++k) {
                const std::string i = std::to_string(k + 1);
                p.set("node" + i, end[k].node);
                p.set("offset" + i, end[k].offset);
                p.set("position orientation" + i, position_frame[k]);
                p.set("rotation orientation" + i, end[k].R);
            }
            describe_constraints(p, *this);
            break;
        case TotalForm::total_pin:
            p.set("node", end[1].node);
            p.set("offset", end[1].offset);
            p.set("position orientation", position_frame[1]);
            p.set("rotation orientation", end[1].R);
            p.set("position", end[0].offset);
            p.set("ground position orientation", position_frame[0]);
            p.set("ground rotation orientation", end[0].R);
            describe_constraints(p, *this);
            break;
        case TotalForm::drive_hinge:
            describe_end(p, end[0], "1", false, true);
            describe_end(p, end[1], "2", false, true);
            p.set("drive", rot_drive[0]);
            break;
        case TotalForm::drive_displacement:
            describe_end(p, end[0], "1", true, false);
            describe_end(p, end[1], "2", true, false);
            p.set("drive", pos_drive[0]);
            break;
        case TotalForm::drive_displacement_pin:
            p.set("node", end[1].node);
            p.set("offset", end[1].offset);
            p.set("position", end[0].offset);
            p.set("drive", pos_drive[0]);
            break;
    }
}

}  // namespace mbs::cards
