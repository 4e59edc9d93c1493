// The two-step integration formula with tunable dissipation (docs/formulation.md 3), tested on its
// own:
//  - coefficients against the closed forms at alpha = 1 (docs/formulation.md 3) and BDF2 at rho =
//  0;
//  - order conditions (exactness for t^0, t^1, t^2) of the corrector and (t^0..t^3) of the cubic
//    predictor, for constant and variable steps (alpha = 0.5, 2);
//  - asymptotic spectral radius: b0 z^2 + b1 z + b2 = b0 (z + rho)^2 for any alpha;
//  - the scalar test equation y'' = -w^2 y in first-order form, integrated the way the engine
//    does it (Crank-Nicolson first step, cubic predictor of y', Newton on y' with
//    y = known + b0 y'): per-step amplitude ratio at w h = 1e4 and 1e8 against rho and against the
//    exact spectral radius of the method; second order at w h = 0.01; no dissipation at rho = 1.
//
// Why |ratio - rho| < 1e-3 is checked at w h = 1e8 and not 1e4: at infinity the characteristic
// polynomial has the double root z = -rho, and at finite w h it splits by O((w h)^-1/2). The exact
// spectral radius at w h = 1e4 is 0.00714 (rho = 0), 0.60643 (rho = 0.6), 1 (rho = 1): 6-7e-3
// from rho, which the integration reproduces to 1e-9. At w h = 1e8 the split is 7e-5.
#include "solvers/dae/integrator.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <complex>
#include <vector>

using namespace mbs;

namespace {

using V2 = std::array<double, 2>;

Method ms(double rho) {
    Method m;
    m.kind = Method::Kind::ms;
    m.rho = m.rho_alg = rho;
    return m;
}

// y'' = -w^2 y as u = (y, v), u' = A u with A = [[0, 1], [-w^2, 0]].
struct Oscillator {
    double w;
    V2 f(const V2& u) const { return {u[1], -w * w * u[0]}; }
    // Solves (I - c A) x = b.
    V2 solve(double c, const V2& b) const {
        double det = 1.0 + c * c * w * w;
        return {(b[0] + c * b[1]) / det, (b[1] - c * w * w * b[0]) / det};
    }
    double amplitude(const V2& u) const { return std::hypot(u[0], u[1] / w); }  // energy norm
};

// Integrates the oscillator from u0 with constant step h for n steps exactly as the engine
// does (simulation.cpp: first step Crank-Nicolson, then the two-step formula with the cubic
// predictor, Newton on y'). Calls on_step(k, u) after each step; `renormalize` rescales the
// stored history by the new amplitude after each step (the problem is linear, so the per-step
// ratios are unchanged) so that long runs of a strongly damped mode do not underflow.
template <class F>
void integrate(const Oscillator& osc, const Method& m, double h, int n, V2 u0, bool renormalize,
               F on_step) {
    V2 y1 = u0, yp1 = osc.f(u0), y2{0, 0}, yp2{0, 0};
    double T = h;
    for (int k = 1; k <= n; ++k) {
        StepCoefficients c = m.differential(h, T, k == 1, k);
        V2 yp, known, y;
        for (int i = 0; i < 2; ++i) {
            yp[i] = c.two_step ? (c.m0 * y1[i] + c.m1 * y2[i]) / T + c.n0 * yp1[i] + c.n1 * yp2[i]
                               : yp1[i];
            known[i] = c.a1 * y1[i] + c.a2 * y2[i] + c.b1 * yp1[i] + c.b2 * yp2[i];
        }
        for (int it = 0; it < 3; ++it) {  // linear problem: the first iteration is exact
            for (int i = 0; i < 2; ++i) y[i] = known[i] + c.b0 * yp[i];
            V2 fy = osc.f(y);
            V2 r{yp[0] - fy[0], yp[1] - fy[1]};  // residual r(y', y) = y' - A y
            V2 dyp = osc.solve(c.b0, {-r[0], -r[1]});
            yp[0] += dyp[0], yp[1] += dyp[1];
        }
        for (int i = 0; i < 2; ++i) y[i] = known[i] + c.b0 * yp[i];
        y2 = y1, yp2 = yp1, y1 = y, yp1 = yp;
        T = h;
        on_step(k, y);
        if (renormalize) {
            double s = 1.0 / osc.amplitude(y);
            for (V2* v : {&y1, &y2, &yp1, &yp2}) (*v)[0] *= s, (*v)[1] *= s;
        }
    }
}

// Largest root modulus of (1 - b0 l) z^2 - (a1 + b1 l) z - (a2 + b2 l) = 0, l = i w h (the
// characteristic polynomial of the constant-step formula applied to y' = i w y).
double spectral_radius(double rho, double wh) {
    StepCoefficients c = ms_coefficients(rho, 1.0, 1.0);
    std::complex<double> l(0.0, wh);
    std::complex<double> A = 1.0 - c.b0 * l, B = -(c.a1 + c.b1 * l), C = -(c.a2 + c.b2 * l);
    std::complex<double> s = std::sqrt(B * B - 4.0 * A * C);
    return std::max(std::abs((-B + s) / (2.0 * A)), std::abs((-B - s) / (2.0 * A)));
}

// Per-step amplitude ratio after n steps at w h = wh (h = 1).
double asymptotic_ratio(double rho, double wh, int n) {
    Oscillator osc{wh};
    double ratio = 0.0;
    integrate(osc, ms(rho), 1.0, n, {1.0, 0.0}, true,
              [&](int, const V2& u) { ratio = osc.amplitude(u); });
    return ratio;  // history is renormalized to amplitude 1 after each step
}

}  // namespace

