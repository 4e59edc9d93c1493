// Card readers for the deformable joints (docs/deck-language.md 5.2).
//   deformable hinge, n1 [, position, v (ignored)] [, orientation, R1], n2 [, position, v]
//       [, orientation, R2], <3D CL> [, orientation description, od]
//   deformable displacement joint, n1, [position,] off1 [, orientation, R1], n2, [position,] off2
//       [, orientation, R2], <3D CL>
//   deformable joint, n1, [position,] off1 [, {orientation|hinge}, R1], n2, [position,] off2
//       [, ..., R2], <6D CL> [, orientation description, od]
//   deformable axial joint: as deformable hinge, with a 1D law (the relative rotation about
//       axis 3).
// `invariant deformable hinge|displacement joint|joint` take the same arguments;
// `deformable displacement hinge` is a deprecated alias of the displacement joint.
// Typed spec: DeformableSpec (the two ends, node frames, no offsets for the hinges; the law; the
// orientation description).
// Relative-coordinate path (deformable hinge): a link moment (linear isotropic laws only).
//
// Runtime deformable hinge (3D law on the relative rotation), deformable displacement joint (3D
// law on the relative position), deformable joint (6D law on both) and deformable axial joint
// (1D law on the third component of the relative rotation) (docs/deck-language.md 5.2;
// reader: above). One formulation, MBDyn's (vehj.cc, vehj2.cc, vehj3.cc); the 3D
// elements use the first or the last three of its six strains.
//
// Kinematics (global frame). End k: node x_k, R_k, offset f_k, hinge frame Rh_k; a_k = R_k f_k,
// p_k = x_k + a_k, Ra = R_1 Rh_1, Rb = R_2 Rh_2, d = p_2 - p_1, c = p_2 - x_1 = a_1 + d,
// ddot = xdot_2 + w_2 x a_2 - xdot_1 - w_1 x a_1,  u = ddot - w_1 x d.
//   e_d   = Ra^T d                      relative position in the frame of end 1
//   theta = rotvec(Ra^T Rb)             relative rotation vector
//   ed    = Ra^T u                      time derivative of e_d
//   omega = Ra^T (w_2 - w_1)            relative angular velocity in the frame of end 1
// The law gives the local force f and moment m; F = Ra f, M = Ra m act on node 1 at p_2 and
// oppositely on node 2:  node 1: (F, c x F + M),  node 2: (-F, -a_2 x F - M).
// (Applying both at p_2 makes the elastic forces the gradient of an energy in e_d.)
//
// Jacobian, with virtual rotations (dR = [dth] R) and J^-1 the inverse of the left Jacobian
// of the rotation vector (exp(theta + dtheta) = exp(J dtheta) exp(theta); J = rotvec::Gamma,
// J^-1 = rotvec::Gamma_inverse, core/rotation_vector.hpp):
//   de_d   = Ra^T (dx_2 - dx_1 - [a_2] dth_2 + [c] dth_1)
//   dtheta = J^-1(theta) Ra^T (dth_2 - dth_1)
//   ded    = Ra^T (dxdot_2 - dxdot_1 - [a_2] dw_2 + [c] dw_1 + [w_1] (dx_1 - dx_2)
//                  + [w_1 - w_2][a_2] dth_2 + [u] dth_1)
//   domega = Ra^T (dw_2 - dw_1 + [w_2 - w_1] dth_1)
//   d(f, m) = K d(e_d, theta) + C d(ed, omega)        (K, C: the law's tangents)
//   dF = Ra df - [F] dth_1,  dM = Ra dm - [M] dth_1
//   node 1 moment: [c] dF - [F] (dx_2 - [a_2] dth_2 - dx_1) + dM
//   node 2 moment: -[a_2] dF - [F][a_2] dth_2 - dM
// Rotations must stay below pi (rotvec is discontinuous there), as in MBDyn.
//
// Invariant deformable hinge (MBDyn's ElasticHingeJointInv / ViscousHingeJointInv): the moment
// and omega use the mid frame Rm = Ra exp(theta/2) instead of Ra: omega = Rm^T (w_2 - w_1),
// M = Rm m. With dRm = [psi] Rm, psi = dth_1 + 1/2 Ra J(theta/2) dtheta = (I - P) dth_1 + P dth_2,
// P = 1/2 Ra J(theta/2) J^-1(theta) Ra^T (J: the left Jacobian), the terms [.] dth_1 of domega and
// dM become [.] psi. (P = 0 gives the plain hinge.)
//
// Invariant deformable displacement joint and invariant deformable joint (MBDyn's
// ElasticDispJointInv / ElasticJointInv): the relative position is also measured and its force
// applied in the mid frame, e_d = Rm^T d, F = Rm f (M = Rm m as the invariant hinge). With
// P = Ra (I + exp(theta/2))^-1 Ra^T (the same P as above; MBDyn's hat_I), the energy gradient
// puts the moment of the pair (d x F) on both nodes: node 1 a_1 x F + (I - P^T)(d x F) + M,
// node 2 -a_2 x F + P^T (d x F) - M (MBDyn's residual for the displacement joint). MBDyn rotates
// the deformable joint's force with Ra instead of Rm, which is not the gradient of the energy of
// e_d = Rm^T d; here both joints use Rm, so swapping the nodes leaves an odd law's forces
// unchanged. MBDyn accepts only elastic laws for these two; so does mbsolve.
//   de_d = Rm^T (dx_2 - dx_1 - [a_2] dth_2 + [a_1] dth_1 + [d] psi)
//   dF   = Rm df - [F] psi
//   T = P^T v, v = d x F:  dT = P^T dv - [T] dth_1 + P^T [v] dth_1 + G (dth_2 - dth_1),
//     G = -Ra S E^T [S Ra^T v] J(theta/2) 1/2 J^-1(theta) Ra^T,  E = exp(theta/2),
//     S = (I + E^T)^-1   (from dE = [J(theta/2) dtheta/2] E and dS = -S dE^T S).
//
// Output (.jnt, MBDyn's columns after the reaction f, m (local) and F, M (global)):
//   deformable hinge:              E, then omega if the law is viscous (the invariant hinge:
//                                  m, M = Rm m and omega in the mid frame Rm, as MBDyn)
//   deformable displacement joint: e_d, then ed if the law is viscous
//   deformable joint:              e_d, E, then (ed, omega) if the law is viscous
//   deformable axial joint:        theta_3, then omega_3 if the law is viscous (a 1D law on the
//                                  third component of theta and omega; moment about axis 3)
// E is the relative rotation in the `orientation description` (default: the control data's
// `default orientation`, else euler123): Euler angles in degrees, the rotation vector, or the
// 9 entries of Ra^T Rb by rows.
#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/constitutive_law.hpp"
#include "core/log_line.hpp"
#include "core/registry.hpp"
#include "core/rotation_vector.hpp"
#include "core/rotations.hpp"
#include "core/tree_edge.hpp"
#include "elements/joints/joint_ends.hpp"
#include "elements/joints/joint_kit.hpp"
#include "elements/joints/joint_orientation.hpp"
#include "elements/misc/card_helpers.hpp"
#include "elements/misc/element_util.hpp"

