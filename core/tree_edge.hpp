// The relative-coordinate path's view of an element kind, as plain data (docs/architecture.md 6):
// a joint as an edge of the tree (its two ends, the 1-DOF motions it becomes, the equations it
// gives when it closes a loop, its drives), a clamp, a structural node's initial state, a body, a
// load, a link force (rod, deformable hinge). Each element kind fills these from its EntityDesc in
// an adapter, in the spirit of Drake's Joint::MakeMobilizerForJoint; solvers/reduced builds the
// tree from them without knowing any element type. The adapter is a field of the kind's one
// registration (ElementKind::reduced, core/registry.hpp); the node kinds and the cards' "*"
// fallbacks register it apart (MBS_REGISTER_TREE_EDGE, _LOAD, _NODE below), keyed like the card
// readers (category/type).
#pragma once

#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/drive.hpp"
#include "core/math.hpp"
#include "core/model.hpp"

namespace mbs::tree {

enum class Axis { revolute, prismatic };

// What an adapter may use: the drives' environment and the run's initial time.
struct Context {
    const DriveEnv& env;
    double t_init = 0.0;
};

// Throws the InputError of an element the relative-coordinate path cannot represent, at its card:
// "<category> <label> (<type>): not supported by the relative-coordinate path", hint `why`.
[[noreturn]] void unsupported(const EntityDesc& d, const std::string& why);

// One end of a joint: a structural node (`node`, stored under the property `key`, named in
// messages) with a frame (o, R) in the node frame, or the ground (no node) with a frame in the
// world.
struct End {
    std::optional<EntityRef> node;
    std::string key;
    Vec3 o = Vec3::Zero();
    Mat3 R = Mat3::Identity();
};

// One elementary motion of a joint, after the constant transform (r, R) of the current frame: a
// rotation about / a translation along axis `axis` by the coordinate. A `fixed` step has no
// coordinate: its motion by q0 is folded into the next constant transform. Driven coordinates
// carry their drive (velocity or position level); sign = -1 when the tree runs from the joint's
// end 2 to its end 1.
struct Step {
    Vec3 r = Vec3::Zero();
    Mat3 R = Mat3::Identity();
    Axis kind = Axis::revolute;
    int axis = 2;
    bool fixed = false;
    double q0 = 0.0;
    DrivePtr velocity_drive, position_drive;
    double sign = 1.0;
};

inline Step rotation(int axis, double q0, const Mat3& R = Mat3::Identity()) {
    Step st;
    st.axis = axis;
    st.q0 = q0;
    st.R = R;
    return st;
}
inline Step translation(int axis, double q0) {
    Step st;
    st.kind = Axis::prismatic;
    st.axis = axis;
    st.q0 = q0;
    return st;
}
// Three free rotations about x, y, z of the current frame, the initial relative rotation `pre` put
// into the first one's constant part so that the angles start at 0 (far from gimbal lock).
inline void ball(std::vector<Step>& steps, const Mat3& pre) {
    steps.push_back(rotation(0, 0.0, pre));
    steps.push_back(rotation(1, 0.0));
    steps.push_back(rotation(2, 0.0));
}

inline double angle_about_z(const Mat3& R) { return std::atan2(R(1, 0), R(0, 0)); }
// Angle of a rotation about axis k (R = exp(a e_k)).
inline double angle_about(const Mat3& R, int k) {
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    return std::atan2(R(j, i), R(i, i));
}
inline Mat3 rotvec(const Vec3& v) {
    const double a = v.norm();
    return a > 0 ? Mat3(Eigen::AngleAxisd(a, v / a).toRotationMatrix()) : Mat3::Identity();
}

struct Growth;
// Sliding along axes first .. first + n - 1 of the parent end's frame (end a's), then turning
// freely (a ball); from end b the other way round (in line: 2, 1; in plane: 0, 2).
void slide_and_ball(Growth& g, int first, int n);

// What an edge is asked when the tree grows through it from its parent end (already placed) to
// its child end.
struct Growth {
    // In: the initial world frames of the parent end (pp, Rp) and of the child end (pc, Rc),
    // Rrel = Rp^T Rc, d0 = Rp^T (pc - pp); sign = +1 from end a to end b, -1 the other way.
    Vec3 pp = Vec3::Zero(), pc = Vec3::Zero(), d0 = Vec3::Zero();
    Mat3 Rp = Mat3::Identity(), Rc = Mat3::Identity(), Rrel = Mat3::Identity();
    double sign = 1.0;
    // In/out: the ends' frames on their nodes (or in the world); a joint may start its motions
    // from, or end them at, other frames.
    Mat3 parent_R = Mat3::Identity(), child_R = Mat3::Identity();
    // Out: the motions from the parent end's frame to the child end's frame.
    std::vector<Step> steps;
};

// A loop cut's equations between the frames A (end a) and B (end b). Points and frames are given
// in the link frames.
enum class CutKind {
    ball,       // 3: pA = pB
    revolute,   // 5: pA = pB, axis 3 of frame A normal to axes 1 and 2 of frame B
    in_line,    // 2: (pB - pA) . e1_A = 0, (pB - pA) . e2_A = 0
    in_plane,   // 1: (pB - pA) . n_A = 0
    rod,        // 1: |pB - pA| = length
    cardano,    // 4: pA = pB, axis 3 of frame A normal to axis 2 of frame B
    prismatic,  // 3: frames A and B keep their relative orientation (e2A.e3B, e3A.e1B, e1A.e2B = 0)
    total,      // total joint: position rows e_k(Rp_A) . (pB - pA) = pos_value_k for the k in
                // pos_mask, then rot_rows = 3 (prismatic's rows with R_a, R_b) or 2 (revolute's
                // e3_A . e1_B, e3_A . e2_B) or 1 (component rot_axis of the relative rotation
                // vector locked: e_j,A . e_i,B - e_i,A . e_j,B = 0, i, j the other two axes in
                // cyclic order) or 0
};
struct CutEquations {
    CutKind kind = CutKind::ball;
    int rows = 0;
    // In: the ends' frames in their link frames; a joint may turn them.
    Mat3 R_a = Mat3::Identity(), R_b = Mat3::Identity();
    double length = 0.0;
    Mat3 Rp_a = Mat3::Identity();  // total: position frame on A
    Vec3 pos_value = Vec3::Zero();
    int pos_mask = 0, rot_rows = 0;
    int rot_axis = 2;  // rot_rows == 1: the locked component
    // Driven cuts: the imposed value of position row k (total) or the length (rod) as a drive of
    // time instead of the constants pos_value / length: h(q, t) = h0(q) - f(t).
    DrivePtr pos_drive[3];
    DrivePtr length_drive;
};

// A joint as an edge of the joint graph.
struct Edge {
    End a, b;          // end 1 and end 2 (pins: the node and the ground)
    int cut_cost = 0;  // equations it would give as a cut: the spanning tree keeps the costliest
    bool tree_capable = false;
    bool driven = false;         // has a drive: preferred in the tree (cut_cost 1000)
    bool driven_cut_ok = false;  // driven, yet may close a loop (position-level drives only)
    bool cut_in_tree = false;    // in the tree, it still gives cut rows (cut(.., in_tree = true))
    // The motions from the parent end to the child end (tree_capable edges).
    std::function<void(Growth&, const Context&)> grow;
    // Its equations as a cut: kind, rows and data (R_a, R_b preset).
    std::function<void(CutEquations&, bool in_tree, const Context&)> cut;
};

// A clamp puts its node on the ground, at `position`, `orientation` (world; default: the node's
// initial pose).
struct Clamp {
    End node;
    std::optional<Vec3> position;
    std::optional<Mat3> orientation;
};

// A structural node's initial state (world).
struct Node {
    Vec3 x = Vec3::Zero(), v = Vec3::Zero(), w = Vec3::Zero();
    Mat3 R = Mat3::Identity();
    std::string orientation_description;  // for the .mov columns
};

// A rigid body on a node: mass, centre of mass and inertia (about it) in the node frame.
struct Body {
    End node;
    double mass = 0.0;
    Vec3 com = Vec3::Zero();
    Mat3 inertia = Mat3::Zero();
};

// Uniform gravity (the drive is made by the tree's builder).
struct Gravity {
    std::shared_ptr<const TplDriveSpec> acceleration;
};

// A force (at node.o, node frame) or a couple on one node; follower: value in the node frame.
struct Load {
    End node;
    bool couple = false, follower = false;
    std::shared_ptr<const TplDriveSpec> value;
};

// Rod: force along pB - pA, F = k (l - l0)/l0 + c ldot/l0; deformable hinge: moment k theta + c
// omega_rel about the hinge frames a.R, b.R. Points and frames in the node frames.
struct LinkForce {
    End a, b;
    bool hinge = false;
    double l0 = 0.0, k = 0.0, c = 0.0;
};

using EdgePart = std::variant<Edge, Clamp>;
using LoadPart = std::variant<Body, Gravity, Load, LinkForce>;
// Edge adapters are asked while the joint graph is built, load adapters once the tree stands
// (after every edge), node adapters first.
using EdgeFn = EdgePart (*)(const EntityDesc&, const Context&);
using LoadFn = LoadPart (*)(const EntityDesc&, const Context&);
using NodeFn = Node (*)(const EntityDesc&);

struct Adapter {
    EdgeFn edge = nullptr;
    LoadFn load = nullptr;
    NodeFn node = nullptr;
};

// The adapter of category/type (keywords normalised), else the category's fallback registered
// under type "*" (one that explains what the path supports), else null.
const Adapter* find_adapter(std::string_view category, std::string_view type);

struct Registration {
    Registration(std::string_view category, std::string_view type, EdgeFn fn);
    Registration(std::string_view category, std::string_view type, LoadFn fn);
    Registration(std::string_view category, std::string_view type, NodeFn fn);
};

}  // namespace mbs::tree

