// Constitutive-law readers: parameters, kinds, dimensions, wrappers, and errors located at the
// offending argument. Laws come from `constitutive law: L, dim, <law>;` cards.
#include <gtest/gtest.h>

#include <string>

#include "core/model.hpp"
#include "parser/test_support.hpp"

namespace {

using mbs::LawSpec;
using mbs::VecN;
// Cards follow the three-line preamble, so the first card is on line 4.
using namespace mbs::test::cards;
using mbs::test::Keys;

std::shared_ptr<const LawSpec> law(int dim, const std::string& text) {
    mbs::Model m = build("constitutive law: 1, " + std::to_string(dim) + ", " + text + ";\n");
    return m.laws.at(1);
}

std::string kind(const LawSpec& l) { return mbs::law_response_name(l.kind); }

// The names --dump-model prints for a law: "kind", then its arguments (LawSpec::view()).
Keys keys(const LawSpec& l) {
    Keys k{"kind"};
    const mbs::Props view = l.view();
    for (const auto& [name, v] : view.items()) k.push_back(name);
    return k;
}

double num(const LawSpec& l, const char* key) { return l.view().get<double>(key); }

VecN diag(std::initializer_list<double> d) {
    std::size_t n = d.size();
    VecN m(n * n, 0.0);
    std::size_t i = 0;
    for (double v : d) m[i * n + i] = v, ++i;
    return m;
}

// --- linear laws -------------------------------------------------------------------------------

TEST(laws, LinearElasticInEveryDimension) {
    for (int dim : {1, 3, 6}) {
        auto l = law(dim, "linear elastic, 1.e3");
        EXPECT_EQ(l->type, "linearelastic");
        EXPECT_EQ(l->dim, dim);
        EXPECT_EQ(keys(*l), (Keys{"kind", "stiffness"}));
        EXPECT_EQ(kind(*l), "elastic");
        EXPECT_DOUBLE_EQ(num(*l, "stiffness"), 1.e3);
    }
    // The isotropic spelling is the same law.
    EXPECT_EQ(law(3, "linear elastic isotropic, 2.")->type, "linearelastic");
}

TEST(laws, LinearElasticGeneric) {
    auto l = law(6, "linear elastic generic, diag, 1., 2., 3., 4., 5., 6.");
    EXPECT_EQ(l->view().get<VecN>("stiffness"), diag({1., 2., 3., 4., 5., 6.}));
    auto s = law(3, "linear elastic generic, sym, 1., 2., 3., 4., 5., 6.");
    EXPECT_EQ(s->view().get<VecN>("stiffness"), (VecN{1., 2., 3., 2., 4., 5., 3., 5., 6.}));
    EXPECT_EQ(law(1, "linear elastic generic, 5.")->view().get<VecN>("stiffness"), (VecN{5.}));
}

TEST(laws, AxialTorsionCouplingIs6DOnly) {
    auto l =
        law(6, "linear elastic generic axial torsion coupling, diag, 1., 2., 3., 4., 5., 6., 0.5");
    EXPECT_DOUBLE_EQ(num(*l, "coupling"), 0.5);
    std::string cards =
        "constitutive law: 1, 3, linear elastic generic axial torsion coupling, eye, 0.5;\n";
    std::string msg;
    EXPECT_EQ(error_at(cards, &msg), where_of(cards, "linear"));
    EXPECT_NE(msg.find("allowed: 6"), std::string::npos) << msg;
}

TEST(laws, LinearViscous) {
    auto l = law(3, "linear viscous, 10.");
    EXPECT_EQ(kind(*l), "viscous");
    EXPECT_EQ(keys(*l), (Keys{"kind", "damping"}));
    auto g = law(3, "linear viscous generic, diag, 1., 2., 3.");
    EXPECT_EQ(kind(*g), "viscous");
    EXPECT_EQ(g->view().get<VecN>("damping"), diag({1., 2., 3.}));
}

TEST(laws, LinearViscoelastic) {
    auto l = law(1, "linear viscoelastic, 100., 2.");
    EXPECT_EQ(kind(*l), "viscoelastic");
    EXPECT_EQ(keys(*l), (Keys{"kind", "stiffness", "damping"}));
    auto p = law(1, "linear viscoelastic isotropic, 100., proportional, 0.01");
    EXPECT_EQ(p->type, "linearviscoelastic");
    EXPECT_DOUBLE_EQ(num(*p, "damping"), 1.0);
    EXPECT_DOUBLE_EQ(num(*p, "proportional"), 0.01);
    // K = 0 makes it viscous, C = 0 elastic (as MBDyn).
    EXPECT_EQ(kind(*law(1, "linear viscoelastic, 0., 2.")), "viscous");
    EXPECT_EQ(kind(*law(1, "linear viscoelastic, 3., 0.")), "elastic");
}

TEST(laws, LinearViscoelasticGenericProportional) {
    auto l = law(3, "linear viscoelastic generic, diag, 10., 20., 30., proportional, 0.1");
    EXPECT_EQ(kind(*l), "viscoelastic");
    VecN c = l->view().get<VecN>("damping");
    VecN expect = diag({1., 2., 3.});
    ASSERT_EQ(c.size(), expect.size());
    for (std::size_t i = 0; i < c.size(); ++i) EXPECT_NEAR(c[i], expect[i], 1e-15);
    auto g = law(3, "linear viscoelastic generic, eye, diag, 1., 1., 1.");
    EXPECT_EQ(g->view().get<VecN>("damping"), diag({1., 1., 1.}));
}

TEST(laws, LinearTimeVariant) {
    auto l = law(
        1, "linear time variant viscoelastic generic, 100., ramp, 1., 0., 1., 0., 2., const, 1.");
    EXPECT_EQ(keys(*l), (Keys{"kind", "stiffness", "stiffness scale", "damping", "damping scale"}));
    using D = std::shared_ptr<const mbs::DriveSpec>;
    EXPECT_EQ(l->view().get<D>("stiffness scale")->type, "ramp");
    EXPECT_EQ(l->view().get<D>("damping scale")->type, "const");
    EXPECT_EQ(l->view().get<VecN>("damping"), (VecN{2.}));
}

TEST(laws, PrestressAndPrestrainAreReadByTheBuilder) {
    auto l = law(
        3,
        "linear elastic, 1.e3, prestress, 1., 2., 3., prestrain, single, 0., 0., 0.01, const, 1.");
    EXPECT_EQ(l->prestress, (VecN{1., 2., 3.}));
    ASSERT_TRUE(l->prestrain);
    EXPECT_EQ(l->prestrain->type, "single");
}

// --- bistop ------------------------------------------------------------------------------------

TEST(laws, LinearElasticBistopTakesAScalarStiffness) {
    auto l = law(3, "linear elastic bistop, 1.e4, initial status, active, const, 0., const, 0.");
    EXPECT_EQ(keys(*l), (Keys{"kind", "stiffness", "initial status", "activate", "deactivate"}));
    EXPECT_DOUBLE_EQ(num(*l, "stiffness"), 1.e4);
    EXPECT_TRUE(l->view().get<bool>("initial status"));
    auto v = law(1, "linear viscoelastic bistop, 1., 2., time, 0.");
    EXPECT_EQ(kind(*v), "viscoelastic");
    EXPECT_FALSE(v->view().get<bool>("initial status"));
    EXPECT_DOUBLE_EQ(num(*v, "damping"), 2.0);
}

TEST(laws, BistopWrapperTakesTheKindOfItsLaw) {
    auto l = law(1, "bistop, initial status, inactive, time, 1., linear viscous, 3.");
    EXPECT_EQ(kind(*l), "viscous");
    ASSERT_EQ(l->children.size(), 1u);
    EXPECT_EQ(l->children[0]->type, "linearviscous");
}

// --- nonlinear laws ----------------------------------------------------------------------------

TEST(laws, DoubleLinear) {
    auto l = law(1, "double linear elastic, 1., 0.1, -0.2, 10.");
    EXPECT_EQ(keys(*l), (Keys{"kind", "stiffness", "upper strain", "lower strain",
                              "second stiffness", "third stiffness"}));
    EXPECT_DOUBLE_EQ(num(*l, "third stiffness"), 10.0);
    auto v = law(3, "double linear viscoelastic, 1., 0.1, -0.2, 10., 0.5, second damping, 5.");
    EXPECT_EQ(kind(*v), "viscoelastic");
    EXPECT_DOUBLE_EQ(num(*v, "second damping"), 5.0);
}

TEST(laws, DoubleLinearErrors) {
    std::string cards = "constitutive law: 1, 6, double linear elastic, 1., 0.1, -0.2, 10.;\n";
    std::string msg;
    EXPECT_EQ(error_at(cards, &msg), where_of(cards, "double"));
    EXPECT_NE(msg.find("allowed: 1, 3"), std::string::npos) << msg;
    cards = "constitutive law: 1, 6, double linear viscoelastic, 1., 0.1, -0.2, 10., 1.;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "double"));
    cards = "constitutive law: 1, 1, double linear elastic, 1., -0.1, -0.2, 10.;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "-0.1"));
    cards = "constitutive law: 1, 1, double linear elastic, 1., 0.1, 0.2, 10.;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "0.2"));
}

TEST(laws, Cubic) {
    auto l = law(3, "cubic elastic generic, 1., 2., 3., 0., 0., 0., 4., 5., 6.");
    EXPECT_EQ(keys(*l), (Keys{"kind", "k1", "k2", "k3"}));
    EXPECT_EQ(l->view().get<VecN>("k3"), (VecN{4., 5., 6.}));
    auto v = law(1, "cubic viscoelastic generic, 1., 2., 3., 4.");
    EXPECT_EQ(kind(*v), "viscoelastic");
    EXPECT_EQ(v->view().get<VecN>("damping"), (VecN{4.}));
    std::string cards = "constitutive law: 1, 6, cubic elastic generic, null, null, null;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "cubic"));
}

TEST(laws, OneDimensionalLaws) {
    auto i = law(1, "inverse square elastic, 2., 0.5");
    EXPECT_EQ(keys(*i), (Keys{"kind", "stiffness", "reference length"}));
    EXPECT_DOUBLE_EQ(num(*law(1, "log elastic, 3."), "stiffness"), 3.0);
    std::string cards = "constitutive law: 1, 3, log elastic, 3.;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "log"));
    cards = "constitutive law: 1, 1, inverse square elastic, 2., 0.;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "0.;"));
}

TEST(laws, IsotropicHardeningAndContact) {
    auto h = law(6, "isotropic hardening elastic, 1., 0.1, linear stiffness, 0.5");
    EXPECT_EQ(keys(*h), (Keys{"kind", "stiffness", "reference strain", "linear stiffness"}));
    EXPECT_DOUBLE_EQ(num(*h, "linear stiffness"), 0.5);
    EXPECT_DOUBLE_EQ(num(*law(1, "isotropic hardening elastic, 1., 0.1"), "linear stiffness"), 0.0);
    auto c = law(3, "contact elastic, 1.e6, 1.5");
    EXPECT_DOUBLE_EQ(num(*c, "exponent"), 1.5);
    std::string cards = "constitutive law: 1, 1, contact elastic, 1.e6, 0.5;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "0.5"));
    cards = "constitutive law: 1, 1, isotropic hardening elastic, 1., 0.;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "0.;"));
}

TEST(laws, TurbulentViscoelasticOptionalArguments) {
    auto a = law(1, "turbulent viscoelastic, 1., 2.");
    EXPECT_EQ(keys(*a),
              (Keys{"kind", "stiffness", "parabolic damping", "threshold", "linear damping"}));
    EXPECT_DOUBLE_EQ(num(*a, "threshold"), 0.0);
    EXPECT_DOUBLE_EQ(num(*a, "linear damping"), 0.0);
    auto b = law(1, "turbulent viscoelastic, 1., 2., 0.5");
    EXPECT_DOUBLE_EQ(num(*b, "linear damping"), 1.0);
    auto c = law(1, "turbulent viscoelastic, 1., 2., 0.5, 7.");
    EXPECT_DOUBLE_EQ(num(*c, "linear damping"), 7.0);
    // A following prestress is not taken for the threshold.
    auto d = law(1, "turbulent viscoelastic, 1., 2., prestress, 3.");
    EXPECT_DOUBLE_EQ(num(*d, "threshold"), 0.0);
    EXPECT_EQ(d->prestress, (VecN{3.}));
}

// --- wrappers ----------------------------------------------------------------------------------

TEST(laws, ArrayCombinesKinds) {
    auto l = law(3, "array, 2, linear elastic, 1., linear viscous, 2.");
    EXPECT_EQ(kind(*l), "viscoelastic");
    ASSERT_EQ(l->children.size(), 2u);
    EXPECT_EQ(l->children[1]->type, "linearviscous");
    EXPECT_EQ(kind(*law(1, "array, 2, linear elastic, 1., log elastic, 2.")), "elastic");
    std::string cards = "constitutive law: 1, 1, array, 0, linear elastic, 1.;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "0,"));
}

TEST(laws, ArrayOfReferences) {
    mbs::Model m = build(
        "constitutive law: 1, 1, linear viscous, 3.;\n"
        "constitutive law: 2, 1, array, 2, reference, 1, turbulent viscoelastic, 1., 2.;\n");
    auto l = m.laws.at(2);
    EXPECT_EQ(kind(*l), "viscoelastic");
    EXPECT_EQ(l->children[0]->type, "linearviscous");
    EXPECT_EQ(l->children[1]->type, "turbulentviscoelastic");
}

TEST(laws, DriveCallerWrapper) {
    auto l = law(6, "drive caller wrapper, sine, 0., 1., 1., forever, 1., linear elastic, 2.");
    EXPECT_EQ(kind(*l), "elastic");
    EXPECT_EQ(l->view().get<std::shared_ptr<const mbs::DriveSpec>>("drive")->type, "sine");
    EXPECT_EQ(l->children.at(0)->dim, 6);
}

TEST(laws, AxialWrapperIs3DWithA1DLaw) {
    auto l = law(3, "axial wrapper, 0., 0., 1., linear viscoelastic, 1., 2.");
    EXPECT_EQ(kind(*l), "viscoelastic");
    EXPECT_EQ(l->children.at(0)->dim, 1);
    EXPECT_TRUE(l->view().get<mbs::Vec3>("direction").isApprox(mbs::Vec3(0., 0., 1.)));
    std::string cards = "constitutive law: 1, 1, axial wrapper, 0., 0., 1., linear elastic, 1.;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "axial"));
    cards = "constitutive law: 1, 3, axial wrapper, null, linear elastic, 1.;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "null"));
}

TEST(laws, InvariantAngular) {
    auto l = law(3, "invariant angular, 0.5, linear viscous, 1.");
    EXPECT_EQ(kind(*l), "viscoelastic");  // elastic (re-orientation) + the law's viscous
    EXPECT_DOUBLE_EQ(num(*l, "xi"), 0.5);
    std::string cards = "constitutive law: 1, 6, invariant angular, 0.5, linear elastic, 1.;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "invariant"));
}

TEST(laws, ScalarFunctionElastic) {
    mbs::Model m = build(
        "scalar function: \"f\", cubic spline, -1., -2., 0., 0., 1., 3.;\n"
        "constitutive law: 1, 1, scalar function elastic, \"f\";\n"
        "constitutive law: 2, 3, scalar function elastic orthotropic, \"f\", null, \"f\";\n"
        "constitutive law: 3, 6, scalar function elastic isotropic, \"g\", pow, 3.;\n");
    auto a = m.laws.at(1);
    EXPECT_EQ(a->type, "scalarfunctionelasticisotropic");
    EXPECT_EQ(kind(*a), "elastic");
    EXPECT_EQ(a->view().get<std::string>("function"), "f");
    auto b = m.laws.at(2);
    EXPECT_EQ(keys(*b), (Keys{"kind", "function 1", "function 2", "function 3"}));
    EXPECT_EQ(b->view().get<std::string>("function 2"), "");
    auto c = m.laws.at(3);
    EXPECT_TRUE(c->view().has("function definition"));
    std::string cards = "constitutive law: 1, 1, scalar function elastic, \"nope\";\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "\"nope\""));
}

TEST(laws, UnsupportedLawsSaySo) {
    for (const char* name :
         {"symbolic elastic", "shock absorber", "nlsf viscoelastic", "ann elastic"}) {
        std::string cards = std::string("constitutive law: 1, 1, ") + name + ", 1.;\n";
        std::string msg;
        EXPECT_EQ(error_at(cards, &msg), where_of(cards, name)) << name;
        EXPECT_NE(msg.find("not supported"), std::string::npos) << msg;
    }
}

}  // namespace
