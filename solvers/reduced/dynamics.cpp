// Recursive kinematics (forward pass), Newton-Euler inverse dynamics (backward pass), composite
// rigid body mass matrix and loop constraints of a ReducedModel.
#include "solvers/reduced/dynamics.hpp"

#include <cmath>

#include "core/rotations.hpp"

namespace mbs::reduced {

Workspace make_workspace(const ReducedModel& m) {
    Workspace ws;
    const auto n = static_cast<std::size_t>(m.nq());
    for (auto* v :
         {&ws.x, &ws.v, &ws.a, &ws.w, &ws.alpha, &ws.p, &ws.u, &ws.f, &ws.n, &ws.fext, &ws.next})
        v->assign(n, Vec3::Zero());
    ws.R.assign(n, Mat3::Identity());
    ws.S.assign(n, Vec6::Zero());
    ws.Ic.assign(n, Mat6::Zero());
    ws.zero = VecX::Zero(m.nq());
    ws.tau = VecX::Zero(m.nq());
    ws.M = MatX::Zero(m.nq(), m.nq());
    ws.h = VecX::Zero(m.n_constraints);
    ws.gamma = VecX::Zero(m.n_constraints);
    ws.ht = VecX::Zero(m.n_constraints);
    ws.J = MatX::Zero(m.n_constraints, m.nq());
    return ws;
}

// Forward pass. With parent p (ground: x = 0, R = I, at rest), joint frame Rj = R_p R_pre at
// p_i = x_p + R_p r_pre, axis u_i = Rj axis:
//   revolute:  Rm = Rj rot(axis, q),  R_i = Rm R_post,  d = x_i - p_i = Rm r_post
//              w_i = w_p + u qd,  alpha_i = alpha_p + w_p x u qd + u qdd
//              v_i = pdot_i + w_i x d,  a_i = pddot_i + alpha_i x d + w_i x (w_i x d)
//   prismatic: R_i = Rj R_post,  d = Rj (axis q + r_post),  w_i = w_p,  alpha_i = alpha_p
//              v_i = pdot_i + w_p x d + u qd
//              a_i = pddot_i + alpha_p x d + w_p x (w_p x d) + 2 w_p x u qd + u qdd
// where pdot_i, pddot_i are the velocity and acceleration of the point p_i fixed on the parent.
void forward_kinematics(const ReducedModel& m, Workspace& ws, const VecX& q, const VecX& qd,
                        const VecX& qdd) {
    const Vec3 zero = Vec3::Zero();
    const Mat3 eye = Mat3::Identity();
    for (int i = 0; i < m.nq(); ++i) {
        const Link& l = m.links[static_cast<std::size_t>(i)];
        const auto k = static_cast<std::size_t>(i);
        const bool ground = l.parent < 0;
        const auto pk = static_cast<std::size_t>(ground ? 0 : l.parent);
        const Vec3& xp = ground ? zero : ws.x[pk];
        const Mat3& Rp = ground ? eye : ws.R[pk];
        const Vec3& vp = ground ? zero : ws.v[pk];
        const Vec3& ap = ground ? zero : ws.a[pk];
        const Vec3& wp = ground ? zero : ws.w[pk];
        const Vec3& alp = ground ? zero : ws.alpha[pk];
        const Mat3 Rj = Rp * l.R_pre;
        const Vec3 pj = xp + Rp * l.r_pre;
        const Vec3 rp = pj - xp;
        const Vec3 pdot = vp + wp.cross(rp);
        const Vec3 pddot = ap + alp.cross(rp) + wp.cross(wp.cross(rp));
        const Vec3 u = Rj * l.axis;
        ws.p[k] = pj;
        ws.u[k] = u;
        if (l.kind == Axis::revolute) {
            const Mat3 Rm = Rj * Eigen::AngleAxisd(q[i], l.axis).toRotationMatrix();
            ws.R[k] = Rm * l.R_post;
            const Vec3 d = Rm * l.r_post;
            ws.x[k] = pj + d;
            ws.w[k] = wp + u * qd[i];
            ws.alpha[k] = alp + wp.cross(u) * qd[i] + u * qdd[i];
            ws.v[k] = pdot + ws.w[k].cross(d);
            ws.a[k] = pddot + ws.alpha[k].cross(d) + ws.w[k].cross(ws.w[k].cross(d));
            ws.S[k] << u, pj.cross(u);
        } else {
            ws.R[k] = Rj * l.R_post;
            const Vec3 d = Rj * (l.axis * q[i] + l.r_post);
            ws.x[k] = pj + d;
            ws.w[k] = wp;
            ws.alpha[k] = alp;
            ws.v[k] = pdot + wp.cross(d) + u * qd[i];
            ws.a[k] = pddot + alp.cross(d) + wp.cross(wp.cross(d)) + 2.0 * wp.cross(u) * qd[i] +
                      u * qdd[i];
            ws.S[k] << Vec3::Zero(), u;
        }
    }
}

PointState point_state(const Workspace& ws, int link, const Vec3& r) {
    if (link < 0) return {r, Vec3::Zero(), Vec3::Zero()};
    const auto k = static_cast<std::size_t>(link);
    const Vec3 d = ws.R[k] * r;
    const Vec3& w = ws.w[k];
    return {ws.x[k] + d, ws.v[k] + w.cross(d),
            ws.a[k] + ws.alpha[k].cross(d) + w.cross(w.cross(d))};
}

namespace {
void apply(Workspace& ws, int link, const Vec3& point, const Vec3& F, const Vec3& M) {
    if (link < 0) return;
    const auto k = static_cast<std::size_t>(link);
    ws.fext[k] += F;
    ws.next[k] += point.cross(F) + M;
}
}  // namespace

// Loads as wrenches about the world origin. Rod between points A and B: d = pB - pA, l = |d|,
// e = d / l, ldot = e . (vB - vA), tension T = EA (l - l0)/l0 + ED ldot/l0: force T e on A, -T e
// on B. Deformable hinge: Ra = R_A Rh_A, Rb = R_B Rh_B, theta = rotvec(Ra^T Rb), omega =
// Ra^T (w_B - w_A), moment Ra (K theta + D omega) on A and its opposite on B.
void compute_loads(const ReducedModel& m, Workspace& ws, double t) {
    for (std::size_t k = 0; k < ws.fext.size(); ++k) {
        ws.fext[k].setZero();
        ws.next[k].setZero();
    }
    ws.g = m.has_gravity ? m.gravity.value(t) : Vec3::Zero();
    for (const Load& ld : m.loads) {
        const auto k = static_cast<std::size_t>(ld.link);
        const Vec3 val = ld.scale * ld.value.value(t);
        const Mat3 Rn = ws.R[k] * ld.R_node;
        const Vec3 pt = ws.x[k] + ws.R[k] * ld.point;
        switch (ld.kind) {
            case LoadKind::force_absolute:
                apply(ws, ld.link, pt, val, Vec3::Zero());
                break;
            case LoadKind::force_follower:
                apply(ws, ld.link, pt, Rn * val, Vec3::Zero());
                break;
            case LoadKind::couple_absolute:
                apply(ws, ld.link, pt, Vec3::Zero(), val);
                break;
            case LoadKind::couple_follower:
                apply(ws, ld.link, pt, Vec3::Zero(), Rn * val);
                break;
        }
    }
    for (const LinkForce& lf : m.link_forces) {
        const PointState A = point_state(ws, lf.link_a, lf.p_a);
        const PointState B = point_state(ws, lf.link_b, lf.p_b);
        if (lf.kind == LinkForceKind::rod) {
            const Vec3 d = B.x - A.x;
            const double l = d.norm();
            const Vec3 e = d / l;
            const double ldot = e.dot(B.v - A.v);
            const double T = (lf.ea * (l - lf.l0) + lf.ed * ldot) / lf.l0;
            apply(ws, lf.link_a, A.x, T * e, Vec3::Zero());
            apply(ws, lf.link_b, B.x, -T * e, Vec3::Zero());
        } else {
            const Mat3 RA =
                lf.link_a < 0 ? Mat3::Identity() : ws.R[static_cast<std::size_t>(lf.link_a)];
            const Mat3 RB =
                lf.link_b < 0 ? Mat3::Identity() : ws.R[static_cast<std::size_t>(lf.link_b)];
            const Vec3 wA =
                lf.link_a < 0 ? Vec3::Zero() : ws.w[static_cast<std::size_t>(lf.link_a)];
            const Vec3 wB =
                lf.link_b < 0 ? Vec3::Zero() : ws.w[static_cast<std::size_t>(lf.link_b)];
            const Mat3 Ra = RA * lf.R_a, Rb = RB * lf.R_b;
            const Vec3 theta = matrix_to_rotation_vector(Ra.transpose() * Rb);
            const Vec3 om = Ra.transpose() * (wB - wA);
            const Vec3 Mw = Ra * (lf.K * theta + lf.D * om);
            apply(ws, lf.link_a, A.x, Vec3::Zero(), Mw);
            apply(ws, lf.link_b, B.x, Vec3::Zero(), -Mw);
        }
    }
}

// Backward pass. Link i with mass m, centre of mass c (world), inertia Jc = R I R^T about it:
//   a_c = a_i + alpha_i x (c - x_i) + w_i x (w_i x (c - x_i))
//   f_i = m (a_c - g) - fext_i,   n_i = Jc alpha_i + w_i x Jc w_i + c x m (a_c - g) - next_i
// summed over the subtree (f_p += f_i, n_p += n_i, children first), then
//   tau_i = S_i^T (n_i; f_i)  (revolute: u . (n_i - p_i x f_i); prismatic: u . f_i).
void inverse_dynamics(const ReducedModel& m, Workspace& ws) {
    const int nq = m.nq();
    for (int i = 0; i < nq; ++i) {
        const Link& l = m.links[static_cast<std::size_t>(i)];
        const auto k = static_cast<std::size_t>(i);
        ws.f[k] = -ws.fext[k];
        ws.n[k] = -ws.next[k];
        if (l.mass == 0.0 && l.inertia.isZero(0.0)) continue;
        const Vec3 rc = ws.R[k] * l.com;
        const Vec3 c = ws.x[k] + rc;
        const Vec3& w = ws.w[k];
        const Vec3 ac = ws.a[k] + ws.alpha[k].cross(rc) + w.cross(w.cross(rc));
        const Mat3 Jc = ws.R[k] * l.inertia * ws.R[k].transpose();
        const Vec3 F = l.mass * (ac - ws.g);
        ws.f[k] += F;
        ws.n[k] += Jc * ws.alpha[k] + w.cross(Jc * w) + c.cross(F);
    }
    for (int i = nq - 1; i >= 0; --i) {
        const auto k = static_cast<std::size_t>(i);
        const int p = m.links[k].parent;
        ws.tau[i] = ws.S[k].head<3>().dot(ws.n[k]) + ws.S[k].tail<3>().dot(ws.f[k]);
        if (p >= 0) {
            ws.f[static_cast<std::size_t>(p)] += ws.f[k];
            ws.n[static_cast<std::size_t>(p)] += ws.n[k];
        }
    }
}

// Composite rigid body algorithm in world-frame spatial vectors at the origin. A body of mass m,
// centre of mass c and inertia Jc has the spatial inertia
//   I = [ Jc + m [c]x [c]x^T   m [c]x ]
//       [ m [c]x^T             m 1    ]
// (momentum = I (w; v_O)). Ic_i = I_i + sum of the children's Ic; M_ii = S_i^T Ic_i S_i and, for
// every ancestor j of i, M_ij = M_ji = S_j^T Ic_i S_i.
void mass_matrix(const ReducedModel& m, Workspace& ws) {
    const int nq = m.nq();
    for (int i = 0; i < nq; ++i) {
        const Link& l = m.links[static_cast<std::size_t>(i)];
        const auto k = static_cast<std::size_t>(i);
        Mat6& I = ws.Ic[k];
        I.setZero();
        if (l.mass == 0.0 && l.inertia.isZero(0.0)) continue;
        const Vec3 c = ws.x[k] + ws.R[k] * l.com;
        const Mat3 C = skew(c);
        I.topLeftCorner<3, 3>() =
            ws.R[k] * l.inertia * ws.R[k].transpose() + l.mass * C * C.transpose();
        I.topRightCorner<3, 3>() = l.mass * C;
        I.bottomLeftCorner<3, 3>() = l.mass * C.transpose();
        I.bottomRightCorner<3, 3>() = l.mass * Mat3::Identity();
    }
    for (int i = nq - 1; i >= 0; --i) {
        const auto k = static_cast<std::size_t>(i);
        const int p = m.links[k].parent;
        if (p >= 0) ws.Ic[static_cast<std::size_t>(p)] += ws.Ic[k];
        const Vec6 F = ws.Ic[k] * ws.S[k];
        ws.M(i, i) = ws.S[k].dot(F);
        for (int j = p; j >= 0; j = m.links[static_cast<std::size_t>(j)].parent) {
            const double mij = ws.S[static_cast<std::size_t>(j)].dot(F);
            ws.M(i, j) = mij;
            ws.M(j, i) = mij;
        }
    }
}

namespace {
// Row `row` of J += s * g . dP/dq for a point P fixed on `link`: dP/dq_k = u_k x (P - p_k)
// (revolute ancestor k), u_k (prismatic).
void point_jac(const ReducedModel& m, Workspace& ws, int row, int link, const Vec3& P,
               const Vec3& g, double s) {
    for (int k = link; k >= 0; k = m.links[static_cast<std::size_t>(k)].parent) {
        const auto kk = static_cast<std::size_t>(k);
        const Vec3& u = ws.u[kk];
        ws.J(row, k) +=
            s * (m.links[kk].kind == Axis::revolute ? g.dot(u.cross(P - ws.p[kk])) : g.dot(u));
    }
}
// Row `row` of J += g . dd/dq for a direction d fixed on `link`: dd/dq_k = u_k x d (revolute).
void dir_jac(const ReducedModel& m, Workspace& ws, int row, int link, const Vec3& d,
             const Vec3& g) {
    for (int k = link; k >= 0; k = m.links[static_cast<std::size_t>(k)].parent) {
        const auto kk = static_cast<std::size_t>(k);
        if (m.links[kk].kind == Axis::revolute) ws.J(row, k) += g.dot(ws.u[kk].cross(d));
    }
}
struct DirState {
    Vec3 d, dd, ddd;  // direction, its first and second time derivatives (bias)
};
DirState dir_state(const Workspace& ws, int link, const Vec3& e) {
    if (link < 0) return {e, Vec3::Zero(), Vec3::Zero()};
    const auto k = static_cast<std::size_t>(link);
    const Vec3 d = ws.R[k] * e;
    const Vec3& w = ws.w[k];
    return {d, w.cross(d), ws.alpha[k].cross(d) + w.cross(w.cross(d))};
}
// Row h = e_A . (P_B - P_A) - value, e_A fixed on A (given in A's link frame):
//   gamma = e''.D + 2 e'.D' + e.D''.
void line_row(const ReducedModel& m, Workspace& ws, int row, const Cut& c, const PointState& A,
              const PointState& B, const Vec3& eA, double value) {
    const DirState e = dir_state(ws, c.link_a, eA);
    const Vec3 D = B.x - A.x;
    ws.h[row] = e.d.dot(D) - value;
    ws.gamma[row] = e.ddd.dot(D) + 2.0 * e.dd.dot(B.v - A.v) + e.d.dot(B.a - A.a);
    dir_jac(m, ws, row, c.link_a, e.d, D);
    point_jac(m, ws, row, c.link_b, B.x, e.d, 1.0);
    point_jac(m, ws, row, c.link_a, A.x, e.d, -1.0);
}
// Row h = a_A . b_B (two directions, on A and on B): gamma = a''.b + 2 a'.b' + a.b''.
void perp_row(const ReducedModel& m, Workspace& ws, int row, const Cut& c, const Vec3& aA,
              const Vec3& bB) {
    const DirState a = dir_state(ws, c.link_a, aA);
    const DirState b = dir_state(ws, c.link_b, bB);
    ws.h[row] = a.d.dot(b.d);
    ws.gamma[row] = a.ddd.dot(b.d) + 2.0 * a.dd.dot(b.dd) + a.d.dot(b.ddd);
    dir_jac(m, ws, row, c.link_a, a.d, b.d);
    dir_jac(m, ws, row, c.link_b, b.d, a.d);
}
// The three rows e2_A.e3_B, e3_A.e1_B, e1_A.e2_B (frames A and B keep their relative orientation).
void frame_rows(const ReducedModel& m, Workspace& ws, int r0, const Cut& c) {
    for (int r = 0; r < 3; ++r)
        perp_row(m, ws, r0 + r, c, c.R_a.col((r + 1) % 3), c.R_b.col((r + 2) % 3));
}
// Component k of the relative rotation vector locked at 0. With E = R_A^T R_B (R_A, R_B the
// frames of the cut's ends, the imposed constant rotation already in R_A) turned by the angle
// th about the unit axis n, E - E^T = 2 sin(th) skew(n), so for i = k+1, j = k+2 (cyclic)
//   h = E_ji - E_ij = e_j,A . e_i,B - e_i,A . e_j,B = 2 sin(th) n_k,
// zero exactly where the DAE's row e_k . log(E) is (|th| < pi). Each term is a perp_row product:
//   J = (e_j,A x e_i,B - e_i,A x e_j,B) . (w-Jacobians of B minus A),
//   gamma = sum over both products of a''.b + 2 a'.b' + a.b''.
void twist_row(const ReducedModel& m, Workspace& ws, int row, const Cut& c, int k) {
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    const DirState aj = dir_state(ws, c.link_a, c.R_a.col(j)),
                   bi = dir_state(ws, c.link_b, c.R_b.col(i));
    const DirState ai = dir_state(ws, c.link_a, c.R_a.col(i)),
                   bj = dir_state(ws, c.link_b, c.R_b.col(j));
    ws.h[row] = aj.d.dot(bi.d) - ai.d.dot(bj.d);
    ws.gamma[row] = aj.ddd.dot(bi.d) + 2.0 * aj.dd.dot(bi.dd) + aj.d.dot(bi.ddd) -
                    (ai.ddd.dot(bj.d) + 2.0 * ai.dd.dot(bj.dd) + ai.d.dot(bj.ddd));
    dir_jac(m, ws, row, c.link_a, aj.d, bi.d);
    dir_jac(m, ws, row, c.link_b, bi.d, aj.d);
    dir_jac(m, ws, row, c.link_a, ai.d, -bj.d);
    dir_jac(m, ws, row, c.link_b, bj.d, -ai.d);
}
// A driven row h = h0(q) - f(t): h -= f, ht = -f', gamma -= f'' (line_row / the rod set h0).
void drive_row(const ReducedModel& m, Workspace& ws, int row, const Drive& d, double t) {
    double f, fd, fdd;
    drive_levels(m, d, t, f, fd, fdd);
    ws.h[row] -= f;
    ws.ht[row] = -fd;
    ws.gamma[row] -= fdd;
}
}  // namespace

void drive_levels(const ReducedModel& m, const Drive& d, double t, double& f, double& fd,
                  double& fdd) {
    const double h = 2e-4 * (1.0 + std::abs(t));
    const double saved = m.clock ? m.clock->time : 0.0;
    auto deriv_at = [&](double tt) {
        if (m.clock) m.clock->time = tt;
        return d.deriv(tt);
    };
    fdd =
        (8.0 * (deriv_at(t + h) - deriv_at(t - h)) - (deriv_at(t + 2 * h) - deriv_at(t - 2 * h))) /
        (12.0 * h);
    if (m.clock) m.clock->time = t;
    f = d.value(t);
    fd = d.deriv(t);
    if (m.clock) m.clock->time = saved;
}

// Cut equations (A: link_a, B: link_b; P points, e directions fixed on them; dots are time
// derivatives with qdd = 0, so that hddot = J qdd + gamma):
//   ball:     h = P_B - P_A;                         gamma = a_B - a_A
//   revolute: ball rows, then h = e3_A . e1_B and e3_A . e2_B (perp_row)
//   in line:  h = e_k,A . (P_B - P_A), k = 1, 2 (line_row)
//   in plane: the same with e3,A
//   cardano:  ball rows, then h = e3_A . e2_B
//   prismatic: h = e2_A . e3_B, e3_A . e1_B, e1_A . e2_B (frame_rows)
//   total:    line_row with e_k of Rp_A and the imposed value for the active position
//             components, then frame_rows (orientation locked), the revolute's two rows or the
//             twist_row of a locked rotation component (two free rotations)
//   rod:      h = |D| - L, D = P_B - P_A;            gamma = (D'.D' + D.D'')/l - (D.D')^2/l^3
// J rows from point_jac / dir_jac with the same gradients. Driven cuts (a position component or
// the rod length given by a drive f(t)): the value becomes f(t), and drive_row adds the time
// terms (ht = -f', gamma -= f'').
void constraints(const ReducedModel& m, Workspace& ws) {
    constraints(m, ws, m.clock ? m.clock->time : 0.0);
}

void constraints(const ReducedModel& m, Workspace& ws, double t) {
    ws.J.setZero();
    ws.ht.setZero();
    for (const Cut& c : m.cuts) {
        const PointState A = point_state(ws, c.link_a, c.p_a);
        const PointState B = point_state(ws, c.link_b, c.p_b);
        const int r0 = c.first_row;
        const Vec3 D = B.x - A.x, Dd = B.v - A.v, Ddd = B.a - A.a;
        switch (c.kind) {
            case CutKind::prismatic:
                frame_rows(m, ws, r0, c);
                break;
            case CutKind::total: {
                int r = r0;
                for (int k = 0; k < 3; ++k) {
                    if (!(c.pos_mask & (1 << k))) continue;
                    const Drive* d = c.pos_drive[k].get();
                    line_row(m, ws, r, c, A, B, c.Rp_a.col(k), d ? 0.0 : c.pos_value[k]);
                    if (d) drive_row(m, ws, r, *d, t);
                    ++r;
                }
                if (c.rot_rows == 3) frame_rows(m, ws, r, c);
                if (c.rot_rows == 1) twist_row(m, ws, r, c, c.rot_axis);
                if (c.rot_rows == 2)
                    for (int k = 0; k < 2; ++k)
                        perp_row(m, ws, r + k, c, c.R_a.col(2), c.R_b.col(k));
                break;
            }
            case CutKind::ball:
            case CutKind::cardano:
            case CutKind::revolute: {
                for (int r = 0; r < 3; ++r) {
                    const Vec3 g = Vec3::Unit(r);
                    ws.h[r0 + r] = D[r];
                    ws.gamma[r0 + r] = Ddd[r];
                    point_jac(m, ws, r0 + r, c.link_b, B.x, g, 1.0);
                    point_jac(m, ws, r0 + r, c.link_a, A.x, g, -1.0);
                }
                // revolute: e3_A . e1_B and e3_A . e2_B; cardano: e3_A . e2_B only.
                const int first = c.kind == CutKind::cardano ? 1 : 0;
                for (int r = 0; r < c.rows - 3; ++r)
                    perp_row(m, ws, r0 + 3 + r, c, c.R_a.col(2), c.R_b.col(first + r));
                break;
            }
            case CutKind::in_line:
            case CutKind::in_plane: {
                const int first = c.kind == CutKind::in_line ? 0 : 2;
                for (int r = 0; r < c.rows; ++r)
                    line_row(m, ws, r0 + r, c, A, B, c.R_a.col(first + r), 0.0);
                break;
            }
            case CutKind::rod: {
                const double l = D.norm();
                const Vec3 e = D / l;
                ws.h[r0] = l - (c.length_drive ? 0.0 : c.length);
                const double dd = D.dot(Dd);
                ws.gamma[r0] = (Dd.dot(Dd) + D.dot(Ddd)) / l - dd * dd / (l * l * l);
                if (c.length_drive) drive_row(m, ws, r0, *c.length_drive, t);
                point_jac(m, ws, r0, c.link_b, B.x, e, 1.0);
                point_jac(m, ws, r0, c.link_a, A.x, e, -1.0);
                break;
            }
        }
    }
}

void evaluate(const ReducedModel& m, Workspace& ws, const VecX& q, const VecX& qd, double t) {
    forward_kinematics(m, ws, q, qd, ws.zero);
    compute_loads(m, ws, t);
    inverse_dynamics(m, ws);
    mass_matrix(m, ws);
    constraints(m, ws, t);
}

}  // namespace mbs::reduced
