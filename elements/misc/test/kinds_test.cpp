// Every registered element and node kind (core/registry.hpp) has its two halves or says why
// not: a reader or a `no_read` reason, a DAE runtime or a `no_make` reason, never both; a kind's
// relative-coordinate adapter is found through its registration. Every drive caller and
// constitutive law kind has a reader, and a runtime or the reason for none.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "core/registry.hpp"
#include "core/tree_edge.hpp"

namespace {

using mbs::ElementKind;
using mbs::KeywordTable;
using mbs::Registry;

void check_kinds(const std::map<std::string, KeywordTable<ElementKind>>& tables, const char* what,
                 int& count) {
    for (const auto& [card, kinds] : tables)
        for (const std::string& subtype : kinds.names()) {
            const ElementKind* k = kinds.find(subtype);
            ASSERT_NE(k, nullptr);
            const std::string name = std::string(what) + " " + card + " '" + subtype + "'";
            EXPECT_TRUE(k->read || (k->no_read && *k->no_read)) << name << ": no reader, no reason";
            EXPECT_FALSE(k->read && k->no_read) << name << ": a reader and a reason for none";
            EXPECT_TRUE(k->make || (k->no_make && *k->no_make))
                << name << ": no runtime, no reason";
            EXPECT_FALSE(k->make && k->no_make) << name << ": a runtime and a reason for none";
            ++count;
        }
}

TEST(ElementKinds, EveryKindHasReaderAndRuntimeOrReason) {
    int elements = 0, nodes = 0;
    check_kinds(Registry::instance().elements, "element", elements);
    check_kinds(Registry::instance().nodes, "node", nodes);
    // The tables are filled (the OBJECT library's registrations ran).
    EXPECT_GT(elements, 70);
    EXPECT_GT(nodes, 10);
}

TEST(ElementKinds, EveryElementCardHasKinds) {
    const Registry& reg = Registry::instance();
    for (const auto& [card, info] : reg.element_cards)
        EXPECT_TRUE(reg.elements.count(card)) << "element card '" << card << "' has no kind";
}

TEST(ElementKinds, OneLookupForBuilderAndEngine) {
    const ElementKind* k = mbs::find_element_kind("joint", "Revolute Hinge");
    ASSERT_NE(k, nullptr);
    EXPECT_NE(k->read, nullptr);
    EXPECT_NE(k->make, nullptr);
    EXPECT_EQ(mbs::find_element_kind("joint", "no such joint"), nullptr);
    const ElementKind* n = mbs::find_node_kind("structural", "dynamic");
    ASSERT_NE(n, nullptr);
    EXPECT_NE(n->make, nullptr);  // the automatic structural element
    EXPECT_EQ(mbs::find_node_kind("structural", "static")->make, nullptr);
}

// The relative-coordinate path asks the kind's registration for its adapter (ElementKind::reduced),
// else the card's "*" fallback.
TEST(ElementKinds, TreeAdapterIsAMemberOfTheKind) {
    const ElementKind* k = mbs::find_element_kind("joint", "revolute hinge");
    ASSERT_NE(k, nullptr);
    EXPECT_NE(k->reduced.edge, nullptr);
    EXPECT_EQ(mbs::tree::find_adapter("joint", "Revolute Hinge"), &k->reduced);
    const ElementKind* rod = mbs::find_element_kind("joint", "rod");
    ASSERT_NE(rod, nullptr);
    EXPECT_NE(rod->reduced.load, nullptr);
    EXPECT_EQ(mbs::tree::find_adapter("joint", "rod"), &rod->reduced);
    // No adapter of its own: the card's fallback, which explains what the path supports.
    const ElementKind* screw = mbs::find_element_kind("joint", "screw");
    ASSERT_NE(screw, nullptr);
    const mbs::tree::Adapter* fallback = mbs::tree::find_adapter("joint", "screw");
    ASSERT_NE(fallback, nullptr);
    EXPECT_NE(fallback, &screw->reduced);
    EXPECT_EQ(fallback, mbs::tree::find_adapter("joint", "no such joint"));
    EXPECT_NE(fallback->edge, nullptr);
}

// MBDyn's deprecated spellings read into their modern kind's spec, so they take its tree
// adapter too (before, a tree deck with `plane hinge` was refused while `revolute hinge` ran).
TEST(ElementKinds, DeprecatedAliasesShareTheTreeAdapter) {
    for (auto [alias, modern] :
         {std::pair{"plane hinge", "revolute hinge"}, std::pair{"plane pin", "revolute pin"},
          std::pair{"pin", "spherical pin"}, std::pair{"universal hinge", "cardano hinge"}}) {
        const ElementKind* a = mbs::find_element_kind("joint", alias);
        const ElementKind* m = mbs::find_element_kind("joint", modern);
        ASSERT_NE(a, nullptr) << alias;
        ASSERT_NE(m, nullptr) << modern;
        EXPECT_NE(a->reduced.edge, nullptr) << alias;
        EXPECT_EQ(a->reduced.edge, m->reduced.edge) << alias;
    }
}

}  // namespace

// Drive callers and laws: one registration each, reader and runtime together.
TEST(DriveAndLawKinds, EveryKindHasReaderAndRuntimeOrReason) {
    const Registry& reg = Registry::instance();
    int drives = 0, laws = 0;
    for (const std::string& name : reg.drives.names()) {
        const mbs::DriveKind* k = reg.drives.find(name);
        ASSERT_NE(k, nullptr);
        EXPECT_NE(k->read, nullptr) << "drive caller '" << name << "': no reader";
        EXPECT_TRUE(k->make || (k->no_make && *k->no_make))
            << "drive caller '" << name << "': no runtime, no reason";
        EXPECT_FALSE(k->make && k->no_make) << "drive caller '" << name << "': both";
        ++drives;
    }
    for (const std::string& name : reg.laws.names()) {
        const mbs::LawKind* k = reg.laws.find(name);
        ASSERT_NE(k, nullptr);
        EXPECT_NE(k->read, nullptr) << "law '" << name << "': no reader";
        const bool make = k->make.n1 || k->make.n3 || k->make.n6;
        EXPECT_TRUE(make || (k->no_make && *k->no_make))
            << "law '" << name << "': no runtime, no reason";
        EXPECT_FALSE(make && k->no_make) << "law '" << name << "': both";
        ++laws;
    }
    EXPECT_GT(drives, 50);
    EXPECT_GT(laws, 40);
}
