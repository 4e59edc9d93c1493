// Nonlinear elastic and viscoelastic laws (docs/deck-language.md section 6; MBDyn
// constltp_impl.cc).
//
// Parameters (LawSpec::params, "kind" first, then card order):
//   double linear elastic (1, 3)     "stiffness" "upper strain" (> 0) "lower strain" (< 0)
//                                    "second stiffness" "third stiffness" (default: second):
//                                    K1 inside [lower, upper], K2 above, K3 below; in 3D
//                                    only component 3 is bilinear
//   double linear viscoelastic (1, 3)  as above without "third stiffness", then "damping"
//                                    "second damping" (default: damping, used outside)
//   cubic elastic generic (1, 3)     "k1" "k2" "k3" (VecN entities):
//                                    f = k1 eps + k2 |eps| eps + k3 eps^3, per component
//   cubic viscoelastic generic (1, 3)  as above, then "damping" (VecN DerivEntity)
//   inverse square elastic (1)       "stiffness" (A) "reference length" (L0 > 0)
//   log elastic (1)                  "stiffness": f = K log(1 + eps)
//   isotropic hardening elastic      "stiffness" "reference strain" (> 0)
//                                    "linear stiffness" (default 0)
//   contact elastic (1, 3)           "stiffness" "exponent" (gamma >= 1)
//   turbulent viscoelastic (1)       "stiffness" "parabolic damping" "threshold" (default 0)
//                                    "linear damping" (default threshold * parabolic damping):
//                                    C = linear damping for |eps_dot| < threshold, else
//                                    2 parabolic damping |eps_dot|
//
// Laws built from scalar functions (docs/deck-language.md section 6).
//
// Parameters (LawSpec::params, "kind" first, then card order):
//   scalar function elastic [isotropic]  "function" (name; see read_scalar_function_ref):
//                               f_i = sf(eps_i) for each component
//   scalar function elastic orthotropic  "function 1" ... "function n" (names; "" for `null`,
//                               a component without force); dimension 1 reads one name
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

#include "core/registry.hpp"
#include "elements/laws/law_util.hpp"
#include "elements/laws/runtime_law_util.hpp"

namespace mbs::laws {
namespace {

double read_stiffness(Reader& r, std::string_view what = "stiffness") {
    SourceLoc at = r.loc();
    double k = r.real(what);
    warn_if_negative(r, at, k, what);
    return k;
}

// K1, upper strain, lower strain, K2 (shared by the two double linear laws).
void read_double_linear_base(Reader& r, LawSpec& law) {
    law.params.set("stiffness", read_stiffness(r));
    SourceLoc at = r.loc();
    double up = r.real("upper strain");
    if (up <= 0.0) r.error_at(at, "the upper strain must be positive, got " + num(up));
    law.params.set("upper strain", up);
    at = r.loc();
    double low = r.real("lower strain");
    if (low >= 0.0) r.error_at(at, "the lower strain must be negative, got " + num(low));
    law.params.set("lower strain", low);
    law.params.set("second stiffness", read_stiffness(r, "second stiffness"));
}

void read_double_linear_elastic(Reader& r, LawSpec& law) {
    require_dim(r, law, "double linear elastic", {1, 3});
    law.kind = elastic;
    read_double_linear_base(r, law);
    double k3 = law.params.get<double>("second stiffness");
    if (r.accept("third stiffness")) k3 = read_stiffness(r, "third stiffness");
    law.params.set("third stiffness", k3);
}

void read_double_linear_viscoelastic(Reader& r, LawSpec& law) {
    require_dim(r, law, "double linear viscoelastic", {1, 3});
    law.kind = viscoelastic;
    read_double_linear_base(r, law);
    double c = read_stiffness(r, "damping");
    law.params.set("damping", c);
    if (r.accept("second damping")) c = read_stiffness(r, "second damping");
    law.params.set("second damping", c);
}

void read_cubic_entities(Reader& r, LawSpec& law) {
    law.params.set("k1", r.entity(law.dim, "linear stiffness K1"));
    law.params.set("k2", r.entity(law.dim, "quadratic stiffness K2"));
    law.params.set("k3", r.entity(law.dim, "cubic stiffness K3"));
}

void read_cubic_elastic_generic(Reader& r, LawSpec& law) {
    require_dim(r, law, "cubic elastic generic", {1, 3});
    law.kind = elastic;
    read_cubic_entities(r, law);
}

void read_cubic_viscoelastic_generic(Reader& r, LawSpec& law) {
    require_dim(r, law, "cubic viscoelastic generic", {1, 3});
    law.kind = viscoelastic;
    read_cubic_entities(r, law);
    law.params.set("damping", r.deriv_entity(law.dim, "damping"));
}

void read_inverse_square_elastic(Reader& r, LawSpec& law) {
    require_dim(r, law, "inverse square elastic", {1});
    law.kind = elastic;
    law.params.set("stiffness", read_stiffness(r));
    law.params.set("reference length", r.positive("reference length"));
}

void read_log_elastic(Reader& r, LawSpec& law) {
    require_dim(r, law, "log elastic", {1});
    law.kind = elastic;
    law.params.set("stiffness", read_stiffness(r));
}

void read_isotropic_hardening_elastic(Reader& r, LawSpec& law) {
    law.kind = elastic;
    law.params.set("stiffness", read_stiffness(r));
    law.params.set("reference strain", r.positive("reference strain"));
    double k0 = 0.0;
    if (r.accept("linear stiffness")) k0 = r.real("linear stiffness");
    law.params.set("linear stiffness", k0);
}

void read_contact_elastic(Reader& r, LawSpec& law) {
    require_dim(r, law, "contact elastic", {1, 3});
    law.kind = elastic;
    law.params.set("stiffness", read_stiffness(r));
    SourceLoc at = r.loc();
    double gamma = r.real("exponent");
    if (gamma < 1.0) r.error_at(at, "the contact exponent must be at least 1, got " + num(gamma));
    law.params.set("exponent", gamma);
}

// The optional threshold and linear damping are read only when a value follows (MBDyn reads
// any argument, which breaks on a following `prestress` or law keyword).
void read_turbulent_viscoelastic(Reader& r, LawSpec& law) {
    require_dim(r, law, "turbulent viscoelastic", {1});
    law.kind = viscoelastic;
    law.params.set("stiffness", read_stiffness(r));
    double cpar = read_stiffness(r, "parabolic damping");
    law.params.set("parabolic damping", cpar);
    double threshold = 0.0;
    if (drives::next_is_value(r)) threshold = drives::real_or(r, "threshold", 0.0);
    law.params.set("threshold", threshold);
    double clin = threshold * cpar;
    if (drives::next_is_value(r)) clin = drives::real_or(r, "linear damping", clin);
    law.params.set("linear damping", clin);
}

void read_scalar_function_isotropic(Reader& r, LawSpec& law) {
    law.type = "scalarfunctionelasticisotropic";
    law.kind = elastic;
    drives::read_scalar_function_ref(r, law.params, "function");
}

void read_scalar_function_orthotropic(Reader& r, LawSpec& law) {
    if (law.dim == 1) {
        read_scalar_function_isotropic(r, law);
        return;
    }
    law.kind = elastic;
    for (int i = 1; i <= law.dim; ++i) {
        std::string key = "function " + std::to_string(i);
        if (r.accept("null"))
            law.params.set(key, std::string());
        else
            drives::read_scalar_function_ref(r, law.params, key);
    }
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

    DoubleLinear(const LawSpec& s, bool viscous)
        : k1_(rt::real(s, "stiffness")),
          up_(rt::real(s, "upper strain")),
          lo_(rt::real(s, "lower strain")),
          k2_(rt::real(s, "second stiffness")),
          k3_(viscous ? k2_ : rt::real(s, "third stiffness")),
          c1_(viscous ? rt::real(s, "damping") : 0.0),
          c2_(viscous ? rt::real(s, "second damping") : 0.0),
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
    return std::make_unique<DoubleLinear<N>>(s, false);
}

template <int N>
LawPtr<N> make_double_linear_viscoelastic(const LawSpec& s, const LawEnv&) {
    if constexpr (N == 6) throw_unsupported_law(s);
    return std::make_unique<DoubleLinear<N>>(s, true);
}

template <int N>
class Cubic final : public ConstitutiveLaw<N> {
  public:
    using typename ConstitutiveLaw<N>::V;
    using typename ConstitutiveLaw<N>::M;

