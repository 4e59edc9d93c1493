// The initial assembly (docs/formulation.md 4.1): positions, then velocities.
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/source.hpp"
#include "solvers/dae/simulation.hpp"

namespace mbs {

// Unknowns: node positions and incremental rotations (in y), multipliers of the joints that take
// part (in y'). Node rows get the regularization -Kp (x - x0) and -Kp g (g: the rotation from
// the initial orientation); momentum unknowns and the multipliers of other elements are frozen
// (identity rows, zero residual).
int Simulation::assemble() {
    Engine& e = *engine_;
    const int n = e.size();
    if (set_.skip_assembly || n == 0) return 0;
    std::vector<char> active(n, 0);
    std::vector<double> kp(n, 0.0), x0(n, 0.0);
    // Elements outside the position part may still impose velocities (velocity joints: their
    // rows join the velocity part), so only a model without element unknowns and without
    // elements in the position part skips it (MBDyn runs it when an element type used in the
    // assembly has elements, DataManager::DataManager: a deck with rods and no other joint too).
    bool any = false;
    for (const auto& el : e.elements()) {
        any = any || el->own_dofs() > 0 || el->in_assembly();
        if (el->in_assembly())
            for (int i = 0; i < el->own_dofs(); ++i) active[el->first_dof() + i] = 1;
    }
    if (!any) return 0;
    for (const auto& nd : e.nodes()) {
        if (nd.is_dummy()) continue;
        double k = nd.assembly_position_stiffness.value_or(set_.assembly_stiffness);
        for (int i = 0; i < nd.pos_cols(); ++i) {
            active[nd.first_dof() + i] = 1;
            kp[nd.first_dof() + i] = k;
            x0[nd.first_dof() + i] = e.y[nd.first_dof() + i];
        }
    }
    StepContext c{t_, set_.dt, 1.0, Phase::assembly};
    StepInfo info;
    info.time = t_;
    int max_iter = std::max(set_.assembly_max_iter, 1);
    int polish = 2;
    for (int it = 0;; ++it) {
        e.update(c.time, c.dt);
        e.residual(c, r_.data());
        for (int i = 0; i < n; ++i) r_[i] = active[i] ? r_[i] - kp[i] * (e.y[i] - x0[i]) : 0.0;
        info.iterations = it;
        info.res_err = residual_norm();
        if (!std::isfinite(info.res_err))
            throw SolverFailure(
                describe_failure("non-finite residual in the initial assembly", info));
        // Once converged after moving the nodes, two more (quadratically converging) iterations
        // leave the constraints at round-off: the derivatives phase divides them by its small
        // coefficient and cannot move positions to reduce them.
        if (info.res_err <= set_.assembly_tol && (it == 0 || polish-- == 0)) break;
        if (it >= max_iter && info.res_err > set_.assembly_tol)
            throw SolverFailure(
                describe_failure("initial assembly did not converge (max iterations " +
                                     std::to_string(max_iter) + ")",
                                 info) +
                "\n  hint: check the joints' initial geometry, raise 'max iterations' in control "
                "data, or 'skip initial joint assembly;'");
        // After dropping redundant equations, residual and matrix are evaluated again.
        auto build = [&] {
            e.update(c.time, c.dt);
            e.residual(c, r_.data());
            for (int i = 0; i < n; ++i) r_[i] = active[i] ? r_[i] - kp[i] * (e.y[i] - x0[i]) : 0.0;
            e.jacobian(c);
            for (int i = 0; i < n; ++i) e.jac().add_to_diagonal(i, active[i] ? -kp[i] : 1.0);
        };
        e.jacobian(c);
        for (int i = 0; i < n; ++i) e.jac().add_to_diagonal(i, active[i] ? -kp[i] : 1.0);
        // Only the assembly's own rows: the frozen rows of other elements (a velocity joint's)
        // have no entries in the node columns, which would read as a degenerate constraint.
        if (!factor_or_drop_redundant(build, &active))
            throw SolverFailure(singular_failure("singular matrix in the initial assembly", info));
        for (int i = 0; i < n; ++i) r_[i] = -r_[i];
        e.linear_solver().solve(r_.data());
        for (int i = 0; i < n; ++i)
            if (active[i]) (e.order(i) == DofOrder::differential ? e.y[i] : e.yp[i]) += r_[i];
        ++stats_.factorizations;
    }
    // The assembled orientations become the reference ones (g = 0), velocities stay as given.
    e.update(c.time, c.dt);
    for (auto& nd : e.nodes()) {
        if (nd.is_dummy() || !nd.has_rotation()) continue;
        nd.Rref = nd.R_prev = nd.R_prev2 = nd.R;
        for (int i = 3; i < 6; ++i) e.y[nd.first_dof() + i] = 0.0;
    }
    // The multipliers of the assembly's elements held its reactions: reset. Other element-owned
    // unknowns were frozen and keep their start values (an algebraic abstract node's value lives
    // in its y' slot, a differential one's derivative in y').
    for (const auto& el : e.elements())
        if (el->in_assembly())
            for (int i = 0; i < el->own_dofs(); ++i)
                if (el->own_dof_order(i) == DofOrder::algebraic) e.yp[el->first_dof() + i] = 0.0;
    e.update(c.time, c.dt);
    assemble_velocities(active);
    return info.iterations;
}

// Velocity part of the initial assembly (docs/formulation.md 4): the velocities closest to the
// given ones v0 in the norm of the velocity stiffnesses Kv that satisfy the constraints' time
// derivative,
//   Kv (v - v0) - B mu = 0,   Phi_q v + Phi_t = 0,   A v - b(t) = 0,
// where v = (xdot, w) of the nodes (w = g' at g = 0, which assemble() has just set) and B mu the
// constraint reactions. With dv = v - v0 this is the assembly matrix [-Kv B; Phi_q 0] at zero
// multipliers (its constraint rows are r_c(y, t) with Phi_q = dr_c/dy) and the right-hand side
// -(Phi_q v0 + Phi_t) on the constraint rows; Phi_t is the elements' own time derivative of r_c
// at fixed positions (Element::constraint_rate(): the total joint family, from the drives'
// derivatives as MBDyn's dGetP) or else a forward difference in time. Linear in dv: one solve.
//
// Velocity-level rows A v = b(t) (axial rotation, the total joint's velocity statuses, linear
// and angular velocity joints; MBDyn's InitialAssRes imposes those of the axial rotation and of
// the velocity joints) hold their multipliers at zero in the position part, and some elements
// take no part in it: their rows come from the run's own residual, r_v = b(t) - A v
// (classify_constraint_rows(): rows whose residual does not scale with dCoef), with
// A = dr_v/d(xdot, w) the dCoef -> 0 limit 2 J(1) - J(2) of the run's iteration matrix on the
// node columns (at g = 0 the columns of g' are those of w), and B's columns of their
// multipliers from the same matrix. Such a row adds A dv = -r_v(v0); a row with entries in
// other unknowns' columns (an acceleration joint's state, an abstract node's own value) is not
// a velocity constraint on the nodes and stays frozen.
void Simulation::assemble_velocities(const std::vector<char>& assembly_active) {
    assemble_velocities(assembly_active, true);
}

// may_drop: a singular (or ill-conditioned) matrix is checked once for redundant constraints
// among its constraint rows (a velocity joint imposing what position constraints already do);
// the dependent ones are dropped for the run, as in the steps, and the system is built again.
void Simulation::assemble_velocities(const std::vector<char>& assembly_active, bool may_drop) {
    Engine& e = *engine_;
    const int n = e.size();
    std::vector<char> active = assembly_active, node_col(n, 0), vel_row(n, 0);
    std::vector<double> kv(n, 0.0), v0(n, 0.0), rt(n, 0.0);
    for (const auto& nd : e.nodes()) {
        if (nd.is_dummy()) continue;
        double k = nd.assembly_velocity_stiffness.value_or(set_.assembly_vel_stiffness);
        for (int i = 0; i < nd.pos_cols(); ++i) {
            node_col[nd.first_dof() + i] = 1;
            kv[nd.first_dof() + i] = k;
            v0[nd.first_dof() + i] = e.yp[nd.first_dof() + i];
        }
    }
    // Velocity-level rows: A (K) and r_v (rv) from the run's equations at the initial time.
    const CscMatrix& J = e.jac().matrix();
    const int nnz = J.col_start()[n];
    std::vector<double> K, rv;
    const ConstraintRows cr = classify_constraint_rows(e);
    bool any_vel = false;
    for (std::size_t k = 0; k < cr.rows.size(); ++k)
        if (!cr.position[k]) vel_row[cr.rows[k]] = 1, any_vel = true;
    if (any_vel) {
        e.update(t_, set_.dt);
        e.jacobian(StepContext{t_, set_.dt, 1.0, Phase::dynamic});
        K.assign(J.values(), J.values() + nnz);
        for (int col = 0; col < n; ++col)
            for (int k = J.col_start()[col]; k < J.col_start()[col + 1]; ++k)
                if (vel_row[J.row_index()[k]] && !node_col[col] && K[k] != 0.0)
                    vel_row[J.row_index()[k]] = 0;
        e.jacobian(StepContext{t_, set_.dt, 2.0, Phase::dynamic});
        for (int k = 0; k < nnz; ++k) K[k] = 2.0 * K[k] - J.values()[k];
        rv.assign(n, 0.0);
        e.residual(StepContext{t_, set_.dt, 1.0, Phase::dynamic}, rv.data());
        for (int i = 0; i < n; ++i) active[i] = active[i] || vel_row[i];
    }
    // Phi_t by a one-sided (second-order) difference of the constraint rows at fixed positions:
    // drives usually start at the initial time and are constant before it, so a central
    // difference would see half their slope.
    const double eps = 1e-6 * std::max(1.0, std::fabs(t_));
    for (int k : {0, 1, 2}) {
        StepContext c{t_ + k * eps, set_.dt, 1.0, Phase::assembly};
        e.update(c.time, c.dt);
        e.residual(c, r_.data());
        const double w = k == 0 ? -3.0 : k == 1 ? 4.0 : -1.0;
        for (int i = 0; i < n; ++i) rt[i] += w * r_[i] / (2.0 * eps);
    }
    StepContext c{t_, set_.dt, 1.0, Phase::assembly};
    e.update(c.time, c.dt);
    // Elements that give the time derivative of their rows (Element::constraint_rate(): the
    // drives' derivatives) replace the difference on them; rows dropped as redundant stay 0.
    {
        std::vector<double> ra(n, 0.0);
        const StateView s = e.state();
        for (const auto& el : e.elements()) {
            if (!el->in_assembly() || el->own_dofs() == 0) continue;
            const int f = el->first_dof();
            if (el->constraint_rate(c, s, ra.data()))
                std::copy(ra.begin() + f, ra.begin() + f + el->own_dofs(), rt.begin() + f);
        }
        for (int i : e.redundant()) rt[i] = 0.0;
    }
    e.jacobian(c);
    // Node rows x node columns: -Kv alone (added below). The position part's entries there (the
    // elastic stiffness of rods, deformable joints, beams in the assembly, the load stiffness of
    // bodies and forces) do not weigh the velocities: in MBDyn's initial assembly those elements
    // write position rows only and the velocity rows of a node hold Kv (v - v0) and the
    // constraints' reactions (StructNode::InitialAssRes, Rod::InitialAssRes).
    {
        double* val = e.jac().matrix().values();
        for (int col = 0; col < n; ++col)
            if (node_col[col])
                for (int k = J.col_start()[col]; k < J.col_start()[col + 1]; ++k)
                    if (node_col[J.row_index()[k]]) val[k] = 0.0;
    }
    // The velocity rows and their multipliers' columns: the run's matrix on the node columns.
    if (any_vel) {
        double* val = e.jac().matrix().values();
        for (int col = 0; col < n; ++col)
            for (int k = J.col_start()[col]; k < J.col_start()[col + 1]; ++k) {
                const int row = J.row_index()[k];
                if (vel_row[row])
                    val[k] = node_col[col] ? K[k] : 0.0;
                else if (vel_row[col] && node_col[row])
                    val[k] = K[k];
            }
    }
    // rhs = -(Phi_q v0 + Phi_t) on position constraint rows, -r_v(v0) on velocity rows, 0 on node
    // rows and frozen rows.
    for (int i = 0; i < n; ++i)
        r_[i] = (active[i] && !node_col[i]) ? (vel_row[i] ? -rv[i] : -rt[i]) : 0.0;
    double norm = 0.0;
    for (int col = 0; col < n; ++col) {
        if (!node_col[col] || v0[col] == 0.0) continue;
        for (int k = J.col_start()[col]; k < J.col_start()[col + 1]; ++k) {
            int row = J.row_index()[k];
            if (active[row] && !node_col[row] && !vel_row[row]) r_[row] -= J.values()[k] * v0[col];
        }
    }
    for (int i = 0; i < n; ++i) norm = std::max(norm, std::fabs(r_[i]));
    if (norm <= 1e-14) return;  // the given velocities already satisfy the constraints
    for (int i = 0; i < n; ++i)
        e.jac().add_to_diagonal(i, !active[i] ? 1.0 : node_col[i] ? -kv[i] : 0.0);
    ++stats_.factorizations;
    const bool factored = e.linear_solver().factor(e.jac().matrix());
    if (!factored || e.linear_solver().rcond() < 1e-13) {
        std::vector<char> constraint(n, 0);
        for (int i = 0; i < n; ++i) constraint[i] = active[i] && !node_col[i];
        if (may_drop && drop_redundant(&constraint))
            return assemble_velocities(assembly_active, false);
        if (!factored) {
            StepInfo info;
            info.time = t_;
            throw SolverFailure(singular_failure(
                "singular matrix in the velocity part of the initial assembly", info));
        }
    }
    e.linear_solver().solve(r_.data());
    for (int i = 0; i < n; ++i)
        if (node_col[i]) e.yp[i] += r_[i];
    e.update(t_, set_.dt);
}

}  // namespace mbs