#define MBS_TREE_CONCAT2(a, b) a##b
#define MBS_TREE_CONCAT(a, b) MBS_TREE_CONCAT2(a, b)
// MBS_REGISTER_TREE_EDGE("joint", "revolute hinge", revolute_edge): fn returns tree::EdgePart.
#define MBS_REGISTER_TREE_EDGE(category, type, fn)                                   \
    static const ::mbs::tree::Registration MBS_TREE_CONCAT(mbs_tree_reg_, __LINE__)( \
        category, type, static_cast<::mbs::tree::EdgeFn>(fn))
// MBS_REGISTER_TREE_LOAD("body", "", body_part): fn returns tree::LoadPart.
#define MBS_REGISTER_TREE_LOAD(category, type, fn)                                   \
    static const ::mbs::tree::Registration MBS_TREE_CONCAT(mbs_tree_reg_, __LINE__)( \
        category, type, static_cast<::mbs::tree::LoadFn>(fn))
// MBS_REGISTER_TREE_NODE("structural", "dynamic", node_state): fn returns tree::Node.
#define MBS_REGISTER_TREE_NODE(category, type, fn)                                   \
    static const ::mbs::tree::Registration MBS_TREE_CONCAT(mbs_tree_reg_, __LINE__)( \
        category, type, static_cast<::mbs::tree::NodeFn>(fn))
