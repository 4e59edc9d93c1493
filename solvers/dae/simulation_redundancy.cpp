// Redundant constraints found at a singular factorization, dropped for the run.
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/source.hpp"
#include "solvers/dae/simulation.hpp"

namespace mbs {

// Factors the iteration matrix; a singular one, or one whose pivot-ratio estimate is below
// 1e-13 (dependent rows leave round-off pivots that KLU does not call singular), is first
// checked for redundant constraints (among the rows `consider`, null: all). Returns false only
// for a singular matrix: an ill-conditioned one without redundancy goes on as before.
bool Simulation::factor_or_drop_redundant(const std::function<void()>& rebuild,
                                          const std::vector<char>* consider) {
    LinearSolver& ls = engine_->linear_solver();
    bool ok = ls.factor(engine_->jac().matrix());
    if (ok && !(ls.rcond() < 1e-13)) return true;
    if (!resolve_redundancy(consider)) return ok;
    rebuild();
    return ls.factor(engine_->jac().matrix());
}

// Redundant constraints (closed loops with more equations than independent ones, e.g. a planar
// four-bar modelled with spatial revolute hinges). The constraint rows of the iteration matrix
// just built, restricted to the node columns, are Phi_q (for position constraints the phi/dCoef
// scaling makes them exactly dphi/dy; velocity constraints contribute their dr/dy' + dCoef dr/dy).
// They are orthogonalized in deck order (modified Gram-Schmidt, applied twice for stability); a
// row whose remainder is below 1e-9 of its norm depends on earlier rows. Each such equation is
// replaced by lambda = 0 (Engine::set_redundant): the motion is that of the independent
// equations; the reactions of the joints involved are not unique (this choice carries them on
// the earlier equations). Done once, at the first singular factorization; dense, so limited to
// (constraint rows) x (node unknowns) <= 1e7.
bool Simulation::resolve_redundancy(const std::vector<char>* consider) {
    if (redundancy_checked_) return false;
    redundancy_checked_ = true;
    return drop_redundant(consider);
}

// The check of resolve_redundancy() on the rows `consider` (null: every element-owned algebraic
// row) that are not dropped yet; the rows found join those dropped before.
bool Simulation::drop_redundant(const std::vector<char>* consider) {
    Engine& e = *engine_;
    const int n = e.size();
    int nn = n;  // node unknowns come first
    for (const auto& el : e.elements())
        if (el->own_dofs() > 0) nn = std::min(nn, el->first_dof());
    std::vector<char> dropped(n, 0);
    for (int i : e.redundant()) dropped[i] = 1;
    std::vector<int> rows;
    for (int i = nn; i < n; ++i)
        if (e.order(i) == DofOrder::algebraic && !dropped[i] && (!consider || (*consider)[i]))
            rows.push_back(i);
    if (rows.empty() || static_cast<double>(rows.size()) * nn > 1e7) return false;
    std::vector<int> where(n, -1);
    for (std::size_t k = 0; k < rows.size(); ++k) where[rows[k]] = static_cast<int>(k);
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(rows.size()), nn);
    const CscMatrix& J = e.jac().matrix();
    for (int col = 0; col < nn; ++col)
        for (int k = J.col_start()[col]; k < J.col_start()[col + 1]; ++k)
            if (int r = where[J.row_index()[k]]; r >= 0) A(r, col) = J.values()[k];
    std::vector<Eigen::VectorXd> basis;
    std::vector<int> redundant;
    for (std::size_t k = 0; k < rows.size(); ++k) {
        Eigen::VectorXd v = A.row(static_cast<Eigen::Index>(k)).transpose();
        const double norm0 = v.norm();
        for (int pass = 0; pass < 2; ++pass)
            for (const auto& q : basis) v -= q.dot(v) * q;
        if (norm0 == 0.0 || v.norm() <= 1e-9 * norm0) {
            redundant.push_back(rows[k]);
        } else {
            basis.push_back(v / v.norm());
        }
    }
    if (redundant.empty()) return false;
    std::vector<int> all = e.redundant();
    all.insert(all.end(), redundant.begin(), redundant.end());
    std::sort(all.begin(), all.end());
    e.set_redundant(all);
    std::string msg = "redundant constraints: " + std::to_string(redundant.size()) + " of " +
                      std::to_string(rows.size()) + " constraint equations depend on the others";
    std::string owner;
    for (int i : redundant) {
        const EquationInfo& q = e.equation(i);
        if (q.owner != owner) msg += "\n  " + q.owner + ":", owner = q.owner;
        msg += " " + q.name + ";";
    }
    msg +=
        "\n  they are replaced by zero multipliers: the motion is unaffected, the reactions of "
        "these "
        "joints are not unique";
    if (on_warning) on_warning(msg);
    return true;
}

}  // namespace mbs
