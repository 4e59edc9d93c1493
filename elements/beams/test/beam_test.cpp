// Beam card readers: node offsets, absolute section orientations, `from nodes` interpolation
// (checked against the closed form for nodes rotated about the beam axis), `same`, errors.
#include "elements/beams/beam.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/model.hpp"
#include "parser/test_support.hpp"

namespace {

using mbs::EntityRef;
using mbs::LawSpec;
using mbs::Mat3;
using mbs::Vec3;
using namespace mbs::test;

// Nodes along x, rotated about x by A1, A2, A3 (radians).
std::string deck(const std::string& elements, double a1 = 0, double a2 = 0, double a3 = 0,
                 int beams = 1) {
    auto node = [](int l, double x, double a) {
        return "structural: " + std::to_string(l) + ", dynamic, " + std::to_string(x) +
               ", 0., 0., euler123, " + std::to_string(a) + ", 0., 0., null, null;\n";
    };
    return deck_head + "begin: control data; structural nodes: 3; beams: " + std::to_string(beams) +
           "; end: control data;\n"
           "begin: nodes;\n" +
           node(1, 0.0, a1) + node(2, 0.5, a2) + node(3, 1.0, a3) +
           "end: nodes;\n"
           "begin: elements;\n" +
           elements + "end: elements;\n";
}

const mbs::EntityDesc& beam(const mbs::Model& m, const char* category = "beam3", long label = 1) {
    return element(m, category, label);
}

Mat3 rot_x(double a) {
    Mat3 R;
    R << 1, 0, 0, 0, std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a);
    return R;
}

// Section orientations are compared to within this.
constexpr double tol = 1e-9;

const std::string law = "linear elastic generic, diag, 1.e7, 4.e6, 4.e6, 1.e3, 1.e3, 1.e3";

TEST(ElementBeams, Beam3WithGivenSectionsAndSame) {
    auto m =
        build(deck("beam3: 1, 1, null, 2, position, reference, global, 0.5, 0., 0.1, 3, null,\n"
                   "  euler123, pi/2, 0., 0., " +
                   law + ", same, same;\n"));
    const auto& e = beam(m);
    EXPECT_EQ(e.view().get<EntityRef>("node3").label, 3);
    EXPECT_LT((e.view().get<Vec3>("offset2") - Vec3(0, 0, 0.1)).norm(), 1e-12);
    expect_mat(e.view().get<Mat3>("section orientation I"), rot_x(M_PI / 2), tol);
    expect_mat(e.view().get<Mat3>("section orientation II"), rot_x(M_PI / 2), tol);
    EXPECT_EQ(e.view().get<std::shared_ptr<const LawSpec>>("law I"),
              e.view().get<std::shared_ptr<const LawSpec>>("law II"));
    EXPECT_EQ(e.view().get<std::shared_ptr<const LawSpec>>("law I")->dim, 6);
    EXPECT_FALSE(e.view().has("section I from nodes"));
}

TEST(ElementBeams, Beam3FromNodesInterpolatesTheRotation) {
    // Nodes at -a, 0, +a about x. CGR parameters g = 2 tan(theta/2) relative to node 2:
    // g(xi) = N1 g1 + N3 g3 = xi * 2 tan(a/2) (N3 - N1 = xi), so at xi = -+1/sqrt(3)
    // theta = 2 atan(xi tan(a/2)).
    const double a = 0.3, xi = 1.0 / std::sqrt(3.0);
    auto m = build(
        deck("beam: 1, 1, null, 2, null, 3, null, from nodes, " + law + ", from nodes, same;\n", -a,
             0.0, a));
    const auto& e = beam(m, "beam");  // `beam:` is an alias of beam3, under its own card name
    expect_mat(e.view().get<Mat3>("section orientation I"),
               rot_x(2 * std::atan(-xi * std::tan(a / 2))), tol);
    expect_mat(e.view().get<Mat3>("section orientation II"),
               rot_x(2 * std::atan(xi * std::tan(a / 2))), tol);
    EXPECT_TRUE(e.view().get<bool>("section I from nodes"));
    EXPECT_TRUE(e.view().get<bool>("section II from nodes"));
}

