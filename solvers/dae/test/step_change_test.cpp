// The run's `strategy: change` step control (SolverSettings::strategy_change,
// solvers/dae/simulation.cpp), as MBDyn's ChangeStep (base/TimeStepControl.cc) and Solver
// (base/solver.cc) do it:
//   - the first two regular steps have the `time step` (Solver::Start computes no new step);
//   - after each later step, dt_{n+1} = max(min(drive(t_n), max time step), min time step),
//     the drive taken at the time just reached;
//   - a step <= 0 stops the run (MBDyn goes on, backwards in time).
// The tests set the settings themselves, with the drive of a `drive caller:` card (the deck's
// `strategy: change` card: regression/strategy_change).
//
// The pendulum of input-examples/pendulum.mbd (1 kg, 1 m, released horizontally), with the step
// 1 ms until t = 0.5 s, a ramp to 4 ms at t = 1 s, clamped to 3 ms. MBDyn 1.7.3
// (/work/mbdyn/bin/mbdyn, the same deck with `min time step: 5.e-4; max time step: 3.e-3;
// strategy: change, postponed, 99;`, output precision 17) gives the numbers below: 1073 steps to
// t = 2.0013788749693866 (its last step ends after the final time; mbsolve's lands on it).
// Observed (tolerances within 10x): the same 1073 steps; the step sizes are the drive's exactly;
// against MBDyn, step 502's size 2e-18, times 3.5e-14 s (MBDyn adds the steps up, mbsolve counts
// steps of a constant size from where it changed), positions 4.4e-9 m; energy 5.0e-4 J; the
// position at t = 0.5 s 5.2e-6 m from the exact solution (MBDyn's: the same).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "parser/test_support.hpp"
#include "solvers/dae/simulation.hpp"

