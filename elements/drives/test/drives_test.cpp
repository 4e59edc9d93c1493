// Drive-caller readers: parameters as stored, MBDyn's keyword forms, and errors located at the
// offending argument. Decks are built from text; drive callers come from `drive caller:` cards.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "core/compiled_expr.hpp"
#include "core/const_drive.hpp"
#include "core/model.hpp"
#include "core/registry.hpp"
#include "parser/test_support.hpp"

namespace {

using mbs::DriveSpec;
using mbs::VecN;
// Cards follow the three-line preamble, so the first card is on line 4.
using namespace mbs::test::cards;
using mbs::test::Keys, mbs::test::keys, mbs::test::num;

constexpr double inf = std::numeric_limits<double>::infinity();

std::shared_ptr<const DriveSpec> dc(const std::string& text) {
    mbs::Model m = build("drive caller: 1, " + text + ";\n");
    return m.drive_callers.at(1);
}

// --- constants and polynomials ----------------------------------------------------------------

TEST(drives, ConstKeywordAndBareNumber) {
    auto d = dc("const, 2.5");
    EXPECT_EQ(d->type, "const");
    EXPECT_DOUBLE_EQ(d->args_as<mbs::ConstArgs>().value, 2.5);
    EXPECT_EQ(keys(*d), (Keys{"value"}));
    EXPECT_DOUBLE_EQ(num(*d, "value"), 2.5);
    auto b = dc("3");
    EXPECT_EQ(b->type, "const");
    EXPECT_DOUBLE_EQ(b->args_as<mbs::ConstArgs>().value, 3.0);
    EXPECT_DOUBLE_EQ(num(*b, "value"), 3.0);
}

TEST(drives, ConstantValue) {
    EXPECT_EQ(mbs::constant_value(*dc("const, 0.25")).value_or(-1.0), 0.25);
    EXPECT_EQ(mbs::constant_value(*dc("0.5")).value_or(-1.0), 0.5);
    EXPECT_EQ(mbs::constant_value(*dc("null")).value_or(-1.0), 0.0);
    EXPECT_EQ(mbs::constant_value(*dc("unit")).value_or(-1.0), 1.0);
    EXPECT_EQ(mbs::constant_value(*dc("one")).value_or(-1.0), 1.0);
    EXPECT_FALSE(mbs::constant_value(*dc("linear, 0., 1.")));
    EXPECT_FALSE(mbs::constant_value(*dc("cosine, 0., 1., 1., forever, 0.")));
}

TEST(drives, NoArgumentDrives) {
    for (const char* t : {"null", "unit", "time", "timestep", "direct"}) {
        auto d = dc(t);
        EXPECT_EQ(d->type, t);
        EXPECT_FALSE(d->args) << t;
        EXPECT_TRUE(d->view().empty()) << t;
    }
}

TEST(drives, OneIsDeprecatedUnit) {
    mbs::Model m = build("drive caller: 1, one;\n");
    EXPECT_EQ(m.drive_callers.at(1)->type, "unit");
    ASSERT_EQ(m.warnings.size(), 1u);
    EXPECT_NE(m.warnings[0].find("t.mbd:4:18: warning: drive caller \"one\" is deprecated"),
              std::string::npos)
        << m.warnings[0];
}

TEST(drives, Polynomials) {
    auto l = dc("linear, 1., 2.");
    EXPECT_EQ(keys(*l), (Keys{"c0", "c1"}));
    EXPECT_DOUBLE_EQ(num(*l, "c1"), 2.0);
    auto p = dc("parabolic, 1., 2., 3.");
    EXPECT_DOUBLE_EQ(num(*p, "c2"), 3.0);
    auto c = dc("cubic, 1., 2., 3., 4.");
    EXPECT_EQ(keys(*c), (Keys{"c0", "c1", "c2", "c3"}));
    EXPECT_DOUBLE_EQ(num(*c, "c3"), 4.0);
}

TEST(drives, MissingArgumentIsLocatedAtTheSemicolon) {
    std::string cards = "drive caller: 1, linear, 1.;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, ";"));
}

// --- steps and ramps ---------------------------------------------------------------------------

TEST(drives, Step) {
    auto d = dc("step, 0.5, 2., 1.");
    EXPECT_EQ(keys(*d), (Keys{"initial time", "step value", "initial value"}));
    EXPECT_DOUBLE_EQ(num(*d, "step value"), 2.0);
}

TEST(drives, DoubleStepRejectsEndBeforeStart) {
    auto d = dc("double step, 0.5, 1., 2., 0.");
    EXPECT_EQ(keys(*d), (Keys{"initial time", "final time", "step value", "initial value"}));
    std::string cards = "drive caller: 1, double step, 0.5, 0.25, 2., 0.;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "0.25"));
}

TEST(drives, RampForeverAndDefaults) {
    auto d = dc("ramp, 2., 0., forever, 1.");
    EXPECT_EQ(keys(*d), (Keys{"slope", "initial time", "final time", "initial value"}));
    EXPECT_EQ(num(*d, "final time"), inf);
    // An empty slope takes MBDyn's default of 1.
    auto e = dc("ramp, , 0., 1., 0.");
    EXPECT_DOUBLE_EQ(num(*e, "slope"), 1.0);
    // End == start is allowed, end < start is not.
    EXPECT_DOUBLE_EQ(num(*dc("ramp, 1., 2., 2., 0."), "final time"), 2.0);
    std::string cards = "drive caller: 1, ramp, 1., 2., 1.5, 0.;\n";
    EXPECT_EQ(error_at(cards), "t.mbd:4:32");
    EXPECT_EQ(error_at(cards), where_of(cards, "1.5"));
}

TEST(drives, RampFinalTimeMustBeForeverOrANumber) {
    std::string cards = "drive caller: 1, ramp, 1., 0., never, 0.;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "never"));
}

TEST(drives, DoubleRamp) {
    auto d = dc("double ramp, 1., 0., 1., -1., 2., forever, 0.");
    EXPECT_EQ(keys(*d), (Keys{"ascending slope", "ascending initial time", "ascending final time",
                              "descending slope", "descending initial time",
                              "descending final time", "initial value"}));
    EXPECT_EQ(num(*d, "descending final time"), inf);
    auto f = dc("double ramp, 1., 0., 1., -1., forever, forever, 0.");
    EXPECT_EQ(num(*f, "descending initial time"), inf);
    std::string cards = "drive caller: 1, double ramp, 1., 0., 1., -1., 0.5, 3., 0.;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "0.5"));
    cards = "drive caller: 1, double ramp, 1., 2., 1., -1., 3., 4., 0.;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "1.,", 1));
}

TEST(drives, TanhAndExponential) {
    auto t = dc("tanh, 0., 2., 3., 1.");
    EXPECT_EQ(keys(*t), (Keys{"initial time", "amplitude", "slope", "initial value"}));
    auto e = dc("exponential, 2., 0.5, 0., 1.");
    EXPECT_EQ(keys(*e), (Keys{"amplitude", "time constant", "initial time", "initial value"}));
    EXPECT_DOUBLE_EQ(num(*e, "time constant"), 0.5);
    std::string cards = "drive caller: 1, exponential, 2., 0., 0., 1.;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "0.,"));
}

// --- harmonic drives ---------------------------------------------------------------------------

TEST(drives, SinePeriods) {
    auto d = dc("sine, 0.1, 2*pi, 3., forever, 1.");
    EXPECT_EQ(d->type, "sine");
    EXPECT_EQ(keys(*d), (Keys{"initial time", "omega", "amplitude", "periods", "initial value"}));
    EXPECT_DOUBLE_EQ(num(*d, "omega"), 2 * M_PI);
    EXPECT_EQ(num(*d, "periods"), inf);
    EXPECT_DOUBLE_EQ(num(*dc("sine, 0., 1., 1., one, 0."), "periods"), 1.0);
    EXPECT_DOUBLE_EQ(num(*dc("sine, 0., 1., 1., half, 0."), "periods"), -1.0);
    EXPECT_DOUBLE_EQ(num(*dc("sine, 0., 1., 1., 4, 0."), "periods"), 4.0);
    EXPECT_DOUBLE_EQ(num(*dc("sine, 0., 1., 1., -3, 0."), "periods"), -3.0);
    EXPECT_EQ(num(*dc("sine, 0., 1., 1., 0, 0."), "periods"), inf);  // MBDyn: 0 = forever
}

TEST(drives, CosineSharesTheSineCard) {
    auto d = dc("cosine, 0., 3., 0.5, half, 0.");
    EXPECT_EQ(d->type, "cosine");
    EXPECT_DOUBLE_EQ(num(*d, "periods"), -1.0);
    std::string cards = "drive caller: 1, cosine, 0., 3., 0.5, sometimes, 0.;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "sometimes"));
}

TEST(drives, FourierSeries) {
    auto d = dc("fourier series, 0., 2., 2, 1., 0.1, 0.2, 0.3, 0.4, one, 0.");
    EXPECT_EQ(keys(*d),
              (Keys{"initial time", "omega", "order", "coefficients", "periods", "initial value"}));
    EXPECT_EQ(d->view().get<long>("order"), 2);
    EXPECT_EQ(d->view().get<VecN>("coefficients"), (VecN{1., 0.1, 0.2, 0.3, 0.4}));
    EXPECT_DOUBLE_EQ(num(*d, "periods"), 1.0);
    std::string cards = "drive caller: 1, fourier series, 0., 2., 0, 1., forever, 0.;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "0,"));
    cards = "drive caller: 1, fourier series, 0., 2., 1, 1., 0.1, 0.2, -2, 0.;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "-2"));
}

TEST(drives, FrequencySweep) {
    auto d = dc("frequency sweep, 0., linear, 1., 0.5, const, 2., 0., forever, 0.");
    EXPECT_EQ(keys(*d), (Keys{"initial time", "initial value", "final time", "final value"}));
    ASSERT_EQ(d->children.size(), 2u);
    EXPECT_EQ(d->children[0]->type, "linear");
    EXPECT_EQ(d->children[1]->type, "const");
    EXPECT_EQ(num(*d, "final time"), inf);
}

TEST(drives, Periodic) {
    auto d = dc("periodic, 0., 0.5, time");
    EXPECT_DOUBLE_EQ(num(*d, "period"), 0.5);
    ASSERT_EQ(d->children.size(), 1u);
    std::string cards = "drive caller: 1, periodic, 0., -1., time;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "-1."));
}

// --- tables, events, filters -------------------------------------------------------------------

TEST(drives, PiecewiseLinear) {
    auto d = dc("piecewise linear, 3, 0., 0., 1., 2., 3., 2.");
    EXPECT_EQ(keys(*d), (Keys{"points", "x", "v"}));
    EXPECT_EQ(d->view().get<long>("points"), 3);
    EXPECT_EQ(d->view().get<VecN>("x"), (VecN{0., 1., 3.}));
    EXPECT_EQ(d->view().get<VecN>("v"), (VecN{0., 2., 2.}));
}

TEST(drives, PiecewiseLinearNeedsTwoIncreasingPoints) {
    std::string cards = "drive caller: 1, piecewise linear, 1, 0., 0.;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "1,", 1));
    // The error points at the x that does not increase (the third one), not at the card.
    cards =
        "drive caller: 1,\n    piecewise linear, 3,\n        0., 0.,\n        1., 1.,\n        1., "
        "5.;\n";
    std::string msg;
    EXPECT_EQ(error_at(cards, &msg), "t.mbd:8:9");
    EXPECT_NE(msg.find("strictly increasing"), std::string::npos) << msg;
}

TEST(drives, RandomAndMeter) {
    auto r = dc("random, 2., 0.5, 0., 10., steps, 5, seed, 42");
    EXPECT_EQ(keys(*r), (Keys{"amplitude", "mean", "initial time", "final time", "steps", "seed"}));
    EXPECT_EQ(r->view().get<long>("steps"), 5);
    EXPECT_EQ(r->view().get<long>("seed"), 42);
    auto t = dc("random, 2., 0.5, 0., forever, seed, time");
    EXPECT_EQ(t->view().get<std::string>("seed"), "time");
    EXPECT_EQ(t->view().get<long>("steps"), 1);
    auto m = dc("meter, 0., forever, steps, 10");
    EXPECT_EQ(keys(*m), (Keys{"initial time", "final time", "steps"}));
    EXPECT_EQ(m->view().get<long>("steps"), 10);
    std::string cards = "drive caller: 1, meter, 0., forever, steps, 0;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "0;"));
    cards = "drive caller: 1, random, 1., 0., 2., 1.;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "1.;"));
}

TEST(drives, ClosestNextSampleAndHoldDiscreteFilter) {
    auto c = dc("closest next, 0., forever, const, 0.1");
    EXPECT_EQ(c->children.size(), 1u);
    auto s = dc("sample and hold, time, meter, 0., forever, steps, 10, initial value, 3.");
    EXPECT_EQ(s->children.size(), 2u);
    EXPECT_DOUBLE_EQ(num(*s, "initial value"), 3.0);
    EXPECT_DOUBLE_EQ(num(*dc("sample and hold, time, unit"), "initial value"), 0.0);
    auto f = dc("discrete filter, 2, 0.5, 0.25, 1., 1, 0.1, time");
    EXPECT_EQ(f->view().get<VecN>("a"), (VecN{0.5, 0.25}));
    EXPECT_DOUBLE_EQ(num(*f, "b0"), 1.0);
    EXPECT_EQ(f->view().get<VecN>("b"), (VecN{0.1}));
    EXPECT_EQ(f->children.size(), 1u);
    std::string cards = "drive caller: 1, discrete filter, -1, 1., 0, time;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "-1"));
}

// --- composition -------------------------------------------------------------------------------

TEST(drives, ArrayMultDriveFunction) {
    auto a = dc("array, 3, const, 1., time, 2.");
    ASSERT_EQ(a->children.size(), 3u);
    EXPECT_EQ(a->children[2]->type, "const");
    std::string cards = "drive caller: 1, array, 0, time;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "0,"));
    EXPECT_EQ(dc("mult, time, const, 2.")->children.size(), 2u);
    auto n = dc("drive, sine, 0., 1., 1., forever, 0., time");
    ASSERT_EQ(n->children.size(), 2u);
    EXPECT_EQ(n->children[0]->type, "sine");
    // `function` is an alias wrapper: the result is the wrapped drive itself.
    auto f = dc("function, linear, 1., 2.");
    EXPECT_EQ(f->type, "linear");
    EXPECT_DOUBLE_EQ(num(*f, "c0"), 1.0);
}

TEST(drives, ReferenceAndPostponed) {
    mbs::Model m = build(
        "drive caller: 1, linear, 0., 1.;\n"
        "drive caller: 2, mult, reference, 1, postponed, 7;\n");
    auto d = m.drive_callers.at(2);
    ASSERT_EQ(d->children.size(), 2u);
    EXPECT_EQ(d->children[0]->type, "linear");
    EXPECT_EQ(d->children[1]->type, "postponed");
    EXPECT_EQ(d->children[1]->view().get<long>("label"), 7);
}

TEST(drives, GinacIsNotSupported) {
    std::string cards = "drive caller: 1, ginac, \"t^2\";\n";
    std::string msg;
    EXPECT_EQ(error_at(cards, &msg), where_of(cards, "ginac"));
    EXPECT_NE(msg.find("not supported"), std::string::npos) << msg;
}

// The `file` drive caller reads a driver of the drivers block, which must come before it (as in
// MBDyn); readers with a driver: regression/file_drivers.
TEST(drives, FileNeedsItsDriver) {
    std::string cards = "drive caller: 1, file, 3, 2, amplitude, 0.5;\n";
    std::string msg;
    EXPECT_EQ(error_at(cards, &msg), where_of(cards, "3, 2"));
    EXPECT_NE(msg.find("file driver 3 is not defined"), std::string::npos) << msg;
}

// --- string drives -----------------------------------------------------------------------------

TEST(drives, StringValueAndDerivative) {
    auto d = dc("string, \"sin(2*Time)\"");
    EXPECT_EQ(d->type, "string");
    EXPECT_EQ(d->source_text, "sin(2*Time)");
    ASSERT_TRUE(d->expr);
    for (double t : {0.0, 0.3, 1.7}) {
        mbs::CompiledExpr::Inputs in;
        in.time = t;
        double dv = 0.0;
        double v = d->expr->eval(in, &dv);
        EXPECT_NEAR(v, std::sin(2 * t), 1e-14);
        EXPECT_NEAR(dv, 2 * std::cos(2 * t), 1e-14);
    }
}

TEST(drives, StringIntegerDivisionAndVar) {
    auto d = dc("string, \"Step/2\"");
    mbs::CompiledExpr::Inputs in;
    in.step = 5;
    EXPECT_DOUBLE_EQ(d->expr->eval(in), 2.0);
    in.step = 4;
    EXPECT_DOUBLE_EQ(d->expr->eval(in), 2.0);
    // Var carries the input of the drive and its rate.
    auto v = dc("string, \"Var^2 + Time\"");
    in = {};
    in.time = 1.0;
    in.var = 3.0;
    in.var_dot = 0.5;
    double dv = 0.0;
    EXPECT_DOUBLE_EQ(v->expr->eval(in, &dv), 10.0);
    EXPECT_DOUBLE_EQ(dv, 2 * 3.0 * 0.5 + 1.0);
}

TEST(drives, StringFoldsDeckVariables) {
    mbs::Model m = build("set: real W = 3.;\ndrive caller: 1, string, \"W*Time\";\n");
    mbs::CompiledExpr::Inputs in;
    in.time = 2.0;
    double dv = 0.0;
    EXPECT_DOUBLE_EQ(m.drive_callers.at(1)->expr->eval(in, &dv), 6.0);
    EXPECT_DOUBLE_EQ(dv, 3.0);
}

TEST(drives, StringErrorsPointIntoTheString) {
    std::string cards = "drive caller: 1, string, \"2*Tme\";\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "Tme"));
    cards = "drive caller: 1, string, \"  \";\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "\""));
}

