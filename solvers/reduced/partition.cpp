// Coordinate partitioning, constraint solution and the reduced equations of motion.
#include "solvers/reduced/partition.hpp"

#include <Eigen/QR>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

namespace mbs::reduced {

namespace {
std::vector<int> free_columns(const ReducedModel& m) {
    std::vector<int> f;
    for (int i = 0; i < m.nq(); ++i)
        if (!m.links[static_cast<std::size_t>(i)].driven) f.push_back(i);
    return f;
}
}  // namespace

// Columns: full-pivot LU of J_rows restricted to the free (not driven) columns; its first r
// column pivots are the best-conditioned choice of J_v (largest pivots first), the rest are q_u.
void repartition_columns(const ReducedModel& m, const MatX& J, Partition& p) {
    const std::vector<int> fc = free_columns(m);
    const int r = static_cast<int>(p.rows.size());
    MatX Jr(r, static_cast<int>(fc.size()));
    for (int i = 0; i < r; ++i)
        for (std::size_t j = 0; j < fc.size(); ++j)
            Jr(i, static_cast<int>(j)) = J(p.rows[static_cast<std::size_t>(i)], fc[j]);
    p.u.clear();
    p.v.clear();
    p.c.clear();
    std::vector<bool> dep(static_cast<std::size_t>(m.nq()), false);
    if (r > 0) {
        Eigen::FullPivLU<MatX> lu(Jr);
        for (int k = 0; k < r; ++k)
            dep[static_cast<std::size_t>(
                fc[static_cast<std::size_t>(lu.permutationQ().indices()[k])])] = true;
        const double big = std::abs(lu.matrixLU()(0, 0));
        const double small = std::abs(lu.matrixLU()(r - 1, r - 1));
        p.pivot_ratio = big > 0 ? small / big : 0.0;
    } else {
        p.pivot_ratio = 1.0;
    }
    for (int i = 0; i < m.nq(); ++i) {
        if (m.links[static_cast<std::size_t>(i)].driven)
            p.c.push_back(i);
        else if (dep[static_cast<std::size_t>(i)])
            p.v.push_back(i);
        else
            p.u.push_back(i);
    }
}

// Rows: the rank r of J (free columns) and r independent rows from the column pivots of the
// full-pivot LU of J^T; the other rows are redundant (dependent on the kept ones).
Partition make_partition(const ReducedModel& m, const MatX& J) {
    Partition p;
    const std::vector<int> fc = free_columns(m);
    const int nrow = static_cast<int>(J.rows());
    MatX Jt(static_cast<int>(fc.size()), nrow);
    for (int i = 0; i < nrow; ++i)
        for (std::size_t j = 0; j < fc.size(); ++j) Jt(static_cast<int>(j), i) = J(i, fc[j]);
    int r = 0;
    std::vector<bool> kept(static_cast<std::size_t>(nrow), false);
    if (nrow > 0 && !fc.empty()) {
        Eigen::FullPivLU<MatX> lu(Jt);
        lu.setThreshold(rank_tolerance);
        r = static_cast<int>(lu.rank());
        for (int k = 0; k < r; ++k)
            kept[static_cast<std::size_t>(lu.permutationQ().indices()[k])] = true;
    }
    for (int i = 0; i < nrow; ++i)
        (kept[static_cast<std::size_t>(i)] ? p.rows : p.redundant_rows).push_back(i);
    for (int row : p.redundant_rows)
        for (const Cut& c : m.cuts)
            if (row >= c.first_row && row < c.first_row + c.rows &&
                std::find(p.redundant_joints.begin(), p.redundant_joints.end(), c.label) ==
                    p.redundant_joints.end())
                p.redundant_joints.push_back(c.label);
    repartition_columns(m, J, p);
    return p;
}

void propose_partition(const ReducedModel& m, const MatX& J, Partition& p,
                       const std::vector<int>& independent) {
    const std::vector<int> fc = free_columns(m);
    const int dof = static_cast<int>(fc.size()) - static_cast<int>(p.rows.size());
    std::vector<bool> ind(static_cast<std::size_t>(m.nq()), false);
    for (int i : independent) {
        if (i < 0 || i >= m.nq())
            throw std::invalid_argument("coordinate q" + std::to_string(i + 1) +
                                        " does not exist (q1 .. q" + std::to_string(m.nq()) + ")");
        if (m.links[static_cast<std::size_t>(i)].driven)
            throw std::invalid_argument("coordinate q" + std::to_string(i + 1) +
                                        " is driven, it cannot be independent");
        if (ind[static_cast<std::size_t>(i)])
            throw std::invalid_argument("coordinate q" + std::to_string(i + 1) +
                                        " is proposed twice");
        ind[static_cast<std::size_t>(i)] = true;
    }
    if (static_cast<int>(independent.size()) != dof)
        throw std::invalid_argument("the mechanism has " + std::to_string(dof) +
                                    " degree(s) of freedom: propose " + std::to_string(dof) +
                                    " independent coordinate(s), not " +
                                    std::to_string(independent.size()));
    Partition q = p;
    q.u.clear();
    q.v.clear();
    for (int i : fc) (ind[static_cast<std::size_t>(i)] ? q.u : q.v).push_back(i);
    q.pivot_ratio = pivot_ratio_of(J, q);
    if (!(q.pivot_ratio >= 1e-8)) {
        char b[64];
        std::snprintf(b, sizeof b, "%.3g", q.pivot_ratio);
        throw std::invalid_argument(
            std::string("the proposed independent coordinates leave a singular J_v (pivot ratio ") +
            b + "): the dependent ones cannot be solved for");
    }
    q.user = true;
    p = q;
}

// Newton-Raphson: J_v dq_v = -h_rows, q_v += dq_v, until |h_rows|_inf <= tol.
bool solve_positions(const ReducedModel& m, Workspace& ws, const Partition& p, VecX& q, double tol,
                     int max_iter) {
    const int r = static_cast<int>(p.rows.size());
    if (r == 0) {
        forward_kinematics(m, ws, q, ws.zero, ws.zero);
        return true;
    }
    MatX Jv(r, r);
    VecX hr(r);
    // Converged when |h| <= tol after a correction that was itself small: near a singular
    // configuration a small |h| still leaves q_v off by |h| / sigma_min(J_v) along the weak
    // direction, which one more (quadratically convergent) iteration removes.
    double last_step = std::numeric_limits<double>::infinity();
    for (int it = 0; it <= max_iter; ++it) {
        forward_kinematics(m, ws, q, ws.zero, ws.zero);
        constraints(m, ws);
        for (int i = 0; i < r; ++i) hr[i] = ws.h[p.rows[static_cast<std::size_t>(i)]];
        const double hn = hr.lpNorm<Eigen::Infinity>();
        if (hn <= tol && (last_step <= 1e-10 || hn == 0.0)) return true;
        if (it == max_iter) return hn <= tol;
        for (int i = 0; i < r; ++i)
            for (int j = 0; j < r; ++j)
                Jv(i, j) =
                    ws.J(p.rows[static_cast<std::size_t>(i)], p.v[static_cast<std::size_t>(j)]);
        const VecX dq = Jv.partialPivLu().solve(-hr);
        for (int j = 0; j < r; ++j) q[p.v[static_cast<std::size_t>(j)]] += dq[j];
        last_step = dq.lpNorm<Eigen::Infinity>();
    }
    return false;
}

// Velocity level: qd = s f(t), qdd = s f'(t). Position level: qd = s f'(t) and qdd = s f''(t),
// a fourth-order central difference of f' (drive_levels: the drives give no second derivative).
void driven_rates(const ReducedModel& m, const Partition& p, double t, VecX& qd, VecX& qdd) {
    for (int i : p.c) {
        const Link& l = m.links[static_cast<std::size_t>(i)];
        if (l.position_drive) {
            double f, fd, fdd;
            drive_levels(m, *l.position_drive, t, f, fd, fdd);
            qd[i] = l.drive_sign * fd;
            qdd[i] = l.drive_sign * fdd;
        } else {
            qd[i] = l.drive_sign * l.velocity_drive->value(t);
            qdd[i] = l.drive_sign * l.velocity_drive->deriv(t);
        }
    }
}

void driven_positions(const ReducedModel& m, const Partition& p, double t, VecX& q) {
    for (int i : p.c) {
        const Link& l = m.links[static_cast<std::size_t>(i)];
        if (l.position_drive) q[i] = l.drive_sign * l.position_drive->value(t);
    }
}

namespace {
// J_v, J_u, J_c blocks of the kept rows (ws.J must be current).
void blocks(const Workspace& ws, const Partition& p, MatX& Jv, MatX& Ju, MatX& Jc) {
    const auto r = static_cast<int>(p.rows.size());
    Jv.resize(r, r);
    Ju.resize(r, static_cast<int>(p.u.size()));
    Jc.resize(r, static_cast<int>(p.c.size()));
    for (int i = 0; i < r; ++i) {
        const int row = p.rows[static_cast<std::size_t>(i)];
        for (std::size_t j = 0; j < p.v.size(); ++j) Jv(i, static_cast<int>(j)) = ws.J(row, p.v[j]);
        for (std::size_t j = 0; j < p.u.size(); ++j) Ju(i, static_cast<int>(j)) = ws.J(row, p.u[j]);
        for (std::size_t j = 0; j < p.c.size(); ++j) Jc(i, static_cast<int>(j)) = ws.J(row, p.c[j]);
    }
}

// Kept rows' -dh/dt: the right-hand side of J_rows qd = -ht_rows before the known terms.
VecX minus_ht(const Workspace& ws, const Partition& p) {
    VecX r(static_cast<int>(p.rows.size()));
    for (std::size_t i = 0; i < p.rows.size(); ++i) r[static_cast<int>(i)] = -ws.ht[p.rows[i]];
    return r;
}
}  // namespace

// qd_v = -J_v^-1 (J_u qd_u + J_c qd_c + ht) (ht = dh/dt of driven cuts).
void set_dependent_velocities(const ReducedModel& m, Workspace& ws, const Partition& p,
                              const VecX& q, VecX& qd, double t) {
    VecX qdd = VecX::Zero(m.nq());
    driven_rates(m, p, t, qd, qdd);
    if (p.v.empty()) return;
    forward_kinematics(m, ws, q, ws.zero, ws.zero);
    constraints(m, ws, t);
    MatX Jv, Ju, Jc;
    blocks(ws, p, Jv, Ju, Jc);
    VecX rhs = minus_ht(ws, p);
    for (std::size_t j = 0; j < p.u.size(); ++j) rhs -= Ju.col(static_cast<int>(j)) * qd[p.u[j]];
    for (std::size_t j = 0; j < p.c.size(); ++j) rhs -= Jc.col(static_cast<int>(j)) * qd[p.c[j]];
    const VecX qv = Jv.partialPivLu().solve(rhs);
    for (std::size_t j = 0; j < p.v.size(); ++j) qd[p.v[j]] = qv[static_cast<int>(j)];
}

// qdd = T qdd_u + s with T = [1; B_vu; 0] (rows in u, v, c order mapped back to coordinates),
// s_c = qdd_c, s_v = -J_v^-1 (J_c qdd_c + gamma); M_r = T^T M T, F_r = T^T (M s + c - Q).
// Velocities: qd_v = -J_v^-1 (J_u qd_u + J_c qd_c + ht); gamma holds the driven cuts' d2h/dt2.
void reduced_accelerations(const ReducedModel& m, Workspace& ws, const Partition& p, const VecX& q,
                           VecX& qd, double t, VecX& qdd, ReducedState& rs) {
    const int nq = m.nq(), nu = static_cast<int>(p.u.size()), nv = static_cast<int>(p.v.size());
    qdd.setZero();
    driven_rates(m, p, t, qd, qdd);
    forward_kinematics(m, ws, q, qd, ws.zero);
    constraints(m, ws, t);
    MatX Jv, Ju, Jc;
    blocks(ws, p, Jv, Ju, Jc);
    rs.T.setZero(nq, nu);
    rs.s.setZero(nq);
    for (int j = 0; j < nu; ++j) rs.T(p.u[static_cast<std::size_t>(j)], j) = 1.0;
    for (int i : p.c) rs.s[i] = qdd[i];
    if (nv > 0) {
        // Velocities first (they enter gamma and the bias forces).
        rs.Jv_lu.compute(Jv);
        VecX rhs = minus_ht(ws, p);
        for (int j = 0; j < nu; ++j) rhs -= Ju.col(j) * qd[p.u[static_cast<std::size_t>(j)]];
        for (std::size_t j = 0; j < p.c.size(); ++j)
            rhs -= Jc.col(static_cast<int>(j)) * qd[p.c[j]];
        const VecX qdv = rs.Jv_lu.solve(rhs);
        for (int j = 0; j < nv; ++j) qd[p.v[static_cast<std::size_t>(j)]] = qdv[j];
        forward_kinematics(m, ws, q, qd, ws.zero);
        constraints(m, ws, t);
        // No independent coordinate (fully driven): Eigen's solve with zero right-hand columns
        // binds a reference to a null pointer (UBSan), so the empty result is set directly.
        if (nu > 0)
            rs.Bvu = -rs.Jv_lu.solve(Ju);
        else
            rs.Bvu.resize(nv, 0);
        VecX g(nv);
        for (int i = 0; i < nv; ++i) g[i] = ws.gamma[p.rows[static_cast<std::size_t>(i)]];
        for (std::size_t j = 0; j < p.c.size(); ++j) g += Jc.col(static_cast<int>(j)) * qdd[p.c[j]];
        const VecX sv = -rs.Jv_lu.solve(g);
        for (int i = 0; i < nv; ++i) {
            const int row = p.v[static_cast<std::size_t>(i)];
            rs.s[row] = sv[i];
            rs.T.row(row) = rs.Bvu.row(i);
        }
    }
    compute_loads(m, ws, t);
    inverse_dynamics(m, ws);  // ws.tau = c - Q (qdd = 0)
    mass_matrix(m, ws);
    rs.Mr = rs.T.transpose() * ws.M * rs.T;
    rs.Fr = rs.T.transpose() * (ws.M * rs.s + ws.tau);
    if (nu == 0) {  // fully driven: nothing to solve (and no empty Eigen solve, see above)
        qdd = rs.s;
        return;
    }
    const VecX qddu = rs.Mr.ldlt().solve(-rs.Fr);
    qdd = rs.T * qddu + rs.s;
}

// Node velocity rows: a node at point P on link l moves with v_P = sum_k (u_k x (P - p_k)) qd_k
// (revolute ancestors) + u_k qd_k (prismatic), w = sum_k u_k qd_k (revolute). Least squares over
// all nodes for the free coordinates, the driven ones imposed.
VecX fit_velocities(const ReducedModel& m, Workspace& ws, const VecX& q, double t) {
    const int nq = m.nq();
    VecX qd = VecX::Zero(nq), qdd = VecX::Zero(nq);
    for (int i = 0; i < nq; ++i) {
        const Link& l = m.links[static_cast<std::size_t>(i)];
        if (l.driven)
            qd[i] = l.drive_sign *
                    (l.position_drive ? l.position_drive->deriv(t) : l.velocity_drive->value(t));
    }
    forward_kinematics(m, ws, q, ws.zero, ws.zero);
    const int nn = static_cast<int>(m.nodes.size());
    MatX A = MatX::Zero(6 * nn, nq);
    VecX b = VecX::Zero(6 * nn);
    for (int k = 0; k < nn; ++k) {
        const NodeAttach& na = m.nodes[static_cast<std::size_t>(k)];
        if (na.link < 0) continue;
        const Vec3 P = point_state(ws, na.link, na.r).x;
        b.segment<3>(6 * k) = na.v0;
        b.segment<3>(6 * k + 3) = na.w0;
        for (int j = na.link; j >= 0; j = m.links[static_cast<std::size_t>(j)].parent) {
            const auto jj = static_cast<std::size_t>(j);
            if (m.links[jj].kind == Axis::revolute) {
                A.block<3, 1>(6 * k, j) = ws.u[jj].cross(P - ws.p[jj]);
                A.block<3, 1>(6 * k + 3, j) = ws.u[jj];
            } else {
                A.block<3, 1>(6 * k, j) = ws.u[jj];
            }
        }
    }
    b -= A * qd;  // driven part known
    std::vector<int> fc = free_columns(m);
    // No free coordinate or no node to fit (a model without structural nodes on the tree, e.g.
    // only abstract nodes): nothing to solve (Eigen's decompositions crash on an empty matrix).
    if (fc.empty() || nn == 0) return qd;
    MatX Af(6 * nn, static_cast<int>(fc.size()));
    for (std::size_t j = 0; j < fc.size(); ++j) Af.col(static_cast<int>(j)) = A.col(fc[j]);
    const VecX x = Af.completeOrthogonalDecomposition().solve(b);
    for (std::size_t j = 0; j < fc.size(); ++j) qd[fc[j]] = x[static_cast<int>(j)];
    return qd;
}

}  // namespace mbs::reduced

