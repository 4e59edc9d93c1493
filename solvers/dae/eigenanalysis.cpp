// Eigenanalysis of the linearized DAE (docs/formulation.md 7).
//
// The iteration matrix is J(c) = dr/dy' + c dr/dy (docs/formulation.md 2.1), so two assemblies
// at c = +dCoef and c = -dCoef give P = dr/dy' and Q = dr/dy (MBDyn assembles the same two
// matrices and solves their pencil directly). A perturbation y = y* + x e^(s t) of the converged
// state satisfies (s P + Q) x = 0. The unknowns fall in three sets:
//   S  momenta of dynamic nodes: their rows are the momentum definitions, r_S = (bodies' terms)
//      - beta, with no beta' (P_SS = 0) and Q_SS = -I plus gyroscopic terms: x_S is eliminated,
//      x_S = -Q_SS^-1 (s P_SR + Q_SR) x_R;
//   H  multipliers (algebraic unknowns): their value is the y' slot, so they enter as v = s x_H
//      through P_RH only; their rows are phi / dCoef, which gives P_HR = phi_x and Q_H. = 0, i.e.
//      s phi_x x_R = 0, or phi_x x_R = 0 for s != 0. Rows of redundant constraints (lambda = 0)
//      are dropped with their multipliers;
//   R  everything else (node positions and rotations, other differential unknowns).
// Eliminating x_S gives the quadratic pencil (s^2 M2 + s M1 + M0) x_R + P_RH v = 0 with
//   M2 = -P_RS Q_SS^-1 P_SR,  M1 = P_RR - P_RS Q_SS^-1 Q_SR - Q_RS Q_SS^-1 P_SR,
//   M0 = Q_RR - Q_RS Q_SS^-1 Q_SR.
// With N an orthonormal basis of null(phi_x) (x_R = N z) and L one of null(P_RH^T) (rows free of
// the multipliers), K_i = L^T M_i N is the k x k pencil of the independent coordinates, scaled
// and solved by QZ in first-order form (solve_pencil). Directions without inertia (massless or
// static nodes) make K2 singular: their eigenvalues are infinite and are removed and counted. The
// constraints' own eigenvalues (MBDyn's pencil has them) never appear: the elimination is exact.
#include "solvers/dae/eigenanalysis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "core/model.hpp"
#include "solvers/dae/simulation.hpp"

