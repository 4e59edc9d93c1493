// Nonlinear elastic and viscoelastic laws (docs/deck-language.md section 6; MBDyn
// constltp_impl.cc).
//
// Arguments (typed, per kind; the view after LawSpec::kind, in card order, under the names
// in quotes):
//   double linear elastic (1, 3)     DoubleLinearArgs: stiffness "stiffness", upper
//                                    "upper strain" (> 0), lower "lower strain" (< 0),
//                                    second "second stiffness", third "third stiffness"
//                                    (default: second): K1 inside [lower, upper], K2 above,
//                                    K3 below; in 3D only component 3 is bilinear
//   double linear viscoelastic (1, 3)  as above without third, then damping "damping",
//                                    second_damping "second damping" (default: damping, used
//                                    outside)
//   cubic elastic generic (1, 3)     CubicArgs: k1 k2 k3 "k1" "k2" "k3" (VecN entities):
//                                    f = k1 eps + k2 |eps| eps + k3 eps^3, per component
//   cubic viscoelastic generic (1, 3)  as above, then damping "damping" (VecN DerivEntity)
//   inverse square elastic (1)       InverseSquareArgs: stiffness "stiffness" (A),
//                                    reference_length "reference length" (L0 > 0)
//   log elastic (1)                  LogElasticArgs: stiffness "stiffness": f = K log(1 + eps)
//   isotropic hardening elastic      IsotropicHardeningArgs: stiffness "stiffness",
//                                    reference_strain "reference strain" (> 0),
//                                    linear_stiffness "linear stiffness" (default 0)
//   contact elastic (1, 3)           ContactArgs: stiffness "stiffness", exponent "exponent"
//                                    (gamma >= 1)
//   turbulent viscoelastic (1)       TurbulentArgs: stiffness "stiffness", parabolic_damping
//                                    "parabolic damping", threshold "threshold" (default 0),
//                                    linear_damping "linear damping" (default threshold *
//                                    parabolic damping): C = linear damping for
//                                    |eps_dot| < threshold, else 2 parabolic damping |eps_dot|
//
// Laws built from scalar functions (docs/deck-language.md section 6).
//
// Arguments (ScalarFunctionLawArgs: one SfRef per function, a name and its inline definition;
// the view after LawSpec::kind, in card order):
//   scalar function elastic [isotropic]  "function" (name; see drives::read_scalar_function):
//                               f_i = sf(eps_i) for each component
//   scalar function elastic orthotropic  "function 1" ... "function n" (names; "" for `null`,
//                               a component without force); dimension 1 reads one name
// An inline definition is in the view as "<name> definition", after its name.
//
// Runtime of the nonlinear constitutive laws (readers above); MBDyn's constltp_impl.h formulas,
// exact tangents:
//   double linear elastic (1, 3)   e in [lo, up]: K1 e;  e > up: K1 up + K2 (e - up);
//                                  e < lo: K1 lo + K3 (e - lo). 3D: component 3 only, the
//                                  others K1 e.
//   double linear viscoelastic     as above with K3 = K2, plus C epsdot inside [lo, up] and
//                                  C2 epsdot outside (3D: component 3; the others C).
//   cubic elastic generic (1, 3)   f_i = k1 e + k2 |e| e + k3 e^3 per component;
//                                  df/de = k1 + 2 k2 |e| + 3 k3 e^2
//   cubic viscoelastic generic     plus C epsdot (C a DerivEntity)
//   inverse square elastic (1)     f = A / (L0 (1 + e))^2, df/de = -2 A L0 / (L0 (1 + e))^3
//   log elastic (1)                f = K log(1 + e), df/de = K / (1 + e) (1 + e is kept above
//                                  machine epsilon, as MBDyn does; there the slope is 0)
//   isotropic hardening elastic    f = g(s) e, s = e.e, g = K (b + a s)/(1 + a s), a = 3/e_ref^2,
//                                  b = K0/K; df/de = g I + 2 g'(s) e e^T,
//                                  g' = K a (1 - b)/(1 + a s)^2 (MBDyn's tangent is the 1D one
//                                  times I; this one is exact)
//   contact elastic (1, 3)         e >= 0: 0;  e < 0: K (1 - (1 + e)^-gamma),
//                                  df/de = gamma K (1 + e)^-(gamma + 1). 3D: component 3 only.
//   turbulent viscoelastic (1)     f = K e + Clin epsdot if |epsdot| < threshold, else
//                                  K e + Cpar |epsdot| epsdot (slope 2 Cpar |epsdot|)
//   scalar function elastic isotropic / orthotropic: f_i = sf_i(e_i), df_i/de_i = sf_i'(e_i);
//                                  a `null` orthotropic component gives no force
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/registry.hpp"
#include "elements/laws/law_util.hpp"
#include "elements/laws/runtime_law_util.hpp"

