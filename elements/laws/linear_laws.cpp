// Linear constitutive laws, dimensions 1, 3 and 6 unless noted (docs/deck-language.md section 6;
// MBDyn constltp_impl.cc). f = K (eps - eps_p) + C eps_dot (+ prestress).
//
// Arguments (LinearArgs, linear_laws.hpp; the view after LawSpec::kind, in card order).
// Isotropic K and C are doubles (the matrix is K I); generic ones are VecN (dim 1: 1 value,
// 3: 9, 6: 36, row-major):
//   linear elastic [isotropic]                 stiffness (double)
//   linear elastic generic                     stiffness (VecN)
//   linear elastic generic axial torsion coupling (6 only)
//                                              stiffness (VecN) coupling (double c):
//                                              K44 becomes K44 + c eps_1
//   linear viscoelastic generic axial torsion coupling (6 only, in MBDyn's source)
//                                              stiffness damping [proportional] coupling
//   linear viscous [isotropic]                 damping (double)
//   linear viscous generic                     damping (VecN)
//   linear viscoelastic [isotropic]            stiffness damping (doubles) [proportional]
//   linear viscoelastic generic                stiffness damping (VecN) [proportional]
//   linear time variant viscoelastic generic   stiffness (VecN) stiffness_scale (drive)
//                                              damping (VecN) [proportional]
//                                              damping_scale (drive):
//                                              f = K s_K(t) eps + C s_C(t) eps_dot
// `proportional, f` gives C = f K; damping then holds the product and proportional f.
// The `isotropic` spellings are stored under the short type ("linearelastic", ...).
// View names: "stiffness" "stiffness scale" "damping" "proportional" "damping scale" "coupling".
//
// Linear laws switched on and off by drives (docs/deck-language.md section 6): linear elastic
// bistop, linear viscoelastic bistop (the bistop wrapper is in wrapper_laws.cpp). The law acts
// while active; it becomes active when the activation drive is non-zero and inactive when the
// deactivation drive is.
//
// Arguments (LinearBistopArgs; the view after LawSpec::kind, in card order):
//   linear elastic bistop       stiffness (double: a scalar K for every dimension, as in
//                               MBDyn's source) sw (BistopSwitchArgs: "initial status" (bool)
//                               "activate" "deactivate")
//   linear viscoelastic bistop  stiffness damping sw
//
// Runtime of the linear constitutive laws (readers above):
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
#include "elements/laws/linear_laws.hpp"

#include <optional>
#include <string_view>

#include "core/registry.hpp"
#include "elements/laws/law_util.hpp"
#include "elements/laws/runtime_law_util.hpp"

