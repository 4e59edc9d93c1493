// Node accelerations from the momentum derivatives (see accelerations.hpp).
//
// Momenta of a dynamic rigid node (docs/formulation.md 2, elements/bodies/body_element.cpp): with
// the lumped inertia of its bodies, m, S = R s (s = sum m_i xc_i, node frame) and J = R Jn R^T (Jn:
// inertia about the node, node frame), v = XP, w = Omega,
//     beta  = m v + w x S,            gamma = S x v + J w.
// Their time derivatives, with S' = w x S and J' = skew(w) J - J skew(w) (so J' w = w x J w),
// a = XPP and w' = OmegaP:
//     beta'  = m a + w' x S + w x (w x S)
//     gamma' = (w x S) x v + S x a + J w' + w x (J w).
// The first gives a once w' is known:
//     a = (beta' - w' x S - w x (w x S)) / m.
// Putting it into the second, S x (w' x S) = -skew(S)^2 w':
//     Jc w' = gamma' - (w x S) x v - S x beta' / m + S x (w x (w x S)) / m - w x (J w),
//     Jc = J + skew(S)^2 / m = J - (|S|^2 I - S S^T) / m,
// Jc being the inertia about the centre of mass (parallel-axis theorem): symmetric, positive
// definite for a body with three-dimensional inertia. This is MBDyn's recovery (its automatic
// structural element sums the bodies' m, S, J and solves the same 3x3 system, written with
// v x beta = -(w x S) x v and w x (Jc w) = w x (J w) - S x (w x (w x S)) / m). A displacement-only
// node has beta = m v: a = beta' / m, and no angular acceleration.
// beta' and gamma' are the integrator's derivatives of the momentum unknowns at the converged
// step: the accelerations carry the integration formula's error of a derivative (second order)
// and, in index-3 mechanisms, the step-to-step noise of the multipliers (regression/slider_crank).
// When Jc is singular (a point mass on a rigid node) w' is not determined by the momenta: its
// component in the null space of Jc is set to zero (minimum-norm solution).
//
// Dummy nodes, differentiating StructNode::update_dummy() once more:
//   offset f (global f_g = R_b f):  a = a_b + w_b' x f_g + w_b x (w_b x f_g),  w' = w_b'.
//   relative frame: Q = R_h^T R_r^T, Q' = -Q skew(w_r), d = x_b - x_r, u = v_b - v_r - w_r x d
//   (v = Q u, w = Q (w_b - w_r)):
//     a  = Q (a_b - a_r - w_r' x d - w_r x (v_b - v_r) - w_r x u)
//     w' = Q (w_b' - w_r' - w_r x (w_b - w_r))
//   and with a pivot p (R2 = R_p R_hp, arm = R_p (R_hp x + f_p), the relative quantities of above
//   written x, v, w, a, w'): arm' = w_p x arm + R2 v,
//     w' <- w_p' + w_p x (R2 w) + R2 w',
//     a  <- a_p + w_p' x arm + w_p x arm' + w_p x (R2 v) + R2 a.
//
// Projection onto the constraints. beta' and gamma' include the constraint reactions, so in an
// index-3 mechanism they carry the multipliers' integration error and their step-to-step noise
// (the positions satisfy the constraints to the Newton tolerance, and the multipliers respond
// to that noise divided by h^2): in regression/slider_crank this alone stays above 3e-6 m/s^2
// for every step size and method. The accelerations a (all node accelerations (a, w'), 6 per
// rigid node, 3 per displacement-only node) of the true motion satisfy the constraints
// differentiated in time, twice for position-level rows (residual -phi/dCoef) and once for
// velocity-level rows (residual -psi):
//     K a + g = 0,   K = d(-phi)/dq or d(-psi)/d(v, w),   g the rest (velocity, time terms),
// and the reaction error of the recovered a_raw lies in M^-1 K^T (the node rows receive the
// reactions K^T lambda, and a = M^-1 (beta', gamma') up to velocity terms, M = [m I, -skew(S);
// skew(S), J] per node). The M-orthogonal projection
//     minimize (a - a_raw)^T M (a - a_raw)  subject to  K a + g = 0,
//     [M  K^T] [a ]   [M a_raw]
//     [K  0  ] [mu] = [  -g   ]
// removes exactly such an error (a_raw = a + M^-1 K^T d gives mu = d) and keeps a_raw's
// component along the free motion. Static nodes and nodes without inertia enter with M = 0 (their
// accelerations are whatever the constraints make them). The system is sparse (6 x 6 node
// blocks, K's entries on the nodes each row touches): its pattern is built once, KLU analyses it
// once and factors it on each output step, values written through slots found at set-up (no
// allocation per step). Where redundant constraints or unconstrained massless nodes leave it
// singular (KLU: singular, or a pivot-ratio estimate below 1e-14) it is solved regularized,
//     [M + eps I   K^T  ]      eps = 1e-12 max(|M_ij|, 1),
//     [K         -eps I ],
// whose solution tends to the minimum-norm one (zero along the undetermined accelerations) as
// eps -> 0, as the dense complete orthogonal decomposition used before did.
// K and g come from the engine's residual (dCoef = 1), evaluated on node kinematics set by hand
// (the unknowns y are not touched): K by central differences (positions x +- eps e_j, rotations
// exp(+-eps e_j) R, velocities), perturbing together the nodes of one colour (no two nodes of a
// colour appear in one constraint row of the iteration matrix's pattern; nodes in no constraint
// row are not perturbed), g along the path x + tau v, exp(tau w) R at constant v, w and
// time t + tau: second (position rows) or first (velocity rows) central difference with
// Richardson extrapolation over tau and tau/2 (error O(tau^4)). tau = min(10 dt, 0.02 rad / max|w|,
// 0.02 l / max|v|), l the size of the node cloud. Rows are classified once, from a perturbed
// state, by how their residual scales with dCoef (1/dCoef: position level; not at all: velocity
// level; rows that do not depend on the nodes are left out).
#include "solvers/dae/accelerations.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