namespace mbs {
namespace {

// The two ends (offsets and hinge orientations in the node frames; the hinges read an offset
// after `position` and ignore it: `offsets` false, not described), the law, the orientation
// description ("" when not given).
struct DeformableSpec final : ElementSpec {
    cards::EndSpec end[2];
    bool offsets = true;
    std::shared_ptr<const LawSpec> law;
    std::string orientation_description;
    void describe(Props& p) const override {
        cards::describe_end(p, end[0], "1", offsets, true);
        cards::describe_end(p, end[1], "2", offsets, true);
        p.set("law", law);
        if (!orientation_description.empty())
            p.set("orientation description", orientation_description);
    }
};

std::shared_ptr<DeformableSpec> read_ends(Reader& r, std::string_view element, cards::Offset offset,
                                          bool offsets) {
    cards::EndOptions opt;
    opt.offset = offset;
    auto end1 = cards::read_end1(r, element, opt);
    auto end2 = cards::read_end2(r, end1, element, opt);
    auto s = std::make_shared<DeformableSpec>();
    s->end[0] = cards::end_spec(end1);
    s->end[1] = cards::end_spec(end2);
    s->offsets = offsets;
    return s;
}

void read_deformable_hinge(Reader& r, EntityDesc& e) {
    auto s = read_ends(r, "deformable hinge", cards::Offset::keyword, false);
    s->law = r.law(3, "deformable hinge constitutive law");
    s->orientation_description = cards::read_orientation_description(r);
    e.spec = std::move(s);
}

void read_deformable_axial_joint(Reader& r, EntityDesc& e) {
    auto s = read_ends(r, "deformable axial joint", cards::Offset::keyword, false);
    s->law = r.law(1, "deformable axial joint constitutive law");
    e.spec = std::move(s);
}

void read_deformable_displacement_joint(Reader& r, EntityDesc& e) {
    auto s = read_ends(r, "deformable displacement joint", cards::Offset::mandatory, true);
    s->law = r.law(3, "deformable displacement joint constitutive law");
    e.spec = std::move(s);
}

void read_deformable_displacement_hinge(Reader& r, EntityDesc& e) {
    r.warn("'deformable displacement hinge' is deprecated; use 'deformable displacement joint'");
    read_deformable_displacement_joint(r, e);
}

void read_deformable_joint(Reader& r, EntityDesc& e) {
    auto s = read_ends(r, "deformable joint", cards::Offset::mandatory, true);
    s->law = r.law(6, "deformable joint constitutive law");
    s->orientation_description = cards::read_orientation_description(r);
    e.spec = std::move(s);
}

// A link moment about the hinge frames.
tree::LoadPart deformable_hinge_force(const EntityDesc& d, const tree::Context&) {
    const auto& s = d.spec_as<DeformableSpec>();
    tree::LinkForce f;
    cards::tree_linear_law(d, *s.law, f);
    f.a = cards::tree_end(s.end[0], "node1");
    f.b = cards::tree_end(s.end[1], "node2");
    f.hinge = true;
    return f;
}

using el::Mat63;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Vec6 = Eigen::Matrix<double, 6, 1>;

enum class Mode {
    displacement,
    invariant_displacement,
    hinge,
    invariant_hinge,
    axial,
    joint,
    invariant_joint
};

// Output format of the relative rotation (joint_orientation.hpp).
using el::Od;

// The kinematics of the file comment at the current iterate.
struct Kin {
    Vec3 a[2], c, d, u, theta;
    Mat3 Ra;
    Mat3 Rl;  // frame of the moment and of omega: Ra, or the mid frame (invariant elements)
    Mat3 Rd;  // frame of e_d and of the force: Ra, or the mid frame (invariant_d)
    Mat3 P;   // dRl = [(I - P) dth_1 + P dth_2] Rl
    Vec6 e, ed;
};

template <int N, Mode Md>
class Deformable final : public Element {
  public:
    static constexpr bool hinge =
        Md == Mode::hinge || Md == Mode::invariant_hinge || Md == Mode::axial;
    // Relative position measured in the mid frame (the two invariant elements with offsets).
    static constexpr bool invariant_d =
        Md == Mode::invariant_displacement || Md == Mode::invariant_joint;
    static constexpr bool invariant = invariant_d || Md == Mode::invariant_hinge;
    // First of the six strains used: [e_d | theta], theta only, or theta_3 only (axial).
    static constexpr int off = Md == Mode::axial ? 5 : hinge ? 3 : 0;
    static constexpr int nrates =
        Md == Mode::joint || Md == Mode::invariant_joint ? 6 : 3;  // strain rates in the output

