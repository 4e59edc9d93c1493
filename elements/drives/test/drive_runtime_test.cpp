// Runtime drive callers: values against the formulas of docs/deck-language.md section 7 (numbers
// worked out here, not taken from the code), derivatives against central finite differences away
// from kinks, and the template drive callers. Drives are parsed from `drive caller:` cards.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/drive.hpp"
#include "core/model.hpp"
#include "parser/test_support.hpp"

namespace {

using mbs::Drive;
using mbs::DrivePtr;
using std::numbers::pi;

class DriveRuntime : public ::testing::Test {
  protected:
    mbs::SimClock clock;

    // The runtime drive of `drive caller: 99, <text>`, after the cards `before`.
    DrivePtr drive(const std::string& text, const std::string& before = "") {
        const mbs::Model& m =
            keep(mbs::test::cards::build(before + "drive caller: 99, " + text + ";\n"));
        return mbs::make_drive(*m.drive_callers.at(99), env());
    }

    // The acceleration template drive of `gravity: <text>`.
    mbs::TplDrive<3> gravity(const std::string& text) {
        const mbs::Model& m =
            keep(mbs::test::build(mbs::test::deck_head +
                                  "begin: control data; gravity; end: control data;\n"
                                  "begin: elements;\ngravity: " +
                                  text + ";\nend: elements;\n"));
        for (const auto& e : m.elements)
            if (e.category == "gravity")
                return mbs::TplDrive<3>::make(
                    *e.view().get<std::shared_ptr<const mbs::TplDriveSpec>>("acceleration"), env());
        throw std::runtime_error("no gravity element");
    }

    // The spec of `drive caller: 99, <text>` (for hand-built template drives).
    std::shared_ptr<const mbs::DriveSpec> spec(const std::string& text) {
        return keep(mbs::test::cards::build("drive caller: 99, " + text + ";\n"))
            .drive_callers.at(99);
    }

    mbs::DriveEnv env() const {
        mbs::DriveEnv e;
        e.clock = &clock;
        e.model = models_.empty() ? nullptr : models_.back().get();
        return e;
    }

    // f(t) with the clock at t (string drives read Time from the clock).
    double at(const Drive& d, double t) {
        clock.time = t;
        return d.value(t);
    }

    // f'(t) against (f(t + h) - f(t - h)) / 2h, to a relative 1e-6.
    void expect_fd(const Drive& d, double t) {
        const double h = 1e-5;
        const double fd = (at(d, t + h) - at(d, t - h)) / (2 * h);
        clock.time = t;
        EXPECT_NEAR(d.deriv(t), fd, 1e-6 * std::max(1.0, std::fabs(fd))) << "at t = " << t;
    }

