// Integration formulas (docs/formulation.md 3): the two-step method with tunable algorithmic
// dissipation and its variable-step coefficients, Crank-Nicolson, implicit Euler; the cubic
// predictor.
//
//   corrector  y_k  = a1 y_{k-1} + a2 y_{k-2} + b0 y'_k + b1 y'_{k-1} + b2 y'_{k-2}
//   predictor  y'_k = (m0 y_{k-1} + m1 y_{k-2}) / T + n0 y'_{k-1} + n1 y'_{k-2}
// with T the previous step and alpha = h / T.
#pragma once

#include <string>

#include "core/model.hpp"

namespace mbs {

struct StepCoefficients {
    double a1 = 1.0, a2 = 0.0, b0 = 0.0, b1 = 0.0, b2 = 0.0;  // corrector
    double m0 = 0.0, m1 = 0.0, n0 = 1.0, n1 = 0.0;            // predictor of y'
    bool two_step = false;                                    // uses y_{k-2}
};

// The two-step method with asymptotic spectral radius rho in [0, 1] (docs/formulation.md 3).
StepCoefficients ms_coefficients(double rho, double h, double T);
StepCoefficients crank_nicolson_coefficients(double h);
StepCoefficients implicit_euler_coefficients(double h);
// The non-trapezoidal step of MBDyn's `hope` method (one-step-back form, b2 = 0) with radius rho.
StepCoefficients hope_coefficients(double rho, double h, double T);

// The method chosen in the deck's `method:` card.
struct Method {
    enum class Kind { ms, hope, crank_nicolson, implicit_euler };
    Kind kind = Kind::ms;
    double rho = 0.0;      // differential unknowns
    double rho_alg = 0.0;  // algebraic unknowns (prediction only: multipliers are solved for)
    std::string name = "ms";

    // Coefficients for step number k (1, 2, ...) of size h after a step T; the first step (no
    // y_{k-2}) uses Crank-Nicolson for the two-step methods. `hope` alternates Crank-Nicolson
    // (odd k) and hope_coefficients (even k).
    StepCoefficients differential(double h, double T, bool first, long k = 0) const;
    StepCoefficients algebraic(double h, double T, bool first, long k = 0) const;
};

}  // namespace mbs
