// Building blocks of holonomic joints between two ends (a node or the ground), with their exact
// Jacobians. A joint collects its terms in a JointJac (local dense blocks), then flush()es them
// through the node chain rule into the iteration matrix.
//
// Conventions (MBDyn's): the multipliers are the reaction applied to end 1; end 2 receives the
// opposite. Constraint rows hold phi/dCoef (dynamic) or phi (assembly).
#pragma once

#include "elements/misc/element_util.hpp"

namespace mbs::el {

using Mat6 = Eigen::Matrix<double, 6, 6>;

struct JointJac {
    // node rows (force, moment) of end k w.r.t. x and theta of end j
    Mat63 nDx[2][2], nDth[2][2];
    // node rows of end k w.r.t. the multipliers
    Mat6 nl[2];
    // constraint rows w.r.t. x and theta of end k
    Mat63 lDx[2], lDth[2];

    JointJac() { clear(); }
    void clear() {
        for (int k = 0; k < 2; ++k) {
            for (int j = 0; j < 2; ++j) nDx[k][j].setZero(), nDth[k][j].setZero();
            nl[k].setZero();
            lDx[k].setZero();
            lDth[k].setZero();
        }
    }

    void flush(const End* e, const JointBlocks& b, const StepContext& c, Jacobian& J) const {
        for (int k = 0; k < 2; ++k) {
            if (e[k].ground()) continue;
            for (int j = 0; j < 2; ++j)
                if (!e[j].ground()) J.add(b.nn[k][j], e[j].node->chain_pos<6>(nDx[k][j], nDth[k][j], c));
            if (b.nl[k] >= 0) J.add(b.nl[k], nl[k]);
            if (b.ln[k] >= 0) J.add(b.ln[k], constraint_cols<6>(*e[k].node, lDx[k], lDth[k]));
        }
    }
};

// Sign of end k's share of a reaction: +1 for end 1, -1 for end 2.
inline double side(int k) { return k == 0 ? 1.0 : -1.0; }

// Coincidence of the two points p1 = x1 + R1 f1 and p2 = x2 + R2 f2 (3 rows from `row`),
// multiplier F (global force on end 1) at own columns [col, col + 3).
//   end k rows:  +-F,  +-(a_k x F)   with a_k = R_k f_k
//   d(a x F)/dtheta = skew(F) skew(a);  dphi/dx_k = +-I,  dphi/dtheta_k = -+skew(a_k)
inline void point_residual(const End* e, const Vec3& F, double dCoef, double* r, double* rc) {
    for (int k = 0; k < 2; ++k)
        if (!e[k].ground()) add_wrench(r, *e[k].node, side(k) * F, side(k) * e[k].arm().cross(F));
    Vec3 phi = (e[0].point() - e[1].point()) / dCoef;
    for (int i = 0; i < 3; ++i) rc[i] += phi[i];
}

inline void point_jacobian(const End* e, const Vec3& F, int row, int col, JointJac& jj) {
    for (int k = 0; k < 2; ++k) {
        if (e[k].ground()) continue;
        double s = side(k);
        Vec3 a = e[k].arm();
        jj.nDth[k][k].block<3, 3>(3, 0) += s * skew(F) * skew(a);
        jj.nl[k].block<3, 3>(0, col) += s * Mat3::Identity();
        jj.nl[k].block<3, 3>(3, col) += s * skew(a);
        jj.lDx[k].block<3, 3>(row, 0) += s * Mat3::Identity();
        jj.lDth[k].block<3, 3>(row, 0) += -s * skew(a);
    }
}

// Orthogonality of a unit vector u of end 1's frame to a unit vector v of end 2's frame:
// c = u . v = 0 (one row), multiplier mu: moments +-mu (u x v).
//   dc = (u x v) . (dtheta1 - dtheta2)
//   d(u x v) = skew(v) skew(u) dtheta1 - skew(u) skew(v) dtheta2
inline void ortho_residual(const End* e, const Vec3& u, const Vec3& v, double mu, double dCoef, double* r,
                           double* rc) {
    Vec3 M = mu * u.cross(v);
    for (int k = 0; k < 2; ++k)
        if (!e[k].ground()) add_wrench(r, *e[k].node, Vec3::Zero(), side(k) * M);
    *rc += u.dot(v) / dCoef;
}

inline void ortho_jacobian(const End* e, const Vec3& u, const Vec3& v, double mu, int row, int col, JointJac& jj) {
    Vec3 uv = u.cross(v);
    Mat3 d1 = mu * skew(v) * skew(u), d2 = -mu * skew(u) * skew(v);
    for (int k = 0; k < 2; ++k) {
        if (e[k].ground()) continue;
        double s = side(k);
        if (!e[0].ground()) jj.nDth[k][0].block<3, 3>(3, 0) += s * d1;
        if (!e[1].ground()) jj.nDth[k][1].block<3, 3>(3, 0) += s * d2;
        jj.nl[k].block<3, 1>(3, col) += s * uv;
        jj.lDth[k].block<1, 3>(row, 0) += s * uv.transpose();
    }
}

}  // namespace mbs::el
