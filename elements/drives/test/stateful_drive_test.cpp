// Drive callers with memory between steps (stateful_drives.cpp) against their formulas: the
// clock is stepped by hand (time, step counter) as the engine does, and each drive is
// evaluated once or several times per step (re-evaluation within a step must not advance it).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/drive.hpp"
#include "core/model.hpp"
#include "parser/test_support.hpp"

namespace {

using mbs::DrivePtr;

class StatefulDrive : public ::testing::Test {
  protected:
    mbs::SimClock clock;
    std::vector<std::unique_ptr<mbs::Model>> models;

    DrivePtr drive(const std::string& text) {
        models.push_back(std::make_unique<mbs::Model>(
            mbs::test::cards::build("drive caller: 99, " + text + ";\n")));
        mbs::DriveEnv env;
        env.clock = &clock;
        env.model = models.back().get();
        return mbs::make_drive(*models.back()->drive_callers.at(99), env);
    }
    // Value at step k (time k * dt), evaluated `evals` times.
    double at_step(const mbs::Drive& d, long k, double dt = 0.1, int evals = 3) {
        clock.step = k;
        clock.time = k * dt;
        clock.timestep = dt;
        double v = 0.0;
        for (int i = 0; i < evals; ++i) v = d.value(clock.time);
        return v;
    }
};

// y_k = 0.5 y_(k-1) + u_k with u = 1: y_k = 2 - 2^-k (y_0 = 1).
TEST_F(StatefulDrive, DiscreteFilterFirstOrder) {
    auto d = drive("discrete filter, 1, 0.5, 1., 0, const, 1.");
    for (long k = 0; k < 8; ++k) EXPECT_DOUBLE_EQ(at_step(*d, k), 2.0 - std::pow(2.0, -k)) << k;
    EXPECT_FALSE(d->differentiable());
}

// Moving average y_k = (u_k + u_(k-1) + u_(k-2)) / 3 of u = time (k dt): y_k = (k - 1) dt for
// k >= 2 (a pure FIR filter: na = 0).
TEST_F(StatefulDrive, DiscreteFilterMovingAverage) {
    auto d = drive("discrete filter, 0, 1./3., 2, 1./3., 1./3., time");
    EXPECT_NEAR(at_step(*d, 0), 0.0, 1e-15);
    EXPECT_NEAR(at_step(*d, 1), 0.1 / 3, 1e-15);
    for (long k = 2; k < 10; ++k) EXPECT_NEAR(at_step(*d, k), (k - 1) * 0.1, 1e-14) << k;
}

// Sample and hold of time, triggered every 4 steps (meter): a staircase 0, 0.4, 0.8, ...
TEST_F(StatefulDrive, SampleAndHoldStaircase) {
    auto d = drive("sample and hold, time, meter, 0., forever, steps, 4, initial value, -1.");
    for (long k = 0; k < 13; ++k) EXPECT_NEAR(at_step(*d, k), 0.4 * (k / 4), 1e-14) << k;
    // A trigger that never fires keeps the initial value.
    auto never = drive("sample and hold, time, null, initial value, 2.5");
    for (long k = 0; k < 5; ++k) EXPECT_DOUBLE_EQ(at_step(*never, k), 2.5);
}

// Closest next with increment 0.25 and dt = 0.1: 1 at the first step at or after 0, 0.25,
// 0.5, ... (steps 0, 3, 5, 8, 10, 13, ...), i.e. when floor(t / 0.25) has just changed.
TEST_F(StatefulDrive, ClosestNextMarksTheFirstStepAfterEachInstant) {
    auto d = drive("closest next, 0., forever, const, 0.25");
    std::vector<long> ones;
    for (long k = 0; k < 21; ++k)
        if (at_step(*d, k) == 1.0) ones.push_back(k);
    // instants 0, .25, .5, .75, 1, 1.25, 1.5, 1.75, 2 -> first steps 0, 3, 5, 8, 10, 13, 15, 18, 20
    EXPECT_EQ(ones, (std::vector<long>{0, 3, 5, 8, 10, 13, 15, 18, 20}));
    auto late = drive("closest next, 1., 1.5, const, 0.25");
    EXPECT_EQ(at_step(*late, 5), 0.0);   // before t0
    EXPECT_EQ(at_step(*late, 10), 1.0);  // t = 1
    EXPECT_EQ(at_step(*late, 20), 0.0);  // after tf
}

// Uniform in [mean - A, mean + A]: mean and variance A^2 / 3 over 200000 samples (4 sigma:
// sigma_mean = A / sqrt(3 N), sigma_var = A^2 sqrt(4/45 / N)); reproducible for a seed, held
// `steps` steps, `mean` outside [t0, tf].
TEST_F(StatefulDrive, RandomMeanVarianceAndReproducibility) {
    const double A = 2.0, mean = 0.5;
    const long n = 200000;
    auto d = drive("random, 2., 0.5, 0., forever, seed, 7");
    double s = 0.0, s2 = 0.0, lo = 1e9, hi = -1e9;
    std::vector<double> first;
    for (long k = 0; k < n; ++k) {
        double v = at_step(*d, k, 1e-3, 2);
        s += v, s2 += v * v, lo = std::min(lo, v), hi = std::max(hi, v);
        if (k < 10) first.push_back(v);
    }
    double m = s / n, var = s2 / n - m * m;
    EXPECT_NEAR(m, mean, 4 * A / std::sqrt(3.0 * n));
    EXPECT_NEAR(var, A * A / 3, 4 * A * A * std::sqrt(4.0 / 45.0 / n));
    EXPECT_GE(lo, mean - A);
    EXPECT_LT(hi, mean + A);
    auto again = drive("random, 2., 0.5, 0., forever, seed, 7");
    for (long k = 0; k < 10; ++k) EXPECT_EQ(at_step(*again, k, 1e-3), first[k]);
    auto other = drive("random, 2., 0.5, 0., forever, seed, 8");
    EXPECT_NE(at_step(*other, 0, 1e-3), first[0]);
    auto held = drive("random, 1., 0., 0., 1., steps, 5, seed, 3");
    double v0 = at_step(*held, 0);
    for (long k = 1; k < 5; ++k) EXPECT_EQ(at_step(*held, k), v0);
    EXPECT_NE(at_step(*held, 5), v0);
    EXPECT_EQ(at_step(*held, 11), 0.0);  // t = 1.1 > tf: the mean
}

}  // namespace