namespace mbs::reduced {

double pivot_ratio_of(const MatX& J, const Partition& p) {
    const auto r = static_cast<int>(p.rows.size());
    if (r == 0) return 1.0;
    MatX Jv(r, r);
    for (int i = 0; i < r; ++i)
        for (int j = 0; j < r; ++j)
            Jv(i, j) = J(p.rows[static_cast<std::size_t>(i)], p.v[static_cast<std::size_t>(j)]);
    Eigen::FullPivLU<MatX> lu(Jv);
    const double big = std::abs(lu.matrixLU()(0, 0));
    return big > 0 ? std::abs(lu.matrixLU()(r - 1, r - 1)) / big : 0.0;
}

void full_accelerations(const ReducedModel& m, Workspace& ws, const Partition& p, const VecX& q,
                        VecX& qd, double t, VecX& qdd) {
    const int nq = m.nq(), nc = static_cast<int>(p.c.size()), nh = m.n_constraints;
    VecX qddc = VecX::Zero(nq);
    driven_rates(m, p, t, qd, qddc);
    evaluate(m, ws, q, qd, t);
    // Rows: loop constraints (J qdd + gamma = 0), then driven coordinates (qdd_c = drive').
    MatX G = MatX::Zero(nh + nc, nq);
    VecX g(nh + nc);
    G.topRows(nh) = ws.J;
    g.head(nh) = ws.gamma;
    for (int j = 0; j < nc; ++j) {
        G(nh + j, p.c[static_cast<std::size_t>(j)]) = 1.0;
        g[nh + j] = -qddc[p.c[static_cast<std::size_t>(j)]];
    }
    Eigen::LDLT<MatX> Ml(ws.M);
    const MatX MiGt = Ml.solve(G.transpose());
    const VecX Mitau = Ml.solve(ws.tau);
    const MatX A = G * MiGt;
    // A's condition is that of G squared: a threshold of 1e-10 dropped the loop force of steps
    // within ~1e-5 rad of a collinear N four-bar (sigma(G) ratio < 1e-5), where it is ~1/sigma
    // and real (DT 1e-5: 1.4e-6 m at t = 1 s, 5.3e-7 with 1e-13, the same with 1e-16 or a
    // direct KKT solve); 1e-13 still drops exact rank losses (round-off ~1e-16 |A|).
    Eigen::CompleteOrthogonalDecomposition<MatX> cod;
    cod.setThreshold(1e-13);
    cod.compute(A);
    const VecX lambda = cod.solve(G * Mitau - g);
    qdd = MiGt * lambda - Mitau;
}

bool project_state(const ReducedModel& m, Workspace& ws, const Partition& p, VecX& q, VecX& qd,
                   double t, double tol, int max_iter) {
    const std::vector<int> fc = free_columns(m);
    const int nf = static_cast<int>(fc.size()), nh = m.n_constraints;
    MatX Jf(nh, nf);
    auto jf = [&] {
        for (int j = 0; j < nf; ++j) Jf.col(j) = ws.J.col(fc[static_cast<std::size_t>(j)]);
    };
    Eigen::CompleteOrthogonalDecomposition<MatX> cod;
    cod.setThreshold(1e-10);
    driven_positions(m, p, t, q);
    bool ok = nh == 0;
    for (int it = 0; nh > 0 && it <= max_iter; ++it) {
        forward_kinematics(m, ws, q, ws.zero, ws.zero);
        constraints(m, ws, t);
        if (ws.h.lpNorm<Eigen::Infinity>() <= tol) {
            ok = true;
            break;
        }
        if (it == max_iter) break;
        jf();
        cod.compute(Jf);
        const VecX dq = cod.solve(-ws.h);
        for (int j = 0; j < nf; ++j) q[fc[static_cast<std::size_t>(j)]] += dq[j];
    }
    VecX dummy = VecX::Zero(m.nq());
    driven_rates(m, p, t, qd, dummy);
    if (nh > 0) {
        jf();
        cod.compute(Jf);
        const VecX dqd = cod.solve(ws.J * qd + ws.ht);
        for (int j = 0; j < nf; ++j) qd[fc[static_cast<std::size_t>(j)]] -= dqd[j];
    }
    return ok;
}

}  // namespace mbs::reduced