TEST(Integrator, ConstantStepClosedForms) {
    for (double rho : {0.0, 0.3, 0.6, 0.8, 1.0}) {
        for (double h : {1e-3, 0.5}) {
            SCOPED_TRACE("rho = " + std::to_string(rho) + ", h = " + std::to_string(h));
            StepCoefficients c = ms_coefficients(rho, h, h);
            double d = (1.0 + rho) * (3.0 - rho);
            EXPECT_NEAR(c.a1, 4.0 * (1.0 - rho) / (3.0 - rho), 1e-15);
            EXPECT_NEAR(c.a2, (3.0 * rho - 1.0) / (3.0 - rho), 1e-15);
            EXPECT_NEAR(c.b0 / h, 2.0 / d, 1e-15);
            EXPECT_NEAR(c.b1 / h, 4.0 * rho / d, 1e-15);
            EXPECT_NEAR(c.b2 / h, 2.0 * rho * rho / d, 1e-15);
            // predictor at alpha = 1: y'_pred = -12 (y1 - y2)/h + 8 y'1 + 5 y'2
            EXPECT_DOUBLE_EQ(c.m0, -12.0);
            EXPECT_DOUBLE_EQ(c.m1, 12.0);
            EXPECT_DOUBLE_EQ(c.n0, 8.0);
            EXPECT_DOUBLE_EQ(c.n1, 5.0);
            EXPECT_TRUE(c.two_step);
        }
    }
    // rho = 0 is BDF2: y_k = 4/3 y_{k-1} - 1/3 y_{k-2} + 2h/3 y'_k
    StepCoefficients c = ms_coefficients(0.0, 0.1, 0.1);
    EXPECT_NEAR(c.a1, 4.0 / 3.0, 1e-15);
    EXPECT_NEAR(c.a2, -1.0 / 3.0, 1e-15);
    EXPECT_NEAR(c.b0, 0.2 / 3.0, 1e-16);
    EXPECT_NEAR(c.b1, 0.0, 1e-16);
    EXPECT_NEAR(c.b2, 0.0, 1e-16);
}

