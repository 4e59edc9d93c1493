// Building blocks of holonomic joints between two ends (a node or the ground), with their exact
// Jacobians. A joint collects its terms in a JointJac (local dense blocks), then flush()es them
// through the node chain rule into the iteration matrix.
//
// Conventions: the multipliers are the reaction applied to end 1; end 2 receives the opposite.
// Constraint rows hold phi/dCoef (dynamic) or phi (assembly). The reaction a joint reports
// (.jnt, NetCDF, HDF5, private data) is MBDyn's, which is not always the one on end 1: see
// reported_reaction below and docs/reactions.md.
#pragma once

#include <cstdint>

#include "elements/joints/joint_orientation.hpp"
#include "elements/misc/element_util.hpp"

namespace mbs::el {

using Mat6 = Eigen::Matrix<double, 6, 6>;

// The reaction a joint reports, as MBDyn's Joint::Output writes it (docs/reactions.md).
// MBDyn's residual is "applied forces minus inertia", as ours, and each of its joints adds +F or
// -F of its own multipliers F to its node 1 (the only node of a pin); its Output writes that F.
// So the reported force is the one applied to the end whose rows receive +F in MBDyn's AssRes:
//   - on end 1 (our multipliers as they are): total joint (and pin, whose end 1 is the ground),
//     drive hinge, drive displacement (pin), in line, in plane, distance, cardano pin, and the
//     law-driven elements (deformable joints, rod) whose law force acts on node 1;
//   - on the other end (minus our multipliers), because MBDyn's node 1 receives -F: clamp
//     (ClampJoint, genj.cc: the force the node applies to the ground), spherical hinge and pin
//     (spherj.cc), revolute hinge, rotation and pin and axial rotation (planej.cc), cardano
//     hinge and rotation (univj.cc), prismatic (prismj.cc), linear and angular velocity and
//     acceleration (drvj.cc, accj.cc).
// F1, M1: the force and couple (without the arm terms) applied to end 1; Rf, Rm: the frames of
// the local force and moment columns (per joint: MBDyn's choice, often not end 1's frame).
enum class Reported : std::uint8_t { on_end1, on_end2 };

inline bool reported_reaction(Reported who, const Vec3& F1, const Vec3& M1, const Mat3& Rf,
                              const Mat3& Rm, Vec3& f, Vec3& m, Vec3& F, Vec3& M) {
    const double s = who == Reported::on_end1 ? 1.0 : -1.0;
    F = s * F1;
    M = s * M1;
    f = Rf.transpose() * F;
    m = Rm.transpose() * M;
    return true;
}

// MBDyn's relative-rotation .jnt extras after the 12 reaction columns (revolute hinge and
// rotation): Ra^T Rb as the orientation description asks (from column 14: 3 values, 9 for the
// matrix), then the relative angular velocity Rb^T (w_b - w_a), in end 2's hinge frame as MBDyn's
// PlaneHingeJoint::Output (R2Tmp^T (w2 - w1)). Returns the count (18, or 24 for the matrix).
inline int put_relative_rotation(const End* e, Od od, double* v) {
    const Mat3 Ra = e[0].frame(), Rb = e[1].frame();
    const int n = 12 + put_orientation(od, Ra.transpose() * Rb, v + 12);
    const Vec3 wr = Rb.transpose() * (e[1].omega() - e[0].omega());
    for (int i = 0; i < 3; ++i) v[n + i] = wr[i];
    return n + 3;
}

// Element::reaction of a deformable element whose law gives the local force and moment fl: the
// force goes to the global frame with Rf, the moment with Rm.
inline bool law_reaction(const Eigen::Matrix<double, 6, 1>& fl, const Mat3& Rf, const Mat3& Rm,
                         Vec3& f, Vec3& m, Vec3& F, Vec3& M) {
    f = fl.head<3>();
    m = fl.tail<3>();
    F = Rf * f;
    M = Rm * m;
    return true;
}

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
                if (!e[j].ground())
                    J.add(b.nn[k][j], e[j].node->chain_pos<6>(nDx[k][j], nDth[k][j], c));
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
inline void ortho_residual(const End* e, const Vec3& u, const Vec3& v, double mu, double dCoef,
                           double* r, double* rc) {
    Vec3 M = mu * u.cross(v);
    for (int k = 0; k < 2; ++k)
        if (!e[k].ground()) add_wrench(r, *e[k].node, Vec3::Zero(), side(k) * M);
    *rc += u.dot(v) / dCoef;
}

inline void ortho_jacobian(const End* e, const Vec3& u, const Vec3& v, double mu, int row, int col,
                           JointJac& jj) {
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

// Projection of the gap p1 - p2 on a unit vector u fixed in end 1's frame (u = R1 u0; the ground's
// u is constant): c = u . (p1 - p2) = 0 (one row), multiplier F: force F u on end 1, -F u on end 2
// (the reaction of in-line and in-plane joints). With b1 = p2 - x1 and a2 = R2 f2:
//   dc = u.dx1 + (b1 x u).dtheta1 - u.dx2 + (u x a2).dtheta2
//   end 1 rows: F u, F (b1 x u);   end 2 rows: -F u, -F (a2 x u)
//   d(F u)/dtheta1 = -F skew(u)
//   d(F b1 x u) = F [skew(u) (dx1 - dx2) + skew(u) skew(a2) dtheta2 - skew(b1) skew(u) dtheta1]
//   d(F a2 x u) = F [skew(u) skew(a2) dtheta2 - skew(a2) skew(u) dtheta1]
// (u is the ground's vector when end 1 is the ground; then only the end-2 terms remain.)
inline Vec3 gap_origin(const End& e) { return e.node ? e.node->x : Vec3(Vec3::Zero()); }

inline void project_residual(const End* e, const Vec3& u, double F, double dCoef, double* r,
                             double* rc) {
    Vec3 b1 = e[1].point() - gap_origin(e[0]);
    Vec3 a2 = e[1].arm();
    if (!e[0].ground()) add_wrench(r, *e[0].node, F * u, F * b1.cross(u));
    if (!e[1].ground()) add_wrench(r, *e[1].node, -F * u, -F * a2.cross(u));
    *rc += u.dot(e[0].point() - e[1].point()) / dCoef;
}

inline void project_jacobian(const End* e, const Vec3& u, double F, int row, int col,
                             JointJac& jj) {
    Vec3 b1 = e[1].point() - gap_origin(e[0]);
    Vec3 a2 = e[1].arm();
    Mat3 su = skew(u), sa2 = skew(a2);
    const bool n1 = !e[0].ground(), n2 = !e[1].ground();
    if (n1) {
        jj.nDth[0][0].block<3, 3>(0, 0) += -F * su;
        jj.nDth[0][0].block<3, 3>(3, 0) += -F * skew(b1) * su;
        jj.nDx[0][0].block<3, 3>(3, 0) += F * su;
        if (n2) {
            jj.nDx[0][1].block<3, 3>(3, 0) += -F * su;
            jj.nDth[0][1].block<3, 3>(3, 0) += F * su * sa2;
            jj.nDth[1][0].block<3, 3>(0, 0) += F * su;
            jj.nDth[1][0].block<3, 3>(3, 0) += F * sa2 * su;
        }
        jj.nl[0].block<3, 1>(0, col) += u;
        jj.nl[0].block<3, 1>(3, col) += b1.cross(u);
        jj.lDx[0].block<1, 3>(row, 0) += u.transpose();
        jj.lDth[0].block<1, 3>(row, 0) += b1.cross(u).transpose();
    }
    if (n2) {
        jj.nDth[1][1].block<3, 3>(3, 0) += -F * su * sa2;
        jj.nl[1].block<3, 1>(0, col) += -u;
        jj.nl[1].block<3, 1>(3, col) += -a2.cross(u);
        jj.lDx[1].block<1, 3>(row, 0) += -u.transpose();
        jj.lDth[1].block<1, 3>(row, 0) += u.cross(a2).transpose();
    }
}

// Distance between the two points: c = L(t) - |p2 - p1| = 0 (one row), multiplier F: force F e on
// end 1 and -F e on end 2, e = (p2 - p1)/l (F > 0 pulls the ends together: tension). With
// w = dp2 - dp1 = dx2 - skew(a2) dtheta2 - dx1 + skew(a1) dtheta1 and P = (I - e e^T)/l:
//   dc = -e.w;  d(F e) = F P w
//   end 1 rows: F e, a1 x F e;   end 2 rows: -F e, -a2 x F e
//   d(a x F e) = skew(F e) skew(a) dtheta + skew(a) d(F e)   (dtheta of that end)
inline void distance_residual(const End* e, double L, double F, double dCoef, double* r,
                              double* rc) {
    Vec3 d = e[1].point() - e[0].point();
    double l = d.norm();
    Vec3 Fe = F * d / l;
    for (int k = 0; k < 2; ++k)
        if (!e[k].ground()) add_wrench(r, *e[k].node, side(k) * Fe, side(k) * e[k].arm().cross(Fe));
    *rc += (L - l) / dCoef;
}

inline void distance_jacobian(const End* e, double F, int row, int col, JointJac& jj) {
    Vec3 d = e[1].point() - e[0].point();
    double l = d.norm();
    Vec3 u = d / l;
    Mat3 P = F * (Mat3::Identity() - u * u.transpose()) / l;
    Vec3 Fe = F * u;
    // d(F e) = sum_j (Wx[j] dx_j + Wth[j] dtheta_j)
    Mat3 Wx[2] = {-P, P};
    Mat3 Wth[2] = {P * skew(e[0].arm()), -P * skew(e[1].arm())};
    for (int k = 0; k < 2; ++k) {
        if (e[k].ground()) continue;
        double s = side(k);
        Vec3 a = e[k].arm();
        Mat3 sa = skew(a);
        for (int j = 0; j < 2; ++j) {
            if (e[j].ground()) continue;
            jj.nDx[k][j].block<3, 3>(0, 0) += s * Wx[j];
            jj.nDth[k][j].block<3, 3>(0, 0) += s * Wth[j];
            jj.nDx[k][j].block<3, 3>(3, 0) += s * sa * Wx[j];
            jj.nDth[k][j].block<3, 3>(3, 0) += s * sa * Wth[j];
        }
        jj.nDth[k][k].block<3, 3>(3, 0) += s * skew(Fe) * sa;
        jj.nl[k].block<3, 1>(0, col) += s * u;
        jj.nl[k].block<3, 1>(3, col) += s * a.cross(u);
        jj.lDx[k].block<1, 3>(row, 0) += s * u.transpose();
        jj.lDth[k].block<1, 3>(row, 0) += s * a.cross(u).transpose();
    }
}

}  // namespace mbs::el