// --- scalar functions --------------------------------------------------------------------------

TEST(scalar_function_drives, CardTypes) {
    mbs::Model m = build(
        "scalar function: \"c\", const, 2.;\n"
        "scalar function: \"e\", exp, base, 2., coefficient, 3., 4.;\n"
        "scalar function: \"l\", log, 1.5;\n"
        "scalar function: \"p\", pow, 2.;\n"
        "scalar function: \"lin\", linear, 0., 1., 2., 3.;\n"
        "scalar function: \"cs\", cubic spline, do not extrapolate, 0., 0., 1., 1., 2., 4., 3., "
        "9., end;\n"
        "scalar function: \"ml\", multilinear, 0., 0., 1., 2.;\n"
        "scalar function: \"ch\", chebychev, -1., 1., 0.5, 0.25, 0.125;\n"
        "scalar function: \"s\", sum, \"c\", \"p\";\n"
        "scalar function: \"d\", div, \"lin\", \"ml\";\n");
    const auto& sf = m.scalar_functions;
    EXPECT_EQ(sf.at("c")->type, "scalarfunctionconst");
    EXPECT_DOUBLE_EQ(sf.at("c")->view().get<double>("value"), 2.0);
    EXPECT_DOUBLE_EQ(sf.at("e")->view().get<double>("base"), 2.0);
    EXPECT_DOUBLE_EQ(sf.at("e")->view().get<double>("coefficient"), 3.0);
    EXPECT_DOUBLE_EQ(sf.at("e")->view().get<double>("multiplier"), 4.0);
    EXPECT_DOUBLE_EQ(sf.at("l")->view().get<double>("base"), std::exp(1.0));
    EXPECT_DOUBLE_EQ(sf.at("p")->view().get<double>("exponent"), 2.0);
    EXPECT_EQ(sf.at("lin")->type, "scalarfunctionlinear");
    EXPECT_EQ(sf.at("cs")->type, "scalarfunctioncubicspline");
    EXPECT_TRUE(sf.at("cs")->view().get<bool>("do not extrapolate"));
    EXPECT_EQ(sf.at("cs")->view().get<VecN>("x"), (VecN{0., 1., 2., 3.}));
    EXPECT_EQ(sf.at("cs")->view().get<VecN>("y"), (VecN{0., 1., 4., 9.}));
    EXPECT_EQ(sf.at("ml")->view().get<VecN>("x"), (VecN{0., 1.}));
    EXPECT_EQ(sf.at("ch")->view().get<VecN>("coefficients"), (VecN{0.5, 0.25, 0.125}));
    EXPECT_EQ(sf.at("s")->view().get<std::string>("f1"), "c");
    EXPECT_EQ(sf.at("s")->view().get<std::string>("f2"), "p");
    EXPECT_EQ(sf.at("d")->type, "scalarfunctiondiv");
}