    Deformable(const EntityDesc& d, std::array<StructNode*, 2> nodes, std::array<Vec3, 2> f,
               std::array<Mat3, 2> Rh, LawPtr<N> law, Od od)
        : Element(d), n_(nodes), f_(f), Rh_(Rh), law_(std::move(law)), od_(od) {}

    // MBDyn's .log line (struct/joint.cc): "deformablehinge: L n1 f1 R1 n2 f2 R2" (offsets zero
    // where the card has none); deformabledisplacementjoint, deformableaxialjoint and
    // deformablejoint alike, the invariant forms under their plain name.
    std::string log_line() const override {
        const EntityDesc& dd = this->desc();  // (clang: desc() is dependent here)
        const auto& s = dd.spec_as<DeformableSpec>();
        const char* name = Md == Mode::hinge || Md == Mode::invariant_hinge ? "deformablehinge"
                           : Md == Mode::axial                              ? "deformableaxialjoint"
                           : Md == Mode::joint || Md == Mode::invariant_joint
                               ? "deformablejoint"
                               : "deformabledisplacementjoint";
        return cards::log_two_ends(name, label(), s.end, s.offsets, true);
    }

    // Initial assembly (docs/formulation.md 4.1): always, as MBDyn (joints take part by
    // default, base/elman.cc): the deformable hinge, displacement joint, joint and axial joint
    // put the law's force and moment at the current pose on the node rows (struct/vehj.cc,
    // vehj2.cc, vehj3.cc, vehj4.cc InitialAssRes/InitialAssJac; the viscous laws with the
    // current velocities, here the input ones: the position part keeps them).
    bool in_assembly() const override { return true; }