TEST(ElementBeams, Beam2FromNodesTakesTheMidpoint) {
    // R = R2 exp(g/2), g the CGR parameters of node 1 relative to node 2:
    // g = 2 tan(-a/2), half of it -tan(a/2), i.e. a rotation of 2 atan(-tan(a/2)/2) after R2.
    const double a = 0.8;
    auto m = build(
        deck("beam2: 1, 1, null, 2, null, from nodes, " + law + ", custom output, force, moment;\n",
             0.0, a, 0.0));
    const auto& e = beam(m, "beam2");
    expect_mat(e.view().get<Mat3>("section orientation"),
               rot_x(a + 2 * std::atan(-std::tan(a / 2) / 2)), tol);
    EXPECT_EQ(e.view().get<std::string>("custom output"), "force moment");
}

TEST(ElementBeams, CustomOutputFlagsAsMBDyn) {
    // MBDyn's ReadOptionalBeamCustomOutput starts from the default beam output (forces and
    // moments); `none` clears it; a flag with the orientation reads an optional description.
    using namespace mbs::beam_output_bits;
    auto flags_of = [&](const std::string& tail) {
        auto m = build(deck("beam2: 1, 1, null, 2, null, from nodes, " + law + tail + ";\n"));
        const auto& e = beam(m, "beam2");
        return std::make_pair(e.view().get<long>("custom output flags"),
                              e.view().get_or<std::string>("orientation description", "-"));
    };
    EXPECT_EQ(flags_of(", custom output, position"),
              std::make_pair(static_cast<long>(ep_x | ep_default), std::string("-")));
    EXPECT_EQ(flags_of(", custom output, none, position"),
              std::make_pair(static_cast<long>(ep_x), std::string("-")));
    EXPECT_EQ(
        flags_of(", custom output, configuration, orientation description, orientation vector"),
        std::make_pair(static_cast<long>(ep_x | ep_r | ep_default),
                       std::string("orientation vector")));
    EXPECT_EQ(flags_of(", custom output, none, orientation, orientation description, euler321"),
              std::make_pair(static_cast<long>(ep_r), std::string("euler321")));
    // The last flag with the orientation decides (here: none given, `default orientation`).
    EXPECT_EQ(
        flags_of(", custom output, all, orientation description, euler321, none, orientation"),
        std::make_pair(static_cast<long>(ep_r), std::string("-")));
}

TEST(ElementBeams, ErrorsPointAtTheArgument) {
    std::string msg;
    // The same node twice.
    std::string t = deck("beam3: 1, 1, null, 2, null, 2, null, eye, " + law + ", same, same;\n");
    EXPECT_EQ(error_at(t, &msg), where_of(t, "1, null, 2"));
    EXPECT_NE(msg.find("twice"), std::string::npos);

    // A 3D law where a 6D law is needed.
    t = deck("beam2: 1, 1, null, 2, null, eye, linear elastic generic, diag, 1., 1., 1.;\n");
    EXPECT_EQ(error_at(t, &msg), where_of(t, ";\nend: elements"));

    // `null` is not an orientation.
    t = deck("beam2: 1, 1, null, 2, null, null, " + law + ";\n");
    EXPECT_EQ(error_at(t, &msg), where_of(t, "null, linear"));
}

// Piezoelectric actuators: `deck` with abstract nodes 11 (differential), 12 (algebraic).
std::string piezo_deck(const std::string& elements) {
    std::string t = deck(elements);
    t.insert(t.find("; end: control data;"), "; abstract nodes: 2");
    t.insert(t.find("end: nodes;"), "abstract: 11, value, 0.;\nabstract: 12, algebraic;\n");
    return t;
}

using mbs::VecN;

