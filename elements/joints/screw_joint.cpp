// Card reader for `joint: L, screw` (docs/deck-language.md 5.2; MBDyn's ScrewJoint, screwjoint.cc,
// read in joint.cc): the relative rotation about an axis and the relative displacement along it
// are tied by the pitch. One equation: the screw alone leaves the other five relative motions
// free (MBDyn models a nut on a screw with an `in line` and a `revolute rotation` beside it).
//   screw, n1, [position,] <rel p1>, [orientation,] <rel R1h (axis 3 = screw axis)>,
//       n2 [, offset, <rel f2>], pitch, <p> [, output, ...] [, friction, ...]
// Typed spec: ScrewSpec (below): end 1 the axis' point and frame (node-1 frame), end 2 the point
// of node 2 (offset only with `offset`; `reference, other ...` frames allowed), the pitch (length
// per turn; any sign). Its one multiplier is what `--check` counts (own_unknowns()).
// `friction` is refused. Relative-coordinate path: none (the "*" fallback refuses the card).
//
// Screw joint. With a = R1h e3 (the axis in node 1's frame), e = R1 a (global), the points
// p_k = x_k + R_k f_k, D = p2 - p1, d = e.D, the relative rotation vector Theta = log(R1^T R2)
// (node-1 frame, |Theta| <= pi), theta = a.Theta unwrapped across +-pi (nearest branch to the
// last converged value) and h = pitch / (2 pi), the constraint is MBDyn's
//   phi = h (theta - theta0) - (d - d0) = 0
// with theta0, d0 those of the nodes as read (so phi = 0 in the deck's configuration). One
// multiplier mu; the ends receive mu grad(phi), so mu e is the force on end 1 and -mu e the one
// on end 2 (MBDyn's lambda = -mu).
// MBDyn's manual (tecman-screw.tex) defines theta = R1h3 . Theta as here; its code takes
// e . Theta, mixing frames, which is the same value whenever node 1's rotation keeps the axis
// (R1 a = a: node 1 fixed or turning about the screw axis). Here the manual's definition is used.
// The joint takes part in the initial assembly (positions and velocities); MBDyn's adds no
// equation there, which gives the same start when the deck's nodes already satisfy it.
#include <cmath>
#include <memory>
#include <string>

#include "core/registry.hpp"
#include "core/rotation_vector.hpp"
#include "core/rotations.hpp"
#include "elements/joints/joint_ends.hpp"
#include "elements/joints/joint_kit.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

struct ScrewSpec final : ElementSpec {
    cards::EndSpec end[2];  // end 1: the axis (axis 3 of R); end 2: a point of node 2
    bool offset2 = false;   // `offset` given for node 2
    double pitch = 0.0;
    long own_unknowns() const override { return 1; }
    void describe(Props& p) const override {
        p.set("node1", end[0].node);
        p.set("offset1", end[0].offset);
        p.set("orientation1", end[0].R);
        p.set("node2", end[1].node);
        if (offset2) p.set("offset2", end[1].offset);
        p.set("pitch", pitch);
    }
};

void read_screw(Reader& r, EntityDesc& e) {
    auto s = std::make_shared<ScrewSpec>();
    cards::EndSpec& e1 = s->end[0];
    cards::EndSpec& e2 = s->end[1];
    e1.node_loc = r.loc();
    const EntityDesc& n1 = cards::read_structural_node(r, "node 1", "screw joint");
    r.accept("position");
    e1.offset_loc = r.loc();
    e1.offset = r.position_rel(n1, "point of the screw axis");
    r.accept("orientation");
    e1.orientation_loc = r.loc();
    e1.R = r.orientation_rel(n1, "screw orientation (axis 3 = screw axis)");
    e2.node_loc = e2.offset_loc = e2.orientation_loc = r.loc();
    const EntityDesc& n2 = cards::read_structural_node(r, "node 2", "screw joint");
    cards::check_distinct_nodes(r, e2.node_loc, n1, n2, "screw joint");
    e1.node = cards::node_ref(n1);
    e2.node = cards::node_ref(n2);
    if (r.accept("offset")) {
        e2.offset_loc = r.loc();
        e2.offset = r.position_rel_other(n2, n1, e1.offset, "offset of node 2");
        s->offset2 = true;
    }
    r.expect("pitch");
    s->pitch = r.real("pitch");
    cards::read_optional_output(r, e);
    if (r.peek("friction"))
        r.error("screw joint friction is not supported yet", "remove the friction block");
    e.spec = std::move(s);
}