    // The hinge writes moment rows x rotation columns only.
    void declare(PatternBuilder& p) override {
        const char* mask = hinge ? "..|.F" : nullptr;
        for (int k = 0; k < 2; ++k)
            for (int j = 0; j < 2; ++j)
                blocks_[k][j] = p.block(n_[k]->first_dof(), 6, n_[j]->first_dof(), 6, mask);
    }

    void residual(const StepContext& c, const StateView&, double* r) const override {
        const Kin k = kinematics();
        Vec6 fl;
        Mat6 Kl, Cl;
        local_law(k, c.time, fl, Kl, Cl);
        const Vec3 F = k.Rd * fl.head<3>(), M = k.Rl * fl.tail<3>();
        const Vec3 T = invariant_d ? Vec3(k.P.transpose() * k.d.cross(F)) : Vec3::Zero();
        el::add_wrench(r, *n_[0], F, k.c.cross(F) - T + M);
        el::add_wrench(r, *n_[1], -F, -k.a[1].cross(F) + T - M);
    }

    // See the file comment for the derivation.
    void jacobian(const StepContext& c, const StateView&, Jacobian& J) const override {
        const Kin k = kinematics();
        Vec6 fl;
        Mat6 Kl, Cl;
        local_law(k, c.time, fl, Kl, Cl);
        const Vec3 F = k.Rd * fl.head<3>(), M = k.Rl * fl.tail<3>();
        const Mat3 RaT = k.Ra.transpose(), RlT = k.Rl.transpose(), RdT = k.Rd.transpose();
        const Mat3 Psi[2] = {Mat3::Identity() - k.P, k.P};
        const Mat3 PsiD[2] = {invariant_d ? Psi[0] : Mat3::Identity(),
                              invariant_d ? Psi[1] : Mat3::Zero()};
        // Moment of the pair shared through P (invariant_d): T = P^T v, v = d x F.
        const Mat3 PT = k.P.transpose(), sd = skew(k.d);
        const Vec3 v = k.d.cross(F), T = PT * v;
        Mat3 G = Mat3::Zero();
        if constexpr (invariant_d) {
            const Mat3 E = rotation_vector_to_matrix(0.5 * k.theta);
            const Mat3 S = (Mat3::Identity() + E.transpose()).inverse();
            G = -k.Ra * S * E.transpose() * skew(Vec3(S * RaT * v)) * rotvec::Gamma(0.5 * k.theta) *
                (0.5 * rotvec::Gamma_inverse(k.theta)) * RaT;
        }
        const Mat3 W21 = skew(Vec3(n_[1]->w - n_[0]->w));
        const Mat3 Jinv = rotvec::Gamma_inverse(k.theta);
        const Mat3 A2 = skew(k.a[1]), W1 = skew(n_[0]->w);
        const Mat3 sF = skew(F), sM = skew(M);
        // Strain and strain-rate derivatives per node j and variable v (x, theta, xdot, w).
        for (int j = 0; j < 2; ++j) {
            Mat63 De[4], Ded[4];
            for (int v = 0; v < 4; ++v) De[v].setZero(), Ded[v].setZero();
            if (j == 0) {
                De[0].topRows<3>() = -RdT;
                De[1].topRows<3>() = RdT * (skew(k.a[0]) + sd * PsiD[0]);
                De[1].bottomRows<3>() = -Jinv * RaT;
                Ded[0].topRows<3>() = RaT * W1;
                Ded[1].topRows<3>() = RaT * skew(k.u);
                Ded[2].topRows<3>() = -RaT;
                Ded[3].topRows<3>() = RaT * skew(k.c);
                Ded[1].bottomRows<3>() = RlT * W21 * Psi[0];
                Ded[3].bottomRows<3>() = -RlT;
            } else {
                De[0].topRows<3>() = RdT;
                De[1].topRows<3>() = RdT * (sd * PsiD[1] - A2);
                De[1].bottomRows<3>() = Jinv * RaT;
                Ded[0].topRows<3>() = -RaT * W1;
                Ded[1].topRows<3>() = RaT * skew(Vec3(n_[0]->w - n_[1]->w)) * A2;
                Ded[2].topRows<3>() = RaT;
                Ded[3].topRows<3>() = -RaT * A2;
                Ded[1].bottomRows<3>() = RlT * W21 * Psi[1];
                Ded[3].bottomRows<3>() = RlT;
            }
            Mat3 DF[4], DM[4], Dc[4];
            for (int v = 0; v < 4; ++v) {
                const Mat63 Dfl = Kl * De[v] + Cl * Ded[v];
                DF[v] = k.Rd * Dfl.topRows<3>();
                DM[v] = k.Rl * Dfl.bottomRows<3>();
                Dc[v].setZero();
            }
            DM[1] -= sM * Psi[j];
            DF[1] -= sF * PsiD[j];
            // Dc: dc (c = a_1 + d); Dd: dd.
            Mat3 Dd[4];
            for (int v = 0; v < 4; ++v) Dd[v].setZero();
            if (j == 0) {
                Dc[0] = -Mat3::Identity();
                Dd[0] = -Mat3::Identity();
                Dd[1] = skew(k.a[0]);
            } else {
                Dc[0] = Mat3::Identity();
                Dc[1] = -A2;
                Dd[0] = Mat3::Identity();
                Dd[1] = -A2;
            }
            Mat63 D1[4], D2[4];
            for (int w = 0; w < 4; ++w) {
                Mat3 DT = Mat3::Zero();
                if constexpr (invariant_d) {
                    DT = PT * (sd * DF[w] - sF * Dd[w]);
                    if (w == 1) DT += j == 0 ? Mat3(PT * skew(v) - skew(T) - G) : G;
                }
                D1[w].topRows<3>() = DF[w];
                D1[w].bottomRows<3>() = skew(k.c) * DF[w] - sF * Dc[w] + DM[w] - DT;
                D2[w].topRows<3>() = -DF[w];
                D2[w].bottomRows<3>() = -A2 * DF[w] - DM[w] + DT;
            }
            if (j == 1) D2[1].bottomRows<3>() -= sF * A2;
            J.add(blocks_[0][j], el::node_chain<6>(*n_[j], D1[0], D1[1], D1[2], D1[3], c));
            J.add(blocks_[1][j], el::node_chain<6>(*n_[j], D2[0], D2[1], D2[2], D2[3], c));
        }
    }