// With t_k = 0, t_{k-1} = -h, t_{k-2} = -h - T, the corrector must reproduce y = t^p (p = 0, 1, 2)
// exactly and the predictor y' = t^p (p = 0..3).
TEST(Integrator, OrderConditionsVariableStep) {
    for (double rho : {0.0, 0.6, 1.0}) {
        for (double alpha : {0.5, 1.0, 2.0}) {
            for (double T : {1e-3, 0.7}) {
                SCOPED_TRACE("rho = " + std::to_string(rho) + ", alpha = " + std::to_string(alpha) +
                             ", T = " + std::to_string(T));
                double h = alpha * T;
                StepCoefficients c = ms_coefficients(rho, h, T);
                double t0 = 0.0, t1 = -h, t2 = -h - T;
                for (int p = 0; p <= 3; ++p) {
                    auto y = [p](double t) { return std::pow(t, p); };
                    auto yp = [p](double t) { return p == 0 ? 0.0 : p * std::pow(t, p - 1); };
                    double scale = std::pow(h + T, p);  // size of the terms
                    double corr =
                        c.a1 * y(t1) + c.a2 * y(t2) + c.b0 * yp(t0) + c.b1 * yp(t1) + c.b2 * yp(t2);
                    if (p <= 2) {
                        EXPECT_NEAR(corr, y(t0), 1e-14 * scale) << "corrector, t^" << p;
                    }
                    double pred = (c.m0 * y(t1) + c.m1 * y(t2)) / T + c.n0 * yp(t1) + c.n1 * yp(t2);
                    EXPECT_NEAR(pred, yp(t0), 1e-13 * scale / T) << "predictor, t^" << p;
                }
                // second order, not third: the t^3 condition fails (except by accident)
                double c3 = c.a1 * std::pow(t1, 3) + c.a2 * std::pow(t2, 3) +
                            3.0 * (c.b1 * t1 * t1 + c.b2 * t2 * t2);
                EXPECT_GT(std::abs(c3), 1e-6 * std::pow(h + T, 3));
            }
        }
    }
}

// Spectral radius at infinity: the roots of b0 z^2 + b1 z + b2 are the double root -rho,
// for constant and variable steps.
TEST(Integrator, SpectralRadiusAtInfinity) {
    for (double rho : {0.0, 0.3, 0.6, 1.0}) {
        for (double alpha : {0.5, 1.0, 2.0}) {
            SCOPED_TRACE("rho = " + std::to_string(rho) + ", alpha = " + std::to_string(alpha));
            StepCoefficients c = ms_coefficients(rho, alpha * 0.01, 0.01);
            EXPECT_NEAR(c.b1, 2.0 * rho * c.b0, 1e-15);
            EXPECT_NEAR(c.b2, rho * rho * c.b0, 1e-15);
        }
    }
}

// The first step of `ms` is Crank-Nicolson (no y_{k-2} yet); later steps use the two-step formula
// (differential and algebraic unknowns with their own radii).
TEST(Integrator, MethodFirstStepAndRadii) {
    Method m = ms(0.6);
    m.rho_alg = 0.2;
    StepCoefficients f = m.differential(0.1, 0.1, true);
    EXPECT_FALSE(f.two_step);
    EXPECT_DOUBLE_EQ(f.a1, 1.0);
    EXPECT_DOUBLE_EQ(f.b0, 0.05);
    EXPECT_DOUBLE_EQ(f.b1, 0.05);
    StepCoefficients d = m.differential(0.1, 0.1, false), a = m.algebraic(0.1, 0.1, false);
    EXPECT_DOUBLE_EQ(d.b2, ms_coefficients(0.6, 0.1, 0.1).b2);
    EXPECT_DOUBLE_EQ(a.b2, ms_coefficients(0.2, 0.1, 0.1).b2);
}