using el::End;

class ScrewJoint final : public Element {
  public:
    ScrewJoint(const EntityDesc& d, End e1, End e2, double pitch, double theta0, double d0)
        : Element(d), h_(pitch / (2.0 * M_PI)), theta0_(theta0), d0_(d0), theta_prev_(theta0) {
        e_[0] = e1;
        e_[1] = e2;
    }
    int own_dofs() const override { return 1; }
    std::string own_dof_name(int) const override { return "screw pitch relation"; }
    bool in_assembly() const override { return true; }

    void declare(PatternBuilder& p) override { b_.declare(p, e_, 2, first_dof(), 1); }

    // Translational part: joint_kit's project_* with u = e and F = mu (phi's -(d - d0) is
    // e.(p1 - p2) + d0; e turns with node 1).
    // Rotational part, with g_k the virtual rotations (global) and J_l the left Jacobian of the
    // rotation vector (dR R^T = skew(J_l dTheta) for R = exp(skew(Theta)); J_l = rotvec::Gamma,
    // J_l^-1 = rotvec::Gamma_inverse, dw/dTheta = rotvec::Ginv_T_d, core/rotation_vector.hpp):
    //   dTheta = J_l^-1 R1^T (g2 - g1),  dtheta = W.(g2 - g1),  W = R1 w,  w = J_l^-T a
    //   J_l^-T a = a + Theta x a / 2 + c(t) Theta x (Theta x a),  c = (1 - (t/2) cot(t/2)) / t^2
    //   rows: end 1 moment -mu h W, end 2 moment +mu h W; constraint row h theta (+ d0 - h theta0)
    //   (all / dCoef in the dynamic phase)
    //   dW = -skew(W) g1 + Q (g2 - g1),  Q = R1 (dw/dTheta) J_l^-1 R1^T, with v = Theta (Theta.a)
    //   - t^2 a:  dw/dTheta = -skew(a)/2 + (c'/t) v Theta^T + c ((Theta.a) I + Theta a^T
    //   - 2 a Theta^T)
    //   blocks: moment 1 / g1 += mu h (skew(W) + Q), moment 1 / g2 += -mu h Q,
    //           moment 2 / g1 += -mu h (skew(W) + Q), moment 2 / g2 += mu h Q;
    //           moment rows / mu -+ h W; constraint row / g1, g2 -+ h W^T.
    void residual(const StepContext& c, const StateView& s, double* r) const override {
        const double mu = s.yp[first_dof()];
        double* rc = r + first_dof();
        const Rel q = relative();
        el::project_residual(e_, q.e, mu, c.dCoef, r, rc);
        const Vec3 W = e_[0].node ? Vec3(e_[0].node->R * q.w) : q.w;
        if (!e_[0].ground()) el::add_wrench(r, *e_[0].node, Vec3::Zero(), -mu * h_ * W);
        if (!e_[1].ground()) el::add_wrench(r, *e_[1].node, Vec3::Zero(), mu * h_ * W);
        *rc += (d0_ + h_ * (q.theta - theta0_)) / c.dCoef;
    }

