// Card reader for `joint: L, gimbal rotation` (docs/deck-language.md 5.2): MBDyn's gimbal
// (GimbalRotationJoint, struct/gimbal.cc), a constant-velocity (homokinetic) rotation constraint.
//   gimbal rotation, n1 [, position, <rel off1>] [, orientation, R1h],
//                    n2 [, position, <rel off2>] [, orientation, R2h]
//                    [, orientation description, od]
// The offsets are read and ignored, as in MBDyn (the joint constrains rotations only).
// Typed spec: GimbalSpec (the two ends, hinge orientations in the node frames; the orientation
// description of the output, "" for the control data's `default orientation`).
// Relative-coordinate path: none (the relative rotation Ry(theta) Rx(phi) Ry(theta) is not a
// chain of joint-axis rotations); `--tree` refuses the card at its location.
//
// Runtime. Ra = R1 R1h and Rb = R2 R2h are the hinge frames, a_i and b_i their axes. MBDyn keeps
// their relative rotation Rab = Ra^T Rb equal to
//   Q(theta, phi) = Ry(theta) Rx(phi) Ry(theta)
// with two extra unknowns theta, phi (dTheta, dPhi) and three couple multipliers M (frame Ra):
// the axes 3 of the two frames make equal angles with the bisecting plane, so the spin about
// axis 3 is transmitted at constant velocity; two relative rotations are free, one is imposed.
// Q(theta, phi) is a rotation about an axis normal to e3 (Q - Q^T has no e3 part:
// Q02 - Q20 = (1 + c_ph) sin 2 theta, Q00 + Q22 = (1 + c_ph) cos 2 theta, Q01 = s_th s_ph,
// Q21 = c_th s_ph, Q11 = c_ph, Q10 = Q01, Q12 = -Q21), and every rotation about such an axis by
// less than pi is a Q(theta, phi). So the same set is one scalar constraint on Rab, with no
// extra unknowns (one multiplier lambda):
//   c = e2 . Rab e1 - e1 . Rab e2 = a2 . b1 - a1 . b2 = 2 sin(psi) u3 = 0
// (Rab = exp(psi [u]); c = 2 (log Rab)_3 to first order: the relative twist about axis 3).
//   dc = n . (dg1 - dg2),  n = a2 x b1 - a1 x b2   (virtual rotations: da = dg1 x a, ...)
// which is two orthogonality terms of the joint kit sharing one row and one multiplier:
// ortho(a2, b1) + ortho(-a1, b2) (joint_kit.hpp: row c / dCoef, couples +lambda n on end 1 and
// -lambda n on end 2, the exact Jacobian). n vanishes only at a bend psi = pi.
// MBDyn's outputs are recovered from Rab and lambda: its couple on node 2 is Ra M = -lambda n
// (the couple has no component along the free directions, at the solution MBDyn's M is that
// vector); theta and phi from Rab by the relations above (2 theta = atan2(Q02 - Q20, Q00 + Q22),
// phi = atan2(s_th Q01 + c_th Q21, Q11)), continued from step to step (Q(theta + pi, -phi) =
// Q(theta, phi): the representative nearest the last theta), as MBDyn's unknowns evolve.
//
// .jnt output (MBDyn's GimbalRotationJoint::Output): label, the local force (0), the local
// moment M = Ra^T (-lambda n), the global force (0), the global moment -lambda n (the couple on
// node 2: MBDyn's node 1 receives -Ra M, docs/reactions.md), then theta and phi (radians) and the
// orientation of R1^T R2 (node frames, without the hinge orientations, as MBDyn) in the orientation
// description: Euler angles in degrees (3 columns), the rotation vector (3) or the matrix (9,
// row by row). (MBDyn writes the global moment as R1 M: the same when R1h is the identity.)
// Private data (MBDyn's names): lambda[1], lambda[2], lambda[3] (M), theta, phi.
#include <cmath>
#include <memory>
#include <string>

#include "core/registry.hpp"
#include "core/rotations.hpp"
#include "elements/joints/joint_ends.hpp"
#include "elements/joints/joint_kit.hpp"
#include "elements/joints/joint_orientation.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

struct GimbalSpec final : ElementSpec {
    cards::EndSpec end[2];
    std::string orientation_description;  // "" when not given
    long own_unknowns() const override { return 1; }
    void describe(Props& p) const override {
        cards::describe_end(p, end[0], "1", false, true);
        cards::describe_end(p, end[1], "2", false, true);
        if (!orientation_description.empty())
            p.set("orientation description", orientation_description);
    }
};

void read_gimbal_rotation(Reader& r, EntityDesc& e) {
    cards::EndOptions opt;
    opt.offset = cards::Offset::keyword;
    auto end1 = cards::read_end1(r, "gimbal rotation", opt);
    auto end2 = cards::read_end2(r, end1, "gimbal rotation", opt);
    auto s = std::make_shared<GimbalSpec>();
    s->end[0] = cards::end_spec(end1);
    s->end[1] = cards::end_spec(end2);
    s->orientation_description = cards::read_orientation_description(r);
    e.spec = std::move(s);
}

using el::End;
using el::Od;

// theta and phi of Q = Rab (see the file comment), the representative nearest `near` (theta).
void gimbal_angles(const Mat3& Q, double near, double& th, double& ph) {
    th = 0.5 * std::atan2(Q(0, 2) - Q(2, 0), Q(0, 0) + Q(2, 2));
    const double k = std::round((near - th) / M_PI);
    th += k * M_PI;
    ph = std::atan2(std::sin(th) * Q(0, 1) + std::cos(th) * Q(2, 1), Q(1, 1));
}