namespace mbs::reduced {

namespace {
void set_clock(const ReducedModel& m, double t) {
    if (m.clock) m.clock->time = t;
}
}  // namespace

// sigma_r(J_f): the r-th singular value of the constraint Jacobian's free columns, r the rank
// kept by the partition (redundant rows keep the trailing ones at 0 everywhere).
double SingularStepper::sigma_min(const ReducedModel& m, Workspace& ws, const Partition& p,
                                  const VecX& q) {
    const std::vector<int> fc = free_columns(m);
    const int r = static_cast<int>(p.rows.size());
    if (r == 0) return 1.0;
    forward_kinematics(m, ws, q, ws.zero, ws.zero);
    constraints(m, ws);
    MatX Jf(m.n_constraints, static_cast<int>(fc.size()));
    for (std::size_t j = 0; j < fc.size(); ++j) Jf.col(static_cast<int>(j)) = ws.J.col(fc[j]);
    Eigen::JacobiSVD<MatX> svd(Jf);
    return svd.singularValues()[r - 1];
}

// The projection's corrections are J_f^+ h and J_f^+ (J qd + ht): near the singular point they
// move the state by (its constraint error) / sigma along the weak direction, ~1e4 times the
// error within 1e-4 rad of the N four-bar's collinear position (DT 2e-5: velocity errors of
// 2e-5 rad/s at the output steps just past each passage). There (sigma_r / sigma_1 below
// settle_ratio) the state is left as RK4 gives it: the full-coordinate ODE keeps h'' = 0, so it
// drifts only linearly from an RK4-sized error until a later step projects it.
bool SingularStepper::settle(const ReducedModel& m, Workspace& ws, const Partition& p, VecX& q,
                             VecX& qd, double t, double tol) {
    if (!p.rows.empty()) {
        const std::vector<int> fc = free_columns(m);
        forward_kinematics(m, ws, q, ws.zero, ws.zero);
        constraints(m, ws, t);
        MatX Jf(m.n_constraints, static_cast<int>(fc.size()));
        for (std::size_t j = 0; j < fc.size(); ++j) Jf.col(static_cast<int>(j)) = ws.J.col(fc[j]);
        Eigen::JacobiSVD<MatX> svd(Jf);
        const auto& sv = svd.singularValues();
        if (sv[static_cast<int>(p.rows.size()) - 1] < settle_ratio * sv[0]) return true;
    }
    return project_state(m, ws, p, q, qd, t, tol);
}

// One stage: v = qd (full_accelerations may adjust it) and a = qdd(q, qd, t).
void SingularStepper::stage(const ReducedModel& m, Workspace& ws, const Partition& p, double t,
                            const VecX& q, const VecX& qd, VecX& v, VecX& a) {
    set_clock(m, t);
    v = qd;
    full_accelerations(m, ws, p, q, v, t, a);
}

// Classic RK4 on qdd = f(q, qd, t) (full_accelerations; stage states not projected).
void SingularStepper::rk4(const ReducedModel& m, Workspace& ws, const Partition& p, VecX& q,
                          VecX& qd, double t, double h) {
    stage(m, ws, p, t, q, qd, v1_, a1_);
    stage(m, ws, p, t + 0.5 * h, q + 0.5 * h * v1_, qd + 0.5 * h * a1_, v2_, a2_);
    stage(m, ws, p, t + 0.5 * h, q + 0.5 * h * v2_, qd + 0.5 * h * a2_, v3_, a3_);
    stage(m, ws, p, t + h, q + h * v3_, qd + h * a3_, v4_, a4_);
    q += h / 6.0 * (v1_ + 2.0 * v2_ + 2.0 * v3_ + v4_);
    qd += h / 6.0 * (a1_ + 2.0 * a2_ + 2.0 * a3_ + a4_);
}

// Third order, nodes 0, 1/4, 1/2: order conditions sum b = 1, b.c = 1/2, b.c^2 = 1/3,
// b3 a32 c2 = 1/6 with b = (2/3, -4/3, 5/3), a21 = 1/4, a31 = 1/10, a32 = 2/5.
void SingularStepper::rk3_early(const ReducedModel& m, Workspace& ws, const Partition& p, VecX& q,
                                VecX& qd, double t, double h) {
    stage(m, ws, p, t, q, qd, v1_, a1_);
    stage(m, ws, p, t + 0.25 * h, q + 0.25 * h * v1_, qd + 0.25 * h * a1_, v2_, a2_);
    stage(m, ws, p, t + 0.5 * h, q + h * (0.1 * v1_ + 0.4 * v2_), qd + h * (0.1 * a1_ + 0.4 * a2_),
          v3_, a3_);
    q += h * (2.0 / 3.0 * v1_ - 4.0 / 3.0 * v2_ + 5.0 / 3.0 * v3_);
    qd += h * (2.0 / 3.0 * a1_ - 4.0 / 3.0 * a2_ + 5.0 / 3.0 * a3_);
}

bool SingularStepper::step(const ReducedModel& m, Workspace& ws, const Partition& p, VecX& q,
                           VecX& qd, double t, double tn, double tol) {
    const double h = tn - t;
    // Base state: the anchor if the previous step ended near the singular time.
    const bool from_anchor =
        anchor_ && t_anchor_ < t && t - t_anchor_ <= 1.01 * h && std::abs(t - t_star_) < 0.25 * h;
    anchor_ = false;
    const double tb = from_anchor ? t_anchor_ : t;
    VecX qb = from_anchor ? q_anchor_ : q, qdb = from_anchor ? qd_anchor_ : qd;

    // Singular time in [tb, tn + h/8] along the Taylor path from the base state.
    VecX vb = qdb, ab(m.nq());
    set_clock(m, tb);
    full_accelerations(m, ws, p, qb, vb, tb, ab);
    const double span = tn + 0.125 * h - tb;
    auto sigma_at = [&](double tau) {
        const VecX qq = qb + tau * vb + 0.5 * tau * tau * ab;
        set_clock(m, tb + tau);
        return sigma_min(m, ws, p, qq);
    };
    const int ns = 48;
    int imin = 0;
    double smin = std::numeric_limits<double>::infinity(), smax = 0.0;
    for (int i = 0; i <= ns; ++i) {
        const double s = sigma_at(span * i / ns);
        if (s < smin) smin = s, imin = i;
        smax = std::max(smax, s);
    }
    bool crossing = imin > 0 && imin < ns;
    double tstar = 0.0;
    if (crossing) {
        // Golden sections on the bracket around the sampled minimum (sigma ~ |c (t - t*)|).
        double lo = span * (imin - 1) / ns, hi = span * (imin + 1) / ns;
        const double gr = 0.5 * (std::sqrt(5.0) - 1.0);
        double x1 = hi - gr * (hi - lo), x2 = lo + gr * (hi - lo);
        double f1 = sigma_at(x1), f2 = sigma_at(x2);
        for (int it = 0; it < 40; ++it) {
            if (f1 < f2) {
                hi = x2, x2 = x1, f2 = f1, x1 = hi - gr * (hi - lo), f1 = sigma_at(x1);
            } else {
                lo = x1, x1 = x2, f1 = f2, x2 = lo + gr * (hi - lo), f2 = sigma_at(x2);
            }
        }
        const double tau = 0.5 * (lo + hi);
        crossing = sigma_at(tau) < 1e-3 * smax;
        tstar = tb + tau;
    }
    set_clock(m, t);
    if (!crossing) {
        rk4(m, ws, p, q, qd, t, h);
        set_clock(m, tn);
        return settle(m, ws, p, q, qd, tn, tol);
    }
    ++crossings_;
    q = qb;
    qd = qdb;
    // Segment plan over [tb, tn]: split points, the last segment possibly rk3_early.
    std::vector<double> cuts;
    bool early_end = std::abs(tn - tstar) < 0.125 * h;
    if (early_end) {
        const double sl = std::max(tb, tstar - 0.25 * h);
        if (sl > tb + 1e-12 * h) cuts.push_back(sl);
    } else {
        // Evaluation times of RK4 segments between the points: start, middle, end (the base's
        // start excluded: it is the anchor or a state away from t*); maximize the distance to t*.
        auto score = [&](const std::vector<double>& pts) {
            double d = std::numeric_limits<double>::infinity();
            double a = tb;
            for (std::size_t k = 0; k <= pts.size(); ++k) {
                const double b = k < pts.size() ? pts[k] : tn;
                d = std::min({d, std::abs(0.5 * (a + b) - tstar), std::abs(b - tstar)});
                a = b;
            }
            return d;
        };
        double best = score(cuts);
        const int nc = 64;
        std::vector<double> trial(1);
        for (int i = 1; i < nc && best < 0.125 * h; ++i) {
            trial[0] = tb + (tn - tb) * i / nc;
            const double sc = score(trial);
            if (sc > best) best = sc, cuts = trial;
        }
        std::vector<double> trial2(2);
        for (int i = 1; i < nc / 2 && best < 0.0625 * h; ++i)
            for (int j = i + 1; j < nc / 2; ++j) {
                trial2[0] = tb + (tn - tb) * i / (nc / 2);
                trial2[1] = tb + (tn - tb) * j / (nc / 2);
                const double sc = score(trial2);
                if (sc > best) best = sc, cuts = trial2;
            }
    }
    double a = tb;
    for (std::size_t k = 0; k <= cuts.size(); ++k) {
        const double b = k < cuts.size() ? cuts[k] : tn;
        if (k == cuts.size() && early_end) {
            anchor_ = true;
            t_anchor_ = a;
            t_star_ = tstar;
            q_anchor_ = q;
            qd_anchor_ = qd;
            rk3_early(m, ws, p, q, qd, a, b - a);
        } else {
            rk4(m, ws, p, q, qd, a, b - a);
        }
        set_clock(m, b);
        if (!settle(m, ws, p, q, qd, b, tol)) return false;
        a = b;
    }
    return true;
}

}  // namespace mbs::reduced
