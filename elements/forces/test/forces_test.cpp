// Force and couple card readers: arms in the node frame, force vectors resolved to the global
// frame (absolute) or the node frame (follower), internal, total and abstract forms, errors.
#include <gtest/gtest.h>

#include <string>

#include "core/const_drive.hpp"
#include "core/model.hpp"
#include "parser/test_support.hpp"

namespace {

using mbs::EntityRef;
using mbs::Mat3;
using mbs::TplDriveSpec;
using mbs::Vec3;
using namespace mbs::test;

// Node 1: static at the origin; node 2: dynamic at (1, 2, 0) rotated 90 deg about z;
// node 3: dynamic displacement-only; abstract node 5.
std::string deck(const std::string& elements, int forces = 1) {
    return deck_head + "begin: control data; structural nodes: 3; abstract nodes: 1; forces: " +
           std::to_string(forces) +
           "; end: control data;\n"
           "begin: nodes;\n"
           "structural: 1, static, null, eye, null, null;\n"
           "structural: 2, dynamic, 1., 2., 0., euler123, 0., 0., pi/2, null, null;\n"
           "structural: 3, dynamic displacement, 0., 0., 0., null;\n"
           "abstract: 5;\n"
           "end: nodes;\n"
           "begin: elements;\n" +
           elements + "end: elements;\n";
}

Vec3 entity(const mbs::EntityDesc& e, const char* key) {
    const auto t = e.view().get<std::shared_ptr<const TplDriveSpec>>(key);
    EXPECT_EQ(t->type, "single");
    EXPECT_EQ(t->entity.size(), 3u);
    return Vec3(t->entity[0], t->entity[1], t->entity[2]);
}

TEST(ElementForces, AbsoluteForceVectorIsGlobal) {
    // Arm given globally at (1, 3, 0): R^T (0, 1, 0) = (1, 0, 0). `reference, node` for the
    // absolute vector: R (1, 0, 0) = (0, 1, 0).
    auto m =
        build(deck("force: 1, absolute, 2, position, reference, global, 1., 3., 0.,\n"
                   "  single, reference, node, 1., 0., 0., const, 10.;\n"
                   "force: 2, conservative, 2, position, null, 0., 0., 1., const, 1.;\n",
                   2));
    const auto& e = element(m, "force", 1);
    EXPECT_EQ(e.type, "absolute");
    EXPECT_EQ(e.view().get<EntityRef>("node").label, 2);
    expect_vec(e.view().get<Vec3>("offset"), Vec3(1, 0, 0));
    expect_vec(entity(e, "force"), Vec3(0, 1, 0));
    EXPECT_DOUBLE_EQ(e.view()
                         .get<std::shared_ptr<const TplDriveSpec>>("force")
                         ->drive->args_as<mbs::ConstArgs>()
                         .value,
                     10.0);
    expect_vec(entity(element(m, "force", 2), "force"), Vec3(0, 0, 1));
}

TEST(ElementForces, FollowerForceVectorIsInTheNodeFrame) {
    // `reference, global`: R^T (1, 0, 0) = (0, -1, 0); without a prefix: as written.
    auto m = build(deck(
        "force: 1, follower, 2, position, null, single, reference, global, 1., 0., 0., const, 1.,\n"
        "  output relative;\n"
        "force: 2, follower, 2, position, null, 1., 0., 0., const, 1.;\n",
        2));
    expect_vec(entity(element(m, "force", 1), "force"), Vec3(0, -1, 0));
    EXPECT_TRUE(element(m, "force", 1).view().get<bool>("output relative"));
    expect_vec(entity(element(m, "force", 2), "force"), Vec3(1, 0, 0));
}

TEST(ElementForces, CouplesAndInternalForms) {
    auto m =
        build(deck("couple: 1, follower, 2, single, reference, global, 0., 0., 2., const, 1.;\n"
                   "couple: 2, absolute internal, 1, 2, null;\n"
                   "force: 3, follower internal, 1, position, 0., 0., 1., 2, position, reference, "
                   "other position, null,\n"
                   "  0., 0., 1., const, 1.;\n",
                   3));
    const auto& c = element(m, "couple", 1);
    EXPECT_FALSE(c.view().has("offset"));
    expect_vec(entity(c, "moment"), Vec3(0, 0, 2));
    EXPECT_EQ(
        element(m, "couple", 2).view().get<std::shared_ptr<const TplDriveSpec>>("moment")->type,
        "null");
    // other position: f2 = R2^T (x1 + R1 (f1 + 0) - x2) = R2^T (-1, -2, 1) = (-2, 1, 1).
    const auto& f = element(m, "force", 3);
    expect_vec(f.view().get<Vec3>("offset1"), Vec3(0, 0, 1));
    expect_vec(f.view().get<Vec3>("offset2"), Vec3(-2, 1, 1));
}

TEST(ElementForces, DisplacementTotalAndAbstractForms) {
    auto m =
        build(deck("force: 1, absolute displacement, 3, 0., 0., -1., const, 9.81;\n"
                   "force: 2, total internal, 1, position, null, 2, force orientation, eye,\n"
                   "  force, 1., 0., 0., const, 1., moment, null;\n"
                   "force: 3, abstract, 5, abstract, const, 2.;\n"
                   "force: 4, abstract, 2, structural, 3, sine, 0., 1., 1., forever, 0.;\n",
                   4));
    expect_vec(entity(element(m, "force", 1), "force"), Vec3(0, 0, -1));
    const auto& t = element(m, "force", 2);
    EXPECT_EQ(t.view().get<EntityRef>("node2").label, 2);
    EXPECT_TRUE(t.view().has("force"));
    EXPECT_FALSE(t.view().has("moment"));
    const auto& a = element(m, "force", 3);
    EXPECT_EQ(a.view().get<EntityRef>("node").category, "abstract");
    EXPECT_EQ(a.view().get<long>("dof"), 1);
    EXPECT_EQ(element(m, "force", 4).view().get<long>("dof"), 3);
}

TEST(ElementForces, LegacyFormBuildsASingleTemplateDrive) {
    // force: L, absolute, node, <direction>, <arm>, <DriveCaller>: the direction is normalised.
    auto m = build(deck("force: 1, absolute, 2, 0., 0., 2., null, const, 5.;\n"));
    const auto& e = element(m, "force", 1);
    expect_vec(entity(e, "force"), Vec3(0, 0, 1));
    expect_vec(e.view().get<Vec3>("offset"), Vec3::Zero());
}

TEST(ElementForces, ErrorsPointAtTheArgument) {
    std::string msg;
    // A follower force needs a node with rotations.
    std::string t = deck("force: 1, follower, 3, position, null, 1., 0., 0., const, 1.;\n");
    EXPECT_EQ(error_at(t, &msg), where_of(t, "3, position"));

    // Internal force on a single node.
    t = deck("force: 1, absolute internal, 2, position, null, 2, position, null, null;\n");
    EXPECT_EQ(error_at(t), where_of(t, "2, position", 1));

    // A force vector with two components.
    t = deck("force: 1, absolute, 2, position, null, single, 1., 0., const, 1.;\n");
    EXPECT_EQ(error_at(t, &msg), where_of(t, "const"));
    EXPECT_NE(msg.find("expected 3 values"), std::string::npos);

    // dof index out of range on a structural node.
    t = deck("force: 1, abstract, 2, structural, 7, const, 1.;\n");
    EXPECT_EQ(error_at(t), where_of(t, "7"));

    // Unknown force type.
    t = deck("force: 1, absolut, 2, position, null, null;\n");
    EXPECT_EQ(error_at(t, &msg), where_of(t, "absolut"));
}

}  // namespace
