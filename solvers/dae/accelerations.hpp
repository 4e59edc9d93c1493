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
// Output (StructNode::accel_output, docs/deck-language.md 4.1 and 8): the node card's
// `accelerations, yes`, `output: structural, accelerations, ...` (both set the node property
// "accelerations"), or `default output: accelerations` (every node whose accelerations are
// defined).
#pragma once

#include <memory>
#include <vector>

#include "core/model.hpp"
#include "core/sparse_matrix.hpp"
#include "core/struct_node.hpp"
#include "solvers/linear/linear_solver.hpp"

namespace mbs {

class Engine;

// Whether node n writes XPP and OmegaP (text .mov columns 20-25 or 14-19, NetCDF and HDF5
// variables). Decided from the deck alone, so output sinks can ask before the run starts.
bool node_accelerations_output(const Model& m, const StructNode& n);

// xpp, wp and accel_state of one dynamic node from its kinematics and momentum derivatives.
void recover_node_acceleration(StructNode& n);

// Recomputes xpp, wp and accel_state of every node from the engine's converged state (node
// kinematics and momentum derivatives), without the projection below. The first call also
// sums each dynamic node's lumped inertia from the bodies on it and sets accel_output.
void update_node_accelerations(Engine& e);

// Decides, once, which nodes have accelerations (StructNode::accel_output, from the card, the
// `output` card and `default output`) and takes the bodies' inertia. The run calls it before its
// sinks' begin(): the NetCDF/HDF5 node_accelerations group is sized from those flags.
void prepare_node_accelerations(Engine& e);

// The recovery above, then (when some node writes its accelerations or a drive reads them) the
// projection onto the acceleration-level constraints, see accelerations.cpp. Called by the
// simulation after each converged step (Simulation::emit); the projection runs on output steps,
// and on every step when a drive reads an acceleration. Keeps its workspace between calls.
class NodeAccelerations {
  public:
    void update(Engine& e, bool output_step = true);

  private:
    bool setup(Engine& e);
    void project(Engine& e);
    // Constraint rows of all nodes' current kinematics at time t (dCoef 1) into r_.
    void constraints(Engine& e, double t, double* r);
    void place(Engine& e, double tau, double t0);  // nodes on the path at t0 + tau
    void restore(Engine& e, double t0);

    bool ready_ = false, enabled_ = false, read_ = false;
    bool any_position_ = false, any_velocity_ = false;
    std::vector<int> rows_;         // constraint rows (element-owned algebraic unknowns)
    std::vector<char> position_;    // per row: position level (residual -phi/dCoef) or velocity
    std::vector<int> nodes_, col_;  // non-dummy nodes and their first column in the projection
    int ncols_ = 0;
    std::vector<Vec3> x0_, v0_, w0_;
    std::vector<Mat3> R0_;
    std::vector<double> r_, rp_, rm_;
    std::vector<double> eps_;    // per node: position and velocity perturbation
    std::vector<int> color_;     // per node: colour, -1 if in no constraint row
    std::vector<int> row_node_;  // [row][colour]: the node of that colour in the row, or -1
    int ncolors_ = 0;
    std::vector<double> c0_, cp1_, cm1_, cp2_, cm2_;
    // The projection's sparse KKT system (fixed pattern) and its value slots: node blocks
    // (column-major, from block_slot_[j]), multiplier diagonal (from diag_slot_), K and K^T per
    // (row, colour, component) in k_slot_.
    std::unique_ptr<CscMatrix> kkt_;
    std::unique_ptr<LinearSolver> lin_;
    std::vector<double> rhs_;
    std::vector<int> slots_, block_slot_, k_slot_;
    int diag_slot_ = 0;
    bool warned_ = false;
};

}  // namespace mbs
