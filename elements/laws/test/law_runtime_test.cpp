// Runtime constitutive laws: every law's tangents K = dF/deps and C = dF/depsdot against
// central finite differences of F (at points away from kinks), and values against the
// formulas of docs/deck-language.md section 6 worked out by hand here. Laws come from
// `constitutive law: L, dim, <law>;` cards.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/constitutive_law.hpp"
#include "core/source.hpp"
#include "parser/test_support.hpp"

namespace {

using mbs::ConstitutiveLaw;
using mbs::LawPtr;

class LawRuntime : public ::testing::Test {
  protected:
    mbs::SimClock clock;

    // The runtime law of `constitutive law: 1, N, <text>;` after the cards `before`.
    template <int N>
    LawPtr<N> law(const std::string& text, const std::string& before = "") {
        models_.push_back(std::make_unique<mbs::Model>(mbs::test::cards::build(
            before + "constitutive law: 1, " + std::to_string(N) + ", " + text + ";\n")));
        mbs::LawEnv env{{&clock, models_.back().get()}};
        return mbs::make_law<N>(*models_.back()->laws.at(1), env);
    }

    template <int N>
    using V = Eigen::Matrix<double, N, 1>;
    template <int N>
    using M = Eigen::Matrix<double, N, N>;

    template <int N>
    V<N> force(const ConstitutiveLaw<N>& l, const V<N>& e, const V<N>& ed, double t) {
        V<N> F;
        M<N> K, C;
        l.eval(e, ed, t, F, K, C);
        return F;
    }

    // K and C against central differences of F; relative to the largest entry (or 1).
    template <int N>
    void expect_tangents(const ConstitutiveLaw<N>& l, const V<N>& e, const V<N>& ed, double t,
                         double tol = 1e-7) {
        V<N> F;
        M<N> K, C;
        l.eval(e, ed, t, F, K, C);
        M<N> Kfd, Cfd;
        const double h = 1e-6;
        for (int j = 0; j < N; ++j) {
            V<N> d = V<N>::Zero();
            d[j] = h;
            Kfd.col(j) = (force(l, V<N>(e + d), ed, t) - force(l, V<N>(e - d), ed, t)) / (2 * h);
            Cfd.col(j) = (force(l, e, V<N>(ed + d), t) - force(l, e, V<N>(ed - d), t)) / (2 * h);
        }
        const double sk = std::max(1.0, Kfd.cwiseAbs().maxCoeff());
        const double sc = std::max(1.0, Cfd.cwiseAbs().maxCoeff());
        EXPECT_LT((K - Kfd).cwiseAbs().maxCoeff() / sk, tol) << "K\n" << K << "\nFD\n" << Kfd;
        EXPECT_LT((C - Cfd).cwiseAbs().maxCoeff() / sc, tol) << "C\n" << C << "\nFD\n" << Cfd;
    }

    // Random strain (scale `a`) and strain rate, reproducible.
    template <int N>
    V<N> random(double a) {
        std::uniform_real_distribution<double> u(-a, a);
        V<N> v;
        for (int i = 0; i < N; ++i) v[i] = u(gen_);
        return v;
    }

    template <int N>
    void expect_tangents_random(const ConstitutiveLaw<N>& l, double a = 0.05, int n = 5) {
        for (int k = 0; k < n; ++k) expect_tangents<N>(l, random<N>(a), random<N>(1.0), 0.37);
    }

