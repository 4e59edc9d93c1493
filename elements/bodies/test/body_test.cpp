// Body card reader: per-mass data resolved to the node frame, condensed bodies combined about
// their common centre of mass, point masses, and the physical checks.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/model.hpp"
#include "parser/test_support.hpp"

namespace {

using mbs::EntityRef;
using mbs::Mat3;
using mbs::Vec3;
using namespace mbs::test;

// Node 1: static; node 2: dynamic at (1, 2, 0) rotated 90 deg about z; node 3: a dynamic
// displacement-only node.
std::string deck(const std::string& elements, int bodies = 1, const std::string& control = "") {
    return deck_head +
           "begin: control data; structural nodes: 3; rigid bodies: " + std::to_string(bodies) +
           "; " + control +
           "end: control data;\n"
           "begin: nodes;\n"
           "structural: 1, static, null, eye, null, null;\n"
           "structural: 2, dynamic, 1., 2., 0., euler123, 0., 0., pi/2, null, null;\n"
           "structural: 3, dynamic displacement, 0., 0., 0., null;\n"
           "end: nodes;\n"
           "begin: elements;\n" +
           elements + "end: elements;\n";
}

const mbs::EntityDesc& body(const mbs::Model& m, long label = 1) {
    return element(m, "body", label);
}

TEST(ElementBodies, SingleMassInTheNodeFrame) {
    // c.o.m. given globally at (1, 3, 0): offset = R^T (v - x) = R^T (0, 1, 0) = (1, 0, 0).
    // Inertia given globally as diag(1, 2, 3): R^T J R = diag(2, 1, 3).
    auto m = build(deck(
        "body: 1, 2, 5., reference, global, 1., 3., 0., reference, global, diag, 1., 2., 3.;\n"));
    const mbs::Props e = body(m).view();
    EXPECT_EQ(e.get<EntityRef>("node").label, 2);
    EXPECT_DOUBLE_EQ(e.get<double>("mass"), 5.0);
    expect_vec(e.get<Vec3>("center of mass"), Vec3(1, 0, 0));
    expect_mat(e.get<Mat3>("inertia"), Vec3(2, 1, 3).asDiagonal().toDenseMatrix());
    EXPECT_FALSE(e.has("condense"));
}

TEST(ElementBodies, InertiaOrientationRotatesTheTensor) {
    // `orientation, R` (or deprecated `inertial, R`): J <- R J R^T with R = 90 deg about z.
    auto m =
        build(deck("body: 1, 2, 1., null, diag, 1., 2., 3., orientation, euler123, 0., 0., pi/2;\n"
                   "body: 2, 2, 1., null, diag, 1., 2., 3., inertial, node;\n",
                   2));
    expect_mat(body(m, 1).view().get<Mat3>("inertia"), Vec3(2, 1, 3).asDiagonal().toDenseMatrix());
    expect_mat(body(m, 2).view().get<Mat3>("inertia"), Vec3(1, 2, 3).asDiagonal().toDenseMatrix());
}

TEST(ElementBodies, CondenseCombinesAboutTheCommonCentreOfMass) {
    // m = 1 + 3; xc = (1 * 1 + 3 * (-1)) / 4 = -0.5 along x; distances 1.5 and -0.5:
    // J = diag(0.1, 0.2, 0.3) + diag(0, 1*2.25 + 3*0.25, same) = diag(0.1, 3.2, 3.3).
    auto m =
        build(deck("body: 1, 2, condense, 2,\n"
                   "  1., 1., 0., 0., diag, 0.1, 0.2, 0.3,\n"
                   "  3., -1., 0., 0., null;\n"));
    const mbs::Props e = body(m).view();
    EXPECT_EQ(e.get<long>("condense"), 2);
    EXPECT_DOUBLE_EQ(e.get<double>("mass 1"), 1.0);
    expect_vec(e.get<Vec3>("center of mass 2"), Vec3(-1, 0, 0));
    EXPECT_DOUBLE_EQ(e.get<double>("mass"), 4.0);
    expect_vec(e.get<Vec3>("center of mass"), Vec3(-0.5, 0, 0));
    expect_mat(e.get<Mat3>("inertia"), Vec3(0.1, 3.2, 3.3).asDiagonal().toDenseMatrix());
}

TEST(ElementBodies, PointMassOnADisplacementNode) {
    auto m = build(deck("body: 1, 3, 2.5;\n"));
    const mbs::Props e = body(m).view();
    EXPECT_DOUBLE_EQ(e.get<double>("mass"), 2.5);
    EXPECT_FALSE(e.has("inertia"));
}

TEST(ElementBodies, NegativeMassOnlyWhenAllowed) {
    auto m = build(deck("body: 1, 2, allow negative mass, -1., null, null;\n"));
    EXPECT_DOUBLE_EQ(body(m).view().get<double>("mass"), -1.0);
    EXPECT_TRUE(body(m).view().get<bool>("allow negative mass"));

    std::string t = deck("body: 1, 2, -1., null, null;\n");
    std::string msg;
    EXPECT_EQ(error_at(t, &msg), where_of(t, "-1."));
    EXPECT_NE(msg.find("negative mass"), std::string::npos);
}

TEST(ElementBodies, ErrorsPointAtTheArgument) {
    std::string msg;
    // An inertia with a negative principal moment.
    std::string t = deck("body: 1, 2, 1., null, diag, 1., -2., 3.;\n");
    EXPECT_EQ(error_at(t, &msg), where_of(t, "diag"));
    EXPECT_NE(msg.find("positive semi-definite"), std::string::npos);

    // A body on a static node (only allowed with `model: static`).
    t = deck("body: 1, 1, 1., null, null;\n");
    EXPECT_EQ(error_at(t, &msg), where_of(t, "1, 1., null"));
    EXPECT_EQ(error_at(deck("body: 1, 1, 1., null, null;\n", 1, "model: static; ")), "no error");

    // `condense` needs at least one mass.
    t = deck("body: 1, 2, condense, 0, 1., null, null;\n");
    EXPECT_EQ(error_at(t), where_of(t, "0, 1."));

    // Variable-mass bodies are not supported yet.
    t = deck("body: 1, 2, variable mass, const, 1., null, null, null;\n");
    EXPECT_EQ(error_at(t, &msg), where_of(t, "variable mass"));

    // Too few masses for `condense, 2`.
    t = deck("body: 1, 2, condense, 2, 1., null, null;\n");
    EXPECT_EQ(error_at(t, &msg), where_of(t, ";\nend: elements"));

    // A point mass on a displacement-only node takes only the mass.
    t = deck("body: 1, 3, 1., null, null;\n");
    EXPECT_EQ(error_at(t, &msg), where_of(t, "null, null;\nend: elements"));
    EXPECT_NE(msg.find("only the mass"), std::string::npos);

    // The inertia matrix is mandatory for a node with rotations.
    t = deck("body: 1, 2, 1., null;\n");
    EXPECT_EQ(error_at(t), where_of(t, ";\nend: elements"));
}

}  // namespace
