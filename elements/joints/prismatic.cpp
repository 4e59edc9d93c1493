// Card reader for `joint: L, prismatic` (docs/deck-language.md 5.2): constrains the relative
// orientation only.
//   prismatic, n1 [, orientation, R1h], n2 [, orientation, R2h]
// Props: "node1", "orientation1", "node2", "orientation2" (node frames).
#include "core/registry.hpp"
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

}  // namespace

MBS_REGISTER_ELEMENT("joint", "prismatic", read_prismatic);

}  // namespace mbs