TEST(ElementBeams, PiezoMatricesAsMBDyn) {
    // beam3, two electrodes (the same node twice is allowed, as in MBDyn), matrix I row by row,
    // matrix II in ANBA's axes (rows x, y, z = section 2, 3, 1 for the forces, then the moments)
    // and scaled.
    auto m =
        build(piezo_deck("beam3: 1, 1, null, 2, null, 3, null, eye, " + law +
                         ", same, same, piezoelectric actuator, 2, 11, 11,"
                         " 1., 2., 3., 4., 5., 6., 7., 8., 9., 10., 11., 12.,"
                         " anba, 1., 2., 3., 4., 5., 6., 7., 8., 9., 10., 11., 12., scale, 2.;\n"));
    const auto& e = beam(m);
    EXPECT_EQ(e.view().get<long>("piezo electrodes"), 2);
    EXPECT_EQ(e.view().get<EntityRef>("electrode1").category, "abstract");
    EXPECT_EQ(e.view().get<EntityRef>("electrode2").label, 11);
    EXPECT_EQ(e.view().get<VecN>("piezo matrix I"),
              (VecN{1., 2., 3., 4., 5., 6., 7., 8., 9., 10., 11., 12.}));
    EXPECT_EQ(e.view().get<VecN>("piezo matrix II"),
              (VecN{10., 12., 2., 4., 6., 8., 22., 24., 14., 16., 18., 20.}));
    // `same`, and a beam2 with `null` followed by custom output.
    m = build(piezo_deck("beam3: 1, 1, null, 2, null, 3, null, eye, " + law +
                         ", same, same, piezoelectric actuator, 1, 11, matr,"
                         " 1., 2., 3., 4., 5., 6., same;\n"));
    EXPECT_EQ(beam(m).view().get<VecN>("piezo matrix II"), (VecN{1., 2., 3., 4., 5., 6.}));
    m = build(piezo_deck("beam2: 1, 1, null, 2, null, eye, " + law +
                         ", piezoelectric actuator, 1, 11, null, custom output, strains;\n"));
    EXPECT_EQ(beam(m, "beam2").view().get<VecN>("piezo matrix"), VecN(6, 0.0));
    EXPECT_TRUE(beam(m, "beam2").view().has("custom output"));
}

// Each error of the piezo part points at the argument at fault and carries a hint.
TEST(ElementBeams, PiezoErrors) {
    auto fails = [](const std::string& t, const std::string& at, const std::string& fragment) {
        try {
            build(t);
        } catch (const mbs::InputError& e) {
            EXPECT_EQ(e.where(), at) << e.message();
            EXPECT_NE((e.message() + " " + e.hint()).find(fragment), std::string::npos)
                << e.message() << " / " << e.hint();
            EXPECT_FALSE(e.hint().empty()) << e.message();
            return;
        }
        ADD_FAILURE() << "no error for " << t;
    };
    const std::string b2 = "beam2: 1, 1, null, 2, null, eye, " + law + ", piezoelectric actuator, ";
    const std::string m6 = "1., 2., 3., 4., 5., 6.";
    // No electrode.
    std::string t = piezo_deck(b2 + "0, 11, " + m6 + ";\n");
    fails(t, where_of(t, "0, 11"), "at least one electrode");
    // More electrodes than the card has arguments.
    t = piezo_deck(b2 + "100, 11, " + m6 + ";\n");
    fails(t, where_of(t, "100"), "100 electrodes");
    // A structural node, an unknown label, an algebraic abstract node.
    t = piezo_deck(b2 + "1, 3, " + m6 + ";\n");
    fails(t, where_of(t, "3, 1., 2."), "structural node 3 is not an abstract node");
    t = piezo_deck(b2 + "1, 99, " + m6 + ";\n");
    fails(t, where_of(t, "99"), "unknown label 99 for abstract node");
    t = piezo_deck(b2 + "1, 12, " + m6 + ";\n");
    fails(t, where_of(t, "12, 1."), "abstract node 12 is algebraic");
    // N larger than the labels given: the matrix's first value is read as a label.
    t = piezo_deck(b2 + "2, 11, 1.5, " + m6 + ";\n");
    fails(t, where_of(t, "1.5"), "check N (2) against the labels");
    // A matrix too short (5 of 6 values), too long (7), and N smaller than the labels given.
    t = piezo_deck(b2 + "1, 11, 1., 2., 3., 4., 5.;\n");
    fails(t, where_of(t, ";\nend: elements"), "has 5 values, it needs 6 x 1 = 6");
    t = piezo_deck(b2 + "1, 11, " + m6 + ", 7.;\n");
    fails(t, where_of(t, "7."), "extra value");
    t = piezo_deck(b2 + "1, 11, 11, " + m6 + ";\n");
    fails(t, where_of(t, "6.;"), "extra value");
    // beam3: matrix I followed too early by `same` (11 of 12 values).
    t = piezo_deck("beam3: 1, 1, null, 2, null, 3, null, eye, " + law +
                   ", same, same, piezoelectric actuator, 2, 11, 11, " + m6 +
                   ", 7., 8., 9., 10., 11., same;\n");
    fails(t, where_of(t, "same;"), "matrix of section I has 11 values, it needs 6 x 2 = 12");
    // A keyword where a value is expected.
    t = piezo_deck(b2 + "1, 11, 1., 2., foo, 4., 5., 6.;\n");
    fails(t, where_of(t, "foo"), "piezoelectric actuator, <number of electrodes N>");
}

}  // namespace