namespace mbs::test {
namespace {

std::string pendulum_deck(const std::string& step_drive) {
    return "begin: data; problem: initial value; end: data;\n"
           "begin: initial value; initial time: 0.; final time: 2.; time step: 1.e-3;\n"
           "max time step: 3.e-3; method: ms, 0.6; tolerance: 1.e-6; max iterations: 20;\n"
           "end: initial value;\n"
           "begin: control data; structural nodes: 2; rigid bodies: 1; joints: 2; gravity;\n"
           "end: control data;\n"
           "begin: nodes;\n"
           "structural: 1, static, null, eye, null, null;\n"
           "structural: 2, dynamic, 1., 0., 0., eye, null, null;\n"
           "end: nodes;\n"
           "begin: elements;\n"
           "joint: 1, clamp, 1, node, node;\n"
           "joint: 2, revolute hinge, 1, position, null, orientation, eye,\n"
           "  2, position, reference, global, null, orientation, reference, global, eye;\n"
           "body: 1, 2, 1., null, null;\n"
           "gravity: uniform, 0., -1., 0., const, 9.81;\n"
           "drive caller: 99, " +
           step_drive +
           ";\n"
           "end: elements;\n";
}

struct Sample {
    long step;
    double t, dt, x, y, vx, vy;
};

struct Recorder : OutputSink {
    std::vector<Sample> s;
    void step(const StepView& v, const StepInfo& i) override {
        const StructNode& n = v.nodes[1];
        s.push_back({i.step, i.time, i.dt, n.x.x(), n.x.y(), n.xdot.x(), n.xdot.y()});
    }
};

SolverSettings change_settings(const Model& m, double min_dt) {
    SolverSettings s = SolverSettings::from_model(m);
    s.strategy_change = true;
    s.change_drive = m.drive_callers.at(99);
    s.change_max_drive = m.solver.max_time_step.value.drive;
    s.min_dt = min_dt;
    return s;
}

// The deck's drive, written out: 1e-3 to t = 0.5, linear to 4e-3 at t = 1, then held (the
// formula of elements/drives/basic_drives.cpp, PiecewiseLinear).
double ramp(double t) {
    if (t <= 0.5) return 1e-3;
    if (t >= 1.0) return 4e-3;
    return 1e-3 + (4e-3 - 1e-3) / (1.0 - 0.5) * (t - 0.5);
}

TEST(StepChange, StepsAreTheDriveAtTheTimeReachedClampedLikeMBDyn) {
    Model m = build(pendulum_deck("piecewise linear, 3, 0., 1.e-3, 0.5, 1.e-3, 1., 4.e-3"));
    Simulation sim(m, change_settings(m, 5e-4));
    Recorder rec;
    sim.add_sink(&rec);
    sim.run();
    const auto& s = rec.s;
    ASSERT_EQ(s.size(), 1074u);  // step 0 and 1073 steps, as MBDyn
    EXPECT_EQ(s[1].dt, 1e-3);
    EXPECT_EQ(s[2].dt, 1e-3);
    int mismatches = 0;
    for (std::size_t n = 2; n + 2 < s.size(); ++n)
        if (s[n + 1].dt != std::max(std::min(ramp(s[n].t), 3e-3), 5e-4)) ++mismatches;
    EXPECT_EQ(mismatches, 0);
    // The last step lands on the final time (MBDyn's ends at 2.0013788749693866).
    EXPECT_EQ(s.back().t, 2.0);
    EXPECT_LE(s.back().dt, 3e-3);

    // MBDyn's steps: step 502 (the ramp's second step), 742 (clamped).
    EXPECT_NEAR(s[502].dt, 0.001006000000000002, 1e-17);
    EXPECT_NEAR(s[502].t, 0.5020060000000003, 1e-15);
    EXPECT_EQ(s[742].dt, 3e-3);
    EXPECT_NEAR(s[742].t, 1.008378874969422, 2e-15);

    // Motion: the energy 1/2 v^2 + g y (0 at release) and MBDyn's positions (its .mov).
    double e_max = 0.0;
    for (const auto& k : s)
        e_max = std::max(e_max, std::fabs(0.5 * (k.vx * k.vx + k.vy * k.vy) + 9.81 * k.y));
    EXPECT_LT(e_max, 2e-3);
    const struct {
        std::size_t step;
        double t, x, y;
    } mbdyn[] = {
        {500, 0.50000000000000033, 3.91053940804767575e-01, -9.20367760941821711e-01},
        {1000, 1.7823788749693945, 2.85610955121397524e-02, -9.99592048699446178e-01},
        {1070, 1.9923788749693869, 7.77009966218873749e-01, -6.29488294090170930e-01},
    };
    double d_max = 0.0, t_max = 0.0;
    for (const auto& r : mbdyn) {
        t_max = std::max(t_max, std::fabs(s[r.step].t - r.t));
        d_max = std::max({d_max, std::fabs(s[r.step].x - r.x), std::fabs(s[r.step].y - r.y)});
    }
    EXPECT_LT(t_max, 2e-13);
    EXPECT_LT(d_max, 3e-8);
    // The exact solution at t = 0.5 (docs/references.md, section 1).
    EXPECT_NEAR(s[500].x, 0.391048791550546, 3e-5);
    EXPECT_NEAR(s[500].y, -0.920369948785192, 2e-5);
    std::printf(
        "energy error %.3g J, max |x - MBDyn| %.3g m, |t - MBDyn| %.3g s, x(0.5), y(0.5) error "
        "%.3g, %.3g m, dt502 "
        "%.3g, t502 %.3g, t742 %.3g\n",
        e_max, d_max, t_max, std::fabs(s[500].x - 0.391048791550546),
        std::fabs(s[500].y + 0.920369948785192), s[502].dt - 0.001006000000000002,
        s[502].t - 0.5020060000000003, s[742].t - 1.008378874969422);
}

TEST(StepChange, ANonPositiveDriveGivesTheMinTimeStep) {
    Model m = build(pendulum_deck("const, -1.e-3"));
    SolverSettings set = change_settings(m, 5e-4);
    set.tf = 0.01;
    Simulation sim(m, set);
    Recorder rec;
    sim.add_sink(&rec);
    sim.run();
    const auto& s = rec.s;
    // MBDyn: 1e-3, 1e-3, then 5e-4 to t = 0.01.
    ASSERT_EQ(s.size(), 1u + 2u + 16u);
    EXPECT_EQ(s[2].dt, 1e-3);
    for (std::size_t n = 3; n < s.size(); ++n) EXPECT_EQ(s[n].dt, 5e-4) << n;
}

TEST(StepChange, ANonPositiveStepStopsTheRun) {
    Model m = build(pendulum_deck("const, -1.e-3"));
    SolverSettings set = change_settings(m, 0.0);
    set.tf = 0.01;
    Simulation sim(m, set);
    try {
        sim.run();
        FAIL() << "no failure";
    } catch (const SolverFailure& f) {
        EXPECT_NE(std::string(f.what()).find(
                      "'strategy: change': the drive gives the time step -0.001 at t = 0.002"),
                  std::string::npos)
            << f.what();
    }
}

}  // namespace
}  // namespace mbs::test
