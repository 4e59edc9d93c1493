// Joint card readers: resolved offsets and orientations (frame prefixes, `other` frames),
// statuses, drives and laws as stored, and errors located at the offending argument.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/const_drive.hpp"
#include "core/model.hpp"
#include "parser/test_support.hpp"

namespace {

using mbs::EntityRef;
using mbs::Mat3;
using mbs::Vec3;
using namespace mbs::test;

// Node 1: static at the origin; node 2: dynamic at (1, 2, 0) rotated 90 deg about z;
// node 3: dynamic at (0, 0, 1) rotated 90 deg about x; node 4: a displacement-only node.
const std::string nodes =
    "structural: 1, static, null, eye, null, null;\n"
    "structural: 2, dynamic, 1., 2., 0., euler123, 0., 0., pi/2, null, null;\n"
    "structural: 3, dynamic, 0., 0., 1., euler123, pi/2, 0., 0., null, null;\n"
    "structural: 4, dynamic displacement, 3., 0., 0., null;\n";

std::string deck(const std::string& elements, int joints = 1) {
    return deck_head +
           "begin: control data; structural nodes: 4; joints: " + std::to_string(joints) +
           "; end: control data;\n"
           "begin: nodes;\n" +
           nodes +
           "end: nodes;\n"
           "begin: elements;\n" +
           elements + "end: elements;\n";
}

const mbs::EntityDesc& joint(const mbs::Model& m, long label = 1) {
    return element(m, "joint", label);
}

Mat3 Rz90() {
    Mat3 R;
    R << 0, -1, 0, 1, 0, 0, 0, 0, 1;
    return R;
}
Mat3 Rx90() {
    Mat3 R;
    R << 1, 0, 0, 0, 0, -1, 0, 1, 0;
    return R;
}

TEST(ElementJoints, ClampNodeNodeTakesTheNodeState) {
    auto m = build(deck("joint: 1, clamp, 2, node, node;\n"));
    const auto& e = joint(m);
    EXPECT_EQ(e.type, "clamp");
    EXPECT_EQ(e.view().get<EntityRef>("node").label, 2);
    expect_vec(e.view().get<Vec3>("position"), Vec3(1, 2, 0));
    expect_mat(e.view().get<Mat3>("orientation"), Rz90());
}

TEST(ElementJoints, ClampAbsoluteDataInTheNodeContext) {
    // `reference, node` for absolute data: x = xn + Rn v, R = Rn Rv.
    auto m =
        build(deck("joint: 1, clamp, 2, position, reference, node, 1., 0., 0., "
                   "orientation, reference, node, euler123, pi/2, 0., 0.;\n"));
    const auto& e = joint(m);
    expect_vec(e.view().get<Vec3>("position"), Vec3(1, 3, 0));
    expect_mat(e.view().get<Mat3>("orientation"), Rz90() * Rx90());
}

TEST(ElementJoints, RevoluteHingeGlobalOffsetsOnARotatedNode) {
    // offset = R^T (v - x): node 2 at (1, 2, 0) rotated 90 deg about z, hinge at the origin.
    auto m = build(
        deck("joint: 1, revolute hinge,\n"
             "  1, position, reference, global, null, orientation, reference, global, eye,\n"
             "  2, position, reference, global, null, orientation, reference, global, eye;\n"));
    const auto& e = joint(m);
    EXPECT_EQ(e.view().get<EntityRef>("node1").label, 1);
    expect_vec(e.view().get<Vec3>("offset1"), Vec3::Zero());
    expect_mat(e.view().get<Mat3>("orientation1"), Mat3::Identity());
    EXPECT_EQ(e.view().get<EntityRef>("node2").label, 2);
    expect_vec(e.view().get<Vec3>("offset2"), Vec3(-2, 1, 0));
    expect_mat(e.view().get<Mat3>("orientation2"), Rz90().transpose());
    EXPECT_TRUE(e.output);
    EXPECT_FALSE(e.view().has("initial theta"));
}

TEST(ElementJoints, RevoluteHingeOtherFramesAndTrailingData) {
    // other position: f2 = R2^T (x1 + R1 (f1 + p) - x2); other orientation: R2h = R2^T R1 R1h R.
    // `initial theta` follows `output`, which this reader reads itself.
    auto m =
        build(deck("joint: 1, revolute hinge, 3, 0., 1., 0., hinge, euler123, 0., 0., pi/2,\n"
                   "  2, position, reference, other position, 0., 0., 1.,\n"
                   "  orientation, reference, other orientation, eye,\n"
                   "  orientation description, euler 321, output, no, initial theta, 0.25;\n"));
    const auto& e = joint(m);
    Vec3 x1(0, 0, 1), x2(1, 2, 0);
    Mat3 R1 = Rx90(), R2 = Rz90();
    Vec3 f1(0, 1, 0);
    expect_vec(e.view().get<Vec3>("offset1"), f1);
    expect_mat(e.view().get<Mat3>("orientation1"), Rz90());
    expect_vec(e.view().get<Vec3>("offset2"),
               R2.transpose() * (x1 + R1 * (f1 + Vec3(0, 0, 1)) - x2));
    expect_mat(e.view().get<Mat3>("orientation2"), R2.transpose() * R1 * Rz90());
    EXPECT_EQ(e.view().get<std::string>("orientation description"), "euler321");
    EXPECT_FALSE(e.output);
    EXPECT_DOUBLE_EQ(e.view().get<double>("initial theta"), 0.25);
}

TEST(ElementJoints, AxialRotationReadsTheDriveAfterTheGeometry) {
    auto m = build(
        deck("joint: 1, axial rotation, 1, null, 2, reference, other node, null, const, 6.;\n"));
    const auto& e = joint(m);
    // other node: f2 = R2^T (x1 + R1 p - x2) = R2^T (-1, -2, 0).
    expect_vec(e.view().get<Vec3>("offset2"), Vec3(-2, 1, 0));
    const auto omega = e.view().get<std::shared_ptr<const mbs::DriveSpec>>("omega");
    EXPECT_EQ(omega->type, "const");
    EXPECT_DOUBLE_EQ(omega->args_as<mbs::ConstArgs>().value, 6.0);
}

TEST(ElementJoints, RevolutePinGroundData) {
    auto m =
        build(deck("joint: 1, revolute pin, 2, null, orientation, eye, position, 5., 0., 0., "
                   "orientation, euler123, 0., 0., pi/2, initial theta, 1.;\n"));
    const auto& e = joint(m);
    expect_vec(e.view().get<Vec3>("offset"), Vec3::Zero());
    expect_mat(e.view().get<Mat3>("hinge orientation"), Mat3::Identity());
    expect_vec(e.view().get<Vec3>("position"), Vec3(5, 0, 0));
    expect_mat(e.view().get<Mat3>("orientation"), Rz90());
    EXPECT_DOUBLE_EQ(e.view().get<double>("initial theta"), 1.0);
}

TEST(ElementJoints, SphericalHingeAndCardanoRotationWithoutOffsets) {
    auto m = build(deck(
        "joint: 1, spherical hinge, 1, 0., 0., 1., 3, position, reference, global, 0., 0., 1.;\n"
        "joint: 2, cardano rotation, 1, 2;\n",
        2));
    const auto& s = joint(m, 1);
    expect_vec(s.view().get<Vec3>("offset2"), Vec3::Zero());
    const auto& c = joint(m, 2);
    EXPECT_EQ(c.type, "cardano rotation");
    EXPECT_FALSE(c.view().has("offset1"));
    expect_mat(c.view().get<Mat3>("orientation2"), Mat3::Identity());
}

TEST(ElementJoints, InPlaneNormalIsNormalised) {
    auto m = build(deck("joint: 1, in plane, 1, null, 0., 0., 2., 2, offset, null;\n"));
    const auto& e = joint(m);
    expect_vec(e.view().get<Vec3>("normal"), Vec3(0, 0, 1));
    expect_vec(e.view().get<Vec3>("offset2"), Vec3::Zero());
}

TEST(ElementJoints, RodFromNodesAndLegacyOffsets) {
    auto m = build(
        deck("joint: 1, rod, 1, 4, from nodes, linear elastic, 100.;\n"
             "joint: 2, rod, 1, 2, 2., offset, 0., 0., 1., null, linear viscoelastic, 10., 1.;\n",
             2));
    const auto& a = joint(m, 1);
    EXPECT_DOUBLE_EQ(a.view().get<double>("l0"), 3.0);
    EXPECT_FALSE(a.view().has("offset1"));
    EXPECT_EQ(a.view().get<std::shared_ptr<const mbs::LawSpec>>("law")->dim, 1);
    const auto& b = joint(m, 2);
    EXPECT_DOUBLE_EQ(b.view().get<double>("l0"), 2.0);
    expect_vec(b.view().get<Vec3>("offset1"), Vec3(0, 0, 1));
}

TEST(ElementJoints, DistanceFromNodesWithOffsets) {
    // Point 1 = (0, 0, 1); point 2 = x2 + R2 (1, 0, 0) = (1, 3, 0).
    auto m = build(deck(
        "joint: 1, distance, 1, position, 0., 0., 1., 2, position, 1., 0., 0., from nodes;\n"));
    EXPECT_DOUBLE_EQ(joint(m).view().get<double>("length"), std::sqrt(11.0));
}

TEST(ElementJoints, TotalJointStatusesAndDriveFrame) {
    // The imposed position is in the frame R1 R1p: `reference, global` gives (R1 R1p)^T v.
    auto m =
        build(deck("joint: 1, total joint, 2, position, null, 3,\n"
                   "  position constraint, active, 0, velocity,\n"
                   "    single, reference, global, 1., 0., 0., const, 2.,\n"
                   "  orientation constraint, rotation, true, angular velocity, null;\n"));
    const auto& e = joint(m);
    EXPECT_EQ(e.view().get<std::string>("status position"), "position, inactive, velocity");
    EXPECT_EQ(e.view().get<std::string>("status orientation"),
              "rotation, rotation, angular velocity");
    const auto pd = e.view().get<std::shared_ptr<const mbs::TplDriveSpec>>("position drive");
    EXPECT_EQ(pd->type, "single");
    expect_vec(Vec3(pd->entity[0], pd->entity[1], pd->entity[2]), Vec3(0, -1, 0));
    EXPECT_EQ(e.view().get<std::shared_ptr<const mbs::TplDriveSpec>>("orientation drive")->type,
              "null");
}

TEST(ElementJoints, TotalPinJointGroundSide) {
    auto m =
        build(deck("joint: 1, total pin joint, 2, position, 1., 0., 0.,\n"
                   "  position, reference, other position, null,\n"
                   "  position constraint, 1, 1, 1, null;\n"));
    const auto& e = joint(m);
    expect_vec(e.view().get<Vec3>("offset"), Vec3(1, 0, 0));
    expect_vec(e.view().get<Vec3>("position"), Vec3(1, 3, 0));  // x2 + R2 (1, 0, 0)
    EXPECT_EQ(e.view().get<std::string>("status position"), "position, position, position");
    EXPECT_EQ(e.view().get<std::string>("status orientation"), "inactive, inactive, inactive");
}

TEST(ElementJoints, DeformableJointsKeepTheirLaws) {
    auto m = build(deck(
        "joint: 1, deformable hinge, 1, 2, linear viscous, 3.;\n"
        "joint: 2, deformable displacement joint, 1, null, 2, null, linear elastic, 1.;\n"
        "joint: 3, deformable joint, 1, null, 2, null, linear elastic, 1.;\n"
        "joint: 4, viscous body, 2, null, linear viscous generic, diag, 1., 1., 1., 1., 1., 1.;\n",
        4));
    EXPECT_EQ(joint(m, 1).view().get<std::shared_ptr<const mbs::LawSpec>>("law")->dim, 3);
    EXPECT_FALSE(joint(m, 1).view().has("offset1"));
    EXPECT_TRUE(joint(m, 2).view().has("offset2"));
    EXPECT_EQ(joint(m, 3).view().get<std::shared_ptr<const mbs::LawSpec>>("law")->dim, 6);
    EXPECT_EQ(joint(m, 4).view().get<EntityRef>("node").label, 2);
}

TEST(ElementJoints, ImposedMotionAndDriveJoints) {
    auto m =
        build(deck("joint: 1, angular velocity, 2, reference, global, 0., 0., 5., const, 1.;\n"
                   "joint: 2, drive hinge, 1, 2, single, 0., 0., 1., const, 0.1;\n"
                   "joint: 3, drive displacement, 1, null, 2, null, null;\n"
                   "joint: 4, drive displacement pin, 2, null, 1., 2., 0., null;\n"
                   "joint: 5, prismatic, 1, 2, orientation, reference, global, eye;\n",
                   5));
    expect_vec(joint(m, 1).view().get<Vec3>("direction"), Vec3(0, 0, 1));
    EXPECT_EQ(joint(m, 2).view().get<std::shared_ptr<const mbs::TplDriveSpec>>("drive")->type,
              "single");
    EXPECT_TRUE(joint(m, 3).view().has("offset2"));
    expect_vec(joint(m, 4).view().get<Vec3>("position"), Vec3(1, 2, 0));
    expect_mat(joint(m, 5).view().get<Mat3>("orientation2"), Rz90().transpose());
}

TEST(ElementJoints, ErrorsPointAtTheArgument) {
    std::string msg;
    // A joint connecting a node to itself: at the second node label.
    std::string t = deck("joint: 1, revolute hinge, 2, null, 2, null;\n");
    EXPECT_EQ(error_at(t, &msg), where_of(t, "2, null;"));
    EXPECT_NE(msg.find("to itself"), std::string::npos);

    // A displacement-only node where rotations are needed.
    t = deck("joint: 1, spherical hinge, 1, null, 4, null;\n");
    EXPECT_EQ(error_at(t, &msg), where_of(t, "4, null;"));

    // Unknown node label.
    t = deck("joint: 1, clamp, 9, node, node;\n");
    EXPECT_EQ(error_at(t), where_of(t, "9"));

    // The offset vector is mandatory even without the `position` keyword.
    t = deck("joint: 1, revolute hinge, 1, position, 2, null;\n");
    EXPECT_EQ(error_at(t, &msg), where_of(t, "null;\nend: elements"));
    EXPECT_NE(msg.find("expected 3 values"), std::string::npos);

    // Friction is not supported yet.
    t = deck("joint: 1, revolute hinge, 1, null, 2, null, friction, 0.1;\n");
    EXPECT_EQ(error_at(t), where_of(t, "friction"));

    // A viscous body with an elastic law.
    t = deck("joint: 1, viscous body, 2, null, linear elastic, 1.;\n");
    EXPECT_EQ(error_at(t, &msg), where_of(t, "linear elastic"));
    EXPECT_NE(msg.find("viscous"), std::string::npos);

    // The in-plane normal must not be null.
    t = deck("joint: 1, in plane, 1, null, null, 2;\n");
    EXPECT_EQ(error_at(t), where_of(t, "null, 2;"));

    // A total joint status must be given for all three components.
    t = deck("joint: 1, total joint, 1, 2, position constraint, active, active;\n");
    EXPECT_EQ(error_at(t), where_of(t, ";\nend: elements"));

    // Rod with a non-positive reference length.
    t = deck("joint: 1, rod, 1, 4, 0., linear elastic, 1.;\n");
    EXPECT_EQ(error_at(t), where_of(t, "0., linear"));

    // Leftover argument after a card that reads `output` itself.
    t = deck("joint: 1, revolute hinge, 1, null, 2, null, output, yes, 3.;\n");
    EXPECT_EQ(error_at(t), where_of(t, "3.;"));
}

}  // namespace
