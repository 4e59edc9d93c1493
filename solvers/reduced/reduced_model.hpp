// The relative-coordinate (ROBOTRAN-style) model: a spanning tree of 1-DOF joints extracted from
// the absolute-coordinate Model, loop cuts, driven variables, bodies and forces. Immutable once
// built; the recursive algorithms (dynamics.hpp) work on it with a preallocated Workspace.
//
// Frames: every tree link i has a frame (x_i, R_i) in the world. Link i moves relative to its
// parent link p (-1 = ground, the world frame) as
//     frame_i = frame_p * (r_pre, R_pre) * motion(q_i) * (r_post, R_post)
// where motion is a rotation by q_i about `axis` (revolute) or a translation q_i along `axis`
// (prismatic), axis given in the pre frame. A structural node sits on a link (or on the ground)
// with a constant node-in-link transform. Multi-DOF joints are sequences of links; the intermediate
// ones are massless (fictitious bodies).
#pragma once

#include <string>
#include <vector>

#include "core/drive.hpp"
#include "core/math.hpp"
#include "core/model.hpp"
#include "core/tree_edge.hpp"

namespace mbs::reduced {

using tree::Axis;

struct Link {
    int parent = -1;  // link index, -1 = ground
    Axis kind = Axis::revolute;
    Vec3 axis = Vec3::UnitZ();  // unit, in the pre frame
    Vec3 r_pre = Vec3::Zero();
    Mat3 R_pre = Mat3::Identity();
    Vec3 r_post = Vec3::Zero();
    Mat3 R_post = Mat3::Identity();
    long joint_label = 0;    // the deck joint it comes from (0: free node)
    std::string joint_type;  // "revolute hinge", ..., "free node"
    long node_label = -1;    // the structural node whose frame this link is, -1 if fictitious
    std::string name;        // e.g. "Rz", "Tx"
    // Driven variable, velocity level: qd = drive(t), qdd = drive'(t), q integrated (axial
    // rotation, total joint `velocity` / `angular velocity` components); position level
    // (position_drive set, velocity_drive null): q = drive(t), qd = drive'(t), qdd by central
    // differences of drive' (total joint `position` / `rotation` components given a drive).
    bool driven = false;
    DrivePtr velocity_drive;
    DrivePtr position_drive;
    double drive_sign = 1.0;  // -1 when the tree runs from the joint's node 2 to its node 1
    // Mass properties in the link frame: mass, centre of mass, inertia about the centre of mass.
    double mass = 0.0;
    Vec3 com = Vec3::Zero();
    Mat3 inertia = Mat3::Zero();
};

// Where a structural node is: on link `link` (-1 ground) at (r, R) in the link frame.
struct NodeAttach {
    long label = 0;
    int link = -1;
    Vec3 r = Vec3::Zero();
    Mat3 R = Mat3::Identity();
    std::string orientation_description;  // for the .mov columns
    bool output = true;
    Vec3 v0 = Vec3::Zero(), w0 = Vec3::Zero();  // the deck's initial velocities (world)
};

// A loop cut: the equations of a joint not in the tree (tree::CutEquations: kind, rows, data),
// between link frames A and B (-1 = ground). Points and frames are given in the link frames.
using tree::CutKind;
struct Cut : tree::CutEquations {
    long label = 0;
    std::string type;
    int link_a = -1, link_b = -1;
    Vec3 p_a = Vec3::Zero(), p_b = Vec3::Zero();
    int first_row = 0;
};

// Forces. Point loads and couples on one link, link forces between two links.
enum class LoadKind { force_absolute, force_follower, couple_absolute, couple_follower };
struct Load {
    LoadKind kind = LoadKind::force_absolute;
    long label = 0;
    int link = -1;
    Vec3 point = Vec3::Zero();       // link frame (forces)
    Mat3 R_node = Mat3::Identity();  // node-in-link rotation (follower directions are node frame)
    TplDrive<3> value;
    double scale = 1.0;  // multiplies value (an equilibrium parameter)
};
// Rod: force along pB - pA, F = EA (l - l0)/l0 + ED ldot/l0 (tension positive).
// Deformable hinge: moment K theta + D omega_rel about the hinge frame of A, where theta is the
// rotation vector of the relative rotation (R_A Rh_A)^T (R_B Rh_B).
enum class LinkForceKind { rod, deformable_hinge };
struct LinkForce {
    LinkForceKind kind = LinkForceKind::rod;
    long label = 0;
    int link_a = -1, link_b = -1;
    Vec3 p_a = Vec3::Zero(), p_b = Vec3::Zero();
    Mat3 R_a = Mat3::Identity(), R_b = Mat3::Identity();
    double l0 = 0.0, ea = 0.0, ed = 0.0;
    Mat3 K = Mat3::Zero(), D = Mat3::Zero();
};

struct ReducedModel {
    std::vector<Link> links;        // topological order: parent < child
    std::vector<NodeAttach> nodes;  // in the Model's node order
    std::vector<Cut> cuts;
    int n_constraints = 0;  // rows of h(q)
    std::vector<Load> loads;
    std::vector<LinkForce> link_forces;
    // The deck's bodies one by one (a link carries their sum, see combine_bodies): equilibrium
    // parameters change them.
    struct BodyPart {
        long label = 0;
        int link = -1;
        double mass = 0.0;
        Vec3 com = Vec3::Zero();      // link frame
        Mat3 inertia = Mat3::Zero();  // about com, link frame
    };
    std::vector<BodyPart> bodies;
    bool has_gravity = false;
    TplDrive<3> gravity;
    // Initial state (from the deck's absolute initial conditions).
    VecN q0, qd0;
    // The time source of the drives (string drives read it, not their argument): moved by the
    // difference quotients of position-level drives (driven_rates), restored after.
    SimClock* clock = nullptr;
    int nq() const { return static_cast<int>(links.size()); }
};

// Sets every link's mass, centre of mass and inertia (about it) from the body parts on it.
void combine_bodies(ReducedModel& rm);

// Builds the tree from `model` (clock: the time source of the drives; it must outlive the result).
// Throws InputError at the element's location for elements the reduced path cannot represent.
ReducedModel build_reduced_model(const Model& model, const SimClock* clock);

}  // namespace mbs::reduced
