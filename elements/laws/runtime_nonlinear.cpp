// Runtime of the nonlinear constitutive laws (reader: nonlinear_laws.cpp and the scalar
// function laws of wrapper_laws.cpp); MBDyn's constltp_impl.h formulas, exact tangents:
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

#include "elements/laws/runtime_law_util.hpp"

namespace mbs::laws {
namespace {

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

MBS_REGISTER_LAW_RUNTIME("double linear elastic", make_double_linear_elastic);
MBS_REGISTER_LAW_RUNTIME("double linear viscoelastic", make_double_linear_viscoelastic);
MBS_REGISTER_LAW_RUNTIME("cubic elastic generic", make_cubic_elastic);
MBS_REGISTER_LAW_RUNTIME("cubic viscoelastic generic", make_cubic_viscoelastic);
MBS_REGISTER_LAW_RUNTIME("inverse square elastic", make_inverse_square);
MBS_REGISTER_LAW_RUNTIME("log elastic", make_log_elastic);
MBS_REGISTER_LAW_RUNTIME("isotropic hardening elastic", make_isotropic_hardening);
MBS_REGISTER_LAW_RUNTIME("contact elastic", make_contact);
MBS_REGISTER_LAW_RUNTIME("turbulent viscoelastic", make_turbulent);
MBS_REGISTER_LAW_RUNTIME("scalar function elastic isotropic", make_sf_isotropic);
MBS_REGISTER_LAW_RUNTIME("scalar function elastic orthotropic", make_sf_orthotropic);

}  // namespace mbs::laws
