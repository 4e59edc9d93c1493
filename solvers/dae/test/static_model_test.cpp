// `model: static` at the engine level (docs/deck-language.md 2.3): dynamic nodes are
// built as static ones of the same kind (no momentum unknowns, no automatic structural element),
// their position unknowns are flagged as static, and a body on them contributes only its weight
// (residual of the force rows m g, moment rows S x g, nothing else), with a Jacobian that matches
// finite differences. Without the card the same deck keeps its dynamic nodes.
#include <gtest/gtest.h>

#include "solvers/dae/test/jacobian_check.hpp"

namespace mbs::test {
namespace {

std::string deck(bool static_model) {
    return deck_head + "begin: control data;" + (static_model ? " model: static;" : "") +
           " structural nodes: 3; rigid bodies: 2; joints: 1; gravity; end: control data;\n"
           "begin: nodes;\n"
           "structural: 1, static, null, eye, null, null;\n"
           "structural: 2, dynamic, 1., 0., 0., eye, null, null;\n"
           "structural: 3, dynamic displacement, 0., 2., 0., null;\n"
           "end: nodes;\n"
           "begin: elements;\n"
           "joint: 1, clamp, 1, node, node;\n"
           "body: 1, 2, 2., 0.1, 0.2, 0., diag, 1., 1., 1.;\n"
           "body: 2, 3, 3.;\n"
           "gravity: uniform, 0., -1., 0., const, 9.81;\n"
           "end: elements;\n";
}

TEST(StaticModel, DynamicNodesAreBuiltStatic) {
    Model m = build(deck(true));
    Engine e(m, "dense");
    ASSERT_TRUE(e.static_model());
    for (const auto& n : e.nodes()) EXPECT_FALSE(n.is_dynamic()) << n.label();
    EXPECT_EQ(e.nodes()[1].ndofs(), 6);
    EXPECT_EQ(e.nodes()[2].ndofs(), 3);
    EXPECT_EQ(e.nodes()[1].desc().type, "static");
    EXPECT_EQ(e.nodes()[2].desc().type, "static displacement");
    // 6 + 6 + 3 node unknowns and the clamp's 6 multipliers; no automatic structural elements.
    EXPECT_EQ(e.size(), 21);
    // Automatic structural elements carry their node's card (category "structural").
    auto automatic = [](const Engine& en) {
        int k = 0;
        for (const auto& el : en.elements()) k += el->desc().category == "structural";
        return k;
    };
    EXPECT_EQ(automatic(e), 0);
    for (int i = 0; i < 15; ++i) EXPECT_TRUE(e.static_position(i)) << i;
    for (int i = 15; i < e.size(); ++i) EXPECT_FALSE(e.static_position(i)) << i;

    Model md = build(deck(false));
    Engine ed(md, "dense");
    EXPECT_FALSE(ed.static_model());
    EXPECT_TRUE(ed.nodes()[1].is_dynamic());
    EXPECT_EQ(ed.size(), 6 + 12 + 6 + 6);
    EXPECT_FALSE(ed.static_position(6 + 6));  // node 2's momentum
    EXPECT_EQ(automatic(ed), 2);
}

// Bodies on the static nodes: only their weight. Node 2 (rigid): force m g, moment S x g with
// S = R (m xc) = 2 (0.1, 0.2, 0) at R = I; node 3: force m g. Velocities do not matter.
TEST(StaticModel, BodiesGiveOnlyTheirWeight) {
    Model m = build(deck(true));
    Engine e(m, "dense");
    for (int i = 0; i < e.size(); ++i) e.yp[i] = 0.3 * (i + 1);  // arbitrary velocities
    StepContext c{0.0, 1e-3, 0.4, Phase::dynamic};
    e.update(c.time, c.dt);
    std::vector<double> r(e.size());
    e.residual(c, r.data());
    const double g = 9.81;
    const Vec3 F2(0.0, -2.0 * g, 0.0), M2 = Vec3(0.2, 0.4, 0.0).cross(Vec3(0.0, -g, 0.0));
    const int n2 = e.nodes()[1].first_dof(), n3 = e.nodes()[2].first_dof();
    for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(r[n2 + k], F2[k], 1e-12) << k;
        EXPECT_NEAR(r[n2 + 3 + k], M2[k], 1e-12) << k;
        EXPECT_NEAR(r[n3 + k], k == 1 ? -3.0 * g : 0.0, 1e-12) << k;
    }
}

TEST(StaticModel, JacobianMatchesFiniteDifferences) { expect_exact_jacobian(deck(true)); }

}  // namespace
}  // namespace mbs::test
