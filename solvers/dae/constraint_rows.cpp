// Constraint rows at acceleration level (see constraint_rows.hpp).
//
// K: the rows of the iteration matrix, J = dr/dy' + dCoef dr/dy, in the nodes' (x, g) columns,
// at g = 0 (the phase starts from the assembled orientations, so G(g) = I and a column of g is
// one of the rotation vector theta). A position row writes dphi/d(x, theta) there, whatever
// dCoef; a velocity row writes dpsi/d(v, w) + dCoef dpsi/d(x, theta). Both are linear in dCoef,
// so K = 2 J(dCoef) - J(2 dCoef) is the dCoef -> 0 limit: dphi/d(x, theta), resp. dpsi/d(v, w).
// A row that also has entries in other columns (momenta, other elements' unknowns) or on nodes
// whose accelerations the momenta do not give (moving static nodes, dynamic nodes without a
// body) keeps its residual phi/dCoef. Static nodes at rest (speeds below 1e-12 of the largest:
// round-off) held by constraints alone (no entry of their equilibrium rows in any node's
// position columns: nothing elastic on them, e.g. the ground, clamped nodes) are taken as
// fixed, a = 0. A static node with a spring or a load that
// depends on its position moves towards its equilibrium in the phase (y += dCoef dy') and its
// rows keep phi/dCoef: its acceleration is not known (as without this module).
//
// g: along the path x(s) = x0 + s v0, R(s) = exp(s w0) R0 at constant v0, w0 and time t0 + s the
// accelerations are zero, so g is the second (position rows) or first (velocity rows) derivative
// of the row's residual at dCoef = 1 along it. One-sided (forward) differences over s = k h,
// k = 0..5, of fourth order:
//     f'(0)  = (48 d1 - 36 d2 + 16 d3 - 3 d4) / (12 h),
//     f''(0) = (-154 d1 + 214 d2 - 156 d3 + 61 d4 - 10 d5) / (12 h^2),   d_k = f(k h) - f(0):
// drives usually start at the initial time (a ramp, constant before it), so the motion after t0
// is the one to differentiate, and d_k = 0 for a row at rest gives g = 0 exactly. The error is
// about (h w)^4 relative to the centripetal term plus 50 eps |phi| / h^2: with
// h = min(dt, 0.005 / max|w|, 0.005 l / max|v|) (l the size of the node cloud, at least 1e-3;
// the last bound only with two nodes or more: one node's size says nothing) both are ~1e-9 for
// motions the step resolves.
//
// a: recovered from beta', gamma' (recover_node_acceleration(), accelerations.cpp), plus the
// phase's velocity change over dCoef, (v - v0, w - w0) / dCoef. The iteration matrix is the
// derivative of the residual at y = y0 + dCoef (y' - y'0) (MBDyn's update): its momentum rows
// say dv = dCoef M^-1 dbeta', its constraint rows phi_q dv. With the second term the row's
// derivative, dCoef K (M^-1 dbeta' + dv / dCoef), matches the matrix up to O(dCoef): the error
// of the iteration is nilpotent to that order (two iterations). At convergence the momentum
// rows give M (v - v0) = 0: v = v0 where the node has inertia; along the null space of a
// singular inertia (a point mass on a rigid node: its rotation) the momenta do not fix the
// accelerations, the recovery gives zero there and the velocity change carries the
// acceleration the constraints impose. finish() puts v0, w0 back (M (v - v0) = 0: the momentum
// rows still hold).
#include "solvers/dae/constraint_rows.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "solvers/dae/accelerations.hpp"
#include "solvers/dae/engine.hpp"

namespace mbs {

namespace {

// Node kinematics saved and restored around evaluations at hand-set states.
struct SavedKinematics {
    std::vector<Vec3> x, v, w;
    std::vector<Mat3> R;
    double time = 0.0;

