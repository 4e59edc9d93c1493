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
