// Spherical and revolute hinges and pins (docs/deck-language.md 5.2) on the joint kit.
//
// spherical: p1 = p2 (3 multipliers: the force F on end 1, global).
// revolute:  p1 = p2 and axis 3 of end 2's hinge frame orthogonal to axes 1 and 2 of end 1's
//            (2 more multipliers: moments about e1 x e3' and e2 x e3'); rotation is free about
//            the common axis 3.
// Pins use the ground as end 2 (so F is the force on the node).
//
// Reported reaction (MBDyn's, docs/reactions.md): MBDyn's node 1 (the pin's node) receives -F
// (SphericalHingeJoint, PinJoint: spherj.cc; PlaneHingeJoint, PlanePinJoint: planej.cc), so the
// reaction written is minus ours: the force and couple on end 2 (hinges) or the ones the node
// applies to the ground (pins). Local columns: spherical hinge in end 1's hinge frame R1 R1h
// (R1Tmp^T F), spherical pin global (F), revolute hinge in end 2's hinge frame R2 R2h
// (R2Tmp^T F, and MBDyn's M = R2Tmp^T of the couple), revolute pin in the node's hinge frame.
#include <cmath>

#include "core/rotations.hpp"
#include "elements/drives/driven_hints.hpp"
#include "elements/joints/joint_kit.hpp"

namespace mbs {
namespace {

using el::End;

class HingeJoint final : public Element, public el::Hintable {
  public:
    HingeJoint(const EntityDesc& d, End e1, End e2, bool revolute)
        : Element(d), revolute_(revolute) {
        e_[0] = e1;
        e_[1] = e2;
    }
    int own_dofs() const override { return revolute_ ? 5 : 3; }
    std::string own_dof_name(int i) const override {
        static const char* nm[] = {"position x", "position y", "position z", "axis 1 orthogonality",
                                   "axis 2 orthogonality"};
        return nm[i];
    }
    bool in_assembly() const override { return true; }

    // Force rows depend only on the multipliers; moment rows on rotations and multipliers;
    // position rows on positions and rotations, orthogonality rows on rotations only.
    void declare(PatternBuilder& p) override {
        b_.nn_mask = "..|.F";
        b_.nl_mask = revolute_ ? "I.|FF" : "I|F";
        b_.ln_mask = revolute_ ? "IF|.F" : "IF";
        b_.declare(p, e_, 2, first_dof(), own_dofs());
    }

    void residual(const StepContext& c, const StateView& s, double* r) const override {
        const double* lam = s.yp + first_dof();
        double* rc = r + first_dof();
        el::point_residual(e_, Vec3(lam[0], lam[1], lam[2]), c.dCoef, r, rc);
        if (!revolute_) return;
        Mat3 Ra = e_[0].frame(), Rb = e_[1].frame();
        el::ortho_residual(e_, Ra.col(0), Rb.col(2), lam[3], c.dCoef, r, rc + 3);
        el::ortho_residual(e_, Ra.col(1), Rb.col(2), lam[4], c.dCoef, r, rc + 4);
    }

    void jacobian(const StepContext& c, const StateView& s, Jacobian& J) const override {
        const double* lam = s.yp + first_dof();
        el::JointJac jj;
        el::point_jacobian(e_, Vec3(lam[0], lam[1], lam[2]), 0, 0, jj);
        if (revolute_) {
            Mat3 Ra = e_[0].frame(), Rb = e_[1].frame();
            el::ortho_jacobian(e_, Ra.col(0), Rb.col(2), lam[3], 3, 3, jj);
            el::ortho_jacobian(e_, Ra.col(1), Rb.col(2), lam[4], 4, 4, jj);
        }
        jj.flush(e_, b_, c, J);
    }

    void after_step(const StepContext&, const StateView& s) override {
        if (revolute_) theta_ = rz();
        const double* lam = s.yp + first_dof();
        F_ = Vec3(lam[0], lam[1], lam[2]);
        M_.setZero();
        if (revolute_) {
            Mat3 Ra = e_[0].frame(), Rb = e_[1].frame();
            M_ = lam[3] * Ra.col(0).cross(Rb.col(2)) + lam[4] * Ra.col(1).cross(Rb.col(2));
        }
    }
    const char* output_file() const override { return "jnt"; }
    bool output_schema(OutputSchema& s) const override { return el::reaction_schema(*this, s); }
    bool reaction(Vec3& f, Vec3& m, Vec3& F, Vec3& M) const override {
        const Mat3 R = local_frame();
        return el::reported_reaction(el::Reported::on_end2, F_, M_, R, R, f, m, F, M);
    }
    // After the 12 reaction columns: revolute hinges MBDyn's relative rotation and angular
    // velocity; revolute pins (PlanePinJoint::Output) the Euler 123 angles (degrees) of the node's
    // hinge frame relative to the ground's, R0^T R Rh, and its angular velocity in that frame;
    // spherical hinges the Euler 123 angles of Ra^T Rb (SphericalHingeJoint::Output), spherical
    // pins those of the node's orientation R (PinJoint::Output).
    int output_values(double* v) const override {
        el::put_reaction(*this, v);
        if (!revolute_) {
            const Mat3 Rr =
                e_[1].ground() ? e_[0].node->R : Mat3(e_[0].frame().transpose() * e_[1].frame());
            const Vec3 ang = matrix_to_euler123(Rr) * (180.0 / M_PI);
            for (int i = 0; i < 3; ++i) v[12 + i] = ang[i];
            return 15;
        }
        if (!e_[1].ground()) return el::put_relative_rotation(e_, v);
        const Mat3 Rn = e_[0].frame();
        const Vec3 ang = matrix_to_euler123(e_[1].frame().transpose() * Rn) * (180.0 / M_PI);
        const Vec3 w = Rn.transpose() * e_[0].omega();
        for (int i = 0; i < 3; ++i) v[12 + i] = ang[i], v[15 + i] = w[i];
        return 18;
    }