    // The output shows the force of the converged step (a bistop law switches inside Newton, at
    // its evaluations; after_step only passes the step on to the law's drives).
    void after_step(const StepContext& c, const StateView&) override {
        const Kin k = kinematics();
        Mat6 Kl, Cl;
        local_law(k, c.time, fl_, Kl, Cl);
        Rd_ = k.Rd;
        Rl_ = k.Rl;
        e_ = k.e;
        ed_ = k.ed;
        Rr_ = k.Ra.transpose() * n_[1]->R * Rh_[1];
        law_->after_step(k.e.template segment<N>(off), k.ed.template segment<N>(off), c.time);
    }

    const char* output_file() const override { return "jnt"; }
    // NetCDF: MBDyn's DeformableHingeJoint (type "deformable hinge": E/Phi/R, Omega),
    // DeformableDispJoint ("deformable displacement": d, dPrime) and DeformableJoint
    // ("deformable joint": d, E/Phi/R, dPrime, Omega) OutputPrepare, from the .jnt extras; the
    // rates only with a viscous law (the .jnt has them only then), the global D, DPrime not.
    bool output_schema(OutputSchema& s) const override {
        if (!el::reaction_schema(*this, s)) return false;
        if constexpr (Md == Mode::axial) return true;
        const bool viscous = (law_->kind() & law_viscous) != 0;
        int col = 12;
        if constexpr (!hinge) {
            el::joint_quantity(s, "d", 3, "m", "local",
                               "relative position in local frame (x, y, z)", col);
            col += 3;
        }
        const bool rot = Md != Mode::displacement && Md != Mode::invariant_displacement;
        if (rot) {
            el::joint_orientation(s, od_, col);
            col += el::od_columns(od_);
        }
        if (viscous) {
            if constexpr (!hinge) {
                el::joint_quantity(s, "dPrime", 3, "m/s", "local",
                                   "relative linear velocity in local frame (x, y, z)", col);
                col += 3;
            }
            if (rot) el::joint_omega(s, col);
        }
        if constexpr (hinge)
            s.nc_type = "deformable hinge";
        else if (rot)
            s.nc_type = "deformable joint";
        else
            s.nc_type = "deformable displacement";
        return true;
    }
    bool reaction(Vec3& f, Vec3& m, Vec3& F, Vec3& M) const override {
        return el::law_reaction(fl_, Rd_, Rl_, f, m, F, M);
    }
    int output_values(double* v) const override {
        int n = el::put_reaction(*this, v);
        auto put = [&](const auto& a) {
            for (int i = 0; i < a.size(); ++i) v[n++] = a[i];
        };
        const bool viscous = (law_->kind() & law_viscous) != 0;
        if constexpr (Md == Mode::axial) {
            v[n++] = e_[5];
            if (viscous) v[n++] = ed_[5];
            return n;
        }
        if (!hinge) put(e_.head<3>());
        if (Md != Mode::displacement && Md != Mode::invariant_displacement)
            n += el::put_orientation(od_, Rr_, v + n);
        if (viscous) put(ed_.template segment<nrates>(off));
        return n;
    }