  protected:
    // Models stay alive: drive specs point into their source text.
    const mbs::Model& keep(mbs::Model m) {
        models_.push_back(std::make_unique<mbs::Model>(std::move(m)));
        return *models_.back();
    }
    std::vector<std::unique_ptr<mbs::Model>> models_;
};

// --- constants and polynomials ----------------------------------------------------------------

TEST_F(DriveRuntime, Constants) {
    auto c = drive("const, 2.5");
    EXPECT_EQ(at(*c, 0.0), 2.5);
    EXPECT_EQ(at(*c, 7.0), 2.5);
    EXPECT_EQ(c->deriv(7.0), 0.0);
    EXPECT_EQ(at(*drive("3"), 1.0), 3.0);
    EXPECT_EQ(at(*drive("null"), 4.0), 0.0);
    EXPECT_EQ(at(*drive("unit"), 4.0), 1.0);
    EXPECT_EQ(at(*drive("one"), 4.0), 1.0);
    for (const char* t : {"const, 2.5", "null", "unit"}) EXPECT_TRUE(drive(t)->differentiable());
}

TEST_F(DriveRuntime, TimeAndDirectReturnTheirInput) {
    for (const char* t : {"time", "direct"}) {
        auto d = drive(t);
        EXPECT_EQ(at(*d, 1.25), 1.25) << t;
        EXPECT_EQ(d->deriv(1.25), 1.0) << t;
    }
}

TEST_F(DriveRuntime, TimeStepReadsTheClock) {
    auto d = drive("timestep");
    clock.timestep = 1e-3;
    EXPECT_EQ(at(*d, 2.0), 1e-3);
    clock.timestep = 5e-4;
    EXPECT_EQ(at(*d, 2.0), 5e-4);
    EXPECT_FALSE(d->differentiable());
}

TEST_F(DriveRuntime, Polynomials) {
    auto l = drive("linear, 1., 2.");
    EXPECT_DOUBLE_EQ(at(*l, 3.0), 7.0);
    EXPECT_DOUBLE_EQ(l->deriv(3.0), 2.0);
    auto p = drive("parabolic, 1., 2., 3.");
    EXPECT_DOUBLE_EQ(at(*p, 2.0), 17.0);    // 1 + 4 + 12
    EXPECT_DOUBLE_EQ(p->deriv(2.0), 14.0);  // 2 + 2*3*2
    auto c = drive("cubic, 1., 2., 3., 4.");
    EXPECT_DOUBLE_EQ(at(*c, 2.0), 49.0);    // 1 + 4 + 12 + 32
    EXPECT_DOUBLE_EQ(c->deriv(2.0), 62.0);  // 2 + 12 + 48
    for (auto* d : {&l, &p, &c}) expect_fd(**d, 0.7);
}

// --- steps and ramps ---------------------------------------------------------------------------

TEST_F(DriveRuntime, StepJumpsAtItsTime) {
    auto d = drive("step, 0.5, 2., 1.");
    EXPECT_EQ(at(*d, 0.4), 1.0);
    EXPECT_EQ(at(*d, 0.5), 3.0);
    EXPECT_EQ(at(*d, 0.6), 3.0);
    EXPECT_EQ(d->deriv(0.5), 0.0);
    EXPECT_EQ(d->deriv(0.6), 0.0);
}

TEST_F(DriveRuntime, DoubleStepOnAClosedInterval) {
    auto d = drive("double step, 0.5, 1.5, 2., 1.");
    EXPECT_EQ(at(*d, 0.4), 1.0);
    EXPECT_EQ(at(*d, 0.5), 3.0);
    EXPECT_EQ(at(*d, 1.0), 3.0);
    EXPECT_EQ(at(*d, 1.5), 3.0);
    EXPECT_EQ(at(*d, 1.6), 1.0);
    EXPECT_EQ(d->deriv(1.0), 0.0);
}

TEST_F(DriveRuntime, RampHoldsAfterItsEnd) {
    auto d = drive("ramp, 2., 1., 3., 0.5");
    EXPECT_DOUBLE_EQ(at(*d, 0.5), 0.5);
    EXPECT_DOUBLE_EQ(at(*d, 1.0), 0.5);
    EXPECT_DOUBLE_EQ(at(*d, 2.0), 2.5);
    EXPECT_DOUBLE_EQ(at(*d, 3.0), 4.5);
    EXPECT_DOUBLE_EQ(at(*d, 5.0), 4.5);
    EXPECT_DOUBLE_EQ(d->deriv(0.5), 0.0);
    EXPECT_DOUBLE_EQ(d->deriv(2.0), 2.0);
    EXPECT_DOUBLE_EQ(d->deriv(4.0), 0.0);
    EXPECT_DOUBLE_EQ(d->deriv(1.0), 1.0);  // kinks: the mean of the one-sided slopes
    EXPECT_DOUBLE_EQ(d->deriv(3.0), 1.0);
    expect_fd(*d, 2.0);
    EXPECT_DOUBLE_EQ(at(*drive("ramp, 2., 1., forever, 0.5"), 11.0), 20.5);
}

TEST_F(DriveRuntime, DoubleRampRisesHoldsAndFalls) {
    auto d = drive("double ramp, 2., 1., 3., -1., 5., 7., 0.");
    const double t[] = {0.0, 2.0, 3.0, 4.0, 6.0, 7.0, 9.0};
    const double v[] = {0.0, 2.0, 4.0, 4.0, 3.0, 2.0, 2.0};
    for (int i = 0; i < 7; ++i) EXPECT_DOUBLE_EQ(at(*d, t[i]), v[i]) << "t = " << t[i];
    EXPECT_DOUBLE_EQ(d->deriv(2.0), 2.0);
    EXPECT_DOUBLE_EQ(d->deriv(4.0), 0.0);
    EXPECT_DOUBLE_EQ(d->deriv(6.0), -1.0);
    EXPECT_DOUBLE_EQ(d->deriv(8.0), 0.0);
    EXPECT_DOUBLE_EQ(d->deriv(5.0), -0.5);
    expect_fd(*d, 2.0);
    expect_fd(*d, 6.0);
    auto up = drive("double ramp, 1., 0., 1., -1., forever, forever, 0.");
    EXPECT_DOUBLE_EQ(at(*up, 5.0), 1.0);
    EXPECT_DOUBLE_EQ(up->deriv(5.0), 0.0);
}

TEST_F(DriveRuntime, Tanh) {
    auto d = drive("tanh, 1., 2., 3., 0.5");
    EXPECT_DOUBLE_EQ(at(*d, 1.0), 0.5);
    EXPECT_DOUBLE_EQ(at(*d, 1.2), 0.5 + 2.0 * std::tanh(0.6));
    EXPECT_DOUBLE_EQ(d->deriv(1.0), 6.0);  // A b at the centre
    expect_fd(*d, 1.2);
    expect_fd(*d, 0.4);
}

TEST_F(DriveRuntime, ExponentialRisesTowardsInitialPlusA) {
    auto d = drive("exponential, 2., 0.5, 1., 0.3");
    EXPECT_DOUBLE_EQ(at(*d, 0.5), 0.3);
    EXPECT_DOUBLE_EQ(at(*d, 1.0), 0.3);
    EXPECT_DOUBLE_EQ(at(*d, 2.0), 0.3 + 2.0 * (1.0 - std::exp(-2.0)));
    EXPECT_DOUBLE_EQ(d->deriv(2.0), 4.0 * std::exp(-2.0));  // positive: the value rises
    EXPECT_DOUBLE_EQ(d->deriv(0.5), 0.0);
    expect_fd(*d, 2.0);
}

// --- sine and cosine ---------------------------------------------------------------------------

TEST_F(DriveRuntime, SineForever) {
    auto d = drive("sine, 0.5, 2., 3., forever, 1.");
    EXPECT_DOUBLE_EQ(at(*d, 0.2), 1.0);
    EXPECT_DOUBLE_EQ(at(*d, 1.0), 1.0 + 3.0 * std::sin(1.0));
    EXPECT_DOUBLE_EQ(at(*d, 100.5), 1.0 + 3.0 * std::sin(200.0));
    EXPECT_DOUBLE_EQ(d->deriv(0.2), 0.0);
    EXPECT_DOUBLE_EQ(d->deriv(1.0), 6.0 * std::cos(1.0));
    expect_fd(*d, 1.0);
    expect_fd(*d, 2.3);
}

TEST_F(DriveRuntime, SineOneIsHalfAPeriod) {
    auto d = drive("sine, 0., 2., 3., one, 1.");  // ends at pi/2, back at 1
    EXPECT_DOUBLE_EQ(at(*d, pi / 4), 4.0);
    EXPECT_DOUBLE_EQ(at(*d, 1.0), 1.0 + 3.0 * std::sin(2.0));
    EXPECT_DOUBLE_EQ(at(*d, 2.0), 1.0);
    EXPECT_NEAR(at(*d, pi / 2 - 1e-9), 1.0, 1e-7);
    EXPECT_DOUBLE_EQ(d->deriv(2.0), 0.0);
    expect_fd(*d, 0.5);
}

TEST_F(DriveRuntime, SineHalfRisesToAAndHolds) {
    auto d = drive("sine, 0., 2., 3., half, 1.");  // a quarter period: ends at pi/4
    EXPECT_DOUBLE_EQ(at(*d, 0.3), 1.0 + 3.0 * std::sin(0.6));
    EXPECT_DOUBLE_EQ(at(*d, pi / 4), 4.0);
    EXPECT_DOUBLE_EQ(at(*d, 1.0), 4.0);
    EXPECT_DOUBLE_EQ(d->deriv(1.0), 0.0);
    expect_fd(*d, 0.3);
}

TEST_F(DriveRuntime, SineNPeriods) {
    auto d = drive("sine, 0., 2., 3., 2, 1.");  // ends after 1.5 periods, at 1.5 pi
    EXPECT_DOUBLE_EQ(at(*d, 4.0), 1.0 + 3.0 * std::sin(8.0));
    EXPECT_DOUBLE_EQ(at(*d, 5.0), 1.0);
    EXPECT_NEAR(at(*d, 1.5 * pi - 1e-9), 1.0, 1e-7);
    expect_fd(*d, 4.0);
    EXPECT_DOUBLE_EQ(d->deriv(5.0), 0.0);
}

TEST_F(DriveRuntime, SineNegativeNHoldsInitialPlusA) {
    auto d = drive("sine, 0., 2., 3., -2, 1.");  // ends after 1.25 periods, at 1.25 pi
    EXPECT_DOUBLE_EQ(at(*d, 3.9), 1.0 + 3.0 * std::sin(7.8));
    EXPECT_DOUBLE_EQ(at(*d, 4.0), 4.0);
    EXPECT_NEAR(at(*d, 1.25 * pi - 1e-9), 4.0, 1e-7);
    expect_fd(*d, 3.0);
}

TEST_F(DriveRuntime, CosineForever) {
    auto d = drive("cosine, 0., 2., 3., forever, 1.");
    EXPECT_DOUBLE_EQ(at(*d, -1.0), 1.0);
    EXPECT_DOUBLE_EQ(at(*d, 1.0), 1.0 + 3.0 * (1.0 - std::cos(2.0)));
    EXPECT_DOUBLE_EQ(d->deriv(1.0), 6.0 * std::sin(2.0));
    expect_fd(*d, 1.0);
}

TEST_F(DriveRuntime, CosineOneIsABump) {
    auto d = drive("cosine, 0., 2., 3., one, 1.");  // one period: ends at pi
    EXPECT_DOUBLE_EQ(at(*d, pi / 2), 7.0);
    EXPECT_DOUBLE_EQ(at(*d, 4.0), 1.0);
    EXPECT_NEAR(at(*d, pi - 1e-9), 1.0, 1e-7);
    expect_fd(*d, 1.0);
}

TEST_F(DriveRuntime, CosineHalfIsASmoothTransition) {
    auto d = drive("cosine, 0., 2., 3., half, 1.");  // half a period: ends at pi/2 at 1 + 2A
    EXPECT_DOUBLE_EQ(at(*d, pi / 4), 4.0);
    EXPECT_DOUBLE_EQ(at(*d, 2.0), 7.0);
    EXPECT_NEAR(at(*d, pi / 2 - 1e-9), 7.0, 1e-7);
    EXPECT_DOUBLE_EQ(d->deriv(2.0), 0.0);
    expect_fd(*d, 0.5);
}

TEST_F(DriveRuntime, CosineNPeriodsAndNegativeN) {
    auto two = drive("cosine, 0., 2., 3., 2, 1.");  // ends at 2 pi
    EXPECT_DOUBLE_EQ(at(*two, 6.0), 1.0 + 3.0 * (1.0 - std::cos(12.0)));
    EXPECT_DOUBLE_EQ(at(*two, 7.0), 1.0);
    expect_fd(*two, 6.0);
    auto neg = drive("cosine, 0., 2., 3., -2, 1.");  // ends at 1.5 pi, at 1 + 2A
    EXPECT_DOUBLE_EQ(at(*neg, 4.5), 1.0 + 3.0 * (1.0 - std::cos(9.0)));
    EXPECT_DOUBLE_EQ(at(*neg, 5.0), 7.0);
    EXPECT_NEAR(at(*neg, 1.5 * pi - 1e-9), 7.0, 1e-7);
    expect_fd(*neg, 4.5);
}

// --- fourier series, frequency sweep, periodic, piecewise linear -------------------------------

TEST_F(DriveRuntime, FourierSeries) {
    // a0 = 1, (a1, b1) = (0.5, 0.25), (a2, b2) = (-0.3, 0.1), omega 2, from t0 = 0.5
    auto f = [](double t) {
        double s = t - 0.5;
        return 0.2 + 0.5 + 0.5 * std::cos(2 * s) + 0.25 * std::sin(2 * s) - 0.3 * std::cos(4 * s) +
               0.1 * std::sin(4 * s);
    };
    auto d = drive("fourier series, 0.5, 2., 2, 1., 0.5, 0.25, -0.3, 0.1, forever, 0.2");
    EXPECT_DOUBLE_EQ(at(*d, 0.4), 0.2);
    EXPECT_DOUBLE_EQ(at(*d, 1.0), f(1.0));
    EXPECT_DOUBLE_EQ(at(*d, 7.3), f(7.3));
    expect_fd(*d, 1.0);
    auto once = drive("fourier series, 0.5, 2., 2, 1., 0.5, 0.25, -0.3, 0.1, one, 0.2");
    EXPECT_DOUBLE_EQ(at(*once, 3.0), f(3.0));  // one period ends at 0.5 + pi
    EXPECT_DOUBLE_EQ(at(*once, 4.0), 0.2);
    EXPECT_DOUBLE_EQ(once->deriv(4.0), 0.0);
    EXPECT_DOUBLE_EQ(once->deriv(0.5), 0.0);  // the value jumps at t0
}

TEST_F(DriveRuntime, FrequencySweep) {
    auto d = drive("frequency sweep, 0., linear, 1., 0.5, const, 2., 0., 10., 0.3");
    EXPECT_DOUBLE_EQ(at(*d, 2.0), 2.0 * std::sin(4.0));  // omega(2) = 2
    EXPECT_DOUBLE_EQ(at(*d, 11.0), 0.3);
    expect_fd(*d, 2.0);
}

TEST_F(DriveRuntime, PeriodicRestartsTheFunctionEachPeriod) {
    auto d = drive("periodic, 1., 2., linear, 0., 3.");
    EXPECT_DOUBLE_EQ(at(*d, 0.5), 0.0);
    EXPECT_DOUBLE_EQ(at(*d, 1.5), 1.5);
    EXPECT_DOUBLE_EQ(at(*d, 2.5), 4.5);
    EXPECT_DOUBLE_EQ(at(*d, 3.5), 1.5);
    EXPECT_DOUBLE_EQ(at(*d, 6.0), 3.0);
    EXPECT_DOUBLE_EQ(d->deriv(3.5), 3.0);
    expect_fd(*d, 3.5);
}

TEST_F(DriveRuntime, PiecewiseLinearHoldsItsEndValues) {
    auto d = drive("piecewise linear, 3, 0., 1., 1., 3., 3., -1.");
    EXPECT_DOUBLE_EQ(at(*d, -1.0), 1.0);
    EXPECT_DOUBLE_EQ(at(*d, 0.5), 2.0);
    EXPECT_DOUBLE_EQ(at(*d, 1.0), 3.0);
    EXPECT_DOUBLE_EQ(at(*d, 2.0), 1.0);
    EXPECT_DOUBLE_EQ(at(*d, 3.0), -1.0);
    EXPECT_DOUBLE_EQ(at(*d, 4.0), -1.0);
    EXPECT_DOUBLE_EQ(d->deriv(-1.0), 0.0);
    EXPECT_DOUBLE_EQ(d->deriv(0.5), 2.0);
    EXPECT_DOUBLE_EQ(d->deriv(2.0), -2.0);
    EXPECT_DOUBLE_EQ(d->deriv(4.0), 0.0);
    EXPECT_DOUBLE_EQ(d->deriv(1.0), 0.0);   // mean of +2 and -2
    EXPECT_DOUBLE_EQ(d->deriv(0.0), 2.0);   // the run's initial time: the first slope
    EXPECT_DOUBLE_EQ(d->deriv(3.0), -1.0);  // half the last slope
    expect_fd(*d, 0.5);
    expect_fd(*d, 2.0);
}

TEST_F(DriveRuntime, MeterCountsSteps) {
    auto d = drive("meter, 0., 1., steps, 2");
    clock.step = 4;
    EXPECT_EQ(at(*d, 0.5), 1.0);
    clock.step = 5;
    EXPECT_EQ(at(*d, 0.5), 0.0);
    clock.step = 6;
    EXPECT_EQ(at(*d, 2.0), 0.0);
    EXPECT_FALSE(d->differentiable());
}

// --- kinks at the run's initial time ------------------------------------------------------------
// The decks of these tests start at `initial time: 0.` (deck_head) unless `head_at` says
// otherwise. A drive whose active piece begins at the run's initial time has its right slope
// there (closed form: d/dt of the piece itself); elsewhere a kink keeps MBDyn's mean.

// A deck head with `initial time: t0`.
std::string head_at(double t0) {
    return "begin: data; problem: initial value; end: data;\nbegin: initial value; initial time: " +
           std::to_string(t0) +
           "; final time: 10.; time step: 1.e-3; end: initial value;\n"
           "begin: control data; end: control data;\n";
}

TEST_F(DriveRuntime, SineStartingAtTheInitialTimeHasItsFullSlope) {
    // initial + A sin(omega (t - t0)): value 1, slope A omega = 6 at t0 = 0; closed form after.
    for (const char* n : {"forever", "one", "half", "3", "-2"}) {
        auto d = drive(std::string("sine, 0., 2., 3., ") + n + ", 1.");
        EXPECT_DOUBLE_EQ(at(*d, 0.0), 1.0) << n;
        EXPECT_DOUBLE_EQ(d->deriv(0.0), 6.0) << n;
        EXPECT_DOUBLE_EQ(at(*d, 0.3), 1.0 + 3.0 * std::sin(0.6)) << n;
        EXPECT_DOUBLE_EQ(d->deriv(0.3), 6.0 * std::cos(0.6)) << n;
        // The one-sided difference the run sees from its first instant, (f(h) - f(0)) / h.
        const double h = 1e-7;
        EXPECT_NEAR((at(*d, h) - at(*d, 0.0)) / h, d->deriv(0.0), 1e-5) << n;
    }
    // A sine starting later (a kink inside the run): MBDyn's mean of 0 and A omega.
    EXPECT_DOUBLE_EQ(drive("sine, 0.5, 2., 3., forever, 1.")->deriv(0.5), 3.0);
    // The end of `one` (t = pi/2, slope -A omega before, 0 after): the mean.
    EXPECT_NEAR(drive("sine, 0., 2., 3., one, 1.")->deriv(pi / 2), -3.0, 1e-12);
    // Without a run (no model: --check, bare drives): MBDyn's dGetP, half the slope.
    auto bare = mbs::make_drive(*spec("sine, 0., 2., 3., forever, 1."), mbs::DriveEnv{&clock});
    EXPECT_DOUBLE_EQ(bare->deriv(0.0), 3.0);
}

TEST_F(DriveRuntime, KinksFollowTheDecksInitialTime) {
    // initial time 0.5: the sine starting at 0.5 has its full slope there, one starting at 0 is
    // smooth at 0.5 anyway, and a ramp starting at 0.5 rises at its slope from the first instant.
    const mbs::Model& m =
        keep(mbs::test::cards::build("drive caller: 1, sine, 0.5, 2., 3., forever, 1.;\n"
                                     "drive caller: 2, ramp, 2., 0.5, 3., 0.;\n"
                                     "drive caller: 3, sine, 0., 2., 3., forever, 1.;\n",
                                     head_at(0.5)));
    auto d = [&](long l) { return mbs::make_drive(*m.drive_callers.at(l), env()); };
    EXPECT_DOUBLE_EQ(d(1)->deriv(0.5), 6.0);
    EXPECT_DOUBLE_EQ(d(2)->deriv(0.5), 2.0);
    EXPECT_DOUBLE_EQ(d(2)->deriv(3.0), 1.0);  // the ramp's end: the mean of 2 and 0
    EXPECT_DOUBLE_EQ(d(3)->deriv(0.5), 6.0 * std::cos(1.0));
    // The same ramp in a run from 0: its start at 0.5 is a kink inside the run.
    EXPECT_DOUBLE_EQ(drive("ramp, 2., 0.5, 3., 0.")->deriv(0.5), 1.0);
}

TEST_F(DriveRuntime, CosineExpRampAndFourierAtTheInitialTime) {
    // cosine: initial + A (1 - cos(omega t)), smooth at t0: value 1, slope 0; closed form after.
    auto c = drive("cosine, 0., 2., 3., half, 1.");
    EXPECT_DOUBLE_EQ(at(*c, 0.0), 1.0);
    EXPECT_DOUBLE_EQ(c->deriv(0.0), 0.0);
    EXPECT_DOUBLE_EQ(at(*c, 0.4), 1.0 + 3.0 * (1.0 - std::cos(0.8)));
    EXPECT_DOUBLE_EQ(c->deriv(0.4), 6.0 * std::sin(0.8));
    expect_fd(*c, 0.4);
    // ramp from the initial time: slope 2 at 0, end at 3 still the mean.
    auto r = drive("ramp, 2., 0., 3., 0.5");
    EXPECT_DOUBLE_EQ(r->deriv(0.0), 2.0);
    EXPECT_DOUBLE_EQ(r->deriv(3.0), 1.0);
    // exponential A (1 - exp(-t / tau)): slope A / tau = 4 at 0.
    EXPECT_DOUBLE_EQ(drive("exponential, 2., 0.5, 0., 0.")->deriv(0.0), 4.0);
    // fourier series that starts at 0 (a0/2 + a1 = 0): 0.5 sin(2t) + ..., slope b1 omega = 1.
    auto f = drive("fourier series, 0., 2., 1, 0., 0., 0.5, forever, 0.");
    EXPECT_DOUBLE_EQ(f->deriv(0.0), 1.0);
    // frequency sweep sin(omega t) with constant omega 2, amplitude 3: 6 at 0.
    auto fs = drive("frequency sweep, 0., const, 2., const, 3., 0., 0., 0.");
    EXPECT_DOUBLE_EQ(fs->deriv(0.0), 6.0);
}

// --- expressions and composites ----------------------------------------------------------------

TEST_F(DriveRuntime, StringOfTime) {
    auto d = drive("string, \"2*Time^2 + sin(Time)\"");
    EXPECT_DOUBLE_EQ(at(*d, 1.5), 4.5 + std::sin(1.5));
    EXPECT_DOUBLE_EQ(at(*d, -0.5), 0.5 + std::sin(-0.5));
    clock.time = 1.5;
    EXPECT_DOUBLE_EQ(d->deriv(1.5), 6.0 + std::cos(1.5));
    expect_fd(*d, 1.5);
    EXPECT_TRUE(d->differentiable());
}

TEST_F(DriveRuntime, StringTimeIsTheEvaluationTime) {
    // Evaluated at t = 0.25 while the clock says 3: Time is 0.25 (the reduced path's stage times,
    // a string inside array/mult).
    auto d = drive("string, \"2*Time^2 + sin(Time)\"");
    clock.time = 3.0;
    EXPECT_DOUBLE_EQ(d->value(0.25), 0.125 + std::sin(0.25));
    EXPECT_DOUBLE_EQ(d->deriv(0.25), 1.0 + std::cos(0.25));
    auto a = drive("array, 2, string, \"Time\", const, 1.");
    EXPECT_DOUBLE_EQ(a->value(0.25), 1.25);
    EXPECT_DOUBLE_EQ(clock.time, 3.0);  // the clock is not touched
}

TEST_F(DriveRuntime, StringFedByAnotherDriveSeesTheTimeAsTime) {
    // drive(outer = Var*Time, inner = 1 + 3t) at t = 2, clock at 7: Var = 7, Time = 2, 14; its
    // time derivative 3 Time + Var = 13 (the outer's own dependence on Time included).
    auto d = drive("drive, string, \"Var*Time\", linear, 1., 3.");
    clock.time = 7.0;
    EXPECT_DOUBLE_EQ(d->value(2.0), 14.0);
    EXPECT_DOUBLE_EQ(d->deriv(2.0), 13.0);
    const double h = 1e-6;
    EXPECT_NEAR((d->value(2.0 + h) - d->value(2.0 - h)) / (2 * h), 13.0, 1e-8);
    // periodic, t0 = 0, T = 1, function Var + 10 Time: at t = 2.25, local 0.25: 22.75, slope 11.
    auto p = drive("periodic, 0., 1., string, \"Var + 10*Time\"");
    EXPECT_DOUBLE_EQ(p->value(2.25), 22.75);
    EXPECT_DOUBLE_EQ(p->deriv(2.25), 11.0);
    // A drive of a drive of a string: drive(drive(Var*Time, 2 t), t^2) at t = 1.5:
    // 2 t^2 * t = 2 t^3 = 6.75, slope 6 t^2 = 13.5.
    auto n = drive("drive, drive, string, \"Var*Time\", linear, 0., 2., parabolic, 0., 0., 1.");
    EXPECT_DOUBLE_EQ(n->value(1.5), 6.75);
    EXPECT_DOUBLE_EQ(n->deriv(1.5), 13.5);
}

TEST_F(DriveRuntime, StringReadsTheClock) {
    auto d = drive("string, \"Step + 1000*TimeStep\"");
    clock.step = 7;
    clock.timestep = 2e-3;
    EXPECT_DOUBLE_EQ(at(*d, 0.0), 9.0);
}

TEST_F(DriveRuntime, ArrayIsTheSum) {
    auto d = drive("array, 3, const, 1., linear, 0., 2., sine, 0., 1., 1., forever, 0.");
    EXPECT_DOUBLE_EQ(at(*d, 1.0), 3.0 + std::sin(1.0));
    EXPECT_DOUBLE_EQ(d->deriv(1.0), 2.0 + std::cos(1.0));
    expect_fd(*d, 1.0);
    EXPECT_FALSE(drive("array, 2, time, timestep")->differentiable());
}

TEST_F(DriveRuntime, MultIsTheProduct) {
    auto d = drive("mult, linear, 1., 2., cosine, 0., 1., 1., forever, 0.");
    EXPECT_DOUBLE_EQ(at(*d, 2.0), 5.0 * (1.0 - std::cos(2.0)));
    EXPECT_DOUBLE_EQ(d->deriv(2.0), 2.0 * (1.0 - std::cos(2.0)) + 5.0 * std::sin(2.0));
    expect_fd(*d, 2.0);
}

TEST_F(DriveRuntime, DriveOfDrivesIsTheComposition) {
    auto sq = drive("drive, string, \"Var^2\", linear, 1., 3.");  // (1 + 3t)^2
    EXPECT_DOUBLE_EQ(at(*sq, 2.0), 49.0);
    EXPECT_DOUBLE_EQ(sq->deriv(2.0), 42.0);
    expect_fd(*sq, 2.0);
    auto s = drive("drive, sine, 0., 1., 2., forever, 0., parabolic, 0., 0., 1.");  // 2 sin(t^2)
    EXPECT_DOUBLE_EQ(at(*s, 1.3), 2.0 * std::sin(1.69));
    EXPECT_NEAR(s->deriv(1.3), 4.0 * 1.3 * std::cos(1.69), 1e-12);
    expect_fd(*s, 1.3);
    auto nested = drive("drive, drive, direct, cubic, 0., 0., 0., 1., linear, 0., 2.");  // 8 t^3
    EXPECT_DOUBLE_EQ(at(*nested, 0.5), 1.0);
    EXPECT_DOUBLE_EQ(nested->deriv(0.5), 6.0);
}

TEST_F(DriveRuntime, NamedAndPostponedReferences) {
    auto r = drive("reference, 5", "drive caller: 5, linear, 1., 2.;\n");
    EXPECT_DOUBLE_EQ(at(*r, 2.0), 5.0);
    auto p = drive("postponed, 6", "drive caller: 6, parabolic, 0., 0., 2.;\n");
    EXPECT_DOUBLE_EQ(at(*p, 3.0), 18.0);
    EXPECT_DOUBLE_EQ(p->deriv(3.0), 12.0);
}

// --- scalar functions --------------------------------------------------------------------------

TEST_F(DriveRuntime, ScalarFunctions) {
    const std::string defs =
        "scalar function: \"k\", 3.;\n"
        "scalar function: \"p\", pow, 2.;\n"
        "scalar function: \"e\", exp, base, 2., coefficient, 3., 0.5;\n"
        "scalar function: \"l\", log, base, 10., coefficient, 2., 3.;\n"
        "scalar function: \"lin\", linear, 1., 2., 3., 8.;\n"
        "scalar function: \"s\", sin, 2., 3., 0.1;\n"
        "scalar function: \"c\", cos, 2., 3., 0.1;\n"
        "scalar function: \"m\", mul, \"k\", \"p\";\n"
        "scalar function: \"q\", div, \"p\", \"lin\";\n";
    auto sf = [&](const char* name) {
        return drive("scalar function, \"" + std::string(name) + "\"", defs);
    };
    EXPECT_DOUBLE_EQ(at(*sf("k"), 5.0), 3.0);
    EXPECT_DOUBLE_EQ(at(*sf("p"), 3.0), 9.0);
    EXPECT_NEAR(at(*sf("e"), 1.0), 4.0, 1e-12);  // 0.5 * 2^3
    EXPECT_NEAR(sf("e")->deriv(1.0), 12.0 * std::log(2.0), 1e-12);
    EXPECT_NEAR(at(*sf("l"), 50.0), 6.0, 1e-12);  // 3 log10(100)
    EXPECT_NEAR(sf("l")->deriv(50.0), 3.0 / (50.0 * std::log(10.0)), 1e-15);
    EXPECT_DOUBLE_EQ(at(*sf("lin"), 2.0), 5.0);  // through (1, 2) and (3, 8)
    EXPECT_DOUBLE_EQ(at(*sf("s"), 0.5), 2.0 * std::sin(1.6));
    EXPECT_DOUBLE_EQ(at(*sf("c"), 0.5), 2.0 * std::cos(1.6));
    EXPECT_DOUBLE_EQ(at(*sf("m"), 2.0), 12.0);
    EXPECT_DOUBLE_EQ(at(*sf("q"), 2.0), 0.8);  // 4 / 5
    for (const char* n : {"p", "e", "l", "lin", "s", "c", "m", "q"}) {
        SCOPED_TRACE(n);
        expect_fd(*sf(n), 2.0);
    }
}

TEST_F(DriveRuntime, TabulatedScalarFunctions) {
    const std::string defs =
        "scalar function: \"cube\", cubic spline, 0., 0., 1., 1., 2., 8., 3., 27., 4., 64.;\n"
        "scalar function: \"sq\", cubic spline, 0., 0., 1., 1., 2., 4.;\n"
        "scalar function: \"ml\", multilinear, 0., 0., 1., 2., 3., 0.;\n"
        "scalar function: \"held\", multilinear, do not extrapolate, 0., 0., 1., 2., 3., 0.;\n"
        "scalar function: \"ch\", chebychev, 0., 2., 1., 0.5, 0.25;\n";
    auto sf = [&](const char* name) {
        return drive("scalar function, \"" + std::string(name) + "\"", defs);
    };
    // The spline reproduces a cubic from 5 points (and a parabola from 3) exactly.
    auto cube = sf("cube");
    EXPECT_NEAR(at(*cube, 2.5), 15.625, 1e-12);
    EXPECT_NEAR(cube->deriv(2.5), 18.75, 1e-12);
    EXPECT_NEAR(at(*cube, 0.3), 0.027, 1e-12);
    expect_fd(*cube, 1.7);
    EXPECT_NEAR(at(*cube, 5.0), 64.0 + 48.0, 1e-9);  // extrapolated with the end slope 3*16
    EXPECT_NEAR(at(*sf("sq"), 1.5), 2.25, 1e-12);
    auto ml = sf("ml");
    EXPECT_DOUBLE_EQ(at(*ml, 0.5), 1.0);
    EXPECT_DOUBLE_EQ(at(*ml, 2.0), 1.0);
    EXPECT_DOUBLE_EQ(at(*ml, 4.0), -1.0);
    EXPECT_DOUBLE_EQ(ml->deriv(4.0), -1.0);
    auto held = sf("held");
    EXPECT_DOUBLE_EQ(at(*held, 4.0), 0.0);
    EXPECT_DOUBLE_EQ(at(*held, -1.0), 0.0);
    EXPECT_DOUBLE_EQ(held->deriv(4.0), 0.0);
    // 1 T0 + 0.5 T1 + 0.25 T2 at xi = (2x - 2)/2: x = 1.5, xi = 0.5, T2 = 2 xi^2 - 1 = -0.5
    auto ch = sf("ch");
    EXPECT_DOUBLE_EQ(at(*ch, 1.5), 1.125);
    EXPECT_DOUBLE_EQ(ch->deriv(1.5), 1.0);  // (0.5 + 0.25 * 4 xi) dxi/dx
    expect_fd(*ch, 1.5);
}

// --- unsupported types -------------------------------------------------------------------------

TEST_F(DriveRuntime, UnsupportedTypesAreInputErrorsAtTheDrive) {
    // Model-data drives need a run (DriveEnv::data); outside one they are refused at the card.
    const std::string before =
        "begin: nodes; structural: 1, static, null, eye, null, null; end: nodes;\n";
    const std::string head =
        mbs::test::deck_head + "begin: control data; structural nodes: 1; end: control data;\n";
    const mbs::Model& m = keep(mbs::test::build(
        head + before + "drive caller: 99, node, 1, structural, string, \"X[1]\", direct;\n"));
    try {
        mbs::make_drive(*m.drive_callers.at(99), env());
        FAIL() << "no error";
    } catch (const mbs::InputError& e) {
        EXPECT_EQ(e.message(), "drive caller 'node' is not supported at run time yet");
        EXPECT_NE(e.hint().find("only in a run"), std::string::npos);
    }
}

// --- template drive callers --------------------------------------------------------------------

TEST_F(DriveRuntime, TplDrive3Single) {
    auto g = gravity("0., 0., -1., const, 9.81");
    EXPECT_FALSE(g.is_null());
    EXPECT_EQ(g.value(3.0), mbs::Vec3(0.0, 0.0, -9.81));
    EXPECT_EQ(g.deriv(3.0), mbs::Vec3::Zero());
    EXPECT_TRUE(g.active()[0] && g.active()[1] && g.active()[2]);
    EXPECT_TRUE(g.differentiable());
}

TEST_F(DriveRuntime, TplDrive3ComponentWithInactive) {
    auto g = gravity("component, const, 1., inactive, sine, 0., 2., 3., forever, 0.");
    mbs::test::expect_vec(g.value(1.0), mbs::Vec3(1.0, 0.0, 3.0 * std::sin(2.0)));
    mbs::test::expect_vec(g.deriv(1.0), mbs::Vec3(0.0, 0.0, 6.0 * std::cos(2.0)));
    EXPECT_TRUE(g.active()[0]);
    EXPECT_FALSE(g.active()[1]);
    EXPECT_TRUE(g.active()[2]);
}

TEST_F(DriveRuntime, TplDrive3ArrayAndNull) {
    auto g = gravity("array, 2, single, 1., 0., 0., linear, 0., 1., single, 0., 2., 0., const, 1.");
    mbs::test::expect_vec(g.value(2.0), mbs::Vec3(2.0, 2.0, 0.0));
    mbs::test::expect_vec(g.deriv(2.0), mbs::Vec3(1.0, 0.0, 0.0));
    auto n = gravity("null");
    EXPECT_TRUE(n.is_null());
    EXPECT_EQ(n.value(1.0), mbs::Vec3::Zero());
    EXPECT_EQ(n.deriv(1.0), mbs::Vec3::Zero());
    auto c = mbs::TplDrive<3>::constant(mbs::Vec3(1.0, 2.0, 3.0));
    EXPECT_EQ(c.value(5.0), mbs::Vec3(1.0, 2.0, 3.0));
    EXPECT_EQ(c.deriv(5.0), mbs::Vec3::Zero());
}

TEST_F(DriveRuntime, TplDrive6AndTplDrive1) {
    mbs::TplDriveSpec comp;
    comp.type = "component";
    comp.dim = 6;
    for (int i = 0; i < 6; ++i)
        comp.components.push_back(i == 4 ? nullptr
                                         : spec("linear, 0., " + std::to_string(i + 1) + "."));
    auto c = mbs::TplDrive<6>::make(comp, env());
    mbs::Vec6 expected;
    expected << 2.0, 4.0, 6.0, 8.0, 0.0, 12.0;
    EXPECT_LT((c.value(2.0) - expected).norm(), 1e-12);
    EXPECT_LT((c.deriv(2.0) - expected / 2.0).norm(), 1e-12);
    EXPECT_FALSE(c.active()[4]);
    EXPECT_TRUE(c.active()[5]);

    mbs::TplDriveSpec single;
    single.type = "single";
    single.dim = 1;
    single.entity = {2.0};
    single.drive = spec("linear, 1., 2.");
    auto s = mbs::TplDrive<1>::make(single, env());
    EXPECT_DOUBLE_EQ(s.value(1.5)[0], 8.0);  // 2 (1 + 2 t)
    EXPECT_DOUBLE_EQ(s.deriv(1.5)[0], 4.0);

    single.dim = 3;
    EXPECT_THROW(mbs::TplDrive<1>::make(single, env()), mbs::InputError);
}

}  // namespace
