// Node accelerations from the momentum derivatives (see accelerations.hpp).
//
// Momenta of a dynamic rigid node (DESIGN.md 2, elements/bodies/body_element.cpp): with the
// lumped inertia of its bodies, m, S = R s (s = sum m_i xc_i, node frame) and J = R Jn R^T (Jn:
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
#include "solvers/dae/accelerations.hpp"

#include <cstdio>
#include <unordered_map>

#include <Eigen/Eigenvalues>

#include "solvers/dae/engine.hpp"

namespace mbs {

namespace {

bool default_output_has_accelerations(const Model& m) {
    const auto* v = m.control.find("default output");
    if (!v) return false;
    const std::string& list = std::get<std::string>(*v);
    std::size_t pos = 0;
    while (pos <= list.size()) {
        std::size_t e = list.find(", ", pos);
        if (list.compare(pos, e == std::string::npos ? std::string::npos : e - pos, "accelerations") == 0)
            return true;
        if (e == std::string::npos) break;
        pos = e + 2;
    }
    return false;
}

// Whether the node's accelerations can be defined (see accelerations.hpp), from its kind.
bool has_accelerations(const StructNode& n) {
    if (n.is_dynamic()) return true;
    if (!n.is_dummy() || !n.base) return false;
    for (const StructNode* o : {n.base, n.frame_ref, n.pivot})
        if (o && !has_accelerations(*o)) return false;
    return true;
}

void setup(Engine& e) {
    auto& nodes = e.nodes();
    std::unordered_map<long, StructNode*> by_label;
    for (auto& n : nodes) by_label[n.label()] = &n;
    for (const EntityDesc& d : e.model().elements) {
        if (d.category != "body") continue;
        const auto* ref = d.props.find("node");
        if (!ref) continue;
        auto it = by_label.find(std::get<EntityRef>(*ref).label);
        if (it == by_label.end() || !it->second->is_dynamic()) continue;
        StructNode& n = *it->second;
        const double m = d.props.get<double>("mass");
        n.inertia_m += m;
        if (n.has_rotation()) {
            Vec3 xc = d.props.get<Vec3>("center of mass");
            n.inertia_s += m * xc;
            n.inertia_J += d.props.get<Mat3>("inertia") +
                           m * (xc.squaredNorm() * Mat3::Identity() - xc * xc.transpose());
        }
    }
    for (auto& n : nodes) {
        n.inertia_ready = true;
        n.accel_output = node_accelerations_output(e.model(), n);
        if (n.accel_output && n.is_dynamic() && n.inertia_m == 0.0)
            std::fprintf(stderr,
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

void dynamic_node(StructNode& n) {
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
    const Vec3 rhs = n.gamma_dot - w.cross(S).cross(v) - S.cross(n.beta_dot) / m + S.cross(wwS) / m -
                     w.cross(J * w);
    n.wp = solve_inertia(Jc, rhs);
    n.xpp = (n.beta_dot - n.wp.cross(S) - wwS) / m;
}

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
    return n.desc().props.get_or<bool>("accelerations", false) || default_output_has_accelerations(m);
}

void update_node_accelerations(Engine& e) {
    auto& nodes = e.nodes();
    if (nodes.empty()) return;
    if (!nodes.front().inertia_ready) setup(e);
    // Dynamic nodes first, then dummy nodes in card order (a dummy node may follow another
    // dummy node defined before it, as update_dummy() does).
    for (auto& n : nodes)
        if (n.is_dynamic()) dynamic_node(n);
    for (auto& n : nodes) {
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

}  // namespace mbs
