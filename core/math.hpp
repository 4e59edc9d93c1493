// Fixed-size math types and the rotation parametrisations used by the deck language.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace mbs {

using Vec3 = Eigen::Vector3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat3 = Eigen::Matrix3d;
using Mat6 = Eigen::Matrix<double, 6, 6>;

// Skew-symmetric cross-product matrix: skew(a) b = a x b.
inline Mat3 skew(const Vec3& a) {
    Mat3 m;
    m << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
    return m;
}

// Axial vector of the skew-symmetric part of A: axial(skew(a)) = a; axial(R) = sin(theta) n.
inline Vec3 axial(const Mat3& A) {
    return 0.5 * Vec3(A(2, 1) - A(1, 2), A(0, 2) - A(2, 0), A(1, 0) - A(0, 1));
}

// Elementary rotations about the axes of the moving frame (angles in radians).
inline Mat3 rot_x(double a) { return Eigen::AngleAxisd(a, Vec3::UnitX()).toRotationMatrix(); }
inline Mat3 rot_y(double a) { return Eigen::AngleAxisd(a, Vec3::UnitY()).toRotationMatrix(); }
inline Mat3 rot_z(double a) { return Eigen::AngleAxisd(a, Vec3::UnitZ()).toRotationMatrix(); }

// MBDyn's Euler sequences: successive rotations about the moving axes.
// euler123 (Cardan/Bryant): R = Rx(a1) Ry(a2) Rz(a3); euler313: Rz Rx Rz; euler321: Rz Ry Rx.
inline Mat3 euler123_to_matrix(const Vec3& a) { return rot_x(a[0]) * rot_y(a[1]) * rot_z(a[2]); }
inline Mat3 euler313_to_matrix(const Vec3& a) { return rot_z(a[0]) * rot_x(a[1]) * rot_z(a[2]); }
inline Mat3 euler321_to_matrix(const Vec3& a) { return rot_z(a[0]) * rot_y(a[1]) * rot_x(a[2]); }

// Rotation vector phi (axis * angle) to matrix, R = exp(skew(phi)).
inline Mat3 rotation_vector_to_matrix(const Vec3& phi) {
    double th = phi.norm();
    if (th < 1e-300) return Mat3::Identity();
    return Eigen::AngleAxisd(th, phi / th).toRotationMatrix();
}

}  // namespace mbs
