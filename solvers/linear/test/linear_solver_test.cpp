// CSC pattern and the three linear solvers against each other and against known solutions.
#include "solvers/linear/linear_solver.hpp"

#include <gtest/gtest.h>

#include <random>

using namespace mbs;

namespace {

// A sparse nonsymmetric test matrix: tridiagonal plus a few far entries, diagonally dominant.
CscMatrix make_matrix(int n, std::mt19937& gen) {
    std::vector<std::pair<int, int>> e;
    for (int i = 0; i < n; ++i) {
        e.emplace_back(i, i);
        if (i > 0) e.emplace_back(i, i - 1), e.emplace_back(i - 1, i);
        if (i + 7 < n) e.emplace_back(i, i + 7);
    }
    e.emplace_back(0, 0);  // duplicate on purpose
    CscMatrix a(n, e);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int k = 0; k < a.nonzeros(); ++k) a.values()[k] = u(gen);
    for (int i = 0; i < n; ++i) a.add(a.slot(i, i), 5.0);
    return a;
}

}  // namespace

TEST(CscMatrix, PatternSlotsAndProduct) {
    CscMatrix a(3, {{0, 0}, {2, 0}, {1, 1}, {0, 2}, {2, 2}, {2, 0}});
    EXPECT_EQ(a.nonzeros(), 5);
    EXPECT_EQ(a.slot(1, 0), -1);
    a.add(a.slot(0, 0), 2.0);
    a.add(a.slot(2, 0), 1.0);
    a.add(a.slot(1, 1), 3.0);
    a.add(a.slot(0, 2), 4.0);
    a.add(a.slot(2, 2), 5.0);
    double x[3] = {1, 2, 3}, y[3];
    a.multiply(x, y);
    EXPECT_DOUBLE_EQ(y[0], 2 + 12);
    EXPECT_DOUBLE_EQ(y[1], 6);
    EXPECT_DOUBLE_EQ(y[2], 1 + 15);
}

TEST(LinearSolvers, AllThreeAgreeAndRefactorAfterValueChange) {
    std::mt19937 gen(7);
    const int n = 60;
    CscMatrix a = make_matrix(n, gen);
    for (const char* name : {"klu", "umfpack", "naive", "dense"}) {
        auto s = make_linear_solver(name);
        s->analyze(a);
        for (int round = 0; round < 3; ++round) {
            // New values, same pattern (what the Newton loop does): refactor path for KLU.
            std::uniform_real_distribution<double> u(-1, 1);
            CscMatrix b = a;
            for (int k = 0; k < b.nonzeros(); ++k) b.values()[k] += 0.1 * round * u(gen);
            ASSERT_TRUE(s->factor(b)) << name;
            std::vector<double> x(n), rhs(n), r(n);
            for (int i = 0; i < n; ++i) x[i] = std::sin(1.0 + i);
            b.multiply(x.data(), rhs.data());
            s->solve(rhs.data());
            double err = 0;
            for (int i = 0; i < n; ++i) err = std::max(err, std::abs(rhs[i] - x[i]));
            EXPECT_LT(err, 1e-12) << name << " round " << round;
        }
    }
}

TEST(LinearSolvers, SingularMatrixIsReported) {
    CscMatrix a(2, {{0, 0}, {1, 0}, {0, 1}, {1, 1}});
    double* v = a.values();
    v[0] = 1, v[1] = 2, v[2] = 2, v[3] = 4;  // rank 1
    for (const char* name : {"klu", "umfpack", "naive", "dense"}) {
        auto s = make_linear_solver(name);
        s->analyze(a);
        EXPECT_FALSE(s->factor(a)) << name;
    }
}

// `naive` is MBDyn's sparse solver: a sparse LU (KLU) here, named as such; the dense LU is only
// reachable as "dense" (no deck can name it).
TEST(LinearSolvers, NaiveIsSparseAndNamedHonestly) {
    EXPECT_STREQ(make_linear_solver("naive")->name(), "naive (sparse LU: KLU, COLAMD order)");
    EXPECT_STREQ(make_linear_solver("dense")->name(), "dense");
    EXPECT_THROW(make_linear_solver("lapack"), std::invalid_argument);
}