namespace mbs::laws {
namespace {

struct LinearBistopArgs final : KindArgs {
    double stiffness = 0.0;
    std::optional<double> damping;  // linear viscoelastic bistop
    BistopSwitchArgs sw;
    void describe(Props& out) const override {
        out.set("stiffness", stiffness);
        if (damping) out.set("damping", *damping);
        sw.describe(out);
    }
};

VecN scaled(VecN v, double s) {
    for (double& x : v) x *= s;
    return v;
}

// A linear viscoelastic law with K = 0 acts as viscous, with C = 0 as elastic (as in MBDyn).
void set_viscoelastic_kind(Reader& r, LawSpec& law, const LinearArgs& a) {
    const bool k_null = a.stiffness.null(), c_null = a.damping.null();
    if (k_null && !c_null) {
        r.warn_at(law.loc, "null stiffness: the law acts as a linear viscous law");
        law.kind = viscous;
    } else if (c_null && !k_null) {
        r.warn_at(law.loc, "null damping: the law acts as a linear elastic law");
        law.kind = elastic;
    } else {
        law.kind = viscoelastic;
    }
}

double read_nonnegative(Reader& r, std::string_view what, std::string_view name) {
    SourceLoc at = r.loc();
    double v = r.real(what);
    warn_if_negative(r, at, v, name);
    return v;
}

void read_linear_elastic(Reader& r, LawSpec& law) {
    law.type = "linearelastic";
    law.kind = elastic;
    auto& a = emplace_args<LinearArgs>(law);
    a.stiffness.set(read_nonnegative(r, "stiffness", "stiffness"));
}

void read_linear_elastic_generic(Reader& r, LawSpec& law) {
    law.kind = elastic;
    auto& a = emplace_args<LinearArgs>(law);
    a.stiffness.set(r.deriv_entity(law.dim, "stiffness"));
}

void read_axial_torsion_coupling(Reader& r, LawSpec& law) {
    require_dim(r, law, "linear elastic generic axial torsion coupling", {6});
    law.kind = elastic;
    auto& a = emplace_args<LinearArgs>(law);
    a.stiffness.set(r.deriv_entity(6, "stiffness matrix"));
    a.coupling = r.real("axial-torsion coupling coefficient");
}

// Reads `{<C> | proportional, f}` after K; `generic` reads a DerivEntity C.
void read_damping(Reader& r, const LawSpec& law, LinearArgs& a, bool generic) {
    if (r.accept("proportional")) {
        double f = r.real("proportional damping factor");
        if (generic)
            a.damping.set(scaled(a.stiffness.values, f));
        else
            a.damping.set(f * a.stiffness.value);
        a.proportional = f;
    } else if (generic) {
        a.damping.set(r.deriv_entity(law.dim, "damping"));
    } else {
        a.damping.set(read_nonnegative(r, "damping", "damping"));
    }
}

void read_viscoelastic_axial_torsion_coupling(Reader& r, LawSpec& law) {
    require_dim(r, law, "linear viscoelastic generic axial torsion coupling", {6});
    law.kind = viscoelastic;
    auto& a = emplace_args<LinearArgs>(law);
    a.stiffness.set(r.deriv_entity(6, "stiffness matrix"));
    read_damping(r, law, a, true);
    a.coupling = r.real("axial-torsion coupling coefficient");
}

void read_linear_viscous(Reader& r, LawSpec& law) {
    law.type = "linearviscous";
    law.kind = viscous;
    auto& a = emplace_args<LinearArgs>(law);
    a.damping.set(read_nonnegative(r, "damping", "damping"));
}

void read_linear_viscous_generic(Reader& r, LawSpec& law) {
    law.kind = viscous;
    auto& a = emplace_args<LinearArgs>(law);
    a.damping.set(r.deriv_entity(law.dim, "damping"));
}

void read_linear_viscoelastic(Reader& r, LawSpec& law) {
    law.type = "linearviscoelastic";
    auto& a = emplace_args<LinearArgs>(law);
    a.stiffness.set(read_nonnegative(r, "stiffness", "stiffness"));
    read_damping(r, law, a, false);
    set_viscoelastic_kind(r, law, a);
}

void read_linear_viscoelastic_generic(Reader& r, LawSpec& law) {
    auto& a = emplace_args<LinearArgs>(law);
    a.stiffness.set(r.deriv_entity(law.dim, "stiffness"));
    read_damping(r, law, a, true);
    set_viscoelastic_kind(r, law, a);
}

void read_linear_time_variant(Reader& r, LawSpec& law) {
    law.kind = viscoelastic;
    auto& a = emplace_args<LinearArgs>(law);
    a.stiffness.set(r.deriv_entity(law.dim, "stiffness"));
    a.stiffness_scale = r.drive("stiffness scale drive");
    read_damping(r, law, a, true);
    a.damping_scale = r.drive("damping scale drive");
}

void read_linear_elastic_bistop(Reader& r, LawSpec& law) {
    law.kind = elastic;
    auto& a = emplace_args<LinearBistopArgs>(law);
    a.stiffness = read_nonnegative(r, "stiffness (a scalar)", "stiffness");
    a.sw = read_bistop_switch(r);
}

void read_linear_viscoelastic_bistop(Reader& r, LawSpec& law) {
    law.kind = viscoelastic;
    auto& a = emplace_args<LinearBistopArgs>(law);
    a.stiffness = read_nonnegative(r, "stiffness (a scalar)", "stiffness");
    a.damping = read_nonnegative(r, "damping (a scalar)", "damping");
    a.sw = read_bistop_switch(r);
}

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

// The matrix of an isotropic or generic coefficient (zero when absent).
template <int N>
Mn<N> matrix(const Coefficient& c, const LawSpec& s, std::string_view what) {
    switch (c.form) {
        case Coefficient::Form::isotropic:
            return Mn<N>::Identity() * c.value;
        case Coefficient::Form::generic:
            return rt::deriv_entity<N>(c.values, s.loc, what);
        default:
            return Mn<N>::Zero();
    }
}

template <int N>
LawPtr<N> make_linear(const LawSpec& s, const LawEnv& env) {
    const auto& a = s.args_as<LinearArgs>();
    auto law = std::make_unique<Linear<N>>(matrix<N>(a.stiffness, s, "stiffness"),
                                           matrix<N>(a.damping, s, "damping"), law_kind_bits(s));
    if (a.stiffness_scale)
        law->set_scales(rt::drive(a.stiffness_scale, env), rt::drive(a.damping_scale, env));
    if (a.coupling) {
        if constexpr (N == 6)
            law->set_coupling(*a.coupling);
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

    LinearBistop(const LawSpec& s, const LinearBistopArgs& a, const LawEnv& env)
        : k_(a.stiffness), c_(a.damping.value_or(0.0)), kind_(law_kind_bits(s)), sw_(a.sw, env) {}

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
    return std::make_unique<LinearBistop<N>>(s, s.args_as<LinearBistopArgs>(), env);
}

}  // namespace

MBS_REGISTER_LAW_KIND("linear elastic",
                      {.read = read_linear_elastic, .make = MBS_LAW_FACTORIES(make_linear)});
MBS_REGISTER_LAW_KIND("linear elastic isotropic",
                      {.read = read_linear_elastic,
                       .no_make = "read as linear elastic (the reader stores that type)"});
MBS_REGISTER_LAW_KIND("linear elastic generic", {.read = read_linear_elastic_generic,
                                                 .make = MBS_LAW_FACTORIES(make_linear)});
MBS_REGISTER_LAW_KIND("linear elastic generic axial torsion coupling",
                      {.read = read_axial_torsion_coupling,
                       .make = MBS_LAW_FACTORIES(make_linear)});
MBS_REGISTER_LAW_KIND("linear viscoelastic generic axial torsion coupling",
                      {.read = read_viscoelastic_axial_torsion_coupling,
                       .make = MBS_LAW_FACTORIES(make_linear)});
MBS_REGISTER_LAW_KIND("linear viscous",
                      {.read = read_linear_viscous, .make = MBS_LAW_FACTORIES(make_linear)});
MBS_REGISTER_LAW_KIND("linear viscous isotropic",
                      {.read = read_linear_viscous,
                       .no_make = "read as linear viscous (the reader stores that type)"});
MBS_REGISTER_LAW_KIND("linear viscous generic", {.read = read_linear_viscous_generic,
                                                 .make = MBS_LAW_FACTORIES(make_linear)});
MBS_REGISTER_LAW_KIND("linear viscoelastic",
                      {.read = read_linear_viscoelastic, .make = MBS_LAW_FACTORIES(make_linear)});
MBS_REGISTER_LAW_KIND("linear viscoelastic isotropic",
                      {.read = read_linear_viscoelastic,
                       .no_make = "read as linear viscoelastic (the reader stores that type)"});
MBS_REGISTER_LAW_KIND("linear viscoelastic generic", {.read = read_linear_viscoelastic_generic,
                                                      .make = MBS_LAW_FACTORIES(make_linear)});
MBS_REGISTER_LAW_KIND("linear time variant viscoelastic generic",
                      {.read = read_linear_time_variant, .make = MBS_LAW_FACTORIES(make_linear)});
MBS_REGISTER_LAW_KIND("linear elastic bistop", {.read = read_linear_elastic_bistop,
                                                .make = MBS_LAW_FACTORIES(make_linear_bistop)});
MBS_REGISTER_LAW_KIND("linear viscoelastic bistop",
                      {.read = read_linear_viscoelastic_bistop,
                       .make = MBS_LAW_FACTORIES(make_linear_bistop)});

}  // namespace mbs::laws
