// Card readers for `joint: L, {linear|angular} {velocity|acceleration}`
// (docs/deck-language.md 5.2): impose the component of a node's (angular) velocity or acceleration
// along a direction.
//   linear velocity, node, <Vec3 rel direction>, <DriveCaller>
// Typed spec: ImposedMotionSpec (the node, the unit direction in the node frame, the drive).
//
// Imposed velocity and acceleration components (docs/deck-language.md 5.2): `linear velocity`,
// `angular velocity`, `linear acceleration`, `angular acceleration`. One velocity-level row and one
// multiplier each (docs/formulation.md 2: A ydot = b); the acceleration joints add a differential
// unknown.
//
// linear velocity:   d . xdot = v(t), d a fixed unit vector. MBDyn reads the direction in the
//                    node frame and then uses its components as global ones (the node's initial
//                    orientation is not applied); so do we, so that decks move the same way.
//                    Force lambda d on the node.
// angular velocity:  u . w = w(t), u = R d (the direction turns with the node). Couple lambda u.
//
// Rows (velocity level, not divided by dCoef): r_c = v(t) - d . xdot, or w(t) - u . w.
// Node rows: +lambda d (force) or +lambda u (moment). Variations:
//   d(lambda u)/dtheta = -lambda skew(u);   d(u . w) = u . dw - (u x w) . dtheta
// Velocity rows go through the node chain rule with velocities. The rows take no part in the
// initial position assembly; its velocity part imposes the velocity joints' rows from the run's
// residual and matrix (Simulation::assemble_velocities()), not the acceleration joints' (their
// row depends on their own state q).
//
// Acceleration joints (MBDyn: a differential unknown q with q' = a(t) and the velocity row
// d . xdot = q): here q is the velocity gained since the start, q(t0) = 0, and the row is
//   d . xdot = v0 + q   (u . w = w0 + q),   with v0 = d . xdot(t0) (w0 = u(t0) . w(t0)) taken
// from the node's initial state, which MBDyn copies into q at the start. Own unknowns: q
// (differential), then the multiplier. Rows: a(t) - q' (dr/dq' = -1), then the velocity row
// (dr/dq = 1, so dCoef in the iteration matrix).
//
// .jnt output: the reaction MBDyn reports (docs/reactions.md), minus the one on the node (drvj.cc,
// accj.cc: the node receives -F d), i.e. (F, 0, 0) and F d with F = -lambda for the linear
// joints, (M, 0, 0) and M u with M = -lambda for the angular ones, then MBDyn's extra columns: for
// the velocity joints the direction in the global frame (d, or u = R d) and the imposed value v(t)
// or w(t) (columns 14-17), for the acceleration joints the imposed value a(t) (column 14). (MBDyn
// prints the angular acceleration joint's global moment as M d; here it is M u, the moment actually
// applied.)
#include <memory>

#include "core/log_line.hpp"
#include "core/registry.hpp"
#include "elements/joints/joint_kit.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

struct ImposedMotionSpec final : ElementSpec {
    EntityRef node;
    SourceLoc node_loc;
    Vec3 direction = Vec3::UnitX();  // unit, node frame
    std::shared_ptr<const DriveSpec> drive;
    bool acceleration = false;  // an acceleration joint: its velocity is an unknown too
    long own_unknowns() const override { return acceleration ? 2 : 1; }
    void describe(Props& p) const override {
        p.set("node", node);
        p.set("direction", direction);
        p.set("drive", drive);
    }
};

void read_imposed_motion(Reader& r, EntityDesc& e) {
    auto s = std::make_shared<ImposedMotionSpec>();
    s->node_loc = r.loc();
    const EntityDesc& n = cards::read_structural_node(r, "node", e.type);
    s->node = cards::node_ref(n);
    SourceLoc at = r.loc();
    Vec3 v = r.direction_rel(n, "direction");
    if (!(v.norm() > 0.0)) r.error_at(at, "the direction is a null vector");
    s->direction = v.normalized();
    s->drive = r.drive("imposed value");
    s->acceleration = e.type.find("acceleration") != std::string::npos;
    e.spec = std::move(s);
}

using el::End;
using el::Mat63;
using Row3 = Eigen::Matrix<double, 1, 3>;

class VelocityJoint final : public Element {
  public:
    // accel: an acceleration joint, whose velocity row starts from v0 (see the file comment).
    VelocityJoint(const EntityDesc& d, StructNode& n, const Vec3& dir, DrivePtr drive, bool angular,
                  bool accel)
        : Element(d), dir_(dir), drive_(std::move(drive)), angular_(angular), accel_(accel) {
        e_.node = &n;
        if (accel_) v0_ = direction().dot(angular_ ? n.w : n.xdot);
    }
    int own_dofs() const override { return accel_ ? 2 : 1; }
    // MBDyn's .log line: "linearvelocity: L n d" (angularvelocity, linearacceleration, ...), d
    // the direction in the node frame.
    std::string log_line() const override {
        std::string name;
        for (char ch : desc().type)
            if (ch != ' ') name += ch;
        const auto& s = desc().spec_as<ImposedMotionSpec>();
        return LogLine().word(name + ":").label(label()).label(s.node.label).vec(s.direction).s;
    }
    DofOrder own_dof_order(int i) const override {
        return accel_ && i == 0 ? DofOrder::differential : DofOrder::algebraic;
    }
    std::string own_dof_name(int i) const override {
        if (accel_ && i == 0)
            return angular_ ? "imposed angular acceleration" : "imposed acceleration";
        return angular_ ? "imposed angular velocity" : "imposed velocity";
    }