    // Private data (MBDyn's deformable hinge / displacement joint / joint), local frames, at the
    // current iterate and the clock's time: dx..dz = e_d, rx..rz = theta, vx..vz = ed,
    // wx..wz = omega, Fx..Fz and Mx..Mz the law's force and moment (the .jnt columns 2-7).
    // Hinges have r, w, M; displacement joints d, v, F; deformable joints all six; the axial
    // joint rz, wz, Mz.
    int private_data_count() const override { return static_cast<int>(data_.size()); }
    const char* private_data_name(int i) const override { return all_names()[data_[i]]; }
    double private_data(int i, const StateView&) const override {
        const Kin k = kinematics();
        const int j = data_[i], g = j / 3, c = j % 3;
        if (g < 2) return k.e[3 * g + c];
        if (g < 4) return k.ed[3 * (g - 2) + c];
        Vec6 fl;
        Mat6 Kl, Cl;
        local_law(k, clock_ ? clock_->time : 0.0, fl, Kl, Cl);
        return fl[3 * (g - 4) + c];
    }
    void set_clock(const SimClock* c) { clock_ = c; }

  private:
    static const char* const* all_names() {
        static const char* const nm[18] = {"dx", "dy", "dz", "rx", "ry", "rz", "vx", "vy", "vz",
                                           "wx", "wy", "wz", "Fx", "Fy", "Fz", "Mx", "My", "Mz"};
        return nm;
    }
    static std::vector<int> data_list() {
        std::vector<int> v;
        for (int g = 0; g < 6; ++g) {
            const bool rot = g % 2 == 1 || g == 5;        // r, w, M
            const bool lin = g == 0 || g == 2 || g == 4;  // d, v, F
            if (Md == Mode::axial) {
                if (rot) v.push_back(3 * g + 2);
            } else if (Md == Mode::joint || Md == Mode::invariant_joint || (hinge && rot) ||
                       (!hinge && lin)) {
                for (int c = 0; c < 3; ++c) v.push_back(3 * g + c);
            }
        }
        return v;
    }
    const std::vector<int> data_ = data_list();
    const SimClock* clock_ = nullptr;

    Kin kinematics() const {
        Kin k;
        const StructNode &n1 = *n_[0], &n2 = *n_[1];
        k.a[0] = n1.R * f_[0];
        k.a[1] = n2.R * f_[1];
        k.Ra = n1.R * Rh_[0];
        const Mat3 Rb = n2.R * Rh_[1];
        const Vec3 d = n2.x + k.a[1] - n1.x - k.a[0];
        const Vec3 ddot = n2.xdot + n2.w.cross(k.a[1]) - n1.xdot - n1.w.cross(k.a[0]);
        k.c = k.a[0] + d;
        k.d = d;
        k.u = ddot - n1.w.cross(d);
        k.theta = matrix_to_rotation_vector(k.Ra.transpose() * Rb);
        k.Rl = k.Ra;
        k.P.setZero();
        if constexpr (invariant) {
            k.Rl = k.Ra * rotation_vector_to_matrix(0.5 * k.theta);
            k.P = 0.5 * k.Ra * rotvec::Gamma(0.5 * k.theta) * rotvec::Gamma_inverse(k.theta) *
                  k.Ra.transpose();
        }
        k.Rd = invariant_d ? k.Rl : k.Ra;
        k.e.head<3>() = k.Rd.transpose() * d;
        k.e.tail<3>() = k.theta;
        k.ed.head<3>() = k.Ra.transpose() * k.u;
        k.ed.tail<3>() = k.Rl.transpose() * (n2.w - n1.w);
        return k;
    }

