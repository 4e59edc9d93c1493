// The absolute-coordinate DAE engine (docs/formulation.md 2-5): immutable set-up (nodes, elements,
// DOF numbering, Jacobian pattern) and the preallocated workspace the time loop runs in.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "core/element.hpp"
#include "core/step_view.hpp"
#include "core/struct_node.hpp"
#include "solvers/linear/linear_solver.hpp"

namespace mbs {

// Where an equation comes from, for diagnostics ("node 2, moment z").
struct EquationInfo {
    std::string owner;    // "structural node 2", "joint 3 (revolute hinge)"
    std::string name;     // equation: "moment z", "position x" (a constraint)
    std::string unknown;  // unknown in the same index: "rotation z", "multiplier position x"
};

class Engine final : public BuildContext {
  public:
    // Builds nodes and elements from the model (throws InputError for unsupported cards).
    explicit Engine(const Model& m, const std::string& linear_solver = "klu");
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    // --- BuildContext
    const Model& model() const override { return *model_; }
    StructNode& struct_node(const EntityRef& ref, const EntityDesc& user) override;
    const DriveEnv& drive_env() const override { return drive_env_; }
    // The first drive of time (innermost first) whose value at t is not finite, as
    // "drive caller 'TYPE' at FILE:LINE:COL gives VALUE at t = T"; empty if none.
    std::string non_finite_drive(double t) const;
    const Vec3* gravity() const override { return &gravity_now_; }
    void set_gravity(const TplDrive<3>& g) override;
    std::unique_ptr<Element> take_element(const EntityRef& ref) override;
    [[noreturn]] void error(const EntityDesc& e, const std::string& what,
                            const std::string& hint = {}) const override;

    // --- sizes and data
    int size() const { return n_; }
    std::vector<StructNode>& nodes() { return nodes_; }
    const std::vector<StructNode>& nodes() const { return nodes_; }
    const std::vector<std::unique_ptr<Element>>& elements() const { return elements_; }
    // The nodes and elements as the output sees them (core/step_view.hpp).
    StepView view() const { return {nodes_, elements_}; }
    DofOrder order(int i) const { return order_[i]; }
    const EquationInfo& equation(int i) const { return eq_info_[i]; }
    SimClock& clock() { return clock_; }
    // `model: static;` (control data): every dynamic node was built as a static one.
    bool static_model() const { return static_model_; }
    // Whether unknown i is a position-level unknown (x or g) of a static node: such unknowns
    // have no inertia, their equations are equilibrium equations (algebraic in time).
    bool static_position(int i) const { return static_pos_[i] != 0; }

    // Unknowns and their derivatives (current iterate).
    std::vector<double> y, yp;
    StateView state() const { return {y.data(), yp.data()}; }

    // --- assembly (no allocation)
    // Sets the clock and the gravity field for time t, updates the node kinematics from y, y'.
    void update(double t, double dt);
    void residual(const StepContext& c, double* r);
    void jacobian(const StepContext& c);
    Jacobian& jac() { return *jac_; }
    LinearSolver& linear_solver() { return *lin_; }
    // Called after each converged step: elements' after_step, node history.
    void commit(const StepContext& c);

    // Initial momenta consistent with the initial velocities (beta = m xdot + w x S, ...).
    void initialize_momenta(const StepContext& c, double* scratch);

    // Redundant constraint equations (rows of element-owned algebraic unknowns): each is
    // replaced by lambda_i = 0 (residual y'_i, Jacobian row e_i). Set-up time only.
    void set_redundant(const std::vector<int>& rows);
    const std::vector<int>& redundant() const { return redundant_; }
    // The dropped equations' own residuals at the last residual() call (for checks that the
    // redundancy still holds: position constraints read phi / dCoef there).
    const std::vector<double>& dropped_residuals() const { return dropped_r_; }

  private:
    void build_nodes();
    void build_elements();
    void number_dofs();
    void build_pattern();

    const Model* model_;
    int n_ = 0;
    std::vector<StructNode> nodes_;
    bool static_model_ = false;
    std::deque<EntityDesc> static_descs_;  // static copies of dynamic node cards (static model)
    std::deque<EntityDesc> drive_descs_;   // drive callers with output (build_elements())
    std::vector<char> static_pos_;
    std::vector<int> node_index_;  // parallel to model.nodes: index in nodes_ or -1
    std::vector<std::unique_ptr<Element>> elements_;
    std::vector<DofOrder> order_;
    std::vector<EquationInfo> eq_info_;
    std::unique_ptr<Jacobian> jac_;
    std::vector<int> redundant_, redundant_slots_;  // rows, and the value slots of those rows
    std::vector<double> dropped_r_;
    std::unique_ptr<LinearSolver> lin_;
    SimClock clock_;
    DriveEnv drive_env_;
    std::vector<DriveSite> drive_sites_;  // every drive of time built for the run
    bool has_gravity_ = false;
    TplDrive<3> gravity_drive_;
    Vec3 gravity_now_ = Vec3::Zero();
};

}  // namespace mbs