    explicit SavedKinematics(Engine& e) : time(e.clock().time) {
        for (const auto& nd : e.nodes()) {
            x.push_back(nd.x), v.push_back(nd.xdot), w.push_back(nd.w);
            R.push_back(nd.R);
        }
    }
    void restore(Engine& e) const {
        auto& nodes = e.nodes();
        for (std::size_t j = 0; j < nodes.size(); ++j) {
            if (nodes[j].is_dummy()) continue;
            nodes[j].x = x[j], nodes[j].xdot = v[j], nodes[j].w = w[j], nodes[j].R = R[j];
        }
        update_dummies(e);
        e.clock().time = time;
    }
    static void update_dummies(Engine& e) {
        for (auto& nd : e.nodes())
            if (nd.is_dummy() && nd.base) nd.update_dummy(*nd.base);
    }
};

// The violation's floor: a is recovered with (v - v0) / dCoef, and v, w carry a few ulps of
// round-off from the iteration (w through the rotation update), so a row cannot resolve
// sum |k| * ulp(|v0|, |w0|) / dCoef. Measured on a spinning arm hinged to a spinning shaft
// (w = 5 rad/s, dCoef = 1e-6): the violation stalls between 1.5e-8 and 4e-8, about 15 ulps
// over dCoef; 32 eps is taken, with the node's speed as the scale. `coefs`: the rows' K entries
// (row, node, component, k), `index`: row -> kept row (-1: dropped), m rows.
template <class Coefs>
double violation_floor(const Coefs& coefs, const std::vector<int>& index,
                       const std::vector<StructNode>& nodes, int m, double dCoef) {
    std::vector<double> floor_row(m, 0.0);
    for (const auto& c : coefs)
        if (index[c.row] >= 0) {
            const StructNode& nd = nodes[c.node];
            const double speed = c.comp < 3 ? nd.xdot.norm() : nd.w.norm();
            floor_row[index[c.row]] += std::abs(c.k) * speed;
        }
    double floor = 0.0;
    for (double f : floor_row)
        floor = std::max(floor, 32.0 * std::numeric_limits<double>::epsilon() * f / dCoef);
    return floor;
}

}  // namespace

ConstraintRows classify_constraint_rows(Engine& e) {
    ConstraintRows out;
    auto& nodes = e.nodes();
    const int n = e.size();
    std::vector<char> node_row(n, 0), dropped(n, 0);
    for (const auto& nd : nodes)
        if (!nd.is_dummy())
            for (int i = 0; i < nd.ndofs(); ++i) node_row[nd.first_dof() + i] = 1;
    for (int i : e.redundant()) dropped[i] = 1;
    std::vector<int> candidates;
    for (int i = 0; i < n; ++i)
        if (e.order(i) == DofOrder::algebraic && !node_row[i] && !dropped[i])
            candidates.push_back(i);
    if (candidates.empty()) return out;
    const SavedKinematics saved(e);
    int j = 0;
    for (auto& nd : nodes) {
        if (nd.is_dummy()) continue;
        const Vec3 d(0.3 + 0.1 * j, -0.7 + 0.05 * j, 0.5 - 0.02 * j);
        nd.x += 1e-3 * d;
        nd.xdot += 1e-2 * d.reverse();
        if (nd.has_rotation()) {
            nd.R = rotation_vector_to_matrix(1e-3 * d.reverse()) * nd.R;
            nd.w += 1e-2 * d;
        }
        ++j;
    }
    SavedKinematics::update_dummies(e);
    std::vector<double> r1(n), r2(n);
    const StepContext c1{saved.time, e.clock().timestep, 1.0, Phase::dynamic};
    const StepContext c2{saved.time, e.clock().timestep, 2.0, Phase::dynamic};
    e.residual(c1, r1.data());
    e.residual(c2, r2.data());
    saved.restore(e);
    for (int i : candidates) {
        const double a = r1[i], b = r2[i];
        if (!(std::abs(a) > 1e-13)) continue;
        if (std::abs(a - 2.0 * b) <= 1e-8 * std::abs(a)) {
            out.rows.push_back(i), out.position.push_back(1);
        } else if (std::abs(a - b) <= 1e-8 * std::abs(a)) {
            out.rows.push_back(i), out.position.push_back(0);
        }
    }
    return out;
}

bool AccelerationConstraints::setup(Engine& e, double dCoef) {
    rows_.clear(), g_.clear(), k_.clear(), nodes_.clear();
    auto& nodes = e.nodes();
    if (nodes.empty()) return false;
    update_node_accelerations(e);  // lumped inertia of the nodes (first call)
    const ConstraintRows cr = classify_constraint_rows(e);
    if (cr.rows.empty()) return false;
    const int n = e.size();
    const int m = static_cast<int>(cr.rows.size());
    std::vector<int> where(n, -1);
    for (int i = 0; i < m; ++i) where[cr.rows[i]] = i;

    // K = 2 J(dCoef) - J(2 dCoef) on the constraint rows.
    const double t0 = e.clock().time, dt = e.clock().timestep;
    const CscMatrix& A = e.jac().matrix();
    const int nnz = A.col_start()[n];
    e.jacobian(StepContext{t0, dt, dCoef, Phase::dynamic});
    std::vector<double> k1(A.values(), A.values() + nnz);
    e.jacobian(StepContext{t0, dt, 2.0 * dCoef, Phase::dynamic});
    std::vector<double> k(nnz);
    for (int q = 0; q < nnz; ++q) k[q] = 2.0 * k1[q] - A.values()[q];

    // Columns: node (x, g) columns of nodes whose accelerations the momenta give; static nodes
    // at rest are taken as fixed (a = 0: the ground, clamped nodes).
    constexpr int fixed_node = -2;
    std::vector<int> col_node(n, -1), col_comp(n, -1);
    // Static nodes whose rows have entries in node position columns (the matrix at dCoef).
    std::vector<char> pos_col(n, 0), elastic(nodes.size(), 0);
    std::vector<int> row_owner(n, -1);
    for (int j = 0; j < static_cast<int>(nodes.size()); ++j) {
        const StructNode& nd = nodes[j];
        if (nd.is_dummy()) continue;
        for (int i = 0; i < nd.pos_cols(); ++i) pos_col[nd.first_dof() + i] = 1;
        if (!nd.is_dynamic())
            for (int i = 0; i < nd.ndofs(); ++i) row_owner[nd.first_dof() + i] = j;
    }
    for (int col = 0; col < n; ++col)
        if (pos_col[col])
            for (int q = A.col_start()[col]; q < A.col_start()[col + 1]; ++q)
                if (const int j = row_owner[A.row_index()[q]]; j >= 0 && k1[q] != 0.0)
                    elastic[j] = 1;
    // At rest: velocities at the round-off of the model's largest ones (the velocity part of the
    // initial assembly leaves ~1e-15 m/s on a clamped ground when other nodes move).
    double vscale = 0.0, wscale = 0.0;
    for (const auto& nd : nodes)
        if (!nd.is_dummy())
            vscale = std::max(vscale, nd.xdot.norm()), wscale = std::max(wscale, nd.w.norm());
    for (int j = 0; j < static_cast<int>(nodes.size()); ++j) {
        const StructNode& nd = nodes[j];
        if (nd.is_dummy()) continue;
        const bool at_rest =
            nd.xdot.norm() <= 1e-12 * vscale && nd.w.norm() <= 1e-12 * wscale && !elastic[j];
        const int tag =
            nd.is_dynamic() ? (nd.inertia_m > 0.0 ? j : -1) : (at_rest ? fixed_node : -1);
        for (int i = 0; i < nd.pos_cols(); ++i)
            col_node[nd.first_dof() + i] = tag, col_comp[nd.first_dof() + i] = i;
    }
    std::vector<char> ok(m, 1), any(m, 0);
    std::vector<Coef> coefs;
    for (int col = 0; col < n; ++col)
        for (int q = A.col_start()[col]; q < A.col_start()[col + 1]; ++q) {
            const int i = where[A.row_index()[q]];
            if (i < 0 || k[q] == 0.0 || col_node[col] == fixed_node) continue;
            if (col_node[col] < 0) {
                ok[i] = 0;
                continue;
            }
            any[i] = 1;
            coefs.push_back({i, col_node[col], col_comp[col], k[q]});
        }
    std::vector<int> index(m, -1);
    for (int i = 0; i < m; ++i)
        if (ok[i] && any[i]) index[i] = static_cast<int>(rows_.size()), rows_.push_back(cr.rows[i]);
    if (rows_.empty()) return false;
    node_slot_.assign(nodes.size(), -1);
    for (const Coef& c : coefs) {
        if (index[c.row] < 0) continue;
        if (node_slot_[c.node] < 0) {
            node_slot_[c.node] = static_cast<int>(nodes_.size());
            nodes_.push_back({c.node, nodes[c.node].xdot, nodes[c.node].w});
        }
        k_.push_back({index[c.row], node_slot_[c.node], c.comp, c.k});
    }

    floor_ = violation_floor(coefs, index, nodes, m, dCoef);

    // g along the path (file comment).
    const SavedKinematics saved(e);
    double wmax = 0.0, vmax = 0.0, extent = 1e-3;
    Vec3 centre = Vec3::Zero();
    int count = 0;
    for (const auto& nd : nodes)
        if (!nd.is_dummy()) centre += nd.x, ++count;
    centre /= std::max(count, 1);
    for (const auto& nd : nodes) {
        if (nd.is_dummy()) continue;
        wmax = std::max(wmax, nd.w.norm());
        vmax = std::max(vmax, nd.xdot.norm());
        extent = std::max(extent, (nd.x - centre).norm());
    }
    double h = dt > 0.0 ? dt : 1e-3;
    if (wmax > 0.0) h = std::min(h, 0.005 / wmax);
    if (vmax > 0.0 && count > 1) h = std::min(h, 0.005 * extent / vmax);
    const int nr = static_cast<int>(rows_.size());
    std::vector<double> f(6 * static_cast<std::size_t>(nr)), r(n);
    for (int s = 0; s < 6; ++s) {
        for (std::size_t j = 0; j < nodes.size(); ++j) {
            StructNode& nd = nodes[j];
            if (nd.is_dummy()) continue;
            nd.x = saved.x[j] + (s * h) * saved.v[j];
            if (nd.has_rotation())
                nd.R = rotation_vector_to_matrix((s * h) * saved.w[j]) * saved.R[j];
        }
        SavedKinematics::update_dummies(e);
        e.clock().time = t0 + s * h;
        e.residual(StepContext{t0 + s * h, dt, 1.0, Phase::dynamic}, r.data());
        for (int i = 0; i < nr; ++i) f[static_cast<std::size_t>(s) * nr + i] = r[rows_[i]];
    }
    saved.restore(e);
    g_.assign(nr, 0.0);
    for (int i = 0; i < nr; ++i) {
        double d[6];
        for (int s = 0; s < 6; ++s) d[s] = f[static_cast<std::size_t>(s) * nr + i] - f[i];
        const bool pos = cr.position[where[rows_[i]]] != 0;
        g_[i] = pos ? (-154.0 * d[1] + 214.0 * d[2] - 156.0 * d[3] + 61.0 * d[4] - 10.0 * d[5]) /
                          (12.0 * h * h)
                    : (48.0 * d[1] - 36.0 * d[2] + 16.0 * d[3] - 3.0 * d[4]) / (12.0 * h);
    }
    acc_.assign(nr, 0.0);
    dropped_.assign(n, 0);
    dropped_seen_ = 0;
    return true;
}

void AccelerationConstraints::apply(Engine& e, double dCoef, double* r) {
    if (rows_.empty()) return;
    if (e.redundant().size() != dropped_seen_) {
        for (int i : e.redundant()) dropped_[i] = 1;
        dropped_seen_ = e.redundant().size();
    }
    auto& nodes = e.nodes();
    for (NodeData& d : nodes_) {
        // The node's own xpp, wp (read by node drives) stay as they were.
        StructNode& nd = nodes[d.node];
        const Vec3 xpp = nd.xpp, wp = nd.wp;
        const StructNode::AccelState state = nd.accel_state;
        recover_node_acceleration(nd);
        d.a = nd.xpp + (nd.xdot - d.v0) / dCoef;
        d.wp = nd.wp + (nd.w - d.w0) / dCoef;
        nd.xpp = xpp, nd.wp = wp, nd.accel_state = state;
    }
    std::copy(g_.begin(), g_.end(), acc_.begin());
    for (const Coef& c : k_) {
        const NodeData& d = nodes_[c.node];
        acc_[c.row] += c.k * (c.comp < 3 ? d.a[c.comp] : d.wp[c.comp - 3]);
    }
    violation_ = 0.0;
    for (std::size_t i = 0; i < rows_.size(); ++i)
        if (!dropped_[rows_[i]]) {
            r[rows_[i]] = dCoef * acc_[i];
            violation_ = std::max(violation_, std::abs(acc_[i]));
        }
}

void AccelerationConstraints::finish(Engine& e) const {
    for (const NodeData& d : nodes_) {
        const StructNode& nd = e.nodes()[d.node];
        double* yp = e.yp.data() + nd.first_dof();
        for (int i = 0; i < 3; ++i) {
            yp[i] = d.v0[i];
            if (nd.has_rotation()) yp[3 + i] = d.w0[i];
        }
    }
}

}  // namespace mbs
