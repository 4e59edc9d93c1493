// Coefficients of the integration formulas (docs/formulation.md 3).
#include "solvers/dae/integrator.hpp"

namespace mbs {

// D     = 2 (1 + alpha) - (1 - rho)^2
// beta  = alpha [(1 - rho)^2 (2 + alpha) + 2 (2 rho - 1)(1 + alpha)] / D
// delta = 1/2 alpha^2 (1 - rho)^2 / D
// a1 = 1 - beta, a2 = beta, b0 = T (delta/alpha + alpha/2),
// b1 = T (beta/2 + alpha/2 - delta (1 + alpha)/alpha), b2 = T (beta/2 + delta)
// predictor: n0 = 1 + 4 alpha + 3 alpha^2, n1 = alpha (2 + 3 alpha), m0 = -6 alpha (1 + alpha), m1
// = -m0
StepCoefficients ms_coefficients(double rho, double h, double T) {
    StepCoefficients c;
    double a = h / T;
    double r1 = (1.0 - rho) * (1.0 - rho);
    double D = 2.0 * (1.0 + a) - r1;
    double beta = a * (r1 * (2.0 + a) + 2.0 * (2.0 * rho - 1.0) * (1.0 + a)) / D;
    double delta = 0.5 * a * a * r1 / D;
    c.a1 = 1.0 - beta;
    c.a2 = beta;
    c.b0 = T * (delta / a + 0.5 * a);
    c.b1 = T * (0.5 * beta + 0.5 * a - delta * (1.0 + a) / a);
    c.b2 = T * (0.5 * beta + delta);
    c.n0 = 1.0 + 4.0 * a + 3.0 * a * a;
    c.n1 = a * (2.0 + 3.0 * a);
    c.m0 = -6.0 * a * (1.0 + a);
    c.m1 = -c.m0;
    c.two_step = true;
    return c;
}

// y_k = y_{k-1} + h/2 (y'_k + y'_{k-1}); predictor y'_k = y'_{k-1}.
StepCoefficients crank_nicolson_coefficients(double h) {
    StepCoefficients c;
    c.b0 = c.b1 = 0.5 * h;
    return c;
}

// y_k = y_{k-1} + h y'_k; predictor y'_k = y'_{k-1}.
StepCoefficients implicit_euler_coefficients(double h) {
    StepCoefficients c;
    c.b0 = h;
    return c;
}

// MBDyn's `hope`: every other step is y_k = a1 y_{k-1} + a2 y_{k-2} + b0 y'_k + b1 y'_{k-1}
// (no y'_{k-2} term). With A = 4 rho / (3 + rho), b0 = h (4 - A) / 6 is MBDyn's; a1, a2, b1
// follow from the order conditions for y = 1, t, t^2 with t_{k-1} = -h, t_{k-2} = -(h + T):
//   a1 + a2 = 1,  b0 + b1 = h + a2 T,  a2 T^2 = h (h - 2 b0),
// which at T = h give MBDyn's constant-step values a1 = (4 - A)/3, a2 = (A - 1)/3, b1 = h A / 2
// (rho = 1: trapezoidal rule; rho = 0: BDF2). Predictor as for ms.
StepCoefficients hope_coefficients(double rho, double h, double T) {
    StepCoefficients c = ms_coefficients(rho, h, T);  // predictor coefficients
    double A = 4.0 * rho / (3.0 + rho);
    c.b0 = h * (4.0 - A) / 6.0;
    c.a2 = h * (h - 2.0 * c.b0) / (T * T);
    c.a1 = 1.0 - c.a2;
    c.b1 = h + c.a2 * T - c.b0;
    c.b2 = 0.0;
    c.two_step = true;
    return c;
}

StepCoefficients Method::differential(double h, double T, bool first, long k) const {
    switch (kind) {
        case Kind::crank_nicolson:
            return crank_nicolson_coefficients(h);
        case Kind::implicit_euler:
            return implicit_euler_coefficients(h);
        case Kind::ms:
            return first ? crank_nicolson_coefficients(h) : ms_coefficients(rho, h, T);
        case Kind::hope:
            return (first || k % 2 == 1) ? crank_nicolson_coefficients(h)
                                         : hope_coefficients(rho, h, T);
    }
    return {};
}

StepCoefficients Method::algebraic(double h, double T, bool first, long k) const {
    switch (kind) {
        case Kind::ms:
            return first ? crank_nicolson_coefficients(h) : ms_coefficients(rho_alg, h, T);
        case Kind::hope:
            return (first || k % 2 == 1) ? crank_nicolson_coefficients(h)
                                         : hope_coefficients(rho_alg, h, T);
        default:
            return differential(h, T, first, k);
    }
}

}  // namespace mbs