class GimbalJoint final : public Element {
  public:
    GimbalJoint(const EntityDesc& d, End e1, End e2, Od od) : Element(d), od_(od) {
        e_[0] = e1;
        e_[1] = e2;
        gimbal_angles(rab(), 0.0, th_, ph_);
    }
    int own_dofs() const override { return 1; }
    std::string own_dof_name(int) const override { return "gimbal twist"; }
    bool in_assembly() const override { return true; }
    // MBDyn's .log line: "gimbalrotation: L n1 0 R1h n2 0 R2h".
    std::string log_line() const override {
        return cards::log_two_ends("gimbalrotation", label(), desc().spec_as<GimbalSpec>().end,
                                   false, true);
    }

    void declare(PatternBuilder& p) override {
        b_.nn_mask = "..|.F";
        b_.nl_mask = ".|F";
        b_.ln_mask = ".F";
        b_.declare(p, e_, 2, first_dof(), 1);
    }

    void residual(const StepContext& c, const StateView& s, double* r) const override {
        const double lam = s.yp[first_dof()];
        double* rc = r + first_dof();
        const Mat3 Ra = e_[0].frame(), Rb = e_[1].frame();
        el::ortho_residual(e_, Ra.col(1), Rb.col(0), lam, c.dCoef, r, rc);
        el::ortho_residual(e_, -Ra.col(0), Rb.col(1), lam, c.dCoef, r, rc);
    }

    void jacobian(const StepContext& c, const StateView& s, Jacobian& J) const override {
        const double lam = s.yp[first_dof()];
        const Mat3 Ra = e_[0].frame(), Rb = e_[1].frame();
        el::JointJac jj;
        el::ortho_jacobian(e_, Ra.col(1), Rb.col(0), lam, 0, 0, jj);
        el::ortho_jacobian(e_, -Ra.col(0), Rb.col(1), lam, 0, 0, jj);
        jj.flush(e_, b_, c, J);
    }

    void after_step(const StepContext&, const StateView& s) override {
        M2_ = couple_on_2(s.yp[first_dof()]);
        gimbal_angles(rab(), th_, th_, ph_);
    }
    const char* output_file() const override { return "jnt"; }
    // NetCDF/HDF5: the reaction and the relative rotation as od_ asks (columns 14..; MBDyn writes
    // its gimbal to text only, so theta and phi are .jnt and private data only).
    bool output_schema(OutputSchema& s) const override {
        if (!el::reaction_schema(*this, s)) return false;
        el::joint_orientation(s, od_, 14);
        return true;
    }
    bool reaction(Vec3& f, Vec3& m, Vec3& F, Vec3& M) const override {
        f.setZero();
        F.setZero();
        M = M2_;
        m = e_[0].frame().transpose() * M2_;
        return true;
    }
    int output_values(double* v) const override {
        int n = el::put_reaction(*this, v);
        v[n++] = th_;
        v[n++] = ph_;
        return n + el::put_orientation(od_, e_[0].node->R.transpose() * e_[1].node->R, v + n);
    }

    // MBDyn's private data: lambda[1..3] (M, the couple on node 2 in the frame Ra), theta, phi.
    int private_data_count() const override { return 5; }
    const char* private_data_name(int i) const override {
        static const char* nm[] = {"lambda[1]", "lambda[2]", "lambda[3]", "theta", "phi"};
        return nm[i];
    }
    double private_data(int i, const StateView& s) const override {
        if (i < 3) return (e_[0].frame().transpose() * couple_on_2(s.yp[first_dof()]))[i];
        double th = 0.0, ph = 0.0;
        gimbal_angles(rab(), th_, th, ph);
        return i == 3 ? th : ph;
    }

  private:
    Mat3 rab() const { return e_[0].frame().transpose() * e_[1].frame(); }
    // The couple on node 2: -lambda n (the kit's ortho terms put +lambda n on end 1).
    Vec3 couple_on_2(double lam) const {
        const Mat3 Ra = e_[0].frame(), Rb = e_[1].frame();
        return -lam * (Ra.col(1).cross(Rb.col(0)) - Ra.col(0).cross(Rb.col(1)));
    }

    End e_[2];
    Od od_;
    el::JointBlocks b_;
    Vec3 M2_ = Vec3::Zero();
    double th_ = 0.0, ph_ = 0.0;
};

std::unique_ptr<Element> make_gimbal(const EntityDesc& d, BuildContext& ctx) {
    const auto& s = d.spec_as<GimbalSpec>();
    End e[2];
    for (int k = 0; k < 2; ++k) {
        e[k].node = &ctx.struct_node(s.end[k].node, d);
        if (!e[k].node->has_rotation())
            throw InputError(s.end[k].node_loc, "a gimbal rotation needs nodes with rotations",
                             "use static or dynamic (not displacement) nodes");
        e[k].Rh = s.end[k].R;
    }
    return std::make_unique<GimbalJoint>(
        d, e[0], e[1], el::joint_od(s.orientation_description, ctx.model().control.orientation()));
}

}  // namespace

MBS_REGISTER_ELEMENT_KIND("joint", "gimbal rotation",
                          {.read = read_gimbal_rotation, .make = make_gimbal});

}  // namespace mbs