TEST(scalar_function_drives, Errors) {
    std::string cards = "scalar function: \"cs\", cubic spline, 0., 0., 1., 1., 0.5, 4.;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "0.5"));
    cards = "scalar function: \"cs\", cubic spline, 0., 0., 1., 1.;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, ";"));
    cards = "scalar function: \"ch\", chebychev, 1., -1., 0.5;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "-1."));
    cards = "scalar function: \"e\", exp, base, -2., 1.;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "-2."));
    cards = "scalar function: \"s\", sum, \"nope\", \"nope\";\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "\"nope\""));
}

TEST(scalar_function_drives, Drive) {
    mbs::Model m = build(
        "scalar function: \"f\", pow, 3.;\n"
        "drive caller: 1, scalar function, \"f\";\n"
        "drive caller: 2, scalar function, \"g\", linear, 0., 0., 1., 2.;\n"
        "drive caller: 3, scalar function, \"k\", 4.;\n");
    auto d1 = m.drive_callers.at(1);
    EXPECT_EQ(d1->type, "scalarfunction");
    EXPECT_EQ(d1->view().get<std::string>("function"), "f");
    EXPECT_FALSE(d1->view().has("function definition"));
    // Inline definitions are kept with the drive.
    auto d2 = m.drive_callers.at(2);
    auto def = d2->view().get<std::shared_ptr<const DriveSpec>>("function definition");
    EXPECT_EQ(def->type, "scalarfunctionlinear");
    EXPECT_DOUBLE_EQ(def->view().get<double>("y2"), 2.0);
    EXPECT_EQ(def->view().get<std::string>("name"), "g");
    auto def3 =
        m.drive_callers.at(3)->view().get<std::shared_ptr<const DriveSpec>>("function definition");
    EXPECT_EQ(def3->type, "scalarfunctionconst");
    EXPECT_DOUBLE_EQ(def3->view().get<double>("value"), 4.0);

    std::string cards = "drive caller: 1, scalar function, \"missing\";\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "\"missing\""));
}