    void jacobian(const StepContext& c, const StateView& s, Jacobian& J) const override {
        const double mu = s.yp[first_dof()];
        const Rel q = relative();
        el::JointJac jj;
        el::project_jacobian(e_, q.e, mu, 0, 0, jj);
        const Mat3 R1 = e_[0].node ? e_[0].node->R : Mat3(Mat3::Identity());
        const Vec3 W = R1 * q.w;
        const Mat3 Q = R1 * q.dw * q.Jinv * R1.transpose();
        const Mat3 K1 = mu * h_ * (skew(W) + Q), K2 = mu * h_ * Q;
        const bool n1 = !e_[0].ground(), n2 = !e_[1].ground();
        if (n1) {
            jj.nDth[0][0].block<3, 3>(3, 0) += K1;
            if (n2) jj.nDth[0][1].block<3, 3>(3, 0) += -K2;
            jj.nl[0].block<3, 1>(3, 0) += -h_ * W;
            jj.lDth[0].block<1, 3>(0, 0) += -h_ * W.transpose();
        }
        if (n2) {
            if (n1) jj.nDth[1][0].block<3, 3>(3, 0) += -K1;
            jj.nDth[1][1].block<3, 3>(3, 0) += K2;
            jj.nl[1].block<3, 1>(3, 0) += h_ * W;
            jj.lDth[1].block<1, 3>(0, 0) += h_ * W.transpose();
        }
        jj.flush(e_, b_, c, J);
    }

    void after_step(const StepContext&, const StateView& s) override {
        const double mu = s.yp[first_dof()];
        const Rel q = relative();
        theta_prev_ = q.theta;
        end1_wrench(mu, q, F1_, M1_);
        out_theta_ = q.theta;
        out_d_ = q.e.dot(q.D);
        out_Theta_ = q.Theta;
        out_D_ = q.D;
    }

    // Reaction (MBDyn's ScrewJoint::Output and AssRes): its node 2 receives +F1 lambda, F1 = e,
    // and node 1 -C1 lambda with C1 = dphi/dg1: the reported force is the one on end 2, -mu e,
    // and the reported moment minus the whole moment on end 1 (arm terms included), C1 lambda =
    // mu (h W + e x b1), b1 = p2 - x1: el::reported_reaction(on_end2) of end 1's force and
    // moment. Local columns in the screw frame R1 R1h; MBDyn writes the global vectors there and
    // R1 R1h times them in the global columns, the same numbers when R1 R1h = I
    // (docs/reactions.md).
    const char* output_file() const override { return "jnt"; }
    bool output_schema(OutputSchema& s) const override { return el::reaction_schema(*this, s); }
    bool reaction(Vec3& f, Vec3& m, Vec3& F, Vec3& M) const override {
        const Mat3 Rs = e_[0].frame();
        return el::reported_reaction(el::Reported::on_end2, F1_, M1_, Rs, Rs, f, m, F, M);
    }
    // After the reaction, MBDyn's columns: theta (degrees, unwrapped, not minus theta0), d = e.D,
    // Theta (3, node-1 frame, rad), D (3, global).
    int output_values(double* v) const override {
        el::put_reaction(*this, v);
        v[12] = out_theta_ * (180.0 / M_PI);
        v[13] = out_d_;
        for (int i = 0; i < 3; ++i) v[14 + i] = out_Theta_[i], v[17 + i] = out_D_[i];
        return 20;
    }

    // Private data as MBDyn's ScrewJoint: Fx..Fz the reported force (global), Mx..Mz the
    // reported moment (global), d = e.D and r = theta (rad), at the current iterate.
    int private_data_count() const override { return 8; }
    const char* private_data_name(int i) const override {
        static const char* nm[] = {"Fx", "Fy", "Fz", "Mx", "My", "Mz", "d", "r"};
        return nm[i];
    }
    double private_data(int i, const StateView& s) const override {
        const Rel q = relative();
        if (i == 6) return q.e.dot(q.D);
        if (i == 7) return q.theta;
        Vec3 F1, M1, f, m, F, M;
        end1_wrench(s.yp[first_dof()], q, F1, M1);
        const Mat3 Rs = e_[0].frame();
        el::reported_reaction(el::Reported::on_end2, F1, M1, Rs, Rs, f, m, F, M);
        return i < 3 ? F[i] : M[i - 3];
    }

