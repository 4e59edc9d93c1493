// Beam card readers: node offsets, absolute section orientations, `from nodes` interpolation
// (checked against the closed form for nodes rotated about the beam axis), `same`, errors.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/model.hpp"
#include "elements/beams/beam.hpp"
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
    EXPECT_EQ(e.props.get<EntityRef>("node3").label, 3);
    EXPECT_LT((e.props.get<Vec3>("offset2") - Vec3(0, 0, 0.1)).norm(), 1e-12);
    expect_mat(e.props.get<Mat3>("section orientation I"), rot_x(M_PI / 2), tol);
    expect_mat(e.props.get<Mat3>("section orientation II"), rot_x(M_PI / 2), tol);
    EXPECT_EQ(e.props.get<std::shared_ptr<const LawSpec>>("law I"),
              e.props.get<std::shared_ptr<const LawSpec>>("law II"));
    EXPECT_EQ(e.props.get<std::shared_ptr<const LawSpec>>("law I")->dim, 6);
    EXPECT_FALSE(e.props.has("section I from nodes"));
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
    expect_mat(e.props.get<Mat3>("section orientation I"),
               rot_x(2 * std::atan(-xi * std::tan(a / 2))), tol);
    expect_mat(e.props.get<Mat3>("section orientation II"),
               rot_x(2 * std::atan(xi * std::tan(a / 2))), tol);
    EXPECT_TRUE(e.props.get<bool>("section I from nodes"));
    EXPECT_TRUE(e.props.get<bool>("section II from nodes"));
}

TEST(ElementBeams, Beam2FromNodesTakesTheMidpoint) {
    // R = R2 exp(g/2), g the CGR parameters of node 1 relative to node 2:
    // g = 2 tan(-a/2), half of it -tan(a/2), i.e. a rotation of 2 atan(-tan(a/2)/2) after R2.
    const double a = 0.8;
    auto m = build(
        deck("beam2: 1, 1, null, 2, null, from nodes, " + law + ", custom output, force, moment;\n",
             0.0, a, 0.0));
    const auto& e = beam(m, "beam2");
    expect_mat(e.props.get<Mat3>("section orientation"),
               rot_x(a + 2 * std::atan(-std::tan(a / 2) / 2)), tol);
    EXPECT_EQ(e.props.get<std::string>("custom output"), "force moment");
}

TEST(ElementBeams, CustomOutputFlagsAsMBDyn) {
    // MBDyn's ReadOptionalBeamCustomOutput starts from the default beam output (forces and
    // moments); `none` clears it; a flag with the orientation reads an optional description.
    using namespace mbs::beam_output_bits;
    auto flags_of = [&](const std::string& tail) {
        auto m = build(deck("beam2: 1, 1, null, 2, null, from nodes, " + law + tail + ";\n"));
        const auto& e = beam(m, "beam2");
        return std::make_pair(e.props.get<long>("custom output flags"),
                              e.props.get_or<std::string>("orientation description", "-"));
    };
    EXPECT_EQ(flags_of(", custom output, position"),
              std::make_pair(static_cast<long>(ep_x | ep_default), std::string("-")));
    EXPECT_EQ(flags_of(", custom output, none, position"),
              std::make_pair(static_cast<long>(ep_x), std::string("-")));
    EXPECT_EQ(flags_of(", custom output, configuration, orientation description, orientation vector"),
              std::make_pair(static_cast<long>(ep_x | ep_r | ep_default), std::string("orientation vector")));
    EXPECT_EQ(flags_of(", custom output, none, orientation, orientation description, euler321"),
              std::make_pair(static_cast<long>(ep_r), std::string("euler321")));
    // The last flag with the orientation decides (here: none given, `default orientation`).
    EXPECT_EQ(flags_of(", custom output, all, orientation description, euler321, none, orientation"),
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

    // Piezoelectric beams are not supported yet.
    t = deck("beam2: 1, 1, null, 2, null, eye, " + law + ", piezoelectric actuator, 1;\n");
    EXPECT_EQ(error_at(t), where_of(t, "piezoelectric"));
}

}  // namespace
