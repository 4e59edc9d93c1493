// The beams' second-order rotation vector terms (rotation_vector.hpp, where the formulas are
// derived; Gamma, its inverse and their coefficients are inline there).
#include "core/rotation_vector.hpp"

namespace mbs::rotvec {

Mat3 Gd(const Vec3& phi, const Vec3& v) {
    const double s = phi.squaredNorm();
    const Coef c = coefficients(s);
    const Vec3 u = phi.cross(v), q = phi * phi.dot(v) - s * v;
    return 2.0 * (c.a1 * u + c.b1 * q) * phi.transpose() - c.a * skew(v) + c.b * sq_d(phi, v);
}

Mat3 E(const Vec3& phi, const Vec3& w) {
    const double s = phi.squaredNorm(), pw = phi.dot(w);
    const Coef c = coefficients(s);
    const Mat3 I = Mat3::Identity();
    return 2.0 * c.a1 * pw * skew(phi) + c.a * skew(w) +
           2.0 * c.b1 * pw * (phi * phi.transpose() - s * I) +
           c.b * (w * phi.transpose() + phi * w.transpose() - 2.0 * pw * I);
}

// d/dphi of E(phi, w) v = 2 a' (phi.w)(phi x v) - a (v x w) + 2 b' (phi.w) q + b r,
// q = [phi]^2 v, r = (phi.v) w + (v.w) phi - 2 (phi.w) v.
Mat3 Gd2(const Vec3& phi, const Vec3& v, const Vec3& w) {
    const double s = phi.squaredNorm(), pw = phi.dot(w), pv = phi.dot(v);
    const Coef c = coefficients(s);
    const Vec3 u = phi.cross(v), q = phi * pv - s * v;
    const Vec3 r = pv * w + v.dot(w) * phi - 2.0 * pw * v;
    Mat3 D = (4.0 * c.a2 * pw) * u * phi.transpose() + (2.0 * c.a1) * u * w.transpose() -
             (2.0 * c.a1 * pw) * skew(v);
    D -= (2.0 * c.a1) * v.cross(w) * phi.transpose();
    D += (4.0 * c.b2 * pw) * q * phi.transpose() + (2.0 * c.b1) * q * w.transpose() +
         (2.0 * c.b1 * pw) * sq_d(phi, v);
    D += (2.0 * c.b1) * r * phi.transpose() +
         c.b * (w * v.transpose() + v.dot(w) * Mat3::Identity() - 2.0 * v * w.transpose());
    return D;
}

}  // namespace mbs::rotvec