namespace mbs::laws {
namespace {

struct DoubleLinearArgs final : KindArgs {
    bool viscous = false;  // double linear viscoelastic: damping instead of third
    double stiffness = 0.0, upper = 0.0, lower = 0.0, second = 0.0;
    double third = 0.0;                          // elastic
    double damping = 0.0, second_damping = 0.0;  // viscoelastic
    void describe(Props& out) const override {
        out.set("stiffness", stiffness);
        out.set("upper strain", upper);
        out.set("lower strain", lower);
        out.set("second stiffness", second);
        if (!viscous) out.set("third stiffness", third);
        if (viscous) out.set("damping", damping);
        if (viscous) out.set("second damping", second_damping);
    }
};

struct CubicArgs final : KindArgs {
    VecN k1, k2, k3;
    std::optional<VecN> damping;  // cubic viscoelastic generic
    void describe(Props& out) const override {
        out.set("k1", k1);
        out.set("k2", k2);
        out.set("k3", k3);
        if (damping) out.set("damping", *damping);
    }
};

struct InverseSquareArgs final : KindArgs {
    double stiffness = 0.0, reference_length = 0.0;
    void describe(Props& out) const override {
        out.set("stiffness", stiffness);
        out.set("reference length", reference_length);
    }
};

struct LogElasticArgs final : KindArgs {
    double stiffness = 0.0;
    void describe(Props& out) const override { out.set("stiffness", stiffness); }
};

struct IsotropicHardeningArgs final : KindArgs {
    double stiffness = 0.0, reference_strain = 0.0, linear_stiffness = 0.0;
    void describe(Props& out) const override {
        out.set("stiffness", stiffness);
        out.set("reference strain", reference_strain);
        out.set("linear stiffness", linear_stiffness);
    }
};

struct ContactArgs final : KindArgs {
    double stiffness = 0.0, exponent = 0.0;
    void describe(Props& out) const override {
        out.set("stiffness", stiffness);
        out.set("exponent", exponent);
    }
};

struct TurbulentArgs final : KindArgs {
    double stiffness = 0.0, parabolic_damping = 0.0, threshold = 0.0, linear_damping = 0.0;
    void describe(Props& out) const override {
        out.set("stiffness", stiffness);
        out.set("parabolic damping", parabolic_damping);
        out.set("threshold", threshold);
        out.set("linear damping", linear_damping);
    }
};

// A scalar function named by a law: its name ("" for an orthotropic `null` component) and
// the inline definition that followed a name no `scalar function:` card defines.
struct SfRef {
    std::string name;
    std::shared_ptr<const DriveSpec> definition;
    void describe(Props& out, const std::string& key) const {
        out.set(key, name);
        if (definition) out.set(key + " definition", definition);
    }
};

// isotropic: one function ("function"); orthotropic: one per component ("function i").
struct ScalarFunctionLawArgs final : KindArgs {
    bool orthotropic = false;
    std::vector<SfRef> functions;
    void describe(Props& out) const override {
        if (!orthotropic) functions.at(0).describe(out, "function");
        for (std::size_t i = 0; orthotropic && i < functions.size(); ++i)
            functions[i].describe(out, "function " + std::to_string(i + 1));
    }
};

double read_stiffness(Reader& r, std::string_view what = "stiffness") {
    SourceLoc at = r.loc();
    double k = r.real(what);
    warn_if_negative(r, at, k, what);
    return k;
}

// K1, upper strain, lower strain, K2 (shared by the two double linear laws).
void read_double_linear_base(Reader& r, DoubleLinearArgs& a) {
    a.stiffness = read_stiffness(r);
    SourceLoc at = r.loc();
    a.upper = r.real("upper strain");
    if (a.upper <= 0.0) r.error_at(at, "the upper strain must be positive, got " + num(a.upper));
    at = r.loc();
    a.lower = r.real("lower strain");
    if (a.lower >= 0.0) r.error_at(at, "the lower strain must be negative, got " + num(a.lower));
    a.second = read_stiffness(r, "second stiffness");
}

void read_double_linear_elastic(Reader& r, LawSpec& law) {
    require_dim(r, law, "double linear elastic", {1, 3});
    law.kind = elastic;
    auto& a = emplace_args<DoubleLinearArgs>(law);
    read_double_linear_base(r, a);
    a.third = a.second;
    if (r.accept("third stiffness")) a.third = read_stiffness(r, "third stiffness");
}

void read_double_linear_viscoelastic(Reader& r, LawSpec& law) {
    require_dim(r, law, "double linear viscoelastic", {1, 3});
    law.kind = viscoelastic;
    auto& a = emplace_args<DoubleLinearArgs>(law);
    a.viscous = true;
    read_double_linear_base(r, a);
    a.damping = read_stiffness(r, "damping");
    a.second_damping = a.damping;
    if (r.accept("second damping")) a.second_damping = read_stiffness(r, "second damping");
}

void read_cubic_entities(Reader& r, const LawSpec& law, CubicArgs& a) {
    a.k1 = r.entity(law.dim, "linear stiffness K1");
    a.k2 = r.entity(law.dim, "quadratic stiffness K2");
    a.k3 = r.entity(law.dim, "cubic stiffness K3");
}

void read_cubic_elastic_generic(Reader& r, LawSpec& law) {
    require_dim(r, law, "cubic elastic generic", {1, 3});
    law.kind = elastic;
    read_cubic_entities(r, law, emplace_args<CubicArgs>(law));
}

void read_cubic_viscoelastic_generic(Reader& r, LawSpec& law) {
    require_dim(r, law, "cubic viscoelastic generic", {1, 3});
    law.kind = viscoelastic;
    auto& a = emplace_args<CubicArgs>(law);
    read_cubic_entities(r, law, a);
    a.damping = r.deriv_entity(law.dim, "damping");
}

void read_inverse_square_elastic(Reader& r, LawSpec& law) {
    require_dim(r, law, "inverse square elastic", {1});
    law.kind = elastic;
    auto& a = emplace_args<InverseSquareArgs>(law);
    a.stiffness = read_stiffness(r);
    a.reference_length = r.positive("reference length");
}

void read_log_elastic(Reader& r, LawSpec& law) {
    require_dim(r, law, "log elastic", {1});
    law.kind = elastic;
    emplace_args<LogElasticArgs>(law).stiffness = read_stiffness(r);
}

void read_isotropic_hardening_elastic(Reader& r, LawSpec& law) {
    law.kind = elastic;
    auto& a = emplace_args<IsotropicHardeningArgs>(law);
    a.stiffness = read_stiffness(r);
    a.reference_strain = r.positive("reference strain");
    if (r.accept("linear stiffness")) a.linear_stiffness = r.real("linear stiffness");
}

void read_contact_elastic(Reader& r, LawSpec& law) {
    require_dim(r, law, "contact elastic", {1, 3});
    law.kind = elastic;
    auto& a = emplace_args<ContactArgs>(law);
    a.stiffness = read_stiffness(r);
    SourceLoc at = r.loc();
    a.exponent = r.real("exponent");
    if (a.exponent < 1.0)
        r.error_at(at, "the contact exponent must be at least 1, got " + num(a.exponent));
}

// The optional threshold and linear damping are read only when a value follows (MBDyn reads
// any argument, which breaks on a following `prestress` or law keyword).
void read_turbulent_viscoelastic(Reader& r, LawSpec& law) {
    require_dim(r, law, "turbulent viscoelastic", {1});
    law.kind = viscoelastic;
    auto& a = emplace_args<TurbulentArgs>(law);
    a.stiffness = read_stiffness(r);
    a.parabolic_damping = read_stiffness(r, "parabolic damping");
    if (drives::next_is_value(r)) a.threshold = drives::real_or(r, "threshold", 0.0);
    a.linear_damping = a.threshold * a.parabolic_damping;
    if (drives::next_is_value(r))
        a.linear_damping = drives::real_or(r, "linear damping", a.linear_damping);
}

// `"name" [, <type>, <args>]` (drives::read_scalar_function).
SfRef read_sf_ref(Reader& r) {
    drives::ScalarFunctionRef f = drives::read_scalar_function(r);
    SfRef ref;
    ref.name = std::move(f.name);
    ref.definition = std::move(f.definition);
    return ref;
}

void read_scalar_function_isotropic(Reader& r, LawSpec& law) {
    law.type = "scalarfunctionelasticisotropic";
    law.kind = elastic;
    emplace_args<ScalarFunctionLawArgs>(law).functions.push_back(read_sf_ref(r));
}

void read_scalar_function_orthotropic(Reader& r, LawSpec& law) {
    if (law.dim == 1) {
        read_scalar_function_isotropic(r, law);
        return;
    }
    law.kind = elastic;
    auto& a = emplace_args<ScalarFunctionLawArgs>(law);
    a.orthotropic = true;
    for (int i = 1; i <= law.dim; ++i)
        a.functions.push_back(r.accept("null") ? SfRef{} : read_sf_ref(r));
}

using rt::Mn;
using rt::Vn;

// Which strain component a 1D/3D "scalar" law acts on: the only one (1D) or the third (3D).
template <int N>
constexpr int axis() {
    return N == 1 ? 0 : 2;
}

template <int N>
class DoubleLinear final : public ConstitutiveLaw<N> {
  public:
    using typename ConstitutiveLaw<N>::V;
    using typename ConstitutiveLaw<N>::M;

