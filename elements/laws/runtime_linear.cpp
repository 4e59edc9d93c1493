// Runtime of the linear constitutive laws (readers: linear_laws.cpp, bistop_laws.cpp):
//   linear elastic / viscous / viscoelastic [isotropic | generic] (incl. proportional damping)
//       F = K eps + C epsdot,                      K, C constant
//   linear time variant viscoelastic generic
//       F = s_K(t) K eps + s_C(t) C epsdot         s_K, s_C drives of time
//   linear [visco]elastic generic axial torsion coupling (6D)
//       K44 -> K44 + c eps_1:  F_4 gains c eps_1 eps_4; dF_4/deps_1 = c eps_4 (exact tangent;
//       MBDyn omits this term). eps is the strain after the prestrain is taken off.
//   linear elastic bistop, linear viscoelastic bistop (K, C scalars)
//       active:  F = K (eps - eps_ref) + C epsdot, eps_ref = the strain when it switched on
//       inactive: F = 0 (the prestress, added by make_law, stays, as in MBDyn)
#include "elements/laws/runtime_law_util.hpp"

namespace mbs::laws {
namespace {

using rt::Mn;
using rt::Vn;

template <int N>
class Linear final : public ConstitutiveLaw<N> {
  public:
    using typename ConstitutiveLaw<N>::V;
    using typename ConstitutiveLaw<N>::M;

    Linear(const M& K, const M& C, int kind) : K_(K), C_(C), kind_(kind) {}
    void set_scales(DrivePtr k, DrivePtr c) { k_scale_ = std::move(k), c_scale_ = std::move(c); }
    void set_coupling(double c) { coupling_ = c; }

    void eval(const V& eps, const V& epsdot, double t, V& F, M& K, M& C) const override {
        K = k_scale_ ? M(K_ * k_scale_->value(t)) : K_;
        C = c_scale_ ? M(C_ * c_scale_->value(t)) : C_;
        if constexpr (N == 6) {
            if (coupling_ != 0.0) K(3, 3) += coupling_ * eps[0];
        }
        F = K * eps + C * epsdot;
        if constexpr (N == 6) {
            if (coupling_ != 0.0) K(3, 0) += coupling_ * eps[3];
        }
    }
    int kind() const override { return kind_; }
    void after_step(const V&, const V&, double) override {
        if (k_scale_) k_scale_->after_step();
        if (c_scale_) c_scale_->after_step();
    }

  private:
    M K_, C_;
    int kind_;
    DrivePtr k_scale_, c_scale_;
    double coupling_ = 0.0;
};

template <int N>
LawPtr<N> make_linear(const LawSpec& s, const LawEnv& env) {
    const int kind = law_kind_bits(s);
    Mn<N> K = s.params.has("stiffness") ? rt::deriv_entity<N>(s, "stiffness") : Mn<N>::Zero();
    Mn<N> C = s.params.has("damping") ? rt::deriv_entity<N>(s, "damping") : Mn<N>::Zero();
    auto law = std::make_unique<Linear<N>>(K, C, kind);
    if (s.params.has("stiffness scale"))
        law->set_scales(rt::drive(s, "stiffness scale", env), rt::drive(s, "damping scale", env));
    if (s.params.has("coupling")) {
        if constexpr (N == 6)
            law->set_coupling(rt::real(s, "coupling"));
        else
            throw_unsupported_law(s);
    }
    return law;
}

template <int N>
class LinearBistop final : public ConstitutiveLaw<N> {
  public:
    using typename ConstitutiveLaw<N>::V;
    using typename ConstitutiveLaw<N>::M;

    LinearBistop(const LawSpec& s, const LawEnv& env)
        : k_(rt::real(s, "stiffness")),
          c_(s.params.has("damping") ? rt::real(s, "damping") : 0.0),
          kind_(law_kind_bits(s)),
          sw_(s, env) {}

    void eval(const V& eps, const V& epsdot, double t, V& F, M& K, M& C) const override {
        if (!sw_.sync(eps, t)) {
            F.setZero(), K.setZero(), C.setZero();
            return;
        }
        K = M::Identity() * k_;
        C = M::Identity() * c_;
        F = k_ * (eps - sw_.eps_ref) + c_ * epsdot;
    }
    int kind() const override { return kind_; }
    void after_step(const V&, const V&, double) override { sw_.after_step(); }

  private:
    double k_, c_;
    int kind_;
    rt::BistopSwitch<N> sw_;
};

template <int N>
LawPtr<N> make_linear_bistop(const LawSpec& s, const LawEnv& env) {
    return std::make_unique<LinearBistop<N>>(s, env);
}

}  // namespace

MBS_REGISTER_LAW_RUNTIME("linear elastic", make_linear);
MBS_REGISTER_LAW_RUNTIME("linear elastic generic", make_linear);
MBS_REGISTER_LAW_RUNTIME("linear elastic generic axial torsion coupling", make_linear);
MBS_REGISTER_LAW_RUNTIME("linear viscoelastic generic axial torsion coupling", make_linear);
MBS_REGISTER_LAW_RUNTIME("linear viscous", make_linear);
MBS_REGISTER_LAW_RUNTIME("linear viscous generic", make_linear);
MBS_REGISTER_LAW_RUNTIME("linear viscoelastic", make_linear);
MBS_REGISTER_LAW_RUNTIME("linear viscoelastic generic", make_linear);
MBS_REGISTER_LAW_RUNTIME("linear time variant viscoelastic generic", make_linear);
MBS_REGISTER_LAW_RUNTIME("linear elastic bistop", make_linear_bistop);
MBS_REGISTER_LAW_RUNTIME("linear viscoelastic bistop", make_linear_bistop);

}  // namespace mbs::laws
