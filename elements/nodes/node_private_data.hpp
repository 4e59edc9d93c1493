// Private data of structural nodes (docs/deck-language.md 4.1), read by the `node` drive caller and
// by `bind`. MBDyn's names and order (1-based in decks, 0-based here):
//   X[1..3]  position (global)           x[1..3]  position in the node frame, R^T X
//   Phi[1..3] rotation vector of R        XP[1..3] velocity (global)   xP[1..3]  R^T XP
//   Omega[1..3] angular velocity (global) omega[1..3] R^T Omega
//   E[1..3] Euler 123 angles, E313[1..3], E321[1..3] (radians)
//   PE[0..3] Euler parameters (e0 = cos(theta/2), e = sin(theta/2) axis)
//   XPP[1..3] acceleration (global)       xPP[1..3] R^T XPP
//   OmegaP[1..3] angular acceleration     omegaP[1..3] R^T OmegaP
// Displacement-only nodes have X, XP and XPP only. The accelerations are those recovered after
// each converged step (solvers/dae/accelerations.hpp: a drive reads the last step's values, as
// in MBDyn); static nodes have none (refused), dummy nodes follow their base node.
#pragma once

#include <string>

#include "core/struct_node.hpp"

namespace mbs::nodes {

inline constexpr int struct_node_private_count = 46;

// Name of datum i (0-based), e.g. "Omega[2]".
const char* struct_node_private_name(int i);

// Index of `name` on node n, or -1 with `why` set (unknown name, not available on this node).
int struct_node_private_index(const StructNode& n, const std::string& name, std::string& why);

// Value of datum i at the node's current kinematics (no allocation).
double struct_node_private_data(const StructNode& n, int i);

}  // namespace mbs::nodes
