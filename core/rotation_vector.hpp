// Rotation vector phi (R = exp([phi]), angle theta = |phi|): its tangent map Gamma, the inverse,
// and their derivatives with respect to phi. One implementation for the beams
// (beam_element.cpp interpolates the rotation vectors of the nodes relative to the reference node)
// and the joints that work with log(R) (deformable joints, screw joint, total joints).
//   Gamma(phi)    = I + a(s) [phi] + b(s) [phi]^2,   s = phi.phi,
//                   a = (1 - cos theta)/s,  b = (theta - sin theta)/(s theta)
//                   (dR R^T = [Gamma dphi] for R = exp([phi]): the spatial tangent, the left
//                   Jacobian J_l of SO(3), exp(phi + dphi) = exp([Gamma dphi]) exp(phi); CGR's
//                   G(g) for the rotation vector; Gamma = I + 1/2 [phi] + O(s). The right
//                   Jacobian, R^T dR = [Gamma^T dphi], is Gamma(phi)^T = Gamma(-phi).)
//   Gamma(phi)^-1 = I - 1/2 [phi] + d(s) [phi]^2,    d = (1 - (theta/2) cot(theta/2))/s
//                   (K = [phi], K^3 = -s K: (I + a K + b K^2)(I - K/2 + d K^2) = I needs
//                   b - a/2 + d (1 - s b) = 0, d = (a/2 - b)/(1 - s b) = (1 - (1 + cos theta)
//                   theta/(2 sin theta))/s, the cotangent form by the half-angle formulas;
//                   d log(R) = Gamma^-1 v for a left increment [v] R)
// With [phi]^2 v = phi (phi.v) - s v, whose derivative is (phi.v) I + phi v^T - 2 v phi^T, and
// ds/dphi = 2 phi^T (a', b', d' the derivatives with respect to s):
//   Gd(phi, v) = d(Gamma v)/dphi = 2 a' (phi x v) phi^T - a [v] + 2 b' ([phi]^2 v) phi^T
//                                  + b ((phi.v) I + phi v^T - 2 v phi^T)
//   E(phi, w) v = Gd(phi, v) w:  E = 2 a' (phi.w) [phi] + a [w] + 2 b' (phi.w) (phi phi^T - s I)
//                                  + b (w phi^T + phi w^T - 2 (phi.w) I)
//   Gd2(phi, v, w) = d/dphi [Gd(phi, v) w]   (the derivative of E(phi, w) v, term by term)
//   Ginv_d(phi, z) = d/dphi [Gamma^-1 z] = 1/2 [z] + 2 d' ([phi]^2 z) phi^T
//                                          + d ((phi.z) I + phi z^T - 2 z phi^T)
//   Ginv_T_d(phi, z) = d/dphi [Gamma^-T z] = -1/2 [z] + (the same two terms)
//   (with theta instead of s: 2 d'(s) = c'(theta)/theta for c(theta) = d(theta^2).)
//
// Numerics. The closed forms cancel for small theta (1 - cos theta, 1 - (theta/2) cot(theta/2),
// and worse in the derivatives: relative error of the closed b'' about 8e-2 at theta = 0.01,
// 2e-13 at theta = 1, 7e-15 at theta = 2, 2e-15 at theta = 2.5). Below s = 6.25 (theta = 2.5)
// a, b, d and their derivatives are power series in s, with only the terms that count at s:
//   a = sum (-1)^n s^n/(2n+2)!,  b = sum (-1)^n s^n/(2n+3)!   (n = 0 .. N_ab)
//   d = sum |B_2n|/(2n)! s^(n-1)  (B: Bernoulli numbers; n = 1 .. N_d + 1; radius s = 4 pi^2)
//   s < 1e-4: N_ab = 5, N_d = 4;  s < 1e-2: 6, 5;  s < 1: 10, 12;  s < 6.25: 13, 23,
// so that the truncation error is about 1e-17 relative or less at the top of each range, for a,
// b, d and all their derivatives: the first dropped term, which bounds the error of the
// alternating a and b series, is at most 9e-19; the d series' terms fall by s/(4 pi^2) < 0.16 or
// faster, so its tail is below 1.2 times its first term, at most 9e-18 (d'). The series are
// exact to round-off: observed relative error <= 2.2e-16 against 60-digit references
// (rotation_vector_test). Above s = 6.25 the closed forms (d by the half-angle tangent, accurate
// up to and past pi) have relative errors <= 2.2e-16 for a, b, d (observed) and about 3e-15 at
// most for the derivatives (estimated over theta in [2.5, pi]; observed 1.6e-15 at
// theta = 2.501, <= 7e-16 at 3 and 3.1). d is singular at theta = 2 pi (callers keep theta <= pi).
//
// Everything here runs per Newton iteration: no allocation; the small functions are inline.
#pragma once