    DoubleLinear(const LawSpec& s, const DoubleLinearArgs& a)
        : k1_(a.stiffness),
          up_(a.upper),
          lo_(a.lower),
          k2_(a.second),
          k3_(a.viscous ? a.second : a.third),
          c1_(a.viscous ? a.damping : 0.0),
          c2_(a.viscous ? a.second_damping : 0.0),
          kind_(law_kind_bits(s)) {}

    void eval(const V& eps, const V& epsdot, double, V& F, M& K, M& C) const override {
        constexpr int a = axis<N>();
        K = M::Identity() * k1_;
        C = M::Identity() * c1_;
        F = k1_ * eps + c1_ * epsdot;
        const double e = eps[a];
        if (e > up_) {
            F[a] = k1_ * up_ + k2_ * (e - up_) + c2_ * epsdot[a];
            K(a, a) = k2_;
            C(a, a) = c2_;
        } else if (e < lo_) {
            F[a] = k1_ * lo_ + k3_ * (e - lo_) + c2_ * epsdot[a];
            K(a, a) = k3_;
            C(a, a) = c2_;
        }
    }
    int kind() const override { return kind_; }

  private:
    double k1_, up_, lo_, k2_, k3_, c1_, c2_;
    int kind_;
};

template <int N>
LawPtr<N> make_double_linear_elastic(const LawSpec& s, const LawEnv&) {
    if constexpr (N == 6) throw_unsupported_law(s);
    return std::make_unique<DoubleLinear<N>>(s, s.args_as<DoubleLinearArgs>());
}

template <int N>
LawPtr<N> make_double_linear_viscoelastic(const LawSpec& s, const LawEnv&) {
    if constexpr (N == 6) throw_unsupported_law(s);
    return std::make_unique<DoubleLinear<N>>(s, s.args_as<DoubleLinearArgs>());
}

template <int N>
class Cubic final : public ConstitutiveLaw<N> {
  public:
    using typename ConstitutiveLaw<N>::V;
    using typename ConstitutiveLaw<N>::M;