    // The law on the used strains, its force and tangents placed in the six local components.
    void local_law(const Kin& k, double t, Vec6& fl, Mat6& Kl, Mat6& Cl) const {
        typename ConstitutiveLaw<N>::V F;
        typename ConstitutiveLaw<N>::M K, C;
        law_->eval(k.e.template segment<N>(off), k.ed.template segment<N>(off), t, F, K, C);
        fl.setZero(), Kl.setZero(), Cl.setZero();
        fl.template segment<N>(off) = F;
        Kl.template block<N, N>(off, off) = K;
        Cl.template block<N, N>(off, off) = C;
    }

    std::array<StructNode*, 2> n_;
    std::array<Vec3, 2> f_;
    std::array<Mat3, 2> Rh_;
    LawPtr<N> law_;
    Od od_;
    BlockId blocks_[2][2] = {{-1, -1}, {-1, -1}};
    Vec6 fl_ = Vec6::Zero(), e_ = Vec6::Zero(), ed_ = Vec6::Zero();
    Mat3 Rd_ = Mat3::Identity(), Rl_ = Mat3::Identity(), Rr_ = Mat3::Identity();
};

template <int N, Mode Md>
std::unique_ptr<Element> make_deformable(const EntityDesc& d, BuildContext& ctx) {
    const auto& s = d.spec_as<DeformableSpec>();
    std::array<StructNode*, 2> nodes{};
    std::array<Vec3, 2> f{};
    std::array<Mat3, 2> Rh{};
    for (int k = 0; k < 2; ++k) {
        nodes[k] = &ctx.struct_node(s.end[k].node, d);
        if (!nodes[k]->has_rotation())
            throw InputError(s.end[k].node_loc, "a " + d.type + " needs nodes with rotations");
        f[k] = s.offsets ? s.end[k].offset : Vec3(Vec3::Zero());
        Rh[k] = s.end[k].R;
    }
    LawEnv env{ctx.drive_env()};
    auto law = make_law<N>(*s.law, env);
    if (Deformable<N, Md>::invariant_d && (law->kind() & law_viscous) != 0)
        ctx.error(d, "an " + d.type +
                         " takes elastic laws only (as in MBDyn); use the non-invariant joint "
                         "for a viscous or viscoelastic law");
    auto el = std::make_unique<Deformable<N, Md>>(
        d, nodes, f, Rh, std::move(law),
        el::joint_od(s.orientation_description, ctx.model().control.orientation()));
    el->set_clock(ctx.drive_env().clock);
    return el;
}

}  // namespace

MBS_REGISTER_ELEMENT_KIND("joint", "deformable hinge",
                          {.read = read_deformable_hinge,
                           .make = make_deformable<3, Mode::hinge>,
                           .reduced = {.load = deformable_hinge_force}});
MBS_REGISTER_ELEMENT_KIND("joint", "deformable axial joint",
                          {.read = read_deformable_axial_joint,
                           .make = make_deformable<1, Mode::axial>});
MBS_REGISTER_ELEMENT_KIND("joint", "invariant deformable hinge",
                          {.read = read_deformable_hinge,
                           .make = make_deformable<3, Mode::invariant_hinge>});
MBS_REGISTER_ELEMENT_KIND("joint", "deformable displacement joint",
                          {.read = read_deformable_displacement_joint,
                           .make = make_deformable<3, Mode::displacement>});
MBS_REGISTER_ELEMENT_KIND("joint", "deformable displacement hinge",
                          {.read = read_deformable_displacement_hinge,
                           .make = make_deformable<3, Mode::displacement>});
MBS_REGISTER_ELEMENT_KIND("joint", "invariant deformable displacement joint",
                          {.read = read_deformable_displacement_joint,
                           .make = make_deformable<3, Mode::invariant_displacement>});
MBS_REGISTER_ELEMENT_KIND("joint", "deformable joint",
                          {.read = read_deformable_joint, .make = make_deformable<6, Mode::joint>});
MBS_REGISTER_ELEMENT_KIND("joint", "invariant deformable joint",
                          {.read = read_deformable_joint,
                           .make = make_deformable<6, Mode::invariant_joint>});

}  // namespace mbs