// --- private-data drives -----------------------------------------------------------------------

bool have_structural_nodes() { return mbs::find_node_kind("structural", "static") != nullptr; }

const std::string node_deck =
    mbs::test::deck_head +
    "begin: control data; structural nodes: 1; end: control data;\n"
    "begin: nodes; structural: 1, static, null, eye, null, null; end: nodes;\n";

std::string node_error_at(const std::string& cards) {
    return mbs::test::error_at(node_deck + cards);
}

TEST(drives, NodeAndDof) {
    if (!have_structural_nodes()) GTEST_SKIP() << "structural node reader not registered";
    mbs::Model m = build(
        "drive caller: 1, node, 1, structural, string, \"X[1]\", direct;\n"
        "drive caller: 2, dof, 1, structural, 3, differential, linear, 0., 2.;\n"
        "drive caller: 3, node, 1, structural, index, 2, string, \"2*Var\";\n",
        node_deck);
    auto n = m.drive_callers.at(1);
    EXPECT_EQ(n->view().get<mbs::EntityRef>("node").category, "structural");
    EXPECT_EQ(n->view().get<mbs::EntityRef>("node").label, 1);
    EXPECT_EQ(n->view().get<std::string>("string"), "X[1]");
    ASSERT_EQ(n->children.size(), 1u);
    EXPECT_EQ(n->children[0]->type, "direct");
    auto d = m.drive_callers.at(2);
    EXPECT_EQ(d->view().get<long>("index"), 3);
    EXPECT_EQ(d->view().get<long>("order"), 1);
    EXPECT_EQ(d->children[0]->type, "linear");
    auto i = m.drive_callers.at(3);
    EXPECT_EQ(i->view().get<long>("index"), 2);
    EXPECT_EQ(i->children[0]->type, "string");
}