#include <array>
#include <cmath>

#include "core/math.hpp"

namespace mbs::rotvec {

namespace detail {
// 1/k!, k = 0 .. 31 (k! exact in double up to 22!, rounded beyond: relative 1e-16 of terms below
// 1e-23).
inline constexpr std::array<double, 32> inv_factorial = [] {
    std::array<double, 32> t{};
    double f = 1.0;
    for (int k = 0; k < 32; ++k) {
        t[k] = 1.0 / f;
        f *= k + 1;
    }
    return t;
}();
// |B_2n|/(2n)!, n = 1 .. 24: d(s) = sum_n dco[n - 1] s^(n - 1).
inline constexpr double dco[24] = {
    8.3333333333333333333e-2,  1.3888888888888888889e-3,  3.3068783068783068783e-5,
    8.2671957671957671958e-7,  2.0876756987868098979e-8,  5.2841901386874931848e-10,
    1.3382536530684678833e-11, 3.3896802963225828668e-13, 8.5860620562778445641e-15,
    2.174868698558061873e-16,  5.5090028283602295152e-18, 1.3954464685812523341e-19,
    3.5347070396294674717e-21, 8.9535174270375468504e-23, 2.2679524523376830603e-24,
    5.7447906688722024453e-26, 1.4551724756148649019e-27, 3.6859949406653101782e-29,
    9.336734257095044672e-31,  2.3650224157006299346e-32, 5.9906717624821343047e-34,
    1.5174548844682902617e-35, 3.8437581254541882322e-37, 9.7363530726466910353e-39};
// Last series term (N_ab, N_d above) below s = 6.25; -1 for the closed forms.
inline int ab_terms(double s) {
    return s < 1e-4 ? 5 : s < 1e-2 ? 6 : s < 1.0 ? 10 : s < 6.25 ? 13 : -1;
}
inline int d_terms(double s) {
    return s < 1e-4 ? 4 : s < 1e-2 ? 5 : s < 1.0 ? 12 : s < 6.25 ? 23 : -1;
}
}  // namespace detail

// a(s), b(s) and their first and second derivatives with respect to s = theta^2 (with derivs
// false only a and b).
struct Coef {
    double a = 0, a1 = 0, a2 = 0, b = 0, b1 = 0, b2 = 0;
};
inline Coef coefficients(double s, bool derivs = true) {
    Coef c;
    const int N = detail::ab_terms(s);
    if (N >= 0) {
        // Horner from the last term; the coefficient of s^n is (-1)^n/(2n+2)! (a), /(2n+3)! (b).
        for (int n = N; n >= 0; --n) {
            const double sg = n % 2 ? -1.0 : 1.0;
            const double ca = sg * detail::inv_factorial[2 * n + 2];
            const double cb = sg * detail::inv_factorial[2 * n + 3];
            c.a = c.a * s + ca, c.b = c.b * s + cb;
            if (derivs && n >= 1) c.a1 = c.a1 * s + n * ca, c.b1 = c.b1 * s + n * cb;
            if (derivs && n >= 2)
                c.a2 = c.a2 * s + n * (n - 1) * ca, c.b2 = c.b2 * s + n * (n - 1) * cb;
        }
        return c;
    }
    // Closed forms; with c0 = cos theta, sc = sin theta/theta: dc0/ds = -sc/2,
    // dsc/ds = (c0 - sc)/(2 s).
    const double th = std::sqrt(s), c0 = std::cos(th), sc = std::sin(th) / th;
    c.a = (1.0 - c0) / s;
    c.b = (1.0 - sc) / s;
    if (!derivs) return c;
    c.a1 = (0.5 * sc - c.a) / s;
    c.a2 = ((c0 - sc) / (4.0 * s) - 2.0 * c.a1) / s;
    const double m = (sc - c0) / (2.0 * s);  // b1 = (m - b)/s
    c.b1 = (m - c.b) / s;
    const double m1 = ((c0 - sc) / (2.0 * s) + 0.5 * sc) / (2.0 * s) - m / s;
    c.b2 = (m1 - 2.0 * c.b1) / s;
    return c;
}

// d(s) = (1 - (theta/2) cot(theta/2))/s and d'(s).
struct InverseCoef {
    double d = 0, d1 = 0;
};
inline InverseCoef inverse_coefficients(double s) {
    InverseCoef c;
    const int N = detail::d_terms(s);
    if (N >= 0) {
        for (int n = N; n >= 0; --n) c.d = c.d * s + detail::dco[n];
        for (int n = N; n >= 1; --n) c.d1 = c.d1 * s + n * detail::dco[n];
        return c;
    }
    // k = h cot h, h = theta/2; dk/dtheta = 1/2 cot h - h/(2 sin^2 h); d' = (-k'(s) - d)/s with
    // k'(s) = (dk/dtheta)/(2 theta).
    const double th = std::sqrt(s), h = 0.5 * th, t = std::tan(h), sn = std::sin(h);
    const double k = h / t, dk = 0.5 / t - 0.5 * h / (sn * sn);
    c.d = (1.0 - k) / s;
    c.d1 = (-dk / (2.0 * th) - c.d) / s;
    return c;
}

// d/dphi [phi]^2 v = (phi.v) I + phi v^T - 2 v phi^T.
inline Mat3 sq_d(const Vec3& phi, const Vec3& v) {
    return phi.dot(v) * Mat3::Identity() + phi * v.transpose() - 2.0 * v * phi.transpose();
}

inline Mat3 Gamma(const Vec3& phi) {
    const Coef c = coefficients(phi.squaredNorm(), false);
    const Mat3 S = skew(phi);
    return Mat3::Identity() + c.a * S + c.b * S * S;
}

inline Mat3 Gamma_inverse(const Vec3& phi) {
    const InverseCoef c = inverse_coefficients(phi.squaredNorm());
    const Mat3 S = skew(phi);
    return Mat3::Identity() - 0.5 * S + c.d * S * S;
}

inline Mat3 Ginv_d(const Vec3& phi, const Vec3& z) {
    const double s = phi.squaredNorm();
    const InverseCoef c = inverse_coefficients(s);
    const Vec3 q = phi * phi.dot(z) - s * z;
    return 0.5 * skew(z) + (2.0 * c.d1) * q * phi.transpose() + c.d * sq_d(phi, z);
}

inline Mat3 Ginv_T_d(const Vec3& phi, const Vec3& z) {
    const double s = phi.squaredNorm();
    const InverseCoef c = inverse_coefficients(s);
    const Vec3 q = phi * phi.dot(z) - s * z;
    return -0.5 * skew(z) + (2.0 * c.d1) * q * phi.transpose() + c.d * sq_d(phi, z);
}

// The beams' second-order terms (rotation_vector.cpp).
Mat3 Gd(const Vec3& phi, const Vec3& v);
Mat3 E(const Vec3& phi, const Vec3& w);
Mat3 Gd2(const Vec3& phi, const Vec3& v, const Vec3& w);

}  // namespace mbs::rotvec
