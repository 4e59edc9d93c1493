// MBDyn's module drive callers min, max, switch, multi step, derivative (module_drives.cpp):
// values and derivatives against closed forms worked out by hand here, and the readers' errors
// at the offending argument.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/drive.hpp"
#include "core/model.hpp"
#include "parser/test_support.hpp"

namespace {

using mbs::DrivePtr;
namespace cards = mbs::test::cards;

class ModuleDrives : public ::testing::Test {
  protected:
    mbs::SimClock clock;

    // The runtime drive of `drive caller: 99, <text>`.
    DrivePtr drive(const std::string& text) {
        models_.push_back(
            std::make_unique<mbs::Model>(cards::build("drive caller: 99, " + text + ";\n")));
        mbs::DriveEnv e;
        e.clock = &clock;
        e.model = models_.back().get();
        return mbs::make_drive(*models_.back()->drive_callers.at(99), e);
    }
    double at(const DrivePtr& d, double t) {
        clock.time = t;
        return d->value(t);
    }
    double dat(const DrivePtr& d, double t) {
        clock.time = t;
        return d->deriv(t);
    }

  private:
    std::vector<std::unique_ptr<mbs::Model>> models_;
};

// min(2t, 1, 3 - t): 2t on t < 1/2, 1 on 1/2 < t < 2, 3 - t after 2.
TEST_F(ModuleDrives, MinPicksTheSmallestAndItsDerivative) {
    auto d = drive("min, 3, linear, 0., 2., const, 1., linear, 3., -1.");
    EXPECT_EQ(at(d, 0.25), 0.5);
    EXPECT_EQ(dat(d, 0.25), 2.0);
    EXPECT_EQ(at(d, 1.0), 1.0);
    EXPECT_EQ(dat(d, 1.0), 0.0);
    EXPECT_EQ(at(d, 2.5), 0.5);
    EXPECT_EQ(dat(d, 2.5), -1.0);
    // A tie (t = 1/2: 2t = 1) takes the first drive, as MBDyn's strict comparison.
    EXPECT_EQ(at(d, 0.5), 1.0);
    EXPECT_EQ(dat(d, 0.5), 2.0);
    EXPECT_TRUE(d->differentiable());
}

// max(sin t, 0.5): the half-wave clipped from below.
TEST_F(ModuleDrives, MaxPicksTheLargest) {
    auto d = drive("max, 2, sine, 0., 1., 1., forever, 0., 0.5");
    for (double t : {0.1, 1.0, 2.0, 4.0, 6.0}) {
        EXPECT_NEAR(at(d, t), std::max(std::sin(t), 0.5), 1e-15) << t;
        EXPECT_NEAR(dat(d, t), std::sin(t) > 0.5 ? std::cos(t) : 0.0, 1e-15) << t;
    }
    // One drive: itself.
    EXPECT_EQ(at(drive("max, 1, linear, 1., 2."), 3.0), 7.0);
}

// switch on t with the three roundings: branch k = 10 k + t (so the branch is visible).
TEST_F(ModuleDrives, SwitchSelectsTheBranchByRounding) {
    const std::string branches = "3, linear, 0., 1., linear, 10., 1., linear, 20., 1.";
    auto f = drive("switch, time, floor, " + branches);
    auto c = drive("switch, time, ceil, " + branches);
    auto n = drive("switch, time, nearest, " + branches);
    EXPECT_EQ(at(f, 0.7), 0.7);
    EXPECT_EQ(at(f, 1.0), 11.0);
    EXPECT_EQ(at(f, 2.9), 22.9);
    EXPECT_EQ(at(c, 0.0), 0.0);
    EXPECT_EQ(at(c, 0.7), 10.7);
    EXPECT_EQ(at(c, 1.2), 21.2);
    EXPECT_EQ(at(n, 0.4), 0.4);
    EXPECT_EQ(at(n, 0.5), 10.5);  // half away from zero
    EXPECT_EQ(at(n, 1.6), 21.6);
    EXPECT_EQ(dat(n, 1.6), 1.0);
    // Out of range: NaN, which the run reports with the drive's location.
    EXPECT_TRUE(std::isnan(at(f, 3.0)));
    EXPECT_TRUE(std::isnan(at(c, -0.5 - 1.0)));
    EXPECT_TRUE(f->differentiable());
}

// The switch is evaluated at the time even when the switch drive is fed another input.
TEST_F(ModuleDrives, SwitchInsideDriveSeesTheTime) {
    // drive, outer = switch(time) of {2 Var, 3 Var}, inner = const 5: at t = 0.5 branch 0 gives
    // 10, at t = 1.5 branch 1 gives 15.
    auto d = drive("drive, switch, time, floor, 2, linear, 0., 2., linear, 0., 3., const, 5.");
    EXPECT_EQ(at(d, 0.5), 10.0);
    EXPECT_EQ(at(d, 1.5), 15.0);
}

TEST_F(ModuleDrives, MultiStepHoldsEachValueFromItsAbscissa) {
    auto d = drive("multi step, 3, 1., 10., 2., 20., 4., 40.");
    EXPECT_EQ(at(d, 0.0), 10.0);  // before x1: y1 (MBDyn)
    EXPECT_EQ(at(d, 1.0), 10.0);
    EXPECT_EQ(at(d, 1.999), 10.0);
    EXPECT_EQ(at(d, 2.0), 20.0);
    EXPECT_EQ(at(d, 3.9), 20.0);
    EXPECT_EQ(at(d, 4.0), 40.0);
    EXPECT_EQ(at(d, 100.0), 40.0);
    EXPECT_EQ(dat(d, 2.5), 0.0);
    EXPECT_FALSE(d->differentiable());
    EXPECT_EQ(at(drive("multistep, 1, 0., 3."), -1.0), 3.0);
}

// derivative of A sin(w t) is A w cos(w t); of the parabola 1 + 2t + 3t^2 it is 2 + 6t.
TEST_F(ModuleDrives, DerivativeIsTheDrivesDerivative) {
    auto s = drive("derivative, sine, 0., 2., 3., forever, 0.");
    for (double t : {0.3, 1.1, 2.7}) EXPECT_NEAR(at(s, t), 6.0 * std::cos(2.0 * t), 1e-14) << t;
    EXPECT_EQ(dat(s, 1.0), 0.0);
    EXPECT_FALSE(s->differentiable());
    auto p = drive("derivative, parabolic, 1., 2., 3.");
    EXPECT_NEAR(at(p, 1.5), 11.0, 1e-15);
    // Of a string drive (exact derivative of the compiled expression): d/dt t^3 = 3 t^2.
    EXPECT_NEAR(at(drive("derivative, string, \"Time^3\""), 2.0), 12.0, 1e-13);
    // Of min: the selected branch's slope.
    EXPECT_EQ(at(drive("derivative, min, 2, linear, 0., 2., const, 1."), 0.25), 2.0);
}

TEST_F(ModuleDrives, DerivativeOfANonDifferentiableDriveIsRefusedAtIt) {
    const std::string c = "drive caller: 99, derivative, multi step, 1, 0., 1.;\n";
    try {
        drive("derivative, multi step, 1, 0., 1.");
        FAIL() << "no error";
    } catch (const mbs::InputError& e) {
        EXPECT_EQ(e.where(), cards::where_of(c, "multi step"));
        EXPECT_EQ(e.message(), "drive caller 'multistep' is not differentiable");
    }
}

TEST(ModuleDriveReaders, ErrorsAtTheOffendingArgument) {
    std::string msg;
    std::string c = "drive caller: 1, switch, time, round, 1, const, 0.;\n";
    EXPECT_EQ(cards::error_at(c, &msg), cards::where_of(c, "round"));
    c = "drive caller: 1, min, 0, const, 1.;\n";
    EXPECT_EQ(cards::error_at(c, &msg), cards::where_of(c, "0,"));
    // A count the card cannot hold: the missing drive is asked for at the end of the card.
    c = "drive caller: 1, max, 3, const, 1., const, 2.;\n";
    EXPECT_EQ(cards::error_at(c, &msg), cards::where_of(c, ";"));
    c = "drive caller: 1, multi step, 2, 1., 10., 1., 20.;\n";
    EXPECT_EQ(cards::error_at(c, &msg), cards::where_of(c, "1.,", 1));
    EXPECT_NE(msg.find("strictly increasing"), std::string::npos) << msg;
    c = "drive caller: 1, multi step, 0;\n";
    EXPECT_EQ(cards::error_at(c, &msg), cards::where_of(c, "0;"));
    c = "drive caller: 1, switch, time, floor, 2, const, 0.;\n";
    EXPECT_EQ(cards::error_at(c, &msg), cards::where_of(c, ";"));
}

// node distance: keywords in MBDyn's order, errors at the offending argument (marked @).
TEST(ModuleDriveReaders, NodeDistance) {
    const std::string head = mbs::test::deck_head +
                             "begin: control data; structural nodes: 2; end: control data;\n"
                             "begin: nodes; structural: 1, static, null, eye, null, null;\n"
                             "structural: 2, static, 1., 0., 0., eye, null, null; end: nodes;\n";
    const auto lines = std::count(head.begin(), head.end(), '\n');
    const mbs::Model m = mbs::test::build(head +
                                          "drive caller: 1, node distance, node1, 1, offset, 0., "
                                          "1., 0., node2, 2, direction, 0., 0., 2.;\n");
    auto d = m.drive_callers.at(1);
    EXPECT_EQ(d->type, "nodedistance");
    EXPECT_EQ(d->view().get<mbs::VecN>("direction"), (mbs::VecN{0., 0., 1.}));  // normalised
    EXPECT_EQ(d->view().get<mbs::VecN>("offset 1"), (mbs::VecN{0., 1., 0.}));
    for (const char* bad :
         {"drive caller: 1, node distance, @1, node2, 2, direction, 1., 0., 0.;\n",
          "drive caller: 1, node distance, node1, 1, @node3, 2, direction, 1., 0., 0.;\n",
          "drive caller: 1, node distance, node1, @7, node2, 2, direction, 1., 0., 0.;\n",
          "drive caller: 1, node distance, node1, 1, node2, 2, direction, @0., 0., 0.;\n"}) {
        std::string card = bad;
        const auto col = card.find('@') + 1;
        card.erase(card.find('@'), 1);
        EXPECT_EQ(mbs::test::error_at(head + card),
                  "t.mbd:" + std::to_string(lines + 1) + ":" + std::to_string(col))
            << bad;
    }
}

}  // namespace