  private:
    std::vector<std::unique_ptr<mbs::Model>> models_;
    std::mt19937 gen_{7};
};

template <int N>
Eigen::Matrix<double, N, 1> vec(std::initializer_list<double> v) {
    Eigen::Matrix<double, N, 1> r;
    int i = 0;
    for (double x : v) r[i++] = x;
    return r;
}

// --- linear laws --------------------------------------------------------------------------------

TEST_F(LawRuntime, LinearElasticIsotropicEveryDimension) {
    auto l1 = law<1>("linear elastic, 1.e3");
    EXPECT_DOUBLE_EQ(force<1>(*l1, vec<1>({0.02}), vec<1>({5.}), 0.)[0], 20.);
    EXPECT_EQ(l1->kind(), mbs::law_elastic);
    expect_tangents_random<1>(*l1);
    auto l3 = law<3>("linear elastic isotropic, 2.");
    EXPECT_TRUE(force<3>(*l3, vec<3>({1., 2., 3.}), vec<3>({1., 1., 1.}), 0.)
                    .isApprox(vec<3>({2., 4., 6.})));
    expect_tangents_random<3>(*l3);
    expect_tangents_random<6>(*law<6>("linear elastic, 7."));
}

TEST_F(LawRuntime, LinearElasticGeneric) {
    auto l = law<3>("linear elastic generic, 1., 2., 3., 4., 5., 6., 7., 8., 10.");
    // row-major K: F = K e
    EXPECT_TRUE(force<3>(*l, vec<3>({1., 0., -1.}), vec<3>({0., 0., 0.}), 0.)
                    .isApprox(vec<3>({-2., -2., -3.})));
    expect_tangents_random<3>(*l);
    expect_tangents_random<6>(*law<6>("linear elastic generic, diag, 1., 2., 3., 4., 5., 6."));
    expect_tangents_random<1>(*law<1>("linear elastic generic, 3."));
}

TEST_F(LawRuntime, LinearViscous) {
    auto l = law<3>("linear viscous, 4.");
    EXPECT_EQ(l->kind(), mbs::law_viscous);
    EXPECT_TRUE(force<3>(*l, vec<3>({1., 2., 3.}), vec<3>({1., -1., .5}), 0.)
                    .isApprox(vec<3>({4., -4., 2.})));
    expect_tangents_random<3>(*l);
    expect_tangents_random<6>(*law<6>("linear viscous generic, diag, 1., 2., 3., 4., 5., 6."));
}

TEST_F(LawRuntime, LinearViscoelasticIsotropicAndProportional) {
    auto l = law<1>("linear viscoelastic, 100., 3.");
    EXPECT_EQ(l->kind(), mbs::law_elastic | mbs::law_viscous);
    EXPECT_DOUBLE_EQ(force<1>(*l, vec<1>({0.1}), vec<1>({2.}), 0.)[0], 16.);
    expect_tangents_random<1>(*l);
    auto p = law<3>("linear viscoelastic isotropic, 100., proportional, 0.1");
    // C = 0.1 K = 10
    EXPECT_TRUE(force<3>(*p, vec<3>({0.1, 0., 0.}), vec<3>({0., 1., 0.}), 0.)
                    .isApprox(vec<3>({10., 10., 0.})));
    expect_tangents_random<3>(*p);
}

TEST_F(LawRuntime, LinearViscoelasticGeneric) {
    auto l = law<3>(
        "linear viscoelastic generic, 1., 2., 3., 4., 5., 6., 7., 8., 10., diag, .1, .2, .3");
    EXPECT_TRUE(force<3>(*l, vec<3>({1., 0., -1.}), vec<3>({1., 1., 1.}), 0.)
                    .isApprox(vec<3>({-1.9, -1.8, -2.7})));
    expect_tangents_random<3>(*l);
    expect_tangents_random<6>(
        *law<6>("linear viscoelastic generic, diag, 1., 2., 3., 4., 5., 6., proportional, 0.05"));
}

// K s_K(t) e + C s_C(t) edot with s_K = 1 + t (ramp) and s_C = 2 (const).
TEST_F(LawRuntime, LinearTimeVariant) {
    auto l = law<3>(
        "linear time variant viscoelastic generic, diag, 1., 2., 3., linear, 1., 1., "
        "diag, .1, .2, .3, const, 2.");
    const double t = 0.5;
    EXPECT_TRUE(force<3>(*l, vec<3>({1., 1., 1.}), vec<3>({1., 1., 1.}), t)
                    .isApprox(vec<3>({1.5 + .2, 3. + .4, 4.5 + .6})));
    expect_tangents<3>(*l, random<3>(0.1), random<3>(1.), t);
}

// K44 = GJ + c eps_1: F_4 = (GJ + c eps_1) eps_4, an exact tangent with the coupling term.
TEST_F(LawRuntime, AxialTorsionCoupling) {
    auto l =
        law<6>("linear elastic generic axial torsion coupling, diag, 1., 2., 3., 4., 5., 6., 50.");
    auto e = vec<6>({0.1, 0., 0., 0.2, 0., 0.});
    EXPECT_NEAR(force<6>(*l, e, vec<6>({0, 0, 0, 0, 0, 0}), 0.)[3], (4. + 50. * 0.1) * 0.2, 1e-14);
    expect_tangents_random<6>(*l, 0.2);
    expect_tangents_random<6>(*law<6>("linear viscoelastic generic axial torsion coupling, diag, "
                                      "1., 2., 3., 4., 5., 6., proportional, .1, 20."),
                              0.2);
}

// --- bistop laws
// ----------------------------------------------------------------------------------

// MBDyn's switch (LinearViscoElasticBiStop::Update): at every evaluation, the drives at that
// evaluation's time; a switch-on takes that evaluation's strain as eps_ref and acts at once; the
// state stays until a later evaluation changes it. Activation: a step at t = 0.5, deactivation:
// a step at t = 1 (steps are 0.5 exactly at their time, i.e. non-zero: MBDyn's step drive).
TEST_F(LawRuntime, LinearElasticBistop) {
    auto l = law<1>("linear elastic bistop, 100., step, 0.5, 1., 0., step, 1., 1., 0.");
    auto f = [&](double e, double t) { return force<1>(*l, vec<1>({e}), vec<1>({0.}), t)[0]; };
    EXPECT_EQ(f(0.3, 0.4), 0.);                       // activation drive 0: off
    l->after_step(vec<1>({0.3}), vec<1>({0.}), 0.4);  // converged steps do not switch
    EXPECT_EQ(f(0.2, 0.5), 0.);                       // on at t = 0.5 with eps_ref = 0.2: F = 0
    EXPECT_NEAR(f(0.3, 0.5), 10., 1e-12);             // the same step's next iterate: K (0.3 - 0.2)
    EXPECT_NEAR(f(0.25, 0.7), 5., 1e-12);             // stays on (eps_ref kept)
    expect_tangents<1>(*l, vec<1>({0.25}), vec<1>({1.}), 0.7);
    EXPECT_EQ(f(0.3, 1.0), 0.);  // off at t = 1 (the step drive is 0.5 there)
    EXPECT_EQ(f(0.4, 1.1), 0.);  // both drives non-zero: on and off again in each
    EXPECT_EQ(f(0.5, 1.2), 0.);  // evaluation, i.e. off
}

TEST_F(LawRuntime, BistopSwitchesOnAndOffInOneEvaluation) {
    // Activation and deactivation non-zero at the same first time t = 0.5: never acts (MBDyn's
    // fall-through from the switch-on to the switch-off test).
    auto l = law<1>("linear elastic bistop, 100., step, 0.5, 1., 0., step, 0.5, 1., 0.");
    EXPECT_EQ(force<1>(*l, vec<1>({0.3}), vec<1>({0.}), 0.5)[0], 0.);
    EXPECT_EQ(force<1>(*l, vec<1>({0.4}), vec<1>({0.}), 0.6)[0], 0.);
    // A pulse: on at [0.5, 0.6) only via `double step`; off drive never. On at 0.55 with
    // eps_ref 0.1, then stays on after the pulse (only the deactivation drive turns it off).
    auto p = law<1>("linear elastic bistop, 100., double step, 0.5, 0.6, 1., 0., null");
    EXPECT_EQ(force<1>(*p, vec<1>({0.1}), vec<1>({0.}), 0.45)[0], 0.);
    EXPECT_EQ(force<1>(*p, vec<1>({0.1}), vec<1>({0.}), 0.55)[0], 0.);
    EXPECT_NEAR(force<1>(*p, vec<1>({0.3}), vec<1>({0.}), 0.9)[0], 20., 1e-12);
}

TEST_F(LawRuntime, LinearViscoelasticBistopInitiallyActive) {
    auto l = law<3>(
        "linear viscoelastic bistop, 100., 2., initial status, active, null, step, 1., 1., 0.");
    EXPECT_TRUE(force<3>(*l, vec<3>({0.1, 0., 0.}), vec<3>({0., 1., 0.}), 0.)
                    .isApprox(vec<3>({10., 2., 0.})));
    expect_tangents_random<3>(*l);
    EXPECT_EQ(force<3>(*l, vec<3>({0.1, 0., 0.}), vec<3>({0., 1., 0.}), 1.5).norm(), 0.);
    EXPECT_EQ(force<3>(*l, vec<3>({0.1, 0., 0.}), vec<3>({0., 1., 0.}), 0.).norm(),
              0.);  // stays off
}

TEST_F(LawRuntime, BistopWrapper) {
    auto l = law<1>("bistop, step, 0.5, 1., 0., null, cubic elastic generic, 10., 20., 30.");
    EXPECT_EQ(force<1>(*l, vec<1>({0.1}), vec<1>({0.}), 0.)[0], 0.);
    EXPECT_EQ(force<1>(*l, vec<1>({0.1}), vec<1>({0.}), 0.6)[0], 0.);  // on, eps_ref = 0.1
    const double x = 0.2 - 0.1;
    EXPECT_NEAR(force<1>(*l, vec<1>({0.2}), vec<1>({0.}), 0.6)[0],
                10 * x + 20 * x * x + 30 * x * x * x, 1e-12);
    expect_tangents<1>(*l, vec<1>({0.25}), vec<1>({0.}), 0.7);
}

// --- nonlinear laws
// -------------------------------------------------------------------------------

TEST_F(LawRuntime, DoubleLinearElastic) {
    // K1 = 10 in [-0.1, 0.2], K2 = 30 above, K3 = 5 below
    auto l = law<1>("double linear elastic, 10., 0.2, -0.1, 30., third stiffness, 5.");
    auto f = [&](double e) { return force<1>(*l, vec<1>({e}), vec<1>({0.}), 0.)[0]; };
    EXPECT_NEAR(f(0.1), 1., 1e-14);
    EXPECT_NEAR(f(0.3), 2. + 3., 1e-14);
    EXPECT_NEAR(f(-0.3), -1. - 1., 1e-14);
    for (double e : {0.1, 0.3, -0.3}) expect_tangents<1>(*l, vec<1>({e}), vec<1>({0.}), 0.);
    // 3D: only component 3 is bilinear
    auto l3 = law<3>("double linear elastic, 10., 0.2, -0.1, 30.");
    EXPECT_TRUE(force<3>(*l3, vec<3>({0.5, 0.5, 0.5}), vec<3>({0., 0., 0.}), 0.)
                    .isApprox(vec<3>({5., 5., 2. + 9.})));
    expect_tangents<3>(*l3, vec<3>({0.5, -0.5, 0.5}), vec<3>({0., 0., 0.}), 0.);
    expect_tangents<3>(*l3, vec<3>({0.5, -0.5, -0.5}), vec<3>({0., 0., 0.}), 0.);
}

TEST_F(LawRuntime, DoubleLinearViscoelastic) {
    auto l = law<1>("double linear viscoelastic, 10., 0.2, -0.1, 30., 1., second damping, 3.");
    EXPECT_NEAR(force<1>(*l, vec<1>({0.1}), vec<1>({2.}), 0.)[0], 1. + 2., 1e-14);
    EXPECT_NEAR(force<1>(*l, vec<1>({0.3}), vec<1>({2.}), 0.)[0], 5. + 6., 1e-14);
    for (double e : {0.1, 0.3, -0.3}) expect_tangents<1>(*l, vec<1>({e}), vec<1>({2.}), 0.);
    auto l3 = law<3>("double linear viscoelastic, 10., 0.2, -0.1, 30., 1.");
    expect_tangents<3>(*l3, vec<3>({0.5, -0.5, 0.5}), vec<3>({1., 2., 3.}), 0.);
}

TEST_F(LawRuntime, Cubic) {
    auto l = law<1>("cubic elastic generic, 10., 20., 30.");
    EXPECT_NEAR(force<1>(*l, vec<1>({-0.5}), vec<1>({0.}), 0.)[0], -5. - 5. - 3.75, 1e-14);
    expect_tangents_random<1>(*l, 0.5);
    auto l3 =
        law<3>("cubic viscoelastic generic, 1., 2., 3., 4., 5., 6., 7., 8., 9., diag, .1, .2, .3");
    expect_tangents_random<3>(*l3, 0.5);
}

TEST_F(LawRuntime, InverseSquareAndLog) {
    auto inv = law<1>("inverse square elastic, 2., 0.5");
    // A / (L0 (1 + e))^2 at e = 1: 2 / 1 = 2
    EXPECT_NEAR(force<1>(*inv, vec<1>({1.}), vec<1>({0.}), 0.)[0], 2., 1e-14);
    expect_tangents_random<1>(*inv, 0.5);
    auto lg = law<1>("log elastic, 3.");
    EXPECT_NEAR(force<1>(*lg, vec<1>({std::exp(1.) - 1.}), vec<1>({0.}), 0.)[0], 3., 1e-14);
    expect_tangents_random<1>(*lg, 0.5);
}

// f = K (b + a s)/(1 + a s) e with a = 3/e_ref^2: at |e| = e_ref, f = K (b + 3)/4 e.
TEST_F(LawRuntime, IsotropicHardening) {
    auto l = law<1>("isotropic hardening elastic, 100., 0.1, linear stiffness, 20.");
    EXPECT_NEAR(force<1>(*l, vec<1>({0.1}), vec<1>({0.}), 0.)[0], 100. * (0.2 + 3.) / 4. * 0.1,
                1e-12);
    expect_tangents_random<1>(*l, 0.3);
    expect_tangents_random<3>(*law<3>("isotropic hardening elastic, 100., 0.1"), 0.3);
    expect_tangents_random<6>(
        *law<6>("isotropic hardening elastic, 100., 0.1, linear stiffness, 5."), 0.3);
}

TEST_F(LawRuntime, ContactElastic) {
    auto l = law<1>("contact elastic, 10., 2.");
    EXPECT_EQ(force<1>(*l, vec<1>({0.1}), vec<1>({0.}), 0.)[0], 0.);
    // K (1 - (1 + e)^-gamma) at e = -0.5: 10 (1 - 4) = -30
    EXPECT_NEAR(force<1>(*l, vec<1>({-0.5}), vec<1>({0.}), 0.)[0], -30., 1e-12);
    expect_tangents<1>(*l, vec<1>({-0.3}), vec<1>({0.}), 0.);
    expect_tangents<1>(*l, vec<1>({0.3}), vec<1>({0.}), 0.);
    auto l3 = law<3>("contact elastic, 10., 1.5");
    expect_tangents<3>(*l3, vec<3>({-0.3, 0.2, -0.2}), vec<3>({0., 0., 0.}), 0.);
}

TEST_F(LawRuntime, TurbulentViscoelastic) {
    // K = 10, Cpar = 2, threshold 0.5, Clin = 1 (the default, threshold * Cpar)
    auto l = law<1>("turbulent viscoelastic, 10., 2., 0.5");
    EXPECT_NEAR(force<1>(*l, vec<1>({0.1}), vec<1>({0.2}), 0.)[0], 1. + 0.2, 1e-14);
    EXPECT_NEAR(force<1>(*l, vec<1>({0.1}), vec<1>({-2.}), 0.)[0], 1. - 8., 1e-14);
    for (double ed : {0.2, -2., 3.}) expect_tangents<1>(*l, vec<1>({0.1}), vec<1>({ed}), 0.);
}

TEST_F(LawRuntime, ScalarFunctionElastic) {
    const std::string sf = "scalar function: \"sf\", exp, coefficient, 2., 3.;\n";
    auto l = law<3>("scalar function elastic isotropic, \"sf\"", sf);
    EXPECT_TRUE(force<3>(*l, vec<3>({0., 0.5, 1.}), vec<3>({0., 0., 0.}), 0.)
                    .isApprox(vec<3>({3., 3. * std::exp(1.), 3. * std::exp(2.)})));
    expect_tangents_random<3>(*l, 0.5);
    auto o = law<3>("scalar function elastic orthotropic, \"sf\", null, \"sf\"", sf);
    EXPECT_EQ(force<3>(*o, vec<3>({0., 0.5, 0.}), vec<3>({0., 0., 0.}), 0.)[1], 0.);
    expect_tangents_random<3>(*o, 0.5);
    expect_tangents_random<1>(*law<1>("scalar function elastic, \"sf\"", sf), 0.5);
}

// --- wrappers, prestress and prestrain -----------------------------------------------------------

TEST_F(LawRuntime, ArraySumsItsLaws) {
    auto l = law<1>("array, 2, linear elastic, 10., linear viscous, 2.");
    EXPECT_EQ(l->kind(), mbs::law_elastic | mbs::law_viscous);
    EXPECT_NEAR(force<1>(*l, vec<1>({0.1}), vec<1>({1.}), 0.)[0], 3., 1e-14);
    expect_tangents_random<1>(*l);
}

TEST_F(LawRuntime, DriveCallerWrapperScales) {
    auto l = law<3>("drive caller wrapper, linear, 1., 2., linear viscoelastic, 10., 1.");
    // w(0.5) = 2
    EXPECT_TRUE(force<3>(*l, vec<3>({0.1, 0., 0.}), vec<3>({0., 1., 0.}), 0.5)
                    .isApprox(vec<3>({2., 2., 0.})));
    expect_tangents<3>(*l, random<3>(0.1), random<3>(1.), 0.5);
}

TEST_F(LawRuntime, AxialWrapper) {
    auto l = law<3>("axial wrapper, 0., 0., 2., linear viscoelastic, 10., 1.");
    EXPECT_TRUE(force<3>(*l, vec<3>({1., 1., 0.1}), vec<3>({1., 1., 1.}), 0.)
                    .isApprox(vec<3>({0., 0., 2.})));
    expect_tangents_random<3>(
        *law<3>("axial wrapper, 1., 2., 2., cubic elastic generic, 1., 2., 3."), 0.3);
}

// F = F0 + K (eps - eps0(t)), eps0 = 0.01 (1 + t)
TEST_F(LawRuntime, PrestressAndPrestrain) {
    auto l = law<1>("linear elastic, 1.e3, prestress, 5., prestrain, single, 0.01, linear, 1., 1.");
    EXPECT_NEAR(force<1>(*l, vec<1>({0.05}), vec<1>({0.}), 1.)[0], 5. + 1000. * (0.05 - 0.02),
                1e-12);
    expect_tangents<1>(*l, vec<1>({0.05}), vec<1>({0.3}), 1.);
    auto v = law<3>("linear viscous, 2., prestress, 1., 2., 3.");
    EXPECT_TRUE(force<3>(*v, vec<3>({9., 9., 9.}), vec<3>({1., 0., 0.}), 0.)
                    .isApprox(vec<3>({3., 2., 3.})));
}

// MBDyn's 1D prestrain is a plain drive caller (its scalar template drive has no entity):
// eps0 = 0.01 (1 + t) written `linear, 0.01, 0.01`, `single, linear, ...` or as a bare number;
// the same force as mbsolve's older `single, 0.01, linear, 1., 1.` above.
TEST_F(LawRuntime, PrestrainAsMBDynWritesIt) {
    for (const char* p : {"prestrain, linear, 0.01, 0.01", "prestrain, single, linear, 0.01, 0.01",
                          "prestrain, component, linear, 0.01, 0.01"}) {
        auto l = law<1>(std::string("linear elastic, 1.e3, prestress, 5., ") + p);
        EXPECT_NEAR(force<1>(*l, vec<1>({0.05}), vec<1>({0.}), 1.)[0], 5. + 1000. * (0.05 - 0.02),
                    1e-12)
            << p;
    }
    auto c = law<1>("linear elastic, 1.e3, prestrain, 0.02");
    EXPECT_NEAR(force<1>(*c, vec<1>({0.05}), vec<1>({0.}), 1.)[0], 1000. * (0.05 - 0.02), 1e-12);
    auto k = law<1>("linear elastic, 1.e3, prestrain, const, 0.");
    EXPECT_NEAR(force<1>(*k, vec<1>({0.05}), vec<1>({0.}), 1.)[0], 50., 1e-12);
}

TEST_F(LawRuntime, UnsupportedLawStopsAtTheLaw) {
    try {
        law<3>("invariant angular, 0.5, linear elastic, 1.");
        FAIL() << "no error";
    } catch (const mbs::InputError& e) {
        EXPECT_EQ(e.where(), "t.mbd:4:25");
        EXPECT_NE(std::string(e.what()).find("invariant angular"), std::string::npos);
    }
}

}  // namespace
