// The gimbal rotation (gimbal_joint.cpp): its card reader, its Jacobian against finite
// differences at random states with large relative rotations (solvers/dae/test/jacobian_check.hpp)
// in the dynamic phase and in the initial assembly, its angles against MBDyn's parametrisation
// Q(theta, phi) = Ry(theta) Rx(phi) Ry(theta), and the joints refused at their card
// (unsupported_joints.cpp) and MBDyn's obsolete names of total joints read as those
// (total_joint_cards.cpp).
#include <cmath>
#include <string>

#include "solvers/dae/test/jacobian_check.hpp"

namespace mbs::test {
namespace {

// The joint tests' model (jacobian_check.hpp): `joints` joint cards between its nodes.
std::string deck(int joints, const std::string& elements) {
    return joint_test_deck(joints, elements);
}

const std::string gimbal23 =
    "joint: 1, gimbal rotation, 2, position, 0.1, 0.2, 0.3, orientation, euler123, 0.2, -0.5, 0.3,"
    " 3, orientation, euler123, -0.3, 0.1, 0.6;\n";

TEST(GimbalJoint, ReaderStoresTheCard) {
    Model m = build(deck(1, gimbal23));
    const EntityDesc& e = element(m, "joint", 1);
    EXPECT_EQ(e.type, "gimbal rotation");
    EXPECT_EQ(e.view().get<EntityRef>("node1").label, 2);
    EXPECT_EQ(e.view().get<EntityRef>("node2").label, 3);
    EXPECT_TRUE(e.view().has("orientation1"));
    EXPECT_FALSE(e.view().has("offset1"));  // read and ignored, as MBDyn
    m = build(deck(1, "joint: 1, gimbal rotation, 2, 3, orientation description, euler321;\n"));
    EXPECT_EQ(element(m, "joint", 1).view().get<std::string>("orientation description"),
              "euler321");
}

TEST(GimbalJoint, ErrorsPointAtTheArgument) {
    std::string t = deck(1, "joint: 1, gimbal rotation, 2, 2;\n");
    EXPECT_EQ(error_at(t), where_of(t, "2;\n", 1));  // the second node 2
    t = deck(1, "joint: 1, gimbal rotation, 2, 4;\n");
    EXPECT_EQ(error_at(t), where_of(t, "4;\n"));
    t = deck(1, "joint: 1, gimbal rotation, 2, 3, 0.5;\n");
    EXPECT_EQ(error_at(t), where_of(t, "0.5;\n"));
}

TEST(GimbalJointJacobian, TwoDynamicNodes) { expect_exact_jacobian(deck(1, gimbal23)); }

TEST(GimbalJointJacobian, StaticNodeOne) {
    expect_exact_jacobian(
        deck(1, "joint: 1, gimbal rotation, 1, orientation, euler123, -0.3, 0.4, 0.1, 2;\n"));
}

TEST(GimbalJointJacobian, InitialAssembly) {
    for (unsigned seed = 1; seed <= 3; ++seed) {
        JacobianCheck r = check_jacobian(deck(1, gimbal23), seed, 1.0, 1e-6, Phase::assembly);
        EXPECT_LT(r.rel(), 1e-6) << "state " << seed << ": max |J - FD| = " << r.max_abs_err
                                 << " at " << r.where;
    }
}

// At a state on the constraint (node 3's hinge frame = node 2's times Q(theta, phi)) the
// reported angles give back Q, the private data are the .jnt columns, and the couple has no
// component along the free directions Ra (Q w) (MBDyn's angle equations).
TEST(GimbalJoint, AnglesAndCoupleOnTheConstraint) {
    const double th = 0.7, ph = -1.1;
    const Mat3 Q = (Eigen::AngleAxisd(th, Vec3::UnitY()) * Eigen::AngleAxisd(ph, Vec3::UnitX()) *
                    Eigen::AngleAxisd(th, Vec3::UnitY()))
                       .toRotationMatrix();
    Model m = build(deck(1, "joint: 1, gimbal rotation, 2, 3;\n"));
    Engine e(m, "naive");
    StructNode* n2 = nullptr;
    StructNode* n3 = nullptr;
    for (auto& n : e.nodes()) {
        if (n.label() == 2) n2 = &n;
        if (n.label() == 3) n3 = &n;
    }
    ASSERT_TRUE(n2 && n3);
    randomize_state(e, 3);
    e.update(0.3, 1e-3);
    n3->R = n2->R * Q;
    for (const auto& el : e.elements()) {
        if (el->desc().type != "gimbal rotation") continue;
        double r[64] = {};
        std::vector<double> res(static_cast<std::size_t>(e.size()), 0.0);
        el->residual(StepContext{0.3, 1e-3, 0.37, Phase::dynamic}, e.state(), res.data());
        EXPECT_NEAR(res[static_cast<std::size_t>(el->first_dof())], 0.0, 1e-14);
        el->after_step(StepContext{0.3, 1e-3, 0.37, Phase::dynamic}, e.state());
        ASSERT_EQ(el->output_values(r), 17);
        // (theta, phi) or its twin (theta + pi, -phi): the same Q.
        const double k = std::round((r[12] - th) / M_PI);
        EXPECT_NEAR(r[12], th + k * M_PI, 1e-12);
        EXPECT_NEAR(r[13], (static_cast<long>(k) % 2 ? -ph : ph), 1e-12);
        const Vec3 M(r[9], r[10], r[11]);
        const Vec3 wt(std::sin(th) * std::sin(ph), 1.0 + std::cos(ph),
                      -std::cos(th) * std::sin(ph));
        const Vec3 wp(std::cos(th), 0.0, std::sin(th));
        EXPECT_NEAR(M.dot(n2->R * Q * wt), 0.0, 1e-12 * M.norm());
        EXPECT_NEAR(M.dot(n2->R * Q * wp), 0.0, 1e-12 * M.norm());
        EXPECT_GT(M.norm(), 1e-3);
        const Vec3 m_loc(r[3], r[4], r[5]);
        EXPECT_LT((n2->R * m_loc - M).norm(), 1e-12 * M.norm());
        const char* names[] = {"lambda[1]", "lambda[2]", "lambda[3]", "theta", "phi"};
        const double expect[] = {r[3], r[4], r[5], r[12], r[13]};
        for (int i = 0; i < 5; ++i) {
            const int j = el->private_data_index(names[i]);
            ASSERT_EQ(j, i) << names[i];
            EXPECT_NEAR(el->private_data(j, e.state()), expect[i], 1e-12) << names[i];
        }
        return;
    }
    FAIL() << "no gimbal rotation";
}

TEST(UnsupportedJoints, RefusedAtTheCardWithAdvice) {
    for (const char* c : {"plane displacement, 2, 3", "plane displacement pin, 2, null, null",
                          "brake, 2, 3, friction, 0.1", "beam slider, 2"}) {
        std::string msg;
        std::string t = deck(1, std::string("joint: 1, ") + c + ";\n");
        EXPECT_EQ(error_at(t, &msg), where_of(t, "joint: 1")) << c;
        EXPECT_NE(msg.find("not supported"), std::string::npos) << msg;
    }
}

// MBDyn's obsolete imposed displacement (pin) and imposed orientation: total (pin) joints with
// the position or the rotation imposed, the offsets and frames without keywords.
TEST(ImposedJoints, ReadAsTotalJoints) {
    Model m = build(deck(1,
                         "joint: 1, imposed displacement, 2, 0.1, 0.2, 0.3, 3, null,"
                         " single, 1., 0., 0., const, 0.5;\n"));
    const EntityDesc& e = element(m, "joint", 1);
    EXPECT_EQ(e.view().get<std::string>("status position"), "position, position, position");
    EXPECT_EQ(e.view().get<std::string>("status orientation"), "inactive, inactive, inactive");
    EXPECT_TRUE(e.view().get<Vec3>("offset1").isApprox(Vec3(0.1, 0.2, 0.3)));
    m = build(deck(1,
                   "joint: 1, imposed displacement pin, 2, null, 1., 2., 3.,"
                   " single, 0., 1., 0., const, 0.5;\n"));
    EXPECT_TRUE(element(m, "joint", 1).view().get<Vec3>("position").isApprox(Vec3(1., 2., 3.)));
    m = build(deck(1,
                   "joint: 1, imposed orientation, 2, euler123, 0.1, 0., 0., 3, eye,"
                   " single, 0., 0., 1., const, 0.5;\n"));
    const EntityDesc& o = element(m, "joint", 1);
    EXPECT_EQ(o.view().get<std::string>("status orientation"), "rotation, rotation, rotation");
    EXPECT_EQ(o.view().get<std::string>("status position"), "inactive, inactive, inactive");
    std::string t = deck(1,
                         "joint: 1, imposed displacement, 2, position, 0., 0., 0., 3, null,"
                         " null;\n");
    EXPECT_EQ(error_at(t), where_of(t, "position"));
}

TEST(ImposedJointsJacobian, AsTotalJoints) {
    expect_exact_jacobian(deck(1,
                               "joint: 1, imposed displacement, 2, 0.1, 0.2, 0.3, 3, null,"
                               " single, 1., 0., 0., sine, 0., 1., 0.5, forever, 0.;\n"));
    expect_exact_jacobian(deck(1,
                               "joint: 1, imposed orientation, 2, euler123, 0.1, 0.2, 0.,"
                               " 3, eye, single, 0., 0., 1., sine, 0., 1., 0.5, forever, 0.;\n"));
}

}  // namespace
}  // namespace mbs::test
