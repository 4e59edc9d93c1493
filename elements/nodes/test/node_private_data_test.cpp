// Structural node private data (node_private_data.hpp) against values worked out by hand for a
// node rotated by 90 degrees about z, and the `node` / `dof` drive callers reading them through
// DriveEnv::data (a hand-made node list and unknown vector standing in for the engine's).
#include "elements/nodes/node_private_data.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "core/drive.hpp"
#include "core/element.hpp"
#include "core/source.hpp"
#include "core/struct_node.hpp"
#include "parser/test_support.hpp"

namespace {

using mbs::Vec3;
using std::numbers::pi;

// Node 2: at (1, 2, 3), rotated 90 degrees about z (axis 1 along global y), velocity (4, 5, 6),
// angular velocity (0, 0, 0.5).
const std::string deck =
    "begin: data; problem: initial value; end: data;\n"
    "begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-3; end: initial "
    "value;\n"
    "begin: control data; structural nodes: 1; end: control data;\n"
    "begin: nodes;\n"
    "structural: 2, dynamic, 1., 2., 3., 3, 0., 0., 1., 1, 0., 1., 0., 4., 5., 6., 0., 0., 0.5;\n"
    "end: nodes;\n";

class NodePrivateData : public ::testing::Test {
  protected:
    mbs::Model model = mbs::test::build(deck);
    std::vector<mbs::StructNode> nodes{mbs::StructNode(mbs::test::node(model, "structural", 2))};
    const mbs::StructNode& n = nodes[0];

