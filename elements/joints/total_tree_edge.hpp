// The relative-coordinate edge (core/tree_edge.hpp) of the total joint family: `total joint`,
// `total pin joint`, `drive hinge`, `drive displacement`, `drive displacement pin`, registered in
// their reader files. Each component of the relative position and rotation is free, fixed or
// driven (position or velocity level); the tree gets one coordinate per free or driven component,
// a loop cut one row per imposed one.
#pragma once

#include "core/tree_edge.hpp"

namespace mbs::cards {

enum class TotalForm { total, total_pin, drive_hinge, drive_displacement, drive_displacement_pin };

tree::Edge total_tree_edge(const EntityDesc& d, const tree::Context& ctx, TotalForm form);

}  // namespace mbs::cards
