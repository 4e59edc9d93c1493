// Node accelerations XPP (linear) and OmegaP (angular) of structural nodes, recovered after each
// converged step from the momentum derivatives the integrator already has (MBDyn's definition:
// the node's lumped inertia and beta', gamma'); see accelerations.cpp for the derivation.
//
// Which nodes (StructNode::accel_state):
//   dynamic nodes (rigid or displacement-only) with inertia: ok;
//   dynamic nodes without any body (zero mass): no_inertia, XPP = OmegaP = 0 (as MBDyn writes);
//   static nodes: none (their positions are not integrated with momenta: no acceleration);
//   dummy nodes: from their base node (offset, or relative frame with its reference and pivot
//   nodes), ok when every node they follow is ok, else none.
// Output (StructNode::accel_output, mbdyn-syntax.md 4.1 and 8): the node card's `accelerations,
// yes`, `output: structural, accelerations, ...` (both set the node property "accelerations"),
// or `default output: accelerations` (every node whose accelerations are defined).
#pragma once

#include "core/model.hpp"
#include "core/struct_node.hpp"

namespace mbs {

class Engine;

// Whether node n writes XPP and OmegaP (text .mov columns 20-25 or 14-19, NetCDF and HDF5
// variables). Decided from the deck alone, so output sinks can ask before the run starts.
bool node_accelerations_output(const Model& m, const StructNode& n);

// Recomputes xpp, wp and accel_state of every node from the engine's converged state (node
// kinematics and momentum derivatives). The first call also sums each dynamic node's lumped
// inertia from the bodies on it and sets accel_output; later calls do not allocate.
void update_node_accelerations(Engine& e);

}  // namespace mbs