    Cubic(const LawSpec& s, const CubicArgs& a)
        : k1_(rt::entity<N>(a.k1, s.loc, "k1")),
          k2_(rt::entity<N>(a.k2, s.loc, "k2")),
          k3_(rt::entity<N>(a.k3, s.loc, "k3")),
          C_(a.damping ? rt::deriv_entity<N>(*a.damping, s.loc, "damping") : Mn<N>::Zero()),
          kind_(law_kind_bits(s)) {}

    void eval(const V& eps, const V& epsdot, double, V& F, M& K, M& C) const override {
        K.setZero();
        C = C_;
        F = C_ * epsdot;
        for (int i = 0; i < N; ++i) {
            const double e = eps[i], ae = std::fabs(e);
            F[i] += k1_[i] * e + k2_[i] * ae * e + k3_[i] * e * e * e;
            K(i, i) = k1_[i] + 2.0 * k2_[i] * ae + 3.0 * k3_[i] * e * e;
        }
    }
    int kind() const override { return kind_; }

  private:
    V k1_, k2_, k3_;
    M C_;
    int kind_;
};

template <int N>
LawPtr<N> make_cubic_elastic(const LawSpec& s, const LawEnv&) {
    if constexpr (N == 6) throw_unsupported_law(s);
    return std::make_unique<Cubic<N>>(s, s.args_as<CubicArgs>());
}

template <int N>
LawPtr<N> make_cubic_viscoelastic(const LawSpec& s, const LawEnv&) {
    if constexpr (N == 6) throw_unsupported_law(s);
    return std::make_unique<Cubic<N>>(s, s.args_as<CubicArgs>());
}

// A 1D elastic law f(e) given by a function object returning (f, df/de).
template <int N, class Fn>
class Scalar1D final : public ConstitutiveLaw<N> {
  public:
    using typename ConstitutiveLaw<N>::V;
    using typename ConstitutiveLaw<N>::M;