    // Private data of revolute hinges and pins (MBDyn's plane hinge): rz, the relative rotation
    // about axis 3 accumulated over turns (atan2 of Ra^T Rb on the branch nearest the last
    // converged value, which starts at `initial theta`); wz = e3b . (w2 - w1); Fx..Fz the
    // reported force in the global frame (the .jnt columns 8-10) and Mx..Mz the reported couple
    // in the local frame (columns 5-7), as MBDyn's dGetPrivData (F, and its local M). Pins (end 2
    // is the ground) measure the node relative to the ground, as MBDyn's pins: rz of R0^T R Rh
    // and wz = e3 . w, i.e. the signs of rz and wz are flipped.
    int private_data_count() const override { return revolute_ ? 8 : 0; }
    const char* private_data_name(int i) const override {
        static const char* nm[] = {"rz", "wz", "Fx", "Fy", "Fz", "Mx", "My", "Mz"};
        return nm[i];
    }
    double private_data(int i, const StateView& s) const override {
        if (i == 0) return rz();
        Mat3 Ra = e_[0].frame(), Rb = e_[1].frame();
        if (i == 1) return pin_sign() * Rb.col(2).dot(e_[1].omega() - e_[0].omega());
        const double* lam = s.yp + first_dof();
        Vec3 F1(lam[0], lam[1], lam[2]);
        Vec3 M1 = lam[3] * Ra.col(0).cross(Rb.col(2)) + lam[4] * Ra.col(1).cross(Rb.col(2));
        Vec3 f, m, F, M;
        const Mat3 R = local_frame();
        el::reported_reaction(el::Reported::on_end2, F1, M1, R, R, f, m, F, M);
        return i < 5 ? F[i - 2] : m[i - 5];
    }
    void set_initial_theta(double th) { theta_ = th; }

    // `driven` hints (MBDyn's PlaneHingeJoint/SphericalHingeJoint::SetValue): offset{1|2},
    // hinge{1|2} from the ends' current configuration (el::apply_end_pair_hint).
    bool takes_hint(el::Hint h) const override { return el::end_pair_takes(h); }
    void apply_hint(el::Hint h, double) override { el::apply_end_pair_hint(e_, h); }
    double pin_sign() const { return e_[1].ground() ? -1.0 : 1.0; }

  private:
    // Frame of the local reaction columns (see the file comment).
    Mat3 local_frame() const {
        if (revolute_) return e_[1].ground() ? e_[0].frame() : e_[1].frame();
        return e_[1].ground() ? Mat3(Mat3::Identity()) : e_[0].frame();
    }
    double rz() const {
        Mat3 Rr = e_[0].frame().transpose() * e_[1].frame();
        double a = pin_sign() * std::atan2(Rr(1, 0), Rr(0, 0));
        return a + 2.0 * M_PI * std::round((theta_ - a) / (2.0 * M_PI));
    }

    double theta_ = 0.0;  // rz at the last converged step
    End e_[2];
    bool revolute_;
    el::JointBlocks b_;
    Vec3 F_ = Vec3::Zero(), M_ = Vec3::Zero();
};

End node_end(BuildContext& ctx, const EntityDesc& d, const std::string& k, const char* frame_key) {
    End e;
    e.node = &ctx.struct_node(d.props.get<EntityRef>("node" + k), d);
    e.f = el::vec3_or_zero(d, ("offset" + k).c_str());
    e.Rh = el::mat3_or_identity(d, frame_key);
    return e;
}

End ground_end(const EntityDesc& d) {
    End g;
    g.f = d.props.get<Vec3>("position");
    g.Rh = el::mat3_or_identity(d, "orientation");
    return g;
}

template <bool Revolute>
std::unique_ptr<Element> make_hinge(const EntityDesc& d, BuildContext& ctx) {
    End e1 = node_end(ctx, d, "1", "orientation1"), e2 = node_end(ctx, d, "2", "orientation2");
    if (Revolute && (!e1.node->has_rotation() || !e2.node->has_rotation()))
        ctx.error(d, "a revolute hinge needs nodes with rotations");
    auto j = std::make_unique<HingeJoint>(d, e1, e2, Revolute);
    j->set_initial_theta(d.props.get_or<double>("initial theta", 0.0));
    return j;
}

template <bool Revolute>
std::unique_ptr<Element> make_pin(const EntityDesc& d, BuildContext& ctx) {
    End n = node_end(ctx, d, "", "hinge orientation");
    auto j = std::make_unique<HingeJoint>(d, n, ground_end(d), Revolute);
    j->set_initial_theta(d.props.get_or<double>("initial theta", 0.0));
    return j;
}

}  // namespace

MBS_REGISTER_ELEMENT_RUNTIME("joint", "spherical hinge", make_hinge<false>);
MBS_REGISTER_ELEMENT_RUNTIME("joint", "spherical pin", make_pin<false>);
MBS_REGISTER_ELEMENT_RUNTIME("joint", "pin", make_pin<false>);
MBS_REGISTER_ELEMENT_RUNTIME("joint", "revolute hinge", make_hinge<true>);
MBS_REGISTER_ELEMENT_RUNTIME("joint", "plane hinge", make_hinge<true>);
MBS_REGISTER_ELEMENT_RUNTIME("joint", "revolute pin", make_pin<true>);
MBS_REGISTER_ELEMENT_RUNTIME("joint", "plane pin", make_pin<true>);

}  // namespace mbs
