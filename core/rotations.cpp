// Rotation parametrisations: CGR parameters, rotation vectors, Euler angles.
#include "core/rotations.hpp"

#include <algorithm>
#include <cmath>

namespace mbs {

Mat3 cgr_to_matrix(const Vec3& g) {
    Mat3 gx = skew(g);
    double c = 4.0 / (4.0 + g.squaredNorm());
    return Mat3::Identity() + c * (gx + 0.5 * gx * gx);
}

Mat3 cgr_G(const Vec3& g) {
    double c = 4.0 / (4.0 + g.squaredNorm());
    return c * (Mat3::Identity() + 0.5 * skew(g));
}

// From R = I + c (gx + 1/2 gx gx): the skew part of R is c gx and trace(R) = 3 - c g.g,
// so 1 + trace(R) = 4 c and g = 2 axial(R - R^T)/2 / (1 + trace(R)) * 2.
Vec3 matrix_to_cgr(const Mat3& R) {
    double one_plus_tr = 1.0 + R.trace();  // = 4 c
    return 4.0 * axial(R) / one_plus_tr;   // axial(R) = c g
}

namespace {
// c1, c2 and d1 = c1'/a, d2 = c2'/a; series below a = 0.2 (the closed forms lose digits to
// cancellation there; truncation error < 1e-15 relative).
struct TCoef {
    double c1, c2, d1, d2;
};
TCoef tcoef(double a) {
    const double a2 = a * a;
    TCoef k;
    const double s = std::sin(0.5 * a);
    k.c1 = a < 1e-8 ? 0.5 - a2 / 24.0 : 2.0 * s * s / a2;
    if (a < 0.2) {
        k.c2 = 1.0 / 6.0 + a2 * (-1.0 / 120.0 + a2 * (1.0 / 5040.0 + a2 * (-1.0 / 362880.0 + a2 / 39916800.0)));
        k.d1 = -1.0 / 12.0 + a2 * (1.0 / 180.0 + a2 * (-1.0 / 6720.0 + a2 / 453600.0));
        k.d2 = -1.0 / 60.0 + a2 * (1.0 / 1260.0 + a2 * (-1.0 / 60480.0 + a2 / 4989600.0));
    } else {
        const double sa = std::sin(a), ca = std::cos(a);
        k.c2 = (a - sa) / (a2 * a);
        k.d1 = (a * sa - 2.0 * (1.0 - ca)) / (a2 * a2);
        k.d2 = ((1.0 - ca) * a - 3.0 * (a - sa)) / (a2 * a2 * a);
    }
    return k;
}
}  // namespace

Mat3 rotvec_T(const Vec3& phi) {
    const TCoef k = tcoef(phi.norm());
    const Mat3 P = skew(phi);
    return Mat3::Identity() + k.c1 * P + k.c2 * P * P;
}

Mat3 rotvec_T_inverse(const Vec3& phi) {
    const double a = phi.norm();
    const double c3 = a < 0.2 ? 1.0 / 12.0 + a * a * (1.0 / 720.0 + a * a * (1.0 / 30240.0 + a * a / 1209600.0))
                              : (1.0 - 0.5 * a / std::tan(0.5 * a)) / (a * a);
    const Mat3 P = skew(phi);
    return Mat3::Identity() - 0.5 * P + c3 * P * P;
}

// T v = v + c1 phi x v + c2 phi x (phi x v), with phi x (phi x v) = phi (phi.v) - v (phi.phi):
// d(T v) = -c1 [v] dphi + c2 ((phi.v) I + phi v^T - 2 v phi^T) dphi
//          + (d1 phi x v + d2 phi x (phi x v)) phi^T dphi      (dc/dphi = c'(a) phi^T / a).
Mat3 rotvec_T_times_derivative(const Vec3& phi, const Vec3& v) {
    const TCoef k = tcoef(phi.norm());
    const Vec3 pv = phi.cross(v);
    const Mat3 M = phi.dot(v) * Mat3::Identity() + phi * v.transpose() - 2.0 * v * phi.transpose();
    return -k.c1 * skew(v) + k.c2 * M + (k.d1 * pv + k.d2 * phi.cross(pv)) * phi.transpose();
}

Vec3 matrix_to_rotation_vector(const Mat3& R) {
    Eigen::AngleAxisd aa(R);
    return aa.angle() * aa.axis();
}

Vec3 matrix_to_euler123(const Mat3& R) {
    // R = Rx(a) Ry(b) Rz(c): R(0,2) = sin b, R(1,2) = -sin a cos b, R(2,2) = cos a cos b,
    // R(0,0) = cos b cos c, R(0,1) = -cos b sin c.
    double sb = std::clamp(R(0, 2), -1.0, 1.0);
    double b = std::asin(sb);
    if (std::fabs(sb) > 1.0 - 1e-12) {
        // Gimbal lock: a and c rotate about the same axis; put all of it in c.
        double c = std::atan2(R(1, 0), R(1, 1));
        return {0.0, b, c};
    }
    return {std::atan2(-R(1, 2), R(2, 2)), b, std::atan2(-R(0, 1), R(0, 0))};
}

Vec3 matrix_to_euler313(const Mat3& R) {
    // R = Rz(a) Rx(b) Rz(c): R(2,2) = cos b, R(0,2) = sin a sin b, R(1,2) = -cos a sin b,
    // R(2,0) = sin b sin c, R(2,1) = sin b cos c.
    double cb = std::clamp(R(2, 2), -1.0, 1.0);
    double b = std::acos(cb);
    if (std::fabs(cb) > 1.0 - 1e-12) {
        double c = std::atan2(R(1, 0), R(0, 0));
        if (cb < 0) c = std::atan2(-R(1, 0), R(0, 0));
        return {0.0, b, c};
    }
    return {std::atan2(R(0, 2), -R(1, 2)), b, std::atan2(R(2, 0), R(2, 1))};
}

Vec3 matrix_to_euler321(const Mat3& R) {
    // R = Rz(a) Ry(b) Rx(c): R(2,0) = -sin b, R(1,0) = sin a cos b, R(0,0) = cos a cos b,
    // R(2,1) = cos b sin c, R(2,2) = cos b cos c.
    double sb = std::clamp(-R(2, 0), -1.0, 1.0);
    double b = std::asin(sb);
    if (std::fabs(sb) > 1.0 - 1e-12) {
        double c = std::atan2(-R(1, 2), R(1, 1));
        return {0.0, b, c};
    }
    return {std::atan2(R(1, 0), R(0, 0)), b, std::atan2(R(2, 1), R(2, 2))};
}

}  // namespace mbs