    explicit Scalar1D(Fn fn) : fn_(fn) {}
    void eval(const V& eps, const V&, double, V& F, M& K, M& C) const override {
        double f = 0.0, df = 0.0;
        fn_(eps[0], f, df);
        F[0] = f, K(0, 0) = df, C(0, 0) = 0.0;
    }
    int kind() const override { return law_elastic; }

  private:
    Fn fn_;
};

template <int N, class Fn>
LawPtr<N> scalar_law(const LawSpec& s, Fn fn) {
    if constexpr (N != 1) {
        throw_unsupported_law(s);
    } else {
        return std::make_unique<Scalar1D<N, Fn>>(fn);
    }
}

template <int N>
LawPtr<N> make_inverse_square(const LawSpec& s, const LawEnv&) {
    const auto& a = s.args_as<InverseSquareArgs>();
    const double A = a.stiffness, L0 = a.reference_length;
    return scalar_law<N>(s, [A, L0](double e, double& f, double& df) {
        const double d = L0 * (1.0 + e);
        f = A / (d * d);
        df = -2.0 * A * L0 / (d * d * d);
    });
}

template <int N>
LawPtr<N> make_log_elastic(const LawSpec& s, const LawEnv&) {
    const double k = s.args_as<LogElasticArgs>().stiffness;
    return scalar_law<N>(s, [k](double e, double& f, double& df) {
        constexpr double tiny = std::numeric_limits<double>::epsilon();
        const double x = 1.0 + e;
        f = k * std::log(x > tiny ? x : tiny);
        df = x > tiny ? k / x : 0.0;
    });
}

template <int N>
class IsotropicHardening final : public ConstitutiveLaw<N> {
  public:
    using typename ConstitutiveLaw<N>::V;
    using typename ConstitutiveLaw<N>::M;