// w h = 1e4: after many steps the amplitude ratio per step is the exact spectral radius of the
// method at that w h (to 1e-9), which is within 1e-2 of rho (6.4e-3 for rho = 0.6, 7.1e-3 for
// rho = 0, 0 for rho = 1; see the note at the top). w h = 1e8: within 1e-3 of rho.
TEST(Integrator, HighFrequencyAmplitudeRatio) {
    for (double rho : {0.0, 0.6, 1.0}) {
        SCOPED_TRACE("rho = " + std::to_string(rho));
        double exact = spectral_radius(rho, 1e4);
        double r4 = asymptotic_ratio(rho, 1e4, 3000);
        EXPECT_NEAR(r4, exact, 1e-9);
        EXPECT_NEAR(r4, rho, 1e-2);
        double r8 = asymptotic_ratio(rho, 1e8, 3000);
        EXPECT_NEAR(r8, rho, 1e-3);
        EXPECT_NEAR(spectral_radius(rho, 1e8), rho, 1e-4);
        std::printf(
            "rho = %.1f: ratio per step %.9f at w h = 1e4 (exact radius %.9f), %.6f at w h = 1e8\n",
            rho, r4, exact, r8);
    }
    // rho = 1 keeps the high-frequency amplitude: every step, not only asymptotically
    Oscillator osc{1e4};
    integrate(osc, ms(1.0), 1.0, 200, {1.0, 0.0}, false, [&](int k, const V2& u) {
        EXPECT_NEAR(osc.amplitude(u), 1.0, 1e-12) << "step " << k;
    });
}

// w h = 0.01: second order (error ratio 4 when h is halved), y(t) = cos(w t), t = 1.
TEST(Integrator, SecondOrderAtLowFrequency) {
    Oscillator osc{1.0};
    for (double rho : {0.0, 0.6, 1.0}) {
        std::vector<double> err;
        for (double h : {0.01, 0.005, 0.0025}) {
            int n = static_cast<int>(std::lround(1.0 / h));
            V2 y{};
            integrate(osc, ms(rho), h, n, {1.0, 0.0}, false, [&](int, const V2& u) { y = u; });
            err.push_back(std::hypot(y[0] - std::cos(1.0), y[1] + std::sin(1.0)));
        }
        std::printf("rho = %.1f: error at t = 1: %.4g, %.4g, %.4g; ratios %.4f %.4f\n", rho, err[0],
                    err[1], err[2], err[0] / err[1], err[1] / err[2]);
        EXPECT_NEAR(err[0] / err[1], 4.0, 0.05) << "rho = " << rho;
        EXPECT_NEAR(err[1] / err[2], 4.0, 0.02) << "rho = " << rho;
    }
}

// w h = 0.01 over 100 periods (62832 steps): rho = 1 keeps the amplitude to round-off; rho = 0.6
// damps it by the principal root |z|^n (about 1 - 2.5e-6), rho = 0 by more.
TEST(Integrator, NoDissipationAtRhoOne) {
    Oscillator osc{1.0};
    const double h = 0.01;
    const int n = static_cast<int>(100 * 2 * M_PI / h);
    for (double rho : {1.0, 0.6, 0.0}) {
        double amp = 0.0, lo = 1.0, hi = 1.0;
        integrate(osc, ms(rho), h, n, {1.0, 0.0}, false, [&](int, const V2& u) {
            amp = osc.amplitude(u);
            lo = std::min(lo, amp), hi = std::max(hi, amp);
        });
        // principal root of the method at w h = 0.01: the larger one in modulus (the spurious root
        // is close to -a2 = (1 - 3 rho)/(3 - rho): 1/3 at rho = 0 and 0.6, exactly -1 at rho = 1)
        StepCoefficients c = ms_coefficients(rho, h, h);  // b's include h: l = i w
        std::complex<double> l(0.0, osc.w);
        std::complex<double> A = 1.0 - c.b0 * l, B = -(c.a1 + c.b1 * l), C = -(c.a2 + c.b2 * l);
        std::complex<double> s = std::sqrt(B * B - 4.0 * A * C);
        double z = std::max(std::abs((-B + s) / (2.0 * A)), std::abs((-B - s) / (2.0 * A)));
        std::printf(
            "rho = %.1f: amplitude after %d steps %.15f (min %.15f, max %.15f; |z|^n = %.15f)\n",
            rho, n, amp, lo, hi, std::pow(z, n));
        if (rho == 1.0) {
            EXPECT_NEAR(lo, 1.0, 1e-10);
            EXPECT_NEAR(hi, 1.0, 1e-10);
        } else {
            EXPECT_LT(amp, 1.0 - 1e-7);
            EXPECT_NEAR((1.0 - amp) / (1.0 - std::pow(z, n)), 1.0, 1e-3);
        }
    }
}

