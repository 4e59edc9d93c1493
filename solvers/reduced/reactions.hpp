// The loop multipliers and the driven coordinates' forces of the relative-coordinate model, and
// the value blocks (core/value_block.hpp) through which an analysis's sinks write them:
// PREFIX.act and PREFIX.lam (text), the `actuators` and `loop_multipliers` groups (HDF5), the
// `reduced.actuator.<q>.tau` and `reduced.cut.<n>.lambda` variables (NetCDF).
#pragma once

#include <vector>

#include "core/value_block.hpp"
#include "solvers/reduced/partition.hpp"

namespace mbs::reduced {

// With Phi = M qdd + c - Q (inverse_dynamics() at the state and its accelerations), the
// equations of motion in all coordinates read
//     Phi = J^T lambda + E_c tau_c
// (E_c: the driven coordinates' columns of the identity; tau_c the forces that hold them to
// their drives; a driven cut's force is its multiplier). The rows of the dependent coordinates v
// give lambda = J_v^-T Phi_v on the kept constraint rows (the dropped redundant rows get 0), the
// driven rows tau_c = Phi_c - J_c^T lambda. The rows of the independent coordinates u are then
// the reduced equations of motion, Phi_u - J_u^T lambda = Phi_u + B_vu^T Phi_v = T_u^T Phi = 0
// (B_vu = -J_v^-1 J_u): inverse dynamics has no u; reduced direct dynamics satisfies them with
// the qdd it integrates, and `balance()` is their residual (a check, not an input).
class Reactions {
  public:
    Reactions(const ReducedModel& rm, const Partition& p);
    // From ws.tau (Phi) and ws.J at the same state; p: the current partition (its dependent set
    // may have changed since construction, not its size). Allocates nothing.
    void compute(const ReducedModel& rm, const Workspace& ws, const Partition& p);
    // max |Phi_u - J_u^T lambda| over the independent coordinates (after compute()).
    double balance() const { return balance_; }
    // tau_c of coordinate i (driven), as the joint applies it (drive_sign: node 1 on node 2).
    double force(const ReducedModel& rm, const Workspace& ws, int i) const;
    VecX lambda;  // rm.n_constraints

  private:
    MatX Jv_;
    VecX phiv_, lr_;
    Eigen::PartialPivLU<MatX> lu_;
    double balance_ = 0.0;
};

// The blocks of PREFIX.act (one row per driven coordinate: `joint_label tau`) and PREFIX.lam
// (one row per cut: `joint_label lambda_1 ... lambda_k`), those with rows only (a model without
// driven coordinates or cuts has none). `fill()` writes the current values into them.
struct ReactionBlocks {
    ReactionBlocks(const ReducedModel& rm, const Partition& p);
    void fill(const ReducedModel& rm, const Workspace& ws, const Partition& p, const Reactions& r);
    std::vector<ValueBlock> list;  // StepView::blocks
    int act = -1, lam = -1;        // their indices in `list` (-1: none)
};

}  // namespace mbs::reduced