    explicit IsotropicHardening(const IsotropicHardeningArgs& a)
        : k_(a.stiffness),
          a_(3.0 / (a.reference_strain * a.reference_strain)),
          b_(k_ != 0.0 ? a.linear_stiffness / k_ : 0.0) {}

    void eval(const V& eps, const V&, double, V& F, M& K, M& C) const override {
        const double s = eps.squaredNorm(), den = 1.0 + a_ * s;
        const double g = k_ * (b_ + a_ * s) / den;
        const double dg = k_ * a_ * (1.0 - b_) / (den * den);
        F = g * eps;
        K = g * M::Identity() + 2.0 * dg * eps * eps.transpose();
        C.setZero();
    }
    int kind() const override { return law_elastic; }

  private:
    double k_, a_, b_;
};

template <int N>
LawPtr<N> make_isotropic_hardening(const LawSpec& s, const LawEnv&) {
    return std::make_unique<IsotropicHardening<N>>(s.args_as<IsotropicHardeningArgs>());
}

template <int N>
class Contact final : public ConstitutiveLaw<N> {
  public:
    using typename ConstitutiveLaw<N>::V;
    using typename ConstitutiveLaw<N>::M;

    explicit Contact(const ContactArgs& a) : k_(a.stiffness), g_(a.exponent) {}
    void eval(const V& eps, const V&, double, V& F, M& K, M& C) const override {
        constexpr int a = axis<N>();
        F.setZero(), K.setZero(), C.setZero();
        const double e = eps[a];
        if (e >= 0.0) return;
        const double x = 1.0 + e;
        F[a] = k_ * (1.0 - std::pow(x, -g_));
        K(a, a) = g_ * k_ * std::pow(x, -g_ - 1.0);
    }
    int kind() const override { return law_elastic; }

  private:
    double k_, g_;
};

template <int N>
LawPtr<N> make_contact(const LawSpec& s, const LawEnv&) {
    if constexpr (N == 6) throw_unsupported_law(s);
    return std::make_unique<Contact<N>>(s.args_as<ContactArgs>());
}

template <int N>
class Turbulent final : public ConstitutiveLaw<N> {
  public:
    using typename ConstitutiveLaw<N>::V;
    using typename ConstitutiveLaw<N>::M;

    explicit Turbulent(const TurbulentArgs& a)
        : k_(a.stiffness),
          cpar_(a.parabolic_damping),
          threshold_(a.threshold),
          clin_(a.linear_damping) {}
    void eval(const V& eps, const V& epsdot, double, V& F, M& K, M& C) const override {
        const double ed = epsdot[0], a = std::fabs(ed);
        K(0, 0) = k_;
        if (a < threshold_) {
            F[0] = k_ * eps[0] + clin_ * ed;
            C(0, 0) = clin_;
        } else {
            F[0] = k_ * eps[0] + cpar_ * a * ed;
            C(0, 0) = 2.0 * cpar_ * a;
        }
    }
    int kind() const override { return law_elastic | law_viscous; }

  private:
    double k_, cpar_, threshold_, clin_;
};

template <int N>
LawPtr<N> make_turbulent(const LawSpec& s, const LawEnv&) {
    if constexpr (N != 1) {
        throw_unsupported_law(s);
    } else {
        return std::make_unique<Turbulent<N>>(s.args_as<TurbulentArgs>());
    }
}

template <int N>
class ScalarFunctionElastic final : public ConstitutiveLaw<N> {
  public:
    using typename ConstitutiveLaw<N>::V;
    using typename ConstitutiveLaw<N>::M;

