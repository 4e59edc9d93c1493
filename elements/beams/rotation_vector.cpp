// Rotation vector tangent operators (rotation_vector.hpp, where the formulas are derived).
#include "elements/beams/rotation_vector.hpp"

#include <cmath>

namespace mbs::rotvec {
namespace {

// a(s), b(s) and their first and second derivatives with respect to s = theta^2.
struct Coef {
    double a, a1, a2, b, b1, b2;
};

// With derivs false only a and b. Series below s = 1, with the terms that count at s: after
// n = 5 (s < 1e-4), 7 (s < 1e-2), 12 (s < 1) the next term of a'' is below 1e-16 of a''(0).
Coef coef(double s, bool derivs = true) {
    Coef c{};
    if (s < 1.0) {
        // a = sum (-1)^n s^n/(2n+2)!,  b = sum (-1)^n s^n/(2n+3)!
        const int nmax = s < 1e-4 ? 5 : s < 1e-2 ? 7 : 12;
        double fa = 0.5, fb = 1.0 / 6.0;     // 1/(2n+2)!, 1/(2n+3)!
        double p = 1.0, p1 = 0.0, p2 = 0.0;  // s^n, s^(n-1), s^(n-2) (0 for negative powers)
        for (int n = 0; n <= nmax; ++n) {
            const double sg = n % 2 ? -1.0 : 1.0;
            c.a += sg * fa * p, c.b += sg * fb * p;
            if (derivs) {
                c.a1 += sg * n * fa * p1, c.b1 += sg * n * fb * p1;
                c.a2 += sg * n * (n - 1) * fa * p2, c.b2 += sg * n * (n - 1) * fb * p2;
            }
            p2 = p1, p1 = p, p *= s;
            fa /= (2.0 * n + 3.0) * (2.0 * n + 4.0);
            fb /= (2.0 * n + 4.0) * (2.0 * n + 5.0);
        }
        return c;
    }
    // Closed forms; with c0 = cos theta, sc = sin theta/theta: dc0/ds = -sc/2,
    // dsc/ds = (c0 - sc)/(2 s).
    const double th = std::sqrt(s), c0 = std::cos(th), sc = std::sin(th) / th;
    c.a = (1.0 - c0) / s;
    c.a1 = (0.5 * sc - c.a) / s;
    c.a2 = ((c0 - sc) / (4.0 * s) - 2.0 * c.a1) / s;
    c.b = (1.0 - sc) / s;
    const double m = (sc - c0) / (2.0 * s);  // b1 = (m - b)/s
    c.b1 = (m - c.b) / s;
    const double m1 = ((c0 - sc) / (2.0 * s) + 0.5 * sc) / (2.0 * s) - m / s;
    c.b2 = (m1 - 2.0 * c.b1) / s;
    return c;
}

// d(s) = (1 - (theta/2) cot(theta/2))/s and d'(s).
void coef_inverse(double s, double& d, double& d1) {
    if (s < 0.01) {
        d = 1.0 / 12 + s * (1.0 / 720 + s * (1.0 / 30240 + s * (1.0 / 1209600 + s / 47900160)));
        d1 = 1.0 / 720 + s * (2.0 / 30240 + s * (3.0 / 1209600 + s * 4.0 / 47900160));
        return;
    }
    // (theta/2) cot(theta/2) = k = (1 + c0)/(2 sc).
    const double th = std::sqrt(s), c0 = std::cos(th), sc = std::sin(th) / th;
    const double k = (1.0 + c0) / (2.0 * sc);
    const double k1 = (-0.5 * sc * sc - (1.0 + c0) * (c0 - sc) / (2.0 * s)) / (2.0 * sc * sc);
    d = (1.0 - k) / s;
    d1 = (-k1 - d) / s;
}

// d/dphi [phi]^2 v = (phi.v) I + phi v^T - 2 v phi^T.
Mat3 sq_d(const Vec3& phi, const Vec3& v) {
    return phi.dot(v) * Mat3::Identity() + phi * v.transpose() - 2.0 * v * phi.transpose();
}

}  // namespace

Mat3 Gamma(const Vec3& phi) {
    const Coef c = coef(phi.squaredNorm(), false);
    const Mat3 S = skew(phi);
    return Mat3::Identity() + c.a * S + c.b * S * S;
}

Mat3 Gamma_inverse(const Vec3& phi) {
    double d, d1;
    coef_inverse(phi.squaredNorm(), d, d1);
    const Mat3 S = skew(phi);
    return Mat3::Identity() - 0.5 * S + d * S * S;
}

Mat3 Gd(const Vec3& phi, const Vec3& v) {
    const double s = phi.squaredNorm();
    const Coef c = coef(s);
    const Vec3 u = phi.cross(v), q = phi * phi.dot(v) - s * v;
    return 2.0 * (c.a1 * u + c.b1 * q) * phi.transpose() - c.a * skew(v) + c.b * sq_d(phi, v);
}

Mat3 E(const Vec3& phi, const Vec3& w) {
    const double s = phi.squaredNorm(), pw = phi.dot(w);
    const Coef c = coef(s);
    const Mat3 I = Mat3::Identity();
    return 2.0 * c.a1 * pw * skew(phi) + c.a * skew(w) +
           2.0 * c.b1 * pw * (phi * phi.transpose() - s * I) +
           c.b * (w * phi.transpose() + phi * w.transpose() - 2.0 * pw * I);
}

// d/dphi of E(phi, w) v = 2 a' (phi.w)(phi x v) - a (v x w) + 2 b' (phi.w) q + b r,
// q = [phi]^2 v, r = (phi.v) w + (v.w) phi - 2 (phi.w) v.
Mat3 Gd2(const Vec3& phi, const Vec3& v, const Vec3& w) {
    const double s = phi.squaredNorm(), pw = phi.dot(w), pv = phi.dot(v);
    const Coef c = coef(s);
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

Mat3 Ginv_d(const Vec3& phi, const Vec3& z) {
    double d, d1;
    const double s = phi.squaredNorm();
    coef_inverse(s, d, d1);
    const Vec3 q = phi * phi.dot(z) - s * z;
    return 0.5 * skew(z) + (2.0 * d1) * q * phi.transpose() + d * sq_d(phi, z);
}

}  // namespace mbs::rotvec