  private:
    // Relative kinematics at the current node state.
    struct Rel {
        Vec3 e, D, Theta, w;  // axis (global), p2 - p1, log(R1^T R2), J_l^-T a
        Mat3 Jinv, dw;        // J_l^-1(Theta), dw/dTheta
        double theta;         // a.Theta, unwrapped
    };
    Rel relative() const {
        Rel q;
        const Mat3 R1 = e_[0].node ? e_[0].node->R : Mat3(Mat3::Identity());
        const Mat3 R2 = e_[1].node ? e_[1].node->R : Mat3(Mat3::Identity());
        const Vec3 a = e_[0].Rh.col(2);
        q.e = R1 * a;
        q.D = e_[1].point() - e_[0].point();
        q.Theta = matrix_to_rotation_vector(R1.transpose() * R2);
        const double ta = q.Theta.dot(a);
        q.Jinv = rotvec::Gamma_inverse(q.Theta);
        q.w = q.Jinv.transpose() * a;
        q.dw = rotvec::Ginv_T_d(q.Theta, a);
        q.theta = ta + 2.0 * M_PI * std::round((theta_prev_ - ta) / (2.0 * M_PI));
        return q;
    }
    // The force and moment (about x1) the joint applies to end 1: mu e, -mu (h W + e x b1).
    void end1_wrench(double mu, const Rel& q, Vec3& F1, Vec3& M1) const {
        const Mat3 R1 = e_[0].node ? e_[0].node->R : Mat3(Mat3::Identity());
        const Vec3 b1 = e_[1].point() - el::gap_origin(e_[0]);
        F1 = mu * q.e;
        M1 = -mu * (h_ * (R1 * q.w) + q.e.cross(b1));
    }

    End e_[2];
    double h_, theta0_, d0_;
    double theta_prev_;  // theta at the last converged step (unwrapping)
    el::JointBlocks b_;
    Vec3 F1_ = Vec3::Zero(), M1_ = Vec3::Zero();  // end 1's force and moment, last step
    double out_theta_ = 0.0, out_d_ = 0.0;
    Vec3 out_Theta_ = Vec3::Zero(), out_D_ = Vec3::Zero();
};

std::unique_ptr<Element> make_screw(const EntityDesc& d, BuildContext& ctx) {
    const auto& spec = d.spec_as<ScrewSpec>();
    End e[2];
    for (int k = 0; k < 2; ++k) {
        e[k].node = &ctx.struct_node(spec.end[k].node, d);
        e[k].f = spec.end[k].offset;
        if (!e[k].node->has_rotation())
            throw InputError(
                spec.end[k].node_loc, "a screw joint needs nodes with rotations",
                "node " + std::to_string(spec.end[k].node.label) + " is displacement-only");
    }
    e[0].Rh = spec.end[0].R;
    // theta0 and d0 from the nodes as read (MBDyn's constructor).
    const EntityDesc& n1 = e[0].node->desc();
    const EntityDesc& n2 = e[1].node->desc();
    const Mat3 R1 = cards::node_orientation(n1), R2 = cards::node_orientation(n2);
    const Vec3 a = e[0].Rh.col(2);
    const double theta0 = a.dot(matrix_to_rotation_vector(R1.transpose() * R2));
    const Vec3 D = cards::node_position(n2) + R2 * e[1].f - cards::node_position(n1) - R1 * e[0].f;
    const double d0 = (R1 * a).dot(D);
    return std::make_unique<ScrewJoint>(d, e[0], e[1], spec.pitch, theta0, d0);
}

}  // namespace

MBS_REGISTER_ELEMENT_KIND("joint", "screw", {.read = read_screw, .make = make_screw});

}  // namespace mbs