    explicit ScalarFunctionElastic(const std::array<DrivePtr, N>& f) : f_(f) {}
    void eval(const V& eps, const V&, double, V& F, M& K, M& C) const override {
        F.setZero(), K.setZero(), C.setZero();
        for (int i = 0; i < N; ++i) {
            if (!f_[i]) continue;
            F[i] = f_[i]->value(eps[i]);
            K(i, i) = f_[i]->deriv(eps[i]);
        }
    }
    int kind() const override { return law_elastic; }

  private:
    std::array<DrivePtr, N> f_;
};

DrivePtr scalar_function(const SfRef& f, const LawSpec& s, const LawEnv& env) {
    return rt::scalar_function(f.name, f.definition.get(), s.loc, env);
}

template <int N>
LawPtr<N> make_sf_isotropic(const LawSpec& s, const LawEnv& env) {
    std::array<DrivePtr, N> f;
    f.fill(scalar_function(s.args_as<ScalarFunctionLawArgs>().functions.at(0), s, env));
    return std::make_unique<ScalarFunctionElastic<N>>(f);
}

template <int N>
LawPtr<N> make_sf_orthotropic(const LawSpec& s, const LawEnv& env) {
    const auto& a = s.args_as<ScalarFunctionLawArgs>();
    std::array<DrivePtr, N> f;
    for (int i = 0; i < N; ++i) {
        const SfRef& fi = a.functions.at(static_cast<std::size_t>(i));
        if (!fi.name.empty()) f[i] = scalar_function(fi, s, env);
    }
    return std::make_unique<ScalarFunctionElastic<N>>(f);
}

}  // namespace

MBS_REGISTER_LAW_KIND("double linear elastic",
                      {.read = read_double_linear_elastic,
                       .make = MBS_LAW_FACTORIES(make_double_linear_elastic)});
MBS_REGISTER_LAW_KIND("double linear viscoelastic",
                      {.read = read_double_linear_viscoelastic,
                       .make = MBS_LAW_FACTORIES(make_double_linear_viscoelastic)});
MBS_REGISTER_LAW_KIND("cubic elastic generic", {.read = read_cubic_elastic_generic,
                                                .make = MBS_LAW_FACTORIES(make_cubic_elastic)});
MBS_REGISTER_LAW_KIND("cubic viscoelastic generic",
                      {.read = read_cubic_viscoelastic_generic,
                       .make = MBS_LAW_FACTORIES(make_cubic_viscoelastic)});
MBS_REGISTER_LAW_KIND("inverse square elastic", {.read = read_inverse_square_elastic,
                                                 .make = MBS_LAW_FACTORIES(make_inverse_square)});
MBS_REGISTER_LAW_KIND("log elastic",
                      {.read = read_log_elastic, .make = MBS_LAW_FACTORIES(make_log_elastic)});
MBS_REGISTER_LAW_KIND("isotropic hardening elastic",
                      {.read = read_isotropic_hardening_elastic,
                       .make = MBS_LAW_FACTORIES(make_isotropic_hardening)});
MBS_REGISTER_LAW_KIND("contact elastic",
                      {.read = read_contact_elastic, .make = MBS_LAW_FACTORIES(make_contact)});
MBS_REGISTER_LAW_KIND("turbulent viscoelastic", {.read = read_turbulent_viscoelastic,
                                                 .make = MBS_LAW_FACTORIES(make_turbulent)});
MBS_REGISTER_LAW_KIND(
    "scalar function elastic",
    {.read = read_scalar_function_isotropic,
     .no_make = "read as scalar function elastic isotropic (the reader stores that type)"});
MBS_REGISTER_LAW_KIND("scalar function elastic isotropic",
                      {.read = read_scalar_function_isotropic,
                       .make = MBS_LAW_FACTORIES(make_sf_isotropic)});
MBS_REGISTER_LAW_KIND("scalar function elastic orthotropic",
                      {.read = read_scalar_function_orthotropic,
                       .make = MBS_LAW_FACTORIES(make_sf_orthotropic)});

}  // namespace mbs::laws