    // Node rows x node columns: only the angular joint's moment rows depend on the rotation.
    void declare(PatternBuilder& p) override {
        b_.nn_mask = angular_ ? "..|.F" : "..|..";
        b_.declare(p, &e_, 1, first_dof(), own_dofs(), accel_);
    }

    void residual(const StepContext& c, const StateView& s, double* r) const override {
        const StructNode& n = *e_.node;
        const int f = first_dof(), li = f + (accel_ ? 1 : 0);
        double lam = s.yp[li];
        Vec3 u = direction();
        if (angular_)
            el::add_wrench(r, n, Vec3::Zero(), lam * u);
        else
            el::add_wrench(r, n, lam * u, Vec3::Zero());
        double imposed = drive_->value(c.time);
        if (accel_) {
            r[f] += imposed - s.yp[f];
            imposed = v0_ + s.y[f];
        }
        r[li] += imposed - u.dot(angular_ ? n.w : n.xdot);
    }

    void jacobian(const StepContext& c, const StateView& s, Jacobian& J) const override {
        const StructNode& n = *e_.node;
        const int li = accel_ ? 1 : 0;
        double lam = s.yp[first_dof() + li];
        Vec3 u = direction();
        Eigen::Matrix<double, 6, 2> nl = Eigen::Matrix<double, 6, 2>::Zero();
        Row3 Dx = Row3::Zero(), Dth = Row3::Zero(), Dxd = Row3::Zero(), Dw = Row3::Zero();
        if (angular_) {
            nl.block<3, 1>(3, li) = u;
            Mat63 Dmth = Mat63::Zero();
            Dmth.bottomRows<3>() = -lam * skew(u);
            J.add(b_.nn[0][0], n.chain_pos<6>(Mat63::Zero(), Dmth, c));
            Dth = -u.cross(n.w).transpose();
            Dw = -u.transpose();
        } else {
            nl.block<3, 1>(0, li) = u;
            Dxd = -u.transpose();
        }
        J.add(b_.nl[0], nl);
        Eigen::Matrix<double, 2, 6> rows = Eigen::Matrix<double, 2, 6>::Zero();
        rows.row(li) = n.chain<1>(Dx, Dth, Dxd, Dw, c);
        J.add(b_.ln[0], rows);
        if (accel_) {
            Eigen::Matrix2d ll = Eigen::Matrix2d::Zero();
            ll(0, 0) = -1.0;
            ll(1, 0) = c.dCoef;
            J.add(b_.ll, ll);
        }
    }

    void after_step(const StepContext& c, const StateView& s) override {
        drive_->after_step();
        time_ = c.time;
        lam_ = s.yp[first_dof() + (accel_ ? 1 : 0)];
    }
    const char* output_file() const override { return "jnt"; }
    bool output_schema(OutputSchema& s) const override { return el::reaction_schema(*this, s); }
    bool reaction(Vec3& f, Vec3& m, Vec3& F, Vec3& M) const override {
        const double r = -lam_;  // reported: the force the node applies (see the file comment)
        Vec3 local(r, 0.0, 0.0), global = r * direction();
        f = angular_ ? Vec3(Vec3::Zero()) : local;
        F = angular_ ? Vec3(Vec3::Zero()) : global;
        m = angular_ ? local : Vec3(Vec3::Zero());
        M = angular_ ? global : Vec3(Vec3::Zero());
        return true;
    }
    int output_values(double* v) const override {
        int n = el::put_reaction(*this, v);
        if (!accel_) {
            const Vec3 u = direction();
            for (int i = 0; i < 3; ++i) v[n++] = u[i];
        }
        v[n++] = drive_->value(time_);
        return n;
    }

  private:
    Vec3 direction() const { return angular_ ? Vec3(e_.node->R * dir_) : dir_; }

    End e_;
    Vec3 dir_;
    DrivePtr drive_;
    bool angular_, accel_;
    double v0_ = 0.0;
    el::JointBlocks b_;
    double lam_ = 0.0, time_ = 0.0;
};

template <bool Angular, bool Accel>
std::unique_ptr<Element> make_velocity(const EntityDesc& d, BuildContext& ctx) {
    const auto& s = d.spec_as<ImposedMotionSpec>();
    StructNode& n = ctx.struct_node(s.node, d);
    if (Angular && !n.has_rotation())
        throw InputError(s.node_loc,
                         "an angular velocity or acceleration joint needs a node with rotations",
                         "use a static or dynamic node");
    DrivePtr drive = make_drive(*s.drive, ctx.drive_env());
    return std::make_unique<VelocityJoint>(d, n, s.direction, std::move(drive), Angular, Accel);
}

}  // namespace

MBS_REGISTER_ELEMENT_KIND("joint", "linear velocity",
                          {.read = read_imposed_motion, .make = make_velocity<false, false>});
MBS_REGISTER_ELEMENT_KIND("joint", "angular velocity",
                          {.read = read_imposed_motion, .make = make_velocity<true, false>});
MBS_REGISTER_ELEMENT_KIND("joint", "linear acceleration",
                          {.read = read_imposed_motion, .make = make_velocity<false, true>});
MBS_REGISTER_ELEMENT_KIND("joint", "angular acceleration",
                          {.read = read_imposed_motion, .make = make_velocity<true, true>});

}  // namespace mbs
