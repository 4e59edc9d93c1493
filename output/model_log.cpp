// PREFIX.log in MBDyn's format (see model_log.hpp). The field order of each line is the one of
// MBDyn's readers (struct/strnode.cc, struct/joint.cc, struct/body.cc): node labels, offsets and
// hinge orientations in the node frames, as the deck gave them (the generic view of what the
// readers read, EntityDesc::view()).
#include "output/model_log.hpp"

#include <Eigen/Geometry>
#include <cmath>
#include <cstdio>
#include <string_view>

#include "core/log_line.hpp"
#include "core/rotations.hpp"

namespace mbs::output {

namespace {

using Line = LogLine;

const Vec3 zero = Vec3::Zero();
const Mat3 eye = Mat3::Identity();

long node_label(const Props& p, std::string_view key) {
    const PropValue* v = p.find(key);
    return v && std::holds_alternative<EntityRef>(*v) ? std::get<EntityRef>(*v).label : -1;
}
Vec3 vec(const Props& p, std::string_view key) { return p.get_or<Vec3>(key, zero); }
Mat3 mat(const Props& p, std::string_view key) { return p.get_or<Mat3>(key, eye); }

const StructNode* find_node(const Engine& e, long label) {
    for (const StructNode& n : e.nodes())
        if (n.label() == label) return &n;
    return nullptr;
}

// Initial (deck) position and orientation of a node.
void node_pose(const StructNode& n, Vec3& x, Mat3& R) {
    x = n.desc().view().get_or<Vec3>("position", n.x);
    R = n.desc().view().get_or<Mat3>("orientation", n.R);
}

// "<name>: L n1 f1 R1 n2 f2 R2", the layout of MBDyn's hinges; offsets zero where the joint has
// none (rotations, prismatic), orientations identity where it has none.
std::string two_ends(const char* name, const EntityDesc& d, bool offsets, bool orientations) {
    const Props p = d.view();
    Line l;
    l.word(std::string(name) + ":").label(d.label);
    for (const char* k : {"1", "2"}) {
        const std::string s(k);
        l.label(node_label(p, "node" + s));
        l.vec(offsets ? vec(p, "offset" + s) : zero);
        if (orientations) l.mat(mat(p, "orientation" + s));
    }
    return l.s;
}

// "<name>: L n d Rh n R^T (X0 - x) R0 R^T": a pin, its ground point in the node's frame.
std::string pin(const char* name, const EntityDesc& d, const Engine& e, bool hinge) {
    const Props p = d.view();
    const long n = node_label(p, "node");
    Vec3 x = zero;
    Mat3 R = eye;
    if (const StructNode* sn = find_node(e, n)) node_pose(*sn, x, R);
    const Vec3 X0 = vec(p, "position");
    const Mat3 R0 = mat(p, "orientation");
    Line l;
    l.word(std::string(name) + ":").label(d.label).label(n).vec(vec(p, "offset"));
    l.mat(hinge ? mat(p, "hinge orientation") : eye);
    l.label(n).vec(R.transpose() * (X0 - x)).mat(hinge ? Mat3(R0 * R.transpose()) : eye);
    return l.s;
}

// The 12 status flags of a total (pin) joint: position, velocity, rotation, angular velocity.
void total_flags(Line& l, const Props& p) {
    bool pos[3], vel[3], rot[3], ang[3];
    auto parse = [](const std::string& st, bool* a, bool* b, const char* first) {
        std::size_t k = 0, start = 0;
        for (int i = 0; i < 3; ++i) {
            k = st.find(", ", start);
            const std::string w = st.substr(start, k == std::string::npos ? k : k - start);
            start = k == std::string::npos ? st.size() : k + 2;
            a[i] = w == first || w == "active";
            b[i] = !a[i] && w != "inactive";
        }
    };
    parse(p.get_or<std::string>("status position", "inactive, inactive, inactive"), pos, vel,
          "position");
    parse(p.get_or<std::string>("status orientation", "inactive, inactive, inactive"), rot, ang,
          "rotation");
    for (const bool* f : {pos, vel, rot, ang})
        for (int i = 0; i < 3; ++i) l.label(f[i] ? 1 : 0);
}

// MBDyn's line of a joint (struct/joint.cc), empty if MBDyn writes none for its kind. The joints
// with a typed spec write theirs in their element's log_line(), beside their reader; these are
// the kinds not migrated yet (docs/architecture.md 13).
std::string joint_log_line(const EntityDesc& d, const Engine& e) {
    const Props p = d.view();
    const std::string& t = d.type;
    if (t == "revolute rotation") return two_ends("revoluterotation", d, false, true);
    if (t == "axial rotation") return two_ends("axialrotation", d, true, true);
    if (t == "cardano hinge" || t == "universal hinge")
        return two_ends("cardanohinge", d, true, true);
    if (t == "cardano rotation" || t == "universal rotation")
        return two_ends("cardanorotation", d, false, true);
    if (t == "deformable hinge" || t == "invariant deformable hinge")
        return two_ends("deformablehinge", d, true, true);
    if (t == "deformable displacement joint" || t == "deformable displacement hinge" ||
        t == "invariant deformable displacement joint")
        return two_ends("deformabledisplacementjoint", d, true, true);
    if (t == "deformable axial joint") return two_ends("deformableaxialjoint", d, true, true);
    if (t == "deformable joint" || t == "invariant deformable joint")
        return two_ends("deformablejoint", d, true, true);
    if (t == "cardano pin" || t == "universal pin") return pin("cardanopin", d, e, true);
    if (t == "total joint") {
        Line l;
        l.word("totaljoint:").label(d.label);
        for (const char* k : {"1", "2"}) {
            const std::string s(k);
            l.label(node_label(p, "node" + s)).vec(vec(p, "offset" + s));
            l.mat(mat(p, "position orientation" + s)).mat(mat(p, "rotation orientation" + s));
        }
        total_flags(l, p);
        return l.s;
    }
    if (t == "total pin joint") {
        Line l;
        l.word("totalpinjoint:").label(d.label).label(node_label(p, "node"));
        l.vec(vec(p, "offset")).mat(mat(p, "position orientation"));
        l.mat(mat(p, "rotation orientation")).vec(vec(p, "position"));
        l.mat(mat(p, "ground position orientation")).mat(mat(p, "ground rotation orientation"));
        total_flags(l, p);
        return l.s;
    }
    if (t == "drive displacement") {
        Line l;
        l.word("drivedisplacement:").label(d.label);
        l.label(node_label(p, "node1")).vec(vec(p, "offset1"));
        return l.label(node_label(p, "node2")).vec(vec(p, "offset2")).s;
    }
    if (t == "drive displacement pin") {
        Line l;
        l.word("drivedisplacementpin:").label(d.label).label(node_label(p, "node"));
        return l.vec(vec(p, "offset")).vec(vec(p, "position")).s;
    }
    return {};
}

// MBDyn's line of a structural force or couple (struct/strforce.cc, ReadStructuralForce):
// "structural [internal] {follower|absolute [displacement]} {force|couple}: L n1 arm1
// [n2 arm2] [output_relative]"; empty for the total and abstract forces (no MBDyn line).
std::string force_log_line(const EntityDesc& d) {
    const Props p = d.view();
    const std::string& t = d.type;
    if (t.rfind("total", 0) == 0 || t.rfind("abstract", 0) == 0) return {};
    const bool internal = t.find("internal") != std::string::npos;
    const bool follower = t.rfind("follower", 0) == 0;
    std::string head = "structural";
    if (internal) head += " internal";
    head += follower ? " follower" : " absolute";
    if (!follower && t.find("displacement") != std::string::npos) head += " displacement";
    head += d.category == "couple" ? " couple:" : " force:";
    Line l;
    l.word(head).label(d.label);
    if (internal) {
        l.label(node_label(p, "node1")).vec(vec(p, "offset1"));
        l.label(node_label(p, "node2")).vec(vec(p, "offset2"));
    } else {
        l.label(node_label(p, "node")).vec(vec(p, "offset"));
    }
    if (follower && p.get_or<bool>("output relative", false)) l.word("output_relative");
    return l.s;
}

}  // namespace

std::string node_log_line(const StructNode& n, const std::string& default_orientation) {
    Vec3 x;
    Mat3 R;
    node_pose(n, x, R);
    Line l;
    // MBDyn names the dummy nodes of type `relative frame` apart (DummyStructNode's reader).
    const bool relative_frame =
        n.is_dummy() && n.desc().view().get_or<std::string>("dummy type", "") == "relative frame";
    l.word(relative_frame ? "relative frame structural node:" : "structural node:");
    l.label(n.label()).vec(x);
    // Displacement-only nodes: no orientation, MBDyn's line ends with the blank too.
    if (!n.has_rotation() && !n.is_dummy()) return l.s + " ";
    const std::string& od =
        n.orientation_description.empty() ? default_orientation : n.orientation_description;
    if (od == "orientation matrix") return l.word("mat").mat(R).s;
    if (od == "orientation vector") return l.word("phi").vec(matrix_to_rotation_vector(R)).s;
    const double deg = 180.0 / M_PI;
    if (od == "euler313") return l.word("euler313").vec(matrix_to_euler313(R) * deg).s;
    if (od == "euler321") return l.word("euler321").vec(matrix_to_euler321(R) * deg).s;
    return l.word("euler123").vec(matrix_to_euler123(R) * deg).s;
}

std::string element_log_line(const Element& el, const Engine& e) {
    if (std::string line = el.log_line(); !line.empty()) return line;
    const EntityDesc& d = el.desc();
    const Props p = d.view();
    if (d.category == "body") {
        Line l;
        l.word("body:").label(d.label).label(node_label(p, "node"));
        l.num(p.get_or<double>("mass", 0.0)).vec(vec(p, "center of mass"));
        return l.mat(p.get_or<Mat3>("inertia", Mat3::Zero())).s;
    }
    if (d.category == "joint")
        if (std::string line = joint_log_line(d, e); !line.empty()) return line;
    if (d.category == "force" || d.category == "couple")
        if (std::string line = force_log_line(d); !line.empty()) return line;
    // No MBDyn line (drives, genels, gravity, total forces, ...): mbsolve's.
    return d.category + ": " + std::to_string(d.label) + (d.type.empty() ? "" : " ") + d.type;
}

void write_model_log(std::FILE* f, const Model& m, const Engine& e) {
    std::fprintf(f, "output frequency: %ld\n", m.control.output_frequency.value_or(1));
    const std::string od = m.control.orientation();
    for (const StructNode& n : e.nodes()) std::fprintf(f, "%s\n", node_log_line(n, od).c_str());
    for (const auto& el : e.elements()) {
        if (el->desc().category == "structural") continue;
        std::fprintf(f, "%s\n", element_log_line(*el, e).c_str());
    }
}

}  // namespace mbs::output