    Cubic(const LawSpec& s, bool viscous)
        : k1_(rt::entity<N>(s, "k1")),
          k2_(rt::entity<N>(s, "k2")),
          k3_(rt::entity<N>(s, "k3")),
          C_(viscous ? rt::deriv_entity<N>(s, "damping") : Mn<N>::Zero()),
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
    return std::make_unique<Cubic<N>>(s, false);
}

template <int N>
LawPtr<N> make_cubic_viscoelastic(const LawSpec& s, const LawEnv&) {
    if constexpr (N == 6) throw_unsupported_law(s);
    return std::make_unique<Cubic<N>>(s, true);
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
    const double A = rt::real(s, "stiffness"), L0 = rt::real(s, "reference length");
    return scalar_law<N>(s, [A, L0](double e, double& f, double& df) {
        const double d = L0 * (1.0 + e);
        f = A / (d * d);
        df = -2.0 * A * L0 / (d * d * d);
    });
}

template <int N>
LawPtr<N> make_log_elastic(const LawSpec& s, const LawEnv&) {
    const double k = rt::real(s, "stiffness");
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

    explicit IsotropicHardening(const LawSpec& s)
        : k_(rt::real(s, "stiffness")),
          a_(3.0 / (rt::real(s, "reference strain") * rt::real(s, "reference strain"))),
          b_(k_ != 0.0 ? rt::real(s, "linear stiffness") / k_ : 0.0) {}

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
    return std::make_unique<IsotropicHardening<N>>(s);
}

template <int N>
class Contact final : public ConstitutiveLaw<N> {
  public:
    using typename ConstitutiveLaw<N>::V;
    using typename ConstitutiveLaw<N>::M;

    explicit Contact(const LawSpec& s)
        : k_(rt::real(s, "stiffness")), g_(rt::real(s, "exponent")) {}
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
    return std::make_unique<Contact<N>>(s);
}

template <int N>
class Turbulent final : public ConstitutiveLaw<N> {
  public:
    using typename ConstitutiveLaw<N>::V;
    using typename ConstitutiveLaw<N>::M;

    explicit Turbulent(const LawSpec& s)
        : k_(rt::real(s, "stiffness")),
          cpar_(rt::real(s, "parabolic damping")),
          threshold_(rt::real(s, "threshold")),
          clin_(rt::real(s, "linear damping")) {}
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
        return std::make_unique<Turbulent<N>>(s);
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

template <int N>
LawPtr<N> make_sf_isotropic(const LawSpec& s, const LawEnv& env) {
    std::array<DrivePtr, N> f;
    f.fill(rt::scalar_function(s, "function", env));
    return std::make_unique<ScalarFunctionElastic<N>>(f);
}

template <int N>
LawPtr<N> make_sf_orthotropic(const LawSpec& s, const LawEnv& env) {
    std::array<DrivePtr, N> f;
    for (int i = 0; i < N; ++i) {
        const std::string key = "function " + std::to_string(i + 1);
        if (!s.params.get<std::string>(key).empty()) f[i] = rt::scalar_function(s, key, env);
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