#include "core/sparse_matrix.hpp"
#include "solvers/dae/constraint_rows.hpp"
#include "solvers/dae/engine.hpp"

namespace mbs {

namespace {

bool default_output_has_accelerations(const Model& m) {
    return m.control.default_output_lists("accelerations");
}

// Whether the node's accelerations can be defined (see accelerations.hpp), from its kind.
bool has_accelerations(const StructNode& n) {
    if (n.is_dynamic()) return true;
    if (!n.is_dummy() || !n.base) return false;
    for (const StructNode* o : {n.base, n.frame_ref, n.pivot})
        if (o && !has_accelerations(*o)) return false;
    return true;
}

// The bodies added their inertia to their nodes when they were built (elements/bodies).
void setup_inertia(Engine& e) {
    auto& nodes = e.nodes();
    for (auto& n : nodes) {
        n.inertia_ready = true;
        n.accel_output = node_accelerations_output(e.model(), n);
        if (n.accel_output && n.is_dynamic() && n.inertia_m == 0.0)
            std::fprintf(
                stderr,
                "mbsolve: warning: structural node %ld has no body (zero mass): its accelerations "
                "cannot be recovered from its momenta and are written as zero\n",
                n.label());
    }
}

// Jc w' = rhs for symmetric Jc; minimum-norm solution when Jc is singular.
Vec3 solve_inertia(const Mat3& Jc, const Vec3& rhs) {
    Eigen::SelfAdjointEigenSolver<Mat3> es(Jc);
    const Vec3& lam = es.eigenvalues();
    const double cut = 1e-12 * std::max(lam.cwiseAbs().maxCoeff(), 1e-300);
    Vec3 c = es.eigenvectors().transpose() * rhs;
    for (int i = 0; i < 3; ++i) c[i] = std::abs(lam[i]) > cut ? c[i] / lam[i] : 0.0;
    return es.eigenvectors() * c;
}

}  // namespace

void recover_node_acceleration(StructNode& n) {
    const double m = n.inertia_m;
    if (m == 0.0) {
        n.xpp.setZero();
        n.wp.setZero();
        n.accel_state = StructNode::AccelState::no_inertia;
        return;
    }
    n.accel_state = StructNode::AccelState::ok;
    if (!n.has_rotation()) {
        n.xpp = n.beta_dot / m;
        n.wp.setZero();
        return;
    }
    const Vec3& v = n.xdot;
    const Vec3& w = n.w;
    const Vec3 S = n.R * n.inertia_s;
    const Mat3 J = n.R * n.inertia_J * n.R.transpose();
    const Mat3 sS = skew(S);
    const Mat3 Jc = J + sS * sS / m;
    const Vec3 wwS = w.cross(w.cross(S));
    const Vec3 rhs = n.gamma_dot - w.cross(S).cross(v) - S.cross(n.beta_dot) / m +
                     S.cross(wwS) / m - w.cross(J * w);
    n.wp = solve_inertia(Jc, rhs);
    n.xpp = (n.beta_dot - n.wp.cross(S) - wwS) / m;
}

namespace {

void dummy_node(StructNode& n) {
    const StructNode& b = *n.base;
    n.accel_state = b.accel_state;
    if (!n.frame_ref) {
        const Vec3 f = b.R * n.dummy_offset;
        n.xpp = b.xpp + b.wp.cross(f) + b.w.cross(b.w.cross(f));
        n.wp = b.wp;
        return;
    }
    const StructNode& r = *n.frame_ref;
    if (r.accel_state != StructNode::AccelState::ok) n.accel_state = r.accel_state;
    const Mat3 Q = n.dummy_R.transpose() * r.R.transpose();
    const Vec3 d = b.x - r.x;
    const Vec3 u = b.xdot - r.xdot - r.w.cross(d);
    // Relative motion (before the pivot): as in update_dummy().
    const Vec3 xr = Q * d - n.dummy_R.transpose() * n.dummy_offset;
    const Vec3 vr = Q * u;
    const Vec3 wr = Q * (b.w - r.w);
    Vec3 ar = Q * (b.xpp - r.xpp - r.wp.cross(d) - r.w.cross(b.xdot - r.xdot) - r.w.cross(u));
    Vec3 wpr = Q * (b.wp - r.wp - r.w.cross(b.w - r.w));
    if (n.pivot) {
        const StructNode& p = *n.pivot;
        if (p.accel_state != StructNode::AccelState::ok) n.accel_state = p.accel_state;
        const Mat3 R2 = p.R * n.pivot_R;
        const Vec3 arm = p.R * (n.pivot_R * xr + n.pivot_offset);
        const Vec3 arm_dot = p.w.cross(arm) + R2 * vr;
        wpr = p.wp + p.w.cross(R2 * wr) + R2 * wpr;
        ar = p.xpp + p.wp.cross(arm) + p.w.cross(arm_dot) + p.w.cross(R2 * vr) + R2 * ar;
    }
    n.xpp = ar;
    n.wp = wpr;
}

}  // namespace

bool node_accelerations_output(const Model& m, const StructNode& n) {
    if (!has_accelerations(n)) return false;
    return n.accel_output || default_output_has_accelerations(m);
}

namespace {

// Dummy nodes in card order (a dummy node may follow another dummy node defined before it, as
// update_dummy() does).
void dummy_nodes(Engine& e) {
    for (auto& n : e.nodes()) {
        if (!n.is_dummy()) continue;
        if (has_accelerations(n)) {
            dummy_node(n);
        } else {
            n.xpp.setZero();
            n.wp.setZero();
            n.accel_state = StructNode::AccelState::none;
        }
    }
}

}  // namespace

void prepare_node_accelerations(Engine& e) {
    auto& nodes = e.nodes();
    if (!nodes.empty() && !nodes.front().inertia_ready) setup_inertia(e);
}

void update_node_accelerations(Engine& e) {
    auto& nodes = e.nodes();
    if (nodes.empty()) return;
    if (!nodes.front().inertia_ready) setup_inertia(e);
    for (auto& n : nodes)
        if (n.is_dynamic()) recover_node_acceleration(n);
    dummy_nodes(e);
}

void NodeAccelerations::update(Engine& e, bool output_step) {
    auto& nodes = e.nodes();
    if (nodes.empty()) return;
    if (!nodes.front().inertia_ready) setup_inertia(e);
    for (auto& n : nodes)
        if (n.is_dynamic()) recover_node_acceleration(n);
    if (!ready_) enabled_ = setup(e);
    if (enabled_ && (output_step || read_)) project(e);
    dummy_nodes(e);
}

bool NodeAccelerations::setup(Engine& e) {
    ready_ = true;
    auto& nodes = e.nodes();
    bool wanted = false;
    for (const auto& n : nodes) {
        wanted = wanted || n.accel_output || n.accel_read;
        read_ = read_ || n.accel_read;
    }
    if (!wanted) return false;
    const int n = e.size();
    for (int k = 0; k < static_cast<int>(nodes.size()); ++k)
        if (!nodes[k].is_dummy()) nodes_.push_back(k);
    // Constraint rows, classified from a perturbed state (constraint_rows.hpp).
    ConstraintRows cr = classify_constraint_rows(e);
    rows_ = std::move(cr.rows);
    position_ = std::move(cr.position);
    r_.assign(n, 0.0);
    rp_.assign(n, 0.0);
    rm_.assign(n, 0.0);
    eps_.assign(2 * nodes_.size(), 0.0);
    x0_.resize(nodes_.size());
    v0_.resize(nodes_.size());
    w0_.resize(nodes_.size());
    R0_.resize(nodes_.size());
    const int m = static_cast<int>(rows_.size());
    if (m == 0) return false;
    for (char p : position_) (p ? any_position_ : any_velocity_) = true;

    // Which nodes each constraint row depends on (the iteration matrix's pattern: the row's
    // entries in the node's x, g columns), and a greedy colouring of the nodes such that no two
    // nodes of one colour share a row: the nodes of a colour are perturbed together in project().
    std::vector<int> row_index(n, -1);
    for (int i = 0; i < m; ++i) row_index[rows_[i]] = i;
    const CscMatrix& A = e.jac().matrix();
    std::vector<std::vector<int>> touches(nodes_.size());  // node -> its constraint rows
    for (std::size_t j = 0; j < nodes_.size(); ++j) {
        const StructNode& nd = nodes[nodes_[j]];
        for (int col = nd.first_dof(); col < nd.first_dof() + nd.pos_cols(); ++col)
            for (int k = A.col_start()[col]; k < A.col_start()[col + 1]; ++k)
                if (row_index[A.row_index()[k]] >= 0)
                    touches[j].push_back(row_index[A.row_index()[k]]);
        std::sort(touches[j].begin(), touches[j].end());
        touches[j].erase(std::unique(touches[j].begin(), touches[j].end()), touches[j].end());
    }
    color_.assign(nodes_.size(), -1);
    std::vector<std::vector<char>> used(m);
    ncolors_ = 0;
    for (std::size_t j = 0; j < nodes_.size(); ++j) {
        if (touches[j].empty()) continue;
        int c = 0;
        for (;; ++c) {
            bool free = true;
            for (int i : touches[j])
                free = free && (c >= static_cast<int>(used[i].size()) || !used[i][c]);
            if (free) break;
        }
        color_[j] = c;
        ncolors_ = std::max(ncolors_, c + 1);
        for (int i : touches[j]) {
            if (static_cast<int>(used[i].size()) <= c) used[i].resize(c + 1, 0);
            used[i][c] = 1;
        }
    }
    row_node_.assign(static_cast<std::size_t>(m) * ncolors_, -1);
    for (std::size_t j = 0; j < nodes_.size(); ++j)
        for (int i : touches[j])
            row_node_[static_cast<std::size_t>(i) * ncolors_ + color_[j]] = static_cast<int>(j);

    // Only the nodes in constraint rows enter the projection (the others keep a_raw, which is
    // then their exact recovery: nothing couples them to the constraints' multipliers).
    col_.assign(nodes_.size(), -1);
    for (std::size_t j = 0; j < nodes_.size(); ++j)
        if (color_[j] >= 0) {
            col_[j] = ncols_;
            ncols_ += nodes[nodes_[j]].has_rotation() ? 6 : 3;
        }
    const int size = ncols_ + m;
    c0_.assign(m, 0.0);
    cp1_.assign(m, 0.0);
    cm1_.assign(m, 0.0);
    cp2_.assign(m, 0.0);
    cm2_.assign(m, 0.0);
    rhs_.assign(size, 0.0);

    // The KKT pattern: node blocks (full), K and K^T on the nodes each row touches, the
    // multipliers' diagonal (regularization); then the value slots of each.
    std::vector<std::pair<int, int>> entries;
    auto dim = [&](std::size_t j) { return nodes[nodes_[j]].has_rotation() ? 6 : 3; };
    for (std::size_t j = 0; j < nodes_.size(); ++j)
        if (col_[j] >= 0)
            for (int a = 0; a < dim(j); ++a)
                for (int b = 0; b < dim(j); ++b) entries.emplace_back(col_[j] + a, col_[j] + b);
    for (int i = 0; i < m; ++i) {
        entries.emplace_back(ncols_ + i, ncols_ + i);
        for (int c = 0; c < ncolors_; ++c) {
            const int j = row_node_[static_cast<std::size_t>(i) * ncolors_ + c];
            if (j < 0) continue;
            for (int d = 0; d < dim(j); ++d) {
                entries.emplace_back(ncols_ + i, col_[j] + d);
                entries.emplace_back(col_[j] + d, ncols_ + i);
            }
        }
    }
    kkt_ = std::make_unique<CscMatrix>(size, std::move(entries));
    block_slot_.assign(nodes_.size(), -1);
    for (std::size_t j = 0; j < nodes_.size(); ++j)
        if (col_[j] >= 0) {
            block_slot_[j] = static_cast<int>(slots_.size());
            for (int b = 0; b < dim(j); ++b)  // column-major, as Eigen's blocks
                for (int a = 0; a < dim(j); ++a)
                    slots_.push_back(kkt_->slot(col_[j] + a, col_[j] + b));
        }
    diag_slot_ = static_cast<int>(slots_.size());
    for (int i = 0; i < m; ++i) slots_.push_back(kkt_->slot(ncols_ + i, ncols_ + i));
    k_slot_.assign(static_cast<std::size_t>(m) * ncolors_ * 6 * 2, -1);
    for (int i = 0; i < m; ++i)
        for (int c = 0; c < ncolors_; ++c) {
            const int j = row_node_[static_cast<std::size_t>(i) * ncolors_ + c];
            if (j < 0) continue;
            for (int d = 0; d < dim(j); ++d) {
                const std::size_t q = ((static_cast<std::size_t>(i) * ncolors_ + c) * 6 + d) * 2;
                k_slot_[q] = kkt_->slot(ncols_ + i, col_[j] + d);
                k_slot_[q + 1] = kkt_->slot(col_[j] + d, ncols_ + i);
            }
        }
    lin_ = make_linear_solver("klu");
    lin_->analyze(*kkt_);
    return true;
}

void NodeAccelerations::restore(Engine& e, double t0) {
    auto& nodes = e.nodes();
    for (std::size_t j = 0; j < nodes_.size(); ++j) {
        StructNode& nd = nodes[nodes_[j]];
        nd.x = x0_[j], nd.R = R0_[j], nd.xdot = v0_[j], nd.w = w0_[j];
    }
    for (auto& nd : nodes)
        if (nd.is_dummy() && nd.base) nd.update_dummy(*nd.base);
    e.clock().time = t0;
}

void NodeAccelerations::place(Engine& e, double tau, double t0) {
    auto& nodes = e.nodes();
    for (std::size_t j = 0; j < nodes_.size(); ++j) {
        StructNode& nd = nodes[nodes_[j]];
        nd.x = x0_[j] + tau * v0_[j];
        if (nd.has_rotation()) nd.R = rotation_vector_to_matrix(tau * w0_[j]) * R0_[j];
    }
    e.clock().time = t0 + tau;
}

void NodeAccelerations::constraints(Engine& e, double t, double* r) {
    for (auto& nd : e.nodes())
        if (nd.is_dummy() && nd.base) nd.update_dummy(*nd.base);
    const StepContext c{t, e.clock().timestep, 1.0, Phase::dynamic};
    e.residual(c, r_.data());
    for (std::size_t i = 0; i < rows_.size(); ++i) r[i] = r_[rows_[i]];
}

void NodeAccelerations::project(Engine& e) {
    auto& nodes = e.nodes();
    const int m = static_cast<int>(rows_.size());
    const double t0 = e.clock().time, dt = e.clock().timestep;
    double wmax = 0.0, vmax = 0.0, size = 1e-3;
    Vec3 centre = Vec3::Zero();
    for (std::size_t j = 0; j < nodes_.size(); ++j) {
        const StructNode& nd = nodes[nodes_[j]];
        x0_[j] = nd.x, R0_[j] = nd.R, v0_[j] = nd.xdot, w0_[j] = nd.w;
        wmax = std::max(wmax, nd.w.norm());
        vmax = std::max(vmax, nd.xdot.norm());
        centre += nd.x / static_cast<double>(nodes_.size());
    }
    for (std::size_t j = 0; j < nodes_.size(); ++j) {
        size = std::max(size, (x0_[j] - centre).norm());
        eps_[2 * j] = 1e-6;
        eps_[2 * j + 1] = 1e-6 * std::max({1.0, v0_[j].norm(), w0_[j].norm()});
    }
    double tau = dt > 0.0 ? 10.0 * dt : 1e-3;
    if (wmax > 0.0) tau = std::min(tau, 0.02 / wmax);
    if (vmax > 0.0) tau = std::min(tau, 0.02 * size / vmax);

    // g along the path (a = 0), Richardson over tau and tau/2.
    constraints(e, t0, c0_.data());
    place(e, tau, t0);
    constraints(e, t0 + tau, cp1_.data());
    place(e, -tau, t0);
    constraints(e, t0 - tau, cm1_.data());
    place(e, 0.5 * tau, t0);
    constraints(e, t0 + 0.5 * tau, cp2_.data());
    place(e, -0.5 * tau, t0);
    constraints(e, t0 - 0.5 * tau, cm2_.data());
    restore(e, t0);
    const int nc = ncols_;
    kkt_->set_zero();
    std::fill(rhs_.begin(), rhs_.end(), 0.0);
    double* kv = kkt_->values();
    for (int i = 0; i < m; ++i) {
        double d1, d2;
        if (position_[i]) {
            d1 = (cp1_[i] + cm1_[i] - 2.0 * c0_[i]) / (tau * tau);
            d2 = (cp2_[i] + cm2_[i] - 2.0 * c0_[i]) / (0.25 * tau * tau);
        } else {
            d1 = (cp1_[i] - cm1_[i]) / (2.0 * tau);
            d2 = (cp2_[i] - cm2_[i]) / tau;
        }
        rhs_[nc + i] = -(4.0 * d2 - d1) / 3.0;
    }

    // K by central differences (position rows: positions and rotations; velocity rows:
    // velocities and angular velocities), the nodes of one colour perturbed together: each row
    // depends on at most one of them.
    for (int color = 0; color < ncolors_; ++color) {
        for (int d = 0; d < 6; ++d) {
            const Vec3 ed = Vec3::Unit(d % 3);
            for (int level = 0; level < 2; ++level) {  // 0: positions, 1: velocities
                if (!(level == 0 ? any_position_ : any_velocity_)) continue;
                for (int sgn = 0; sgn < 2; ++sgn) {
                    for (std::size_t j = 0; j < nodes_.size(); ++j) {
                        StructNode& nd = nodes[nodes_[j]];
                        if (color_[j] != color || (d >= 3 && !nd.has_rotation())) continue;
                        const double h = (sgn == 0 ? 1.0 : -1.0) * eps_[2 * j + level];
                        if (level == 0) {
                            if (d < 3)
                                nd.x = x0_[j] + h * ed;
                            else
                                nd.R = rotation_vector_to_matrix(h * ed) * R0_[j];
                        } else {
                            if (d < 3)
                                nd.xdot = v0_[j] + h * ed;
                            else
                                nd.w = w0_[j] + h * ed;
                        }
                    }
                    constraints(e, t0, sgn == 0 ? cp1_.data() : cm1_.data());
                    restore(e, t0);
                }
                for (int i = 0; i < m; ++i) {
                    if (position_[i] != (level == 0 ? 1 : 0)) continue;
                    const int j = row_node_[static_cast<std::size_t>(i) * ncolors_ + color];
                    if (j < 0 || (d >= 3 && !nodes[nodes_[j]].has_rotation())) continue;
                    const double k = (cp1_[i] - cm1_[i]) / (2.0 * eps_[2 * j + level]);
                    const std::size_t q =
                        ((static_cast<std::size_t>(i) * ncolors_ + color) * 6 + d) * 2;
                    kv[k_slot_[q]] = k;
                    kv[k_slot_[q + 1]] = k;
                }
            }
        }
    }
    // The node blocks M and M a_raw (node-frame inertia rotated to the global frame).
    double mmax = 1.0;
    for (std::size_t j = 0; j < nodes_.size(); ++j) {
        StructNode& nd = nodes[nodes_[j]];
        const int c0 = col_[j];
        if (c0 < 0 || nd.accel_state != StructNode::AccelState::ok) continue;
        const double mass = nd.inertia_m;
        if (nd.has_rotation()) {
            const Vec3 S = nd.R * nd.inertia_s;
            const Mat3 J = nd.R * nd.inertia_J * nd.R.transpose();
            Eigen::Matrix<double, 6, 6> M;
            M << mass * Mat3::Identity(), -skew(S), skew(S), J;
            Eigen::Matrix<double, 6, 1> a;
            a << nd.xpp, nd.wp;
            const Eigen::Matrix<double, 6, 1> Ma = M * a;
            for (int q = 0; q < 36; ++q) kv[slots_[block_slot_[j] + q]] = M.data()[q];
            for (int q = 0; q < 6; ++q) rhs_[c0 + q] = Ma[q];
            mmax = std::max(mmax, M.cwiseAbs().maxCoeff());
        } else {
            for (int q = 0; q < 3; ++q) {
                kv[slots_[block_slot_[j] + 4 * q]] = mass;
                rhs_[c0 + q] = mass * nd.xpp[q];
            }
            mmax = std::max(mmax, mass);
        }
    }
    restore(e, t0);
    bool ok = lin_->factor(*kkt_) && !(lin_->rcond() < 1e-14);
    if (!ok) {
        // Singular: the regularized system (file comment).
        const double eps = 1e-12 * mmax;
        for (std::size_t j = 0; j < nodes_.size(); ++j) {
            if (col_[j] < 0) continue;
            const int d = nodes[nodes_[j]].has_rotation() ? 6 : 3;
            for (int q = 0; q < d; ++q) kv[slots_[block_slot_[j] + q * (d + 1)]] += eps;
        }
        for (int i = 0; i < m; ++i) kv[slots_[diag_slot_ + i]] -= eps;
        ok = lin_->factor(*kkt_);
    }
    if (!ok) {
        if (!warned_)
            std::fprintf(
                stderr,
                "mbsolve: warning: node accelerations: the projection onto the constraints is "
                "singular at t = %.9g: the accelerations are the momentum derivatives' there\n",
                t0);
        warned_ = true;
        return;
    }
    lin_->solve(rhs_.data());
    for (std::size_t j = 0; j < nodes_.size(); ++j) {
        StructNode& nd = nodes[nodes_[j]];
        if (col_[j] < 0 || nd.accel_state != StructNode::AccelState::ok) continue;
        nd.xpp = Vec3(rhs_[col_[j]], rhs_[col_[j] + 1], rhs_[col_[j] + 2]);
        if (nd.has_rotation())
            nd.wp = Vec3(rhs_[col_[j] + 3], rhs_[col_[j] + 4], rhs_[col_[j] + 5]);
    }
}

}  // namespace mbs
