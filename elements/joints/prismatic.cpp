// Card reader for `joint: L, prismatic` (docs/deck-language.md 5.2): constrains the relative
// orientation only.
//   prismatic, n1 [, orientation, R1h], n2 [, orientation, R2h]
// Props: "node1", "orientation1", "node2", "orientation2" (node frames).
// Relative-coordinate path: three translations; as a cut, the 3 orientation rows.
#include "core/registry.hpp"
#include "core/tree_edge.hpp"
#include "elements/joints/joint_ends.hpp"

namespace mbs {
namespace {

void read_prismatic(Reader& r, EntityDesc& e) {
    cards::EndOptions opt;
    opt.offset = cards::Offset::none;
    auto end1 = cards::read_end1(r, "prismatic joint", opt);
    auto end2 = cards::read_end2(r, end1, "prismatic joint", opt);
    cards::store_end(e, end1, 1, false, true);
    cards::store_end(e, end2, 2, false, true);
}

// Three translations along the axes of frame 1 (the frames sit at the nodes: no position
// constraint); the relative orientation is fixed.
tree::EdgePart prismatic_edge(const EntityDesc& d, const tree::Context&) {
    tree::Edge e;
    e.a = cards::tree_end(d, "node1", "offset1", "orientation1");
    e.b = cards::tree_end(d, "node2", "offset2", "orientation2");
    e.a.o.setZero();
    e.b.o.setZero();
    e.cut_cost = 3;
    e.tree_capable = true;
    e.grow = [](tree::Growth& g, const tree::Context&) {
        for (int j = 0; j < 3; ++j) g.steps.push_back(tree::translation(j, g.d0[j]));
    };
    e.cut = [](tree::CutEquations& c, bool, const tree::Context&) {
        c.kind = tree::CutKind::prismatic, c.rows = 3;
    };
    return e;
}

}  // namespace

MBS_REGISTER_ELEMENT("joint", "prismatic", read_prismatic);

MBS_REGISTER_TREE_EDGE("joint", "prismatic", prismatic_edge);
}  // namespace mbs