// MBDyn's `hope`: Crank-Nicolson on odd steps, on even steps the one-back formula with
// A = 4 rho / (3 + rho): a1 = (4 - A)/3, a2 = (A - 1)/3, b0 = h (4 - A)/6, b1 = h A / 2 (MBDyn's
// constant-step values); its variable-step form satisfies the order conditions for t^0..t^2.
TEST(Integrator, HopeCoefficients) {
    for (double rho : {0.0, 0.6, 1.0}) {
        double A = 4.0 * rho / (3.0 + rho), h = 0.01;
        StepCoefficients c = hope_coefficients(rho, h, h);
        EXPECT_NEAR(c.a1, (4.0 - A) / 3.0, 1e-14);
        EXPECT_NEAR(c.a2, (A - 1.0) / 3.0, 1e-14);
        EXPECT_NEAR(c.b0, h * (4.0 - A) / 6.0, 1e-16);
        EXPECT_NEAR(c.b1, h * A / 2.0, 1e-16);
        EXPECT_EQ(c.b2, 0.0);
        for (double alpha : {0.5, 1.0, 2.0}) {
            double T = 0.3, hh = alpha * T, t1 = -hh, t2 = -hh - T;
            StepCoefficients v = hope_coefficients(rho, hh, T);
            for (int p = 0; p <= 2; ++p) {
                auto y = [p](double t) { return std::pow(t, p); };
                auto yp = [p](double t) { return p == 0 ? 0.0 : p * std::pow(t, p - 1); };
                double corr = v.a1 * y(t1) + v.a2 * y(t2) + v.b0 * yp(0.0) + v.b1 * yp(t1);
                EXPECT_NEAR(corr, y(0.0), 1e-14)
                    << "rho " << rho << " alpha " << alpha << " t^" << p;
            }
        }
    }
    Method m;
    m.kind = Method::Kind::hope;
    m.rho = 0.6;
    m.rho_alg = 0.2;
    EXPECT_FALSE(m.differential(0.1, 0.1, false, 3).two_step);  // odd step: trapezoidal
    EXPECT_DOUBLE_EQ(m.differential(0.1, 0.1, false, 4).b0, hope_coefficients(0.6, 0.1, 0.1).b0);
    EXPECT_DOUBLE_EQ(m.algebraic(0.1, 0.1, false, 4).b0, hope_coefficients(0.2, 0.1, 0.1).b0);
}

// In the stiff limit the hope step maps y_{k-1} to -(b1/b0) y_{k-1} = -rho y_{k-1} and the
// trapezoidal step to -y_{k-1}: the amplitude ratio over two steps tends to rho. At low frequency
// the method is second order.
TEST(Integrator, HopeDissipationAndOrder) {
    for (double rho : {0.0, 0.6, 1.0}) {
        Method m;
        m.kind = Method::Kind::hope;
        m.rho = m.rho_alg = rho;
        Oscillator stiff{1e8};
        double prev = 1.0, pair = 0.0;
        integrate(stiff, m, 1.0, 400, {1.0, 0.0}, false, [&](int k, const V2& u) {
            double a = stiff.amplitude(u);
            if (k % 2 == 0 && k > 100 && prev > 1e-250) pair = a / prev;
            if (k % 2 == 0) prev = a;
        });
        if (rho > 0.0)
            EXPECT_NEAR(pair, rho, 1e-3) << "rho " << rho;
        else
            EXPECT_LT(prev, 1e-100);
        Oscillator osc{1.0};
        std::vector<double> err;
        for (double h : {0.01, 0.005}) {
            V2 y{};
            integrate(osc, m, h, static_cast<int>(std::lround(1.0 / h)), {1.0, 0.0}, false,
                      [&](int, const V2& u) { y = u; });
            err.push_back(std::hypot(y[0] - std::cos(1.0), y[1] + std::sin(1.0)));
        }
        std::printf(
            "hope rho = %.1f: two-step ratio at w h = 1e8: %.6f; errors %.4g %.4g (ratio %.3f)\n",
            rho, pair, err[0], err[1], err[0] / err[1]);
        EXPECT_NEAR(err[0] / err[1], 4.0, 0.1) << "rho " << rho;
    }
}
