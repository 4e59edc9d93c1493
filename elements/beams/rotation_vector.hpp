// Rotation vector phi (R = exp([phi]), angle theta = |phi|) with its tangent operator and the
// derivatives the beams need (beam_element.cpp interpolates the rotation vectors of the nodes
// relative to the reference node: exact for uniform curvature and twist).
//   Gamma(phi)    = I + a(s) [phi] + b(s) [phi]^2,   s = phi.phi,
//                   a = (1 - cos theta)/s,  b = (theta - sin theta)/(s theta)
//                   (dR R^T = [Gamma dphi], the spatial tangent: CGR's G(g) for the rotation
//                   vector; Gamma = I + 1/2 [phi] + O(s))
//   Gamma(phi)^-1 = I - 1/2 [phi] + d(s) [phi]^2,    d = (1 - (theta/2) cot(theta/2))/s
// With [phi]^2 v = phi (phi.v) - s v, whose derivative is (phi.v) I + phi v^T - 2 v phi^T, and
// ds/dphi = 2 phi^T (a', b', ... derivatives with respect to s):
//   Gd(phi, v) = d(Gamma v)/dphi = 2 a' (phi x v) phi^T - a [v] + 2 b' ([phi]^2 v) phi^T
//                                  + b ((phi.v) I + phi v^T - 2 v phi^T)
//   E(phi, w) v = Gd(phi, v) w:  E = 2 a' (phi.w) [phi] + a [w] + 2 b' (phi.w) (phi phi^T - s I)
//                                  + b (w phi^T + phi w^T - 2 (phi.w) I)
//   Gd2(phi, v, w) = d/dphi [Gd(phi, v) w]   (the derivative of E(phi, w) v, term by term)
//   Ginv_d(phi, z) = d/dphi [Gamma^-1 z] = 1/2 [z] + 2 d' ([phi]^2 z) phi^T
//                                          + d ((phi.z) I + phi z^T - 2 z phi^T)
// a, b and their derivatives are power series in s below s = 1 (no cancellation), closed forms
// above; d likewise below s = 0.01.
#pragma once

#include "core/math.hpp"

namespace mbs::rotvec {

Mat3 Gamma(const Vec3& phi);
Mat3 Gamma_inverse(const Vec3& phi);
Mat3 Gd(const Vec3& phi, const Vec3& v);
Mat3 E(const Vec3& phi, const Vec3& w);
Mat3 Gd2(const Vec3& phi, const Vec3& v, const Vec3& w);
Mat3 Ginv_d(const Vec3& phi, const Vec3& z);

}  // namespace mbs::rotvec
