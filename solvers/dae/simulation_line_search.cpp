// The backtracking line search along a Newton correction (`nonlinear solver: line search`).
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/source.hpp"
#include "solvers/dae/simulation.hpp"

namespace mbs {

// A failed line search leaves the start point and its residual (for the failure message).
bool Simulation::restore_line_search_start(const StepContext& c) {
    Engine& e = *engine_;
    for (int i = 0; i < e.size(); ++i) {
        e.y[i] = ls_y_[i];
        e.yp[i] = ls_yp_[i];
        r_[i] = ls_g_[i];
    }
    e.update(c.time, c.dt);
    return false;
}

// Backtracking line search (Numerical Recipes' lnsrch, MBDyn's `line search` options). With F
// the residual at the start point and p = -J^-1 F the Newton correction of y' (y moves by b0 p),
// f(lambda) = 1/2 |F(y' + lambda gamma p)|^2 has the initial slope f'(0) = -gamma F^T F = -2 gamma
// f0 (J exact). gamma = max(min scale, min(1, max step * max(|(y, y')|, n) / |p|)) limits the step
// (`scale newton step`). lambda = 1 is tried first; while f > f0 + alpha lambda f'(0), lambda is
// replaced by the minimiser of the quadratic (first backtrack) or cubic (later ones) through
// f(0), f'(0) and the last one or two trials (`algorithm, cubic`), kept in
// [lambda factor min * lambda, lambda / 2], or multiplied by `lambda factor min` (`algorithm,
// factor`). lambda never goes below lambda_min' = max(lambda min, min(1, tolerance x / t)),
// t = max_i |p_i| / max(|y_i|, |y'_i|, 1) (`relative, yes`, the default). At lambda_min' without
// sufficient decrease: the step fails (`abort at lambda min`, default) or the point is taken;
// then a gradient test max_j |(J^T F)_j| max(|y'_j|, 1) / max(f0, n / 2) < `tolerance min` flags
// a local minimum of f (fails unless `zero gradient, continue`), and `divergence check` fails the
// step when f > factor * f0. No allocation: start point, direction and F live in ls_* buffers.
bool Simulation::line_search(const StepContext& c, double f0, StepInfo& info, const char*& why) {
    Engine& e = *engine_;
    const auto& L = set_.ls;
    const int n = e.size();
    double* y = e.y.data();
    double* yp = e.yp.data();
    double pn2 = 0.0, ref2 = 0.0, t_rel = 0.0;
    for (int i = 0; i < n; ++i) {
        ls_p_[i] = r_[i];
        ls_y_[i] = y[i];
        ls_yp_[i] = yp[i];
        pn2 += r_[i] * r_[i];
        ref2 += y[i] * y[i] + yp[i] * yp[i];
        t_rel =
            std::max(t_rel, std::fabs(r_[i]) / std::max({std::fabs(y[i]), std::fabs(yp[i]), 1.0}));
    }
    double gamma = 1.0;
    if (L.scale_newton_step) {
        const double stpmax = L.max_step * std::max(std::sqrt(ref2), static_cast<double>(n));
        const double pn = std::sqrt(pn2);
        if (pn > stpmax) gamma = std::max(L.min_scale, stpmax / pn);
    }
    const double slope = -2.0 * f0 * gamma;
    double lam_min = L.lambda_min;
    if (L.lambda_relative && t_rel > 0.0)
        lam_min = std::max(lam_min, std::min(L.tol_x / t_rel, 1.0));
    double lam = 1.0, lam2 = 0.0, f2 = 0.0, f = 0.0;
    bool have_prev = false, at_min = false;
    for (int k = 1;; ++k) {
        const double step = lam * gamma;
        for (int i = 0; i < n; ++i) {
            yp[i] = ls_yp_[i] + step * ls_p_[i];
            y[i] = ls_y_[i] + b0_[i] * step * ls_p_[i];
        }
        e.update(c.time, c.dt);
        e.residual(c, r_.data());
        f = 0.0;
        for (int i = 0; i < n; ++i) f += 0.5 * r_[i] * r_[i];
        if (L.verbose)
            std::fprintf(stderr, "line search: t = %.9g, trial %d: lambda %.6g, f %.6g (f0 %.6g)\n",
                         c.time, k, lam, f, f0);
        if (std::isfinite(f) && f <= f0 + L.alpha * lam * slope) break;
        if (lam <= lam_min || k >= L.max_iter) {
            at_min = true;
            if (L.abort_at_lambda_min || !std::isfinite(f)) {
                why =
                    "line search: lambda reached its minimum without a sufficient decrease of the "
                    "residual";
                return restore_line_search_start(c);
            }
            break;
        }
        double next;
        if (!std::isfinite(f)) {
            next = lam * L.lambda_factor_min;
            have_prev = false;
        } else if (!L.cubic) {
            next = lam * L.lambda_factor_min;
        } else if (!have_prev) {
            next = -slope * lam * lam / (2.0 * (f - f0 - slope * lam));
        } else {
            const double r1 = f - f0 - lam * slope, r2 = f2 - f0 - lam2 * slope;
            const double a = (r1 / (lam * lam) - r2 / (lam2 * lam2)) / (lam - lam2);
            const double b = (-lam2 * r1 / (lam * lam) + lam * r2 / (lam2 * lam2)) / (lam - lam2);
            if (a == 0.0) {
                next = -slope / (2.0 * b);
            } else {
                const double disc = b * b - 3.0 * a * slope;
                next = disc < 0.0 ? 0.5 * lam
                       : b <= 0.0 ? (-b + std::sqrt(disc)) / (3.0 * a)
                                  : -slope / (b + std::sqrt(disc));
            }
            next = std::min(next, 0.5 * lam);
        }
        if (std::isfinite(f)) {
            lam2 = lam;
            f2 = f;
            have_prev = true;
        }
        if (!(next >= L.lambda_factor_min * lam)) next = L.lambda_factor_min * lam;  // also NaN
        lam = std::max(next, lam_min);
    }
    if (at_min) {
        // Gradient of f: J^T F (J as factored; F saved in ls_g_ by newton()).
        const CscMatrix& J = e.jac().matrix();
        double test = 0.0;
        for (int col = 0; col < n; ++col) {
            double g = 0.0;
            for (int q = J.col_start()[col]; q < J.col_start()[col + 1]; ++q)
                g += J.values()[q] * ls_g_[J.row_index()[q]];
            test = std::max(test, std::fabs(g) * std::max(std::fabs(ls_yp_[col]), 1.0));
        }
        test /= std::max(f0, 0.5 * n);
        if (test < L.tol_min && !L.zero_gradient_continue) {
            why =
                "line search: zero gradient of the residual norm (a local minimum that is not a "
                "solution)";
            return restore_line_search_start(c);
        }
    }
    if (L.divergence_check && f > L.divergence_factor * f0) {
        why = "line search: the residual grew (divergence check)";
        return restore_line_search_start(c);
    }
    info.sol_err = lam * gamma * std::sqrt(pn2);
    if (L.print)
        std::fprintf(stderr,
                     "line search: t = %.9g, iteration %d: lambda %.6g%s, residual %.6g -> %.6g\n",
                     c.time, info.iterations + 1, lam * gamma, at_min ? " (minimum)" : "",
                     std::sqrt(2.0 * f0), std::sqrt(2.0 * f));
    return true;
}

}  // namespace mbs