namespace mbs {
namespace {

using MatX = Eigen::MatrixXd;
using Idx = std::vector<int>;

// Relative size below which a block that the elimination needs to vanish counts as zero: the
// blocks are exactly zero in the elements' formulas, up to the rounding of (J1 - J2) / 2.
constexpr double kZero = 1e-8;
// |beta| at or below which a QZ eigenvalue of the scaled pencil (|B| ~ 1, solve_pencil) is
// infinite: a defective infinite eigenvalue of a massless direction has |beta| ~ sqrt(eps) =
// 1.5e-8, a finite one |beta| ~ 1.
constexpr double kInfinite = 1e-6;

MatX dense_jacobian(Engine& e, const StepContext& c, std::vector<double>& r) {
    e.residual(c, r.data());  // elements may keep values from the residual for the Jacobian
    e.jacobian(c);
    const CscMatrix& A = e.jac().matrix();
    const int n = e.size();
    MatX J = MatX::Zero(n, n);
    for (int col = 0; col < n; ++col)
        for (int k = A.col_start()[col]; k < A.col_start()[col + 1]; ++k)
            J(A.row_index()[k], col) += A.values()[k];
    return J;
}

double max_abs(const MatX& m) { return m.size() ? m.cwiseAbs().maxCoeff() : 0.0; }

// Refuses a pencil whose block (rows, cols) of M should vanish and does not (relative to ref),
// naming the first offending equation.
void require_zero(const Engine& e, const MatX& M, const Idx& rows, const Idx& cols, double ref,
                  const SourceLoc& where, const char* what) {
    const double tol = kZero * std::max(1.0, ref);
    for (int i : rows)
        for (int j : cols)
            if (std::fabs(M(i, j)) > tol) {
                const EquationInfo& q = e.equation(i);
                const EquationInfo& u = e.equation(j);
                throw InputError(where,
                                 "eigenanalysis: equation '" + q.name + "' of " + q.owner + " " +
                                     what + " (unknown '" + u.unknown + "' of " + u.owner +
                                     "); this form is not supported yet",
                                 "the elimination takes position constraints with multipliers "
                                 "and the momenta of dynamic nodes (docs/formulation.md 7)");
            }
}

// Orthonormal basis of the null space of M^T (M: rows x m), and the rank of M.
MatX left_null(const MatX& M, int& rank) {
    const int n = static_cast<int>(M.rows());
    if (M.cols() == 0) {
        rank = 0;
        return MatX::Identity(n, n);
    }
    Eigen::ColPivHouseholderQR<MatX> qr(M);
    qr.setThreshold(1e-10);
    rank = static_cast<int>(qr.rank());
    MatX Qf = qr.householderQ();
    return Qf.rightCols(n - rank);
}

// The null vector of the quadratic pencil T(s) = s^2 T2 + s T1 + T0, refined by inverse
// iteration when QZ's eigenvector is not accurate to 1e-10; returns the relative residual.
double mode_vector(const MatX& T2, const MatX& T1, const MatX& T0, std::complex<double> s,
                   Eigen::VectorXcd& z) {
    using MatC = Eigen::MatrixXcd;
    auto at = [&](std::complex<double> x) -> MatC {
        return (x * x) * T2.cast<std::complex<double>>() + x * T1.cast<std::complex<double>>() +
               T0.cast<std::complex<double>>();
    };
    const MatC Ts = at(s);
    const double scale = std::norm(s) * T2.norm() + std::abs(s) * T1.norm() + T0.norm();
    auto residual = [&](const Eigen::VectorXcd& v) {
        return (Ts * v).norm() / (std::max(scale, 1e-300) * std::max(v.norm(), 1e-300));
    };
    double res = residual(z);
    if (res <= 1e-10) return res;
    Eigen::PartialPivLU<MatC> lu(at(s * (1.0 + 1e-10) + 1e-12));
    Eigen::VectorXcd v = z.norm() > 0 ? Eigen::VectorXcd(z) : Eigen::VectorXcd::Ones(z.size());
    for (int it = 0; it < 3; ++it) {
        v = lu.solve(v);
        v /= v.norm();
    }
    const double rv = residual(v);
    if (rv < res) z = v, res = rv;
    return res;
}

struct Pencil {
    std::vector<std::complex<double>> lambda;  // finite, sorted by |lambda|, then imag
    std::vector<Eigen::VectorXcd> z;           // their vectors (when asked for)
    int infinite = 0;
    double max_residual = 0.0;
};

// The eigenvalues of s^2 K2 + s K1 + K0 (k x k). Scaled first: z = D y with D = diag(1/sqrt(m_j))
// (m_j = K2_jj, or K0_jj / w2 for a direction without inertia, w2 the largest K0_jj / K2_jj) so
// that every massive direction has unit mass, then s = gamma t with gamma = sqrt(|S0| / |S2|) and
// the whole pencil divided by (|S0| + gamma |S1| + gamma^2 |S2|) / 2 (Fan, Lin and Van Dooren's
// scaling, which makes the companion form as well conditioned as the quadratic): a beam's
// translational and rotational masses differ by 1e5 and its stiffnesses by 1e8, and without the
// scaling QZ misplaces its low modes. The companion form A w = t B w, w = (y, t y),
// A = [0 I; -T0 -T1], B = [I 0; 0 T2], goes to QZ; |beta| <= 1e-6 is an infinite eigenvalue.
Pencil solve_pencil(const MatX& K2, const MatX& K1, const MatX& K0, bool vectors) {
    Pencil p;
    const int k = static_cast<int>(K2.rows());
    const Eigen::VectorXd m = K2.diagonal().cwiseAbs(), st = K0.diagonal().cwiseAbs();
    const double m_max = m.size() ? m.maxCoeff() : 0.0;
    if (m_max == 0.0) {  // no inertia anywhere: every eigenvalue is infinite
        p.infinite = 2 * k;
        return p;
    }
    double w2 = 0.0;
    for (int j = 0; j < k; ++j)
        if (m(j) > 1e-14 * m_max) w2 = std::max(w2, st(j) / m(j));
    Eigen::VectorXd d(k);
    for (int j = 0; j < k; ++j)
        d(j) = m(j) > 1e-14 * m_max      ? 1.0 / std::sqrt(m(j))
               : st(j) > 0.0 && w2 > 0.0 ? 1.0 / std::sqrt(st(j) / w2)
                                         : 1.0 / std::sqrt(m_max);
    const MatX S2 = d.asDiagonal() * K2 * d.asDiagonal(), S1 = d.asDiagonal() * K1 * d.asDiagonal(),
               S0 = d.asDiagonal() * K0 * d.asDiagonal();
    const double n2 = S2.norm(), n1 = S1.norm(), n0 = S0.norm();
    const double gamma = n0 > 0.0 ? std::sqrt(n0 / n2) : 1.0;
    const double delta = 2.0 / (n0 + gamma * n1 + gamma * gamma * n2);
    const MatX T2 = (gamma * gamma * delta) * S2, T1 = (gamma * delta) * S1, T0 = delta * S0;
    MatX A = MatX::Zero(2 * k, 2 * k), B = MatX::Zero(2 * k, 2 * k);
    A.topRightCorner(k, k).setIdentity();
    A.bottomLeftCorner(k, k) = -T0;
    A.bottomRightCorner(k, k) = -T1;
    B.topLeftCorner(k, k).setIdentity();
    B.bottomRightCorner(k, k) = T2;
    Eigen::GeneralizedEigenSolver<MatX> ges(A, B, vectors);
    if (ges.info() != Eigen::Success)
        throw SolverFailure("eigenanalysis: the QZ iteration did not converge");
    std::vector<int> finite;
    std::vector<std::complex<double>> t(static_cast<std::size_t>(2 * k));
    for (int i = 0; i < 2 * k; ++i) {
        const double b = ges.betas()(i);
        if (std::fabs(b) <= kInfinite) continue;
        t[static_cast<std::size_t>(i)] = std::complex<double>(ges.alphas()(i)) / b;
        finite.push_back(i);
    }
    p.infinite = 2 * k - static_cast<int>(finite.size());
    std::stable_sort(finite.begin(), finite.end(), [&](int a, int b) {
        const double fa = std::abs(t[a]), fb = std::abs(t[b]);
        if (fa != fb) return fa < fb;
        return t[a].imag() < t[b].imag();
    });
    for (int i : finite) p.lambda.push_back(gamma * t[static_cast<std::size_t>(i)]);
    if (!vectors) return p;
    const Eigen::MatrixXcd V = ges.eigenvectors();
    for (int i : finite) {
        Eigen::VectorXcd y = V.col(i).head(k);
        p.max_residual =
            std::max(p.max_residual, mode_vector(T2, T1, T0, t[static_cast<std::size_t>(i)], y));
        p.z.push_back(d.cast<std::complex<double>>().cwiseProduct(y));
    }
    return p;
}

}  // namespace

EigenResult eigenanalysis(Engine& e, double t, double dt, double dcoef, bool vectors,
                          const SourceLoc& where) {
    EigenResult out;
    out.time = t;
    out.dcoef = dcoef;
    const int n = e.size();
    out.unknowns = n;
    std::vector<double> r(static_cast<std::size_t>(n));
    e.update(t, dt);
    StepContext c;
    c.time = t;
    c.dt = dt;
    c.phase = Phase::dynamic;
    c.dCoef = dcoef;
    const MatX J1 = dense_jacobian(e, c, r);
    c.dCoef = -dcoef;
    const MatX J2 = dense_jacobian(e, c, r);
    const MatX Q = (J1 - J2) / (2.0 * dcoef);
    const MatX P = 0.5 * (J1 + J2);

    // The three sets (see above); 3 = a redundant constraint, dropped with its multiplier.
    std::vector<char> kind(static_cast<std::size_t>(n), 0);
    for (const StructNode& nd : e.nodes())
        if (nd.is_dynamic())
            for (int i = nd.momentum_dof(); i < nd.first_dof() + nd.ndofs(); ++i) kind[i] = 1;
    for (int i = 0; i < n; ++i)
        if (e.order(i) == DofOrder::algebraic) kind[i] = 2;
    for (int i : e.redundant()) kind[i] = 3;
    Idx R, S, H;
    for (int i = 0; i < n; ++i)
        if (kind[i] != 3) (kind[i] == 0 ? R : kind[i] == 1 ? S : H).push_back(i);
    out.redundant = static_cast<int>(e.redundant().size());
    out.constraints = static_cast<int>(H.size());
    out.momenta = static_cast<int>(S.size());

    Idx all(static_cast<std::size_t>(n));
    std::iota(all.begin(), all.end(), 0);
    require_zero(e, Q, all, H, max_abs(P(all, H)), where,
                 "depends on the integral of a multiplier");
    require_zero(e, Q, H, all, max_abs(P(H, all)), where,
                 "is not a position constraint (its Jacobian depends on the coefficient)");
    require_zero(e, P, H, H, max_abs(P(H, R)), where, "involves a multiplier");
    require_zero(e, P, S, S, max_abs(Q(S, S)), where, "involves a momentum derivative");
    require_zero(e, P, S, H, max_abs(Q(S, S)), where, "involves a multiplier");
    require_zero(e, P, H, S, max_abs(P(H, R)), where, "involves a momentum");

    const int nR = static_cast<int>(R.size());
    MatX M2 = MatX::Zero(nR, nR), M1 = P(R, R), M0 = Q(R, R);
    if (!S.empty()) {
        Eigen::FullPivLU<MatX> lu(Q(S, S));
        if (!lu.isInvertible())
            throw InputError(where, "eigenanalysis: the momentum definitions are singular",
                             "a dynamic node's momentum rows must determine its momenta");
        const MatX Xp = lu.solve(P(S, R)), Xq = lu.solve(Q(S, R));
        M2 = -P(R, S) * Xp;
        M1 -= P(R, S) * Xq + Q(R, S) * Xp;
        M0 -= Q(R, S) * Xq;
    }
    int rank_phi = 0, rank_react = 0;
    const MatX N = left_null(P(H, R).transpose(), rank_phi);
    const MatX L = left_null(P(R, H), rank_react);
    if (rank_phi != rank_react)
        throw InputError(where,
                         "eigenanalysis: the constraints have rank " + std::to_string(rank_phi) +
                             " but their reactions rank " + std::to_string(rank_react),
                         "the elimination needs as many independent reactions as constraints");
    const int k = static_cast<int>(N.cols());
    out.reduced = k;

    // Node positions and the rows of their unknowns in R.
    std::vector<int> posR(static_cast<std::size_t>(n), -1);
    for (int i = 0; i < nR; ++i) posR[R[i]] = i;
    std::vector<const StructNode*> nodes;
    for (const StructNode& nd : e.nodes())
        if (!nd.is_dummy()) {
            nodes.push_back(&nd);
            out.nodes.push_back(nd.label());
            out.position.push_back(nd.x);
        }
    out.shapes.resize(6 * static_cast<Eigen::Index>(nodes.size()), 0);
    if (k == 0) return out;

    const Pencil pencil = solve_pencil(L.transpose() * M2 * N, L.transpose() * M1 * N,
                                       L.transpose() * M0 * N, vectors);
    out.infinite = pencil.infinite;
    out.max_residual = pencil.max_residual;
    out.eigenvalues = pencil.lambda;
    if (!vectors) return out;
    const Eigen::MatrixXcd Nc = N.cast<std::complex<double>>();
    out.shapes.resize(6 * static_cast<Eigen::Index>(nodes.size()),
                      static_cast<Eigen::Index>(pencil.lambda.size()));
    out.shapes.setZero();
    for (std::size_t m = 0; m < pencil.lambda.size(); ++m) {
        const Eigen::VectorXcd& z = pencil.z[m];
        const Eigen::VectorXcd xR = Nc * z;
        auto col = out.shapes.col(static_cast<Eigen::Index>(m));
        for (std::size_t q = 0; q < nodes.size(); ++q) {
            const StructNode& nd = *nodes[q];
            const Eigen::Index r0 = 6 * static_cast<Eigen::Index>(q);
            for (int j = 0; j < 3; ++j) {
                const int p = posR[nd.first_dof() + j];
                col(r0 + j) = p >= 0 ? xR(p) : 0.0;
            }
            if (!nd.has_rotation()) continue;
            Eigen::Vector3cd dg;
            for (int j = 0; j < 3; ++j) {
                const int p = posR[nd.first_dof() + 3 + j];
                dg(j) = p >= 0 ? xR(p) : 0.0;
            }
            col.segment<3>(r0 + 3) = nd.G.cast<std::complex<double>>() * dg;  // dtheta = G dg
        }
        Eigen::Index imax = 0;
        if (col.size() > 0 && col.cwiseAbs().maxCoeff(&imax) > 0) col /= col(imax);
    }
    return out;
}

}  // namespace mbs