    double datum(const std::string& name) {
        std::string why;
        int i = mbs::nodes::struct_node_private_index(n, name, why);
        EXPECT_GE(i, 0) << why;
        return mbs::nodes::struct_node_private_data(n, i);
    }
};

TEST_F(NodePrivateData, ValuesOfARotatedMovingNode) {
    EXPECT_DOUBLE_EQ(datum("X[1]"), 1.0);
    EXPECT_DOUBLE_EQ(datum("X[3]"), 3.0);
    // R^T X with R = [[0,-1,0],[1,0,0],[0,0,1]]: (2, -1, 3)
    EXPECT_NEAR(datum("x[1]"), 2.0, 1e-15);
    EXPECT_NEAR(datum("x[2]"), -1.0, 1e-15);
    EXPECT_NEAR(datum("Phi[3]"), pi / 2, 1e-15);
    EXPECT_NEAR(datum("Phi[1]"), 0.0, 1e-15);
    EXPECT_DOUBLE_EQ(datum("XP[2]"), 5.0);
    EXPECT_NEAR(datum("xP[1]"), 5.0, 1e-15);  // R^T (4, 5, 6) = (5, -4, 6)
    EXPECT_NEAR(datum("xP[2]"), -4.0, 1e-15);
    EXPECT_DOUBLE_EQ(datum("Omega[3]"), 0.5);
    EXPECT_NEAR(datum("omega[3]"), 0.5, 1e-15);
    EXPECT_NEAR(datum("E[3]"), pi / 2, 1e-15);
    EXPECT_NEAR(datum("E313[1]") + datum("E313[3]"), pi / 2, 1e-15);
    EXPECT_NEAR(datum("E321[1]"), pi / 2, 1e-15);
    EXPECT_NEAR(datum("PE[0]"), std::cos(pi / 4), 1e-15);
    EXPECT_NEAR(datum("PE[3]"), std::sin(pi / 4), 1e-15);
    EXPECT_NEAR(datum("PE[1]"), 0.0, 1e-15);
}

TEST_F(NodePrivateData, UnknownAndAccelerationNamesAreRefused) {
    std::string why;
    EXPECT_EQ(mbs::nodes::struct_node_private_index(n, "X[4]", why), -1);
    EXPECT_NE(why.find("no private datum"), std::string::npos);
    EXPECT_EQ(mbs::nodes::struct_node_private_index(n, "XPP[4]", why), -1);
    EXPECT_NE(why.find("no private datum"), std::string::npos);
}

// Accelerations: global and node-frame components of the node's xpp, wp (set by the engine
// after each step; here by hand), R = rotation by 90 degrees about z.
TEST_F(NodePrivateData, Accelerations) {
    nodes[0].xpp = Vec3(1.0, 2.0, 3.0);
    nodes[0].wp = Vec3(0.0, -4.0, 5.0);
    EXPECT_DOUBLE_EQ(datum("XPP[2]"), 2.0);
    EXPECT_NEAR(datum("xPP[1]"), 2.0, 1e-15);  // R^T (1, 2, 3) = (2, -1, 3)
    EXPECT_NEAR(datum("xPP[2]"), -1.0, 1e-15);
    EXPECT_DOUBLE_EQ(datum("OmegaP[3]"), 5.0);
    EXPECT_NEAR(datum("omegaP[1]"), -4.0, 1e-15);  // R^T (0, -4, 5) = (-4, 0, 5)
    EXPECT_NEAR(datum("omegaP[2]"), 0.0, 1e-15);
}

TEST(NodePrivateDataStatic, AccelerationsOfAStaticNodeAreRefused) {
    mbs::Model m = mbs::test::build(
        "begin: data; problem: initial value; end: data;\n"
        "begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-3; end: initial "
        "value;\n"
        "begin: control data; structural nodes: 1; end: control data;\n"
        "begin: nodes; structural: 1, static, null, eye, null, null; end: nodes;\n");
    mbs::StructNode s(mbs::test::node(m, "structural", 1));
    std::string why;
    EXPECT_EQ(mbs::nodes::struct_node_private_index(s, "XPP[1]", why), -1);
    EXPECT_NE(why.find("static"), std::string::npos);
    EXPECT_GE(mbs::nodes::struct_node_private_index(s, "XP[1]", why), 0);
}

// The node and dof drives through DriveEnv::data, with a hand-made unknown vector.
TEST_F(NodePrivateData, NodeAndDofDrives) {
    std::vector<std::unique_ptr<mbs::Element>> elements;
    std::vector<double> y(12, 0.0), yp(12, 0.0);
    nodes[0].set_first_dof(0);
    y[1] = 7.0;    // position y
    yp[2] = -3.0;  // velocity z
    mbs::SimClock clock;
    mbs::DriveEnv env{&clock, &model, {&nodes, &elements, &y, &yp}};
    std::vector<std::unique_ptr<mbs::Model>> kept;
    auto make = [&](const std::string& text) {
        kept.push_back(std::make_unique<mbs::Model>(
            mbs::test::build(deck + "drive caller: 9, " + text + ";\n")));
        return mbs::make_drive(*kept.back()->drive_callers.at(9), env);
    };
    EXPECT_NEAR(make("node, 2, structural, string, \"x[1]\", linear, 1., 10.")->value(0.0), 21.0,
                1e-14);
    EXPECT_NEAR(make("node, 2, structural, index, 16, direct")->value(0.0), 0.0,
                1e-15);  // Omega[1]
    EXPECT_DOUBLE_EQ(make("dof, 2, structural, 2, algebraic, direct")->value(0.0), 7.0);
    auto d = make("dof, 2, structural, 3, differential, linear, 0., 2.");
    EXPECT_DOUBLE_EQ(d->value(0.0), -6.0);
    EXPECT_FALSE(d->differentiable());
    y[1] = 8.0;  // the drive reads the current unknowns
    EXPECT_DOUBLE_EQ(make("dof, 2, structural, 2, direct")->value(0.0), 8.0);
    nodes[0].xpp = Vec3(0.0, 0.0, -2.5);  // set by the engine after each step
    EXPECT_DOUBLE_EQ(make("node, 2, structural, string, \"XPP[3]\", direct")->value(0.0), -2.5);
    EXPECT_THROW(make("node, 2, structural, string, \"XPP[4]\", direct"), mbs::InputError);
    EXPECT_THROW(make("dof, 2, structural, 2, order, 2, direct"), mbs::InputError);
}

}  // namespace
