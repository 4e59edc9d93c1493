// Coefficients of the integration formulas (DESIGN.md 3).
#include "solvers/dae/integrator.hpp"

namespace mbs {

// D     = 2 (1 + alpha) - (1 - rho)^2
// beta  = alpha [(1 - rho)^2 (2 + alpha) + 2 (2 rho - 1)(1 + alpha)] / D
// delta = 1/2 alpha^2 (1 - rho)^2 / D
// a1 = 1 - beta, a2 = beta, b0 = T (delta/alpha + alpha/2),
// b1 = T (beta/2 + alpha/2 - delta (1 + alpha)/alpha), b2 = T (beta/2 + delta)
// predictor: n0 = 1 + 4 alpha + 3 alpha^2, n1 = alpha (2 + 3 alpha), m0 = -6 alpha (1 + alpha), m1 = -m0
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

StepCoefficients Method::differential(double h, double T, bool first) const {
    switch (kind) {
        case Kind::crank_nicolson: return crank_nicolson_coefficients(h);
        case Kind::implicit_euler: return implicit_euler_coefficients(h);
        case Kind::ms: return first ? crank_nicolson_coefficients(h) : ms_coefficients(rho, h, T);
    }
    return {};
}

StepCoefficients Method::algebraic(double h, double T, bool first) const {
    if (kind != Kind::ms) return differential(h, T, first);
    return first ? crank_nicolson_coefficients(h) : ms_coefficients(rho_alg, h, T);
}

}  // namespace mbs