TEST(drives, NodeAndDofErrors) {
    if (!have_structural_nodes()) GTEST_SKIP() << "structural node reader not registered";
    // Line 5 here: the node deck has four lines.
    EXPECT_EQ(node_error_at("drive caller: 1, node, 2, structural, string, \"X[1]\", direct;\n"),
              "t.mbd:5:24");
    EXPECT_EQ(node_error_at("drive caller: 1, dof, 1, structural, 7, algebraic, direct;\n"),
              "t.mbd:5:38");
    EXPECT_EQ(node_error_at("drive caller: 1, dof, 1, structral, 1, algebraic, direct;\n"),
              "t.mbd:5:26");
}

TEST(drives, ElementErrors) {
    std::string cards = "drive caller: 1, element, 5, frobnicator, string, \"rz\", direct;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "frobnicator"));
    cards = "drive caller: 1, node, 1, abstract, direct;\n";
    EXPECT_EQ(error_at(cards), where_of(cards, "1, abstract"));
}

}  // namespace

namespace {

// `drive caller:` output options as MBDyn's DriveCallerRead::ReadOutput reads them: `output`
// and `output trace`, each alone or both, with value/derivative flags or a plain yes/no.
TEST(drives, DriveCallerCardOutputOptions) {
    for (const char* tail :
         {", output, yes", ", output, value, yes, derivative, no", ", output trace, yes",
          ", output trace, derivative, yes", ", output, no, output trace, value, yes",
          ", output, value, yes, derivative, yes, output trace, value, yes, derivative, yes"}) {
        const std::string c =
            std::string("drive caller: 1, sine, 0., 1., 1., forever, 0.") + tail + ";\n";
        EXPECT_EQ(error_at(c), "no error") << tail;
        EXPECT_EQ(build(c).drive_callers.at(1)->type, "sine") << tail;
    }
    std::string c = "drive caller: 1, const, 1., output trace, often;\n";
    EXPECT_EQ(error_at(c), where_of(c, "often"));
    c = "drive caller: 1, const, 1., output, yes, output trace, yes, output, no;\n";
    EXPECT_EQ(error_at(c), where_of(c, "output", 2));
    c = "drive caller: 1, const, 1., output trace, yes, output, yes;\n";
    EXPECT_EQ(error_at(c), where_of(c, "output", 1));
    // The flags as MBDyn's DriveCallerRead::ReadOutput sets them (value 1, derivative 2, `yes`:
    // value and the derivative if the drive has one, 4); no warning (they are written).
    using mbs::DriveOutput;
    auto flags = [](const std::string& tail) {
        mbs::Model m = build("drive caller: 1, sine, 0., 1., 1., forever, 0." + tail + ";\n");
        EXPECT_TRUE(m.warnings.empty()) << tail;
        const auto& d = *m.drive_callers.at(1);
        return std::pair<int, int>(d.output, d.trace);
    };
    EXPECT_EQ(flags(""), std::pair(0, 0));
    EXPECT_EQ(flags(", output, yes"),
              std::pair(DriveOutput::value | DriveOutput::derivative_if_any, 0));
    EXPECT_EQ(flags(", output, value, no, derivative, yes, output trace, no"),
              std::pair(+DriveOutput::derivative, 0));
    EXPECT_EQ(flags(", output, no, output trace, value, yes"), std::pair(0, +DriveOutput::value));
    EXPECT_EQ(flags(", output trace, derivative, yes"), std::pair(0, +DriveOutput::derivative));
    EXPECT_EQ(flags(", output, value, yes, derivative, yes, output trace, yes"),
              std::pair(DriveOutput::value | DriveOutput::derivative,
                        DriveOutput::value | DriveOutput::derivative_if_any));
}

// `default output: drive callers` (MBDyn's bOutputDriveCaller): the drive caller cards after it
// write their value unless their `output` says otherwise; the ones before it do not.
TEST(drives, DefaultOutputDriveCallers) {
    const mbs::Model m =
        mbs::test::build(mbs::test::deck_head +
                         "drive caller: 1, const, 1.;\n"
                         "begin: control data; default output: drive callers; end: control data;\n"
                         "drive caller: 2, const, 1.;\n"
                         "drive caller: 3, const, 1., output, derivative, yes;\n"
                         "drive caller: 4, const, 1., output, no;\n");
    EXPECT_TRUE(m.warnings.empty());
    EXPECT_EQ(m.drive_callers.at(1)->output, 0);
    EXPECT_EQ(m.drive_callers.at(2)->output, mbs::DriveOutput::value);
    EXPECT_EQ(m.drive_callers.at(3)->output,
              mbs::DriveOutput::value | mbs::DriveOutput::derivative);
    EXPECT_EQ(m.drive_callers.at(4)->output, 0);
}

}  // namespace
