// The screw joint (screw_joint.cpp): its card reader (the spec's generic view, errors located at
// the argument), its Jacobian against finite differences at random states with large relative
// rotations (solvers/dae/test/jacobian_check.hpp), in the dynamic phase and in the initial
// assembly, and its pitch relation in a short run.
#include <cmath>
#include <string>

#include "solvers/dae/test/jacobian_check.hpp"

namespace mbs::test {
namespace {

// The joint tests' model (jacobian_check.hpp): `joints` joint cards between its nodes.
std::string deck(int joints, const std::string& elements) {
    return joint_test_deck(joints, elements);
}

const std::string screw23 =
    "joint: 1, screw, 2, 0.1, -0.2, 0.3, euler123, 0.2, -0.5, 0.3,"
    " 3, offset, -0.2, 0.1, 0.4, pitch, 0.7;\n";

TEST(ScrewJoint, ReaderStoresTheCard) {
    Model m = build(deck(1, screw23));
    const EntityDesc& e = element(m, "joint", 1);
    EXPECT_EQ(e.type, "screw");
    EXPECT_EQ(e.view().get<EntityRef>("node1").label, 2);
    EXPECT_EQ(e.view().get<EntityRef>("node2").label, 3);
    EXPECT_DOUBLE_EQ(e.view().get<double>("pitch"), 0.7);
    EXPECT_TRUE(e.view().get<Vec3>("offset1").isApprox(Vec3(0.1, -0.2, 0.3)));
    EXPECT_TRUE(e.view().get<Vec3>("offset2").isApprox(Vec3(-0.2, 0.1, 0.4)));
    EXPECT_TRUE(e.view().has("orientation1"));
    // Without `offset` node 2's point is the node; `output, no` is read.
    m = build(deck(1, "joint: 1, screw, 1, null, eye, 2, pitch, -0.1, output, no;\n"));
    EXPECT_FALSE(element(m, "joint", 1).view().has("offset2"));
    EXPECT_FALSE(element(m, "joint", 1).output);
}

TEST(ScrewJoint, ErrorsPointAtTheArgument) {
    std::string msg;
    std::string t = deck(1, "joint: 1, screw, 1, null, eye, 2, 0.1;\n");
    EXPECT_EQ(error_at(t, &msg), where_of(t, "0.1;"));
    EXPECT_NE(msg.find("pitch"), std::string::npos) << msg;
    t = deck(1, "joint: 1, screw, 1, null, eye, 2, pitch, 0.1, friction, 0.2;\n");
    EXPECT_EQ(error_at(t, &msg), where_of(t, "friction"));
    EXPECT_NE(msg.find("not supported yet"), std::string::npos) << msg;
    t = deck(1, "joint: 1, screw, 2, null, eye, 2, pitch, 0.1;\n");
    EXPECT_EQ(error_at(t), where_of(t, "2, pitch"));
    t = deck(1, "joint: 1, screw, 1, null, eye, 4, pitch, 0.1;\n");
    EXPECT_EQ(error_at(t), where_of(t, "4, pitch"));
}

TEST(ScrewJointJacobian, TwoDynamicNodesWithOffsets) { expect_exact_jacobian(deck(1, screw23)); }

TEST(ScrewJointJacobian, StaticNodeOne) {
    expect_exact_jacobian(deck(
        1, "joint: 1, screw, 1, -0.3, 0.2, 0.1, euler123, -0.3, 0.4, 0.1, 3, pitch, -0.25;\n"));
}

TEST(ScrewJointJacobian, InitialAssembly) {
    for (unsigned seed = 1; seed <= 3; ++seed) {
        JacobianCheck r = check_jacobian(deck(1, screw23), seed, 1.0, 1e-6, Phase::assembly);
        EXPECT_LT(r.rel(), 1e-6) << "state " << seed << ": max |J - FD| = " << r.max_abs_err
                                 << " at " << r.where;
    }
}

// Private data (MBDyn's names) against the .jnt line at a random state: Fx..Mz the global
// reaction columns, d and r the extra columns (r in degrees there).
TEST(ScrewJoint, PrivateDataAreTheOutputColumns) {
    Model m = build(deck(1, screw23));
    Engine e(m, "dense");
    randomize_state(e, 2);
    e.update(0.3, 1e-3);
    for (const auto& el : e.elements()) {
        if (el->desc().type != "screw") continue;
        el->after_step(StepContext{0.3, 1e-3, 0.37, Phase::dynamic}, e.state());
        double v[Element::max_output_values];
        ASSERT_EQ(el->output_values(v), 20);
        const char* names[] = {"Fx", "Fy", "Fz", "Mx", "My", "Mz", "d", "r"};
        const double expect[] = {v[6], v[7], v[8], v[9], v[10], v[11], v[13], v[12] * M_PI / 180.0};
        for (int i = 0; i < 8; ++i) {
            const int k = el->private_data_index(names[i]);
            ASSERT_EQ(k, i) << names[i];
            EXPECT_NEAR(el->private_data(k, e.state()), expect[i],
                        1e-12 * (1.0 + std::fabs(expect[i])))
                << names[i];
        }
        EXPECT_NE(v[8], 0.0);
        return;
    }
    FAIL() << "no screw joint";
}

}  // namespace
}  // namespace mbs::test
