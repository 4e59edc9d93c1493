// The engine's constraint rows seen at acceleration level: which rows are position-level
// (residual phi/dCoef) or velocity-level (residual psi), and, for the derivatives phase, the
// acceleration-level form K a + g = 0 of each such row (see constraint_rows.cpp).
#pragma once

#include <vector>

#include "core/struct_node.hpp"

namespace mbs {

class Engine;

// Constraint rows (element-owned algebraic unknowns, not dropped as redundant) that depend on
// the nodes, each classified from a perturbed state by how its residual scales with dCoef:
// 1/dCoef (position level, position[i] = 1) or not at all (velocity level, 0). Node kinematics
// and the clock are restored afterwards.
struct ConstraintRows {
    std::vector<int> rows;
    std::vector<char> position;
};
ConstraintRows classify_constraint_rows(Engine& e);

// The derivatives phase's constraint rows (Simulation::derivatives()). At fixed positions and
// velocities the residual of a position-level row, phi/dCoef, does not depend on the unknowns of
// the phase (momentum derivatives, multipliers): the multipliers are then left to the
// iteration, which misses every velocity-dependent reaction (a centripetal force). The true
// motion satisfies the constraints differentiated in time,
//     K a + g = 0,
// (twice for position rows, once for velocity rows) with a = (XPP, OmegaP) the node
// accelerations, K = d(phi)/d(x, theta) or d(psi)/d(v, w) and g the velocity and time terms.
// setup() finds K and g once (the state is fixed in the phase); apply() replaces each such row
// of the residual by dCoef (K a + g), a recovered from the current momentum derivatives
// (accelerations.hpp). Scaled by dCoef, the row's derivative matches the phase's iteration
// matrix row (phi_q dxdot, with dxdot = dCoef da through the momentum rows), so the Newton
// iteration keeps its matrix and converges to the consistent derivatives.
class AccelerationConstraints {
  public:
    // At the engine's current state (nodes updated at the clock's time); dCoef is the phase's
    // coefficient. Returns whether some row applies.
    bool setup(Engine& e, double dCoef);
    // Overwrites the rows that apply (and are not dropped as redundant) with dCoef (K a + g).
    void apply(Engine& e, double dCoef, double* r);
    // After the phase: the nodes' velocities get their initial values back (see the .cpp).
    void finish(Engine& e) const;
    // max |K a + g| over those rows at the last apply() (the rows hold dCoef times it).
    double violation() const { return violation_; }
    // The smallest violation the phase can resolve (see the .cpp): a violation below it is
    // round-off of the velocities divided by dCoef.
    double floor() const { return floor_; }
    int size() const { return static_cast<int>(rows_.size()); }
    // Row i: engine row, velocity terms g (tests).
    int row(int i) const { return rows_[i]; }
    double bias(int i) const { return g_[i]; }

  private:
    struct Coef {
        int row;   // index into rows_
        int node;  // index into nodes_
        int comp;  // 0..2 linear, 3..5 angular acceleration
        double k;
    };
    std::vector<int> rows_;
    std::vector<double> g_, acc_;
    std::vector<Coef> k_;
    // A node whose accelerations enter: its velocities at the start, its current accelerations.
    struct NodeData {
        int node;
        Vec3 v0, w0;
        Vec3 a = Vec3::Zero(), wp = Vec3::Zero();
    };
    std::vector<NodeData> nodes_;
    std::vector<int> node_slot_;  // engine node index -> index in nodes_
    std::vector<char> dropped_;
    std::size_t dropped_seen_ = 0;
    double violation_ = 0.0;
    double floor_ = 0.0;
};

}  // namespace mbs
