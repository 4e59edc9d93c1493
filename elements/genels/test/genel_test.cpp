// Genel card readers: NodeDof parsing (node type, dof index, order), laws and drives, errors.
#include <gtest/gtest.h>

#include <string>

#include "core/const_drive.hpp"
#include "core/model.hpp"
#include "parser/test_support.hpp"

namespace {

using mbs::DriveSpec;
using mbs::EntityRef;
using mbs::LawSpec;
using namespace mbs::test;

// Structural node 1 (static), abstract nodes 10 (differential) and 11 (algebraic).
std::string deck(const std::string& elements, int genels = 1) {
    return deck_head + "begin: control data; structural nodes: 1; abstract nodes: 2; genels: " +
           std::to_string(genels) +
           "; end: control data;\n"
           "begin: nodes;\n"
           "structural: 1, static, 1., 2., 3., eye, null, null;\n"
           "abstract: 10, value, 0.5;\n"
           "abstract: 11, algebraic;\n"
           "end: nodes;\n"
           "begin: elements;\n" +
           elements + "end: elements;\n";
}

const mbs::EntityDesc& genel(const mbs::Model& m, long label = 1) {
    return element(m, "genel", label);
}

TEST(ElementGenels, ClampOnAbstractAndStructuralDofs) {
    auto m =
        build(deck("genel: 1, clamp, 10, abstract, algebraic, const, 0.;\n"
                   "genel: 2, clamp, 1, structural, 3, differential, const, 1.;\n"
                   "genel: 3, clamp, 11, abstract, null;\n",
                   3));
    const auto& a = genel(m, 1);
    EXPECT_EQ(a.type, "clamp");
    EXPECT_EQ(a.view().get<EntityRef>("node").category, "abstract");
    EXPECT_EQ(a.view().get<EntityRef>("node").label, 10);
    EXPECT_EQ(a.view().get<long>("dof"), 1);
    EXPECT_EQ(a.view().get<std::string>("order"), "algebraic");
    EXPECT_EQ(a.view().get<std::shared_ptr<const DriveSpec>>("drive")->type, "const");
    const auto& s = genel(m, 2);
    EXPECT_EQ(s.view().get<EntityRef>("node").category, "structural");
    EXPECT_EQ(s.view().get<long>("dof"), 3);
    EXPECT_EQ(s.view().get<std::string>("order"), "differential");
    EXPECT_EQ(genel(m, 3).view().get<std::string>("order"), "algebraic");  // the default
}

TEST(ElementGenels, SpringSupportMassAndTwoDofForms) {
    auto m = build(
        deck("genel: 1, spring support, 10, abstract, algebraic, linear viscoelastic, 1., 0.1,\n"
             "  position, from node;\n"
             "genel: 2, mass, 10, abstract, algebraic, 2.;\n"
             "genel: 3, spring, 10, abstract, algebraic, 1, structural, 1, algebraic, linear "
             "elastic, 5.;\n"
             "genel: 4, distance, 10, abstract, 11, abstract, const, 1.;\n",
             4));
    const auto& s = genel(m, 1);
    EXPECT_EQ(s.view().get<std::shared_ptr<const LawSpec>>("law")->dim, 1);
    EXPECT_DOUBLE_EQ(s.view().get<double>("position"), 0.5);
    EXPECT_DOUBLE_EQ(genel(m, 2)
                         .view()
                         .get<std::shared_ptr<const DriveSpec>>("mass")
                         ->args_as<mbs::ConstArgs>()
                         .value,
                     2.0);
    const auto& sp = genel(m, 3);
    EXPECT_EQ(sp.view().get<EntityRef>("node1").label, 10);
    EXPECT_EQ(sp.view().get<EntityRef>("node2").label, 1);
    EXPECT_EQ(sp.view().get<long>("dof2"), 1);
    EXPECT_EQ(genel(m, 4).view().get<EntityRef>("node2").label, 11);
}

TEST(ElementGenels, ErrorsPointAtTheArgument) {
    std::string msg;
    // dof index out of range.
    std::string t = deck("genel: 1, clamp, 1, structural, 7, algebraic, const, 0.;\n");
    EXPECT_EQ(error_at(t, &msg), where_of(t, "7"));
    EXPECT_NE(msg.find("out of range"), std::string::npos);

    // Unknown node type.
    t = deck("genel: 1, clamp, 10, abstrct, algebraic, const, 0.;\n");
    EXPECT_EQ(error_at(t, &msg), where_of(t, "abstrct"));

    // A node that does not exist with that type.
    t = deck("genel: 1, clamp, 10, structural, 1, const, 0.;\n");
    EXPECT_EQ(error_at(t), where_of(t, "10, structural"));

    // The derivative of an algebraic node.
    t = deck("genel: 1, clamp, 11, abstract, differential, const, 0.;\n");
    EXPECT_EQ(error_at(t), where_of(t, "differential"));

    // A spring support on the derivative.
    t = deck("genel: 1, spring support, 10, abstract, differential, linear elastic, 1.;\n");
    EXPECT_EQ(error_at(t), where_of(t, "10, abstract"));

    // A genel spring with a viscous law.
    t = deck("genel: 1, spring, 10, abstract, 1, structural, 1, linear viscous, 1.;\n");
    EXPECT_EQ(error_at(t, &msg), where_of(t, "linear viscous"));
}

}  // namespace
