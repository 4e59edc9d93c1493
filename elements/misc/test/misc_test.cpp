// Gravity and inertia cards, and the shared helpers' template-drive frames.
#include <gtest/gtest.h>

#include <string>

#include "core/const_drive.hpp"
#include "core/model.hpp"
#include "parser/test_support.hpp"

namespace {

using mbs::TplDriveSpec;
using namespace mbs::test;

std::string deck(const std::string& control, const std::string& elements) {
    return deck_head + "begin: control data; structural nodes: 1; rigid bodies: 1; " + control +
           " end: control data;\n"
           "reference: 7, null, euler123, 0., 0., pi/2;\n"
           "begin: nodes;\n"
           "structural: 1, dynamic, null, eye, null, null;\n"
           "end: nodes;\n"
           "begin: elements;\n"
           "body: 1, 1, 2., null, eye;\n" +
           elements + "end: elements;\n";
}

const mbs::EntityDesc* find(const mbs::Model& m, const std::string& category) {
    for (const auto& e : m.elements)
        if (e.category == category) return &e;
    return nullptr;
}

TEST(ElementMisc, UniformGravity) {
    auto m = build(deck("gravity;", "gravity: uniform, 0., 0., -1., const, 9.81;\n"));
    const auto* g = find(m, "gravity");
    ASSERT_NE(g, nullptr);
    const mbs::Props view = g->view();
    EXPECT_EQ(view.get<std::string>("field"), "uniform");
    const auto& t = view.get<std::shared_ptr<const TplDriveSpec>>("acceleration");
    EXPECT_EQ(t->type, "single");
    EXPECT_DOUBLE_EQ(t->entity[2], -1.0);
    EXPECT_DOUBLE_EQ(t->drive->args_as<mbs::ConstArgs>().value, 9.81);
}

TEST(ElementMisc, GravityVectorInAReferenceFrame) {
    // Frame 7 is rotated 90 deg about z: (1, 0, 0) in it is (0, 1, 0) globally.
    auto m = build(deck("gravity;", "gravity: single, reference, 7, 1., 0., 0., const, 1.;\n"));
    const auto t =
        find(m, "gravity")->view().get<std::shared_ptr<const TplDriveSpec>>("acceleration");
    EXPECT_NEAR(t->entity[0], 0.0, 1e-12);
    EXPECT_NEAR(t->entity[1], 1.0, 1e-12);
}

TEST(ElementMisc, InertiaCard) {
    auto m =
        build(deck("inertia: 1;", "inertia: 1, position, 1., 0., 0., body, all, output, log;\n"));
    const auto* e = find(m, "inertia");
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->view().get<std::string>("body"), "all");
    EXPECT_EQ(e->view().get<std::string>("output mode"), "log");
    auto m2 = build(deck("inertia: 1;", "inertia: 1, body, 1;\n"));
    EXPECT_EQ(find(m2, "inertia")->view().get<mbs::VecN>("body"), mbs::VecN{1.0});
}

// As MBDyn: `inertia` cards need no count in control data; a declared count is kept to.
TEST(ElementMisc, InertiaCardsNeedNoCount) {
    auto m = build(deck("", "inertia: 1, body, all;\ninertia: 2, body, 1;\n"));
    EXPECT_NE(find(m, "inertia"), nullptr);
    std::string t = deck("inertia: 1;", "inertia: 1, body, all;\ninertia: 2, body, 1;\n");
    EXPECT_EQ(error_at(t), where_of(t, "inertia: 2"));
}

TEST(ElementMisc, ErrorsPointAtTheArgument) {
    std::string t = deck("gravity;", "gravity: central, mass, 1., 1., si;\n");
    EXPECT_EQ(error_at(t), where_of(t, "central"));
    t = deck("gravity;", "gravity: uniform, 0., -1., const, 9.81;\n");
    EXPECT_EQ(error_at(t), where_of(t, "const"));
    t = deck("inertia: 1;", "inertia: 1, body, 5;\n");
    EXPECT_EQ(error_at(t), where_of(t, "5;"));
}

}  // namespace
