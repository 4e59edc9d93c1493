// Rotation parametrisations used by the engine and the output writers:
// Cayley-Gibbs-Rodrigues (CGR) parameters g with R(g) and G(g) in exact form (docs/formulation.md
// 2), rotation vectors, and Euler angles (matrix -> angles) for MBDyn's output orientation formats.
#pragma once

#include "core/math.hpp"

namespace mbs {

// R(g) = I + 4/(4 + g.g) (skew(g) + 1/2 skew(g)^2); g = 2 tan(theta/2) * axis.
Mat3 cgr_to_matrix(const Vec3& g);
// G(g) = 4/(4 + g.g) (I + 1/2 skew(g)): angular velocity w = G(g) g' (+ R(g) w0).
Mat3 cgr_G(const Vec3& g);
// Inverse of cgr_to_matrix for rotations below pi (g grows without bound as theta -> pi).
Vec3 matrix_to_cgr(const Mat3& R);
// Rotation vector (axis * angle, angle in [0, pi]), robust near 0 and near pi.
Vec3 matrix_to_rotation_vector(const Mat3& R);
// Euler angles (radians) such that euler123_to_matrix(angles) == R (etc.). At gimbal lock the
// first angle is set to 0 and the third carries the whole rotation about the aligned axes.
Vec3 matrix_to_euler123(const Mat3& R);
Vec3 matrix_to_euler313(const Mat3& R);
Vec3 matrix_to_euler321(const Mat3& R);

}  // namespace mbs
