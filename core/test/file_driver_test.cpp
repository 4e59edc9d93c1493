// Unit tests of the file drivers' data reader and interpolation (core/file_driver.hpp) against
// values worked out by hand from MBDyn's rules (mbdyn/base/fixedstep.cc, varstep.cc).
#include "core/file_driver.hpp"

#include <gtest/gtest.h>

using namespace mbs;

namespace {

FileDriverCard fixed_card(long steps, long channels, double t0, double dt) {
    FileDriverCard c;
    c.label = 7;
    c.steps = steps;
    c.channels = channels;
    c.t0 = t0;
    c.dt = dt;
    return c;
}

FileDriverCard variable_card(long channels) {
    FileDriverCard c;
    c.label = 8;
    c.variable_step = true;
    c.channels = channels;
    return c;
}

// The "file:line:col" of the error parsing `text` with `card`; empty if it parses.
std::string error_at(const FileDriverCard& card, const std::string& text,
                     std::string* msg = nullptr) {
    SourceFile f("data.txt", text);
    try {
        parse_file_driver(card, f);
    } catch (const InputError& e) {
        if (msg) *msg = e.message();
        return e.where();
    }
    return {};
}

}  // namespace

// Samples 2, 1, 4, 9 at t = 1, 1.5, 2, 2.5 (two channels, the second one 10 x the first).
TEST(FileDriver, FixedStepLinearConstAndPadding) {
    SourceFile f("data.txt", "# a comment\n2 20\n1 10\n\n4 40\n9 90\n");
    FileDriverCard c = fixed_card(-1, 2, 1.0, 0.5);
    FileDriver d = parse_file_driver(c, f);
    ASSERT_EQ(d.steps, 4);
    long h = 0;
    EXPECT_EQ(d.value(1, 1.0, h), 2.0);
    EXPECT_EQ(d.value(1, 1.5, h), 1.0);
    EXPECT_EQ(d.value(1, 2.5, h), 9.0);  // the last sample itself
    EXPECT_NEAR(d.value(1, 1.25, h), 1.5, 1e-15);
    EXPECT_NEAR(d.value(1, 2.25, h), 6.5, 1e-15);
    EXPECT_NEAR(d.value(2, 2.1, h), 40.0 + 0.2 * 50.0, 1e-13);
    // Outside [1, 2.5]: zeros by default (pad zeros, yes); first / last sample otherwise.
    EXPECT_EQ(d.value(1, 0.99, h), 0.0);
    EXPECT_EQ(d.value(1, 2.51, h), 0.0);
    d.pad_zeros = false;
    EXPECT_EQ(d.value(1, 0.99, h), 2.0);
    EXPECT_EQ(d.value(2, 2.51, h), 90.0);
    // interpolation, const: the sample at or before t.
    d.linear = false;
    EXPECT_EQ(d.value(1, 1.49, h), 2.0);
    EXPECT_EQ(d.value(1, 1.5, h), 1.0);
    EXPECT_EQ(d.value(2, 2.4, h), 40.0);
}

// `initial time, from file` and `time step, from file`: the leading comments give them; a given
// number of steps reads that many samples and leaves the rest (as MBDyn).
TEST(FileDriver, FixedStepHeaderFromFile) {
    SourceFile f("data.txt",
                 "# recorded 2024\n#  Initial Time: -0.5\n# time step: 0.25\n0\n1\n2\n3\n");
    FileDriverCard c = fixed_card(3, 1, 0.0, 0.0);
    c.t0_from_file = c.dt_from_file = true;
    FileDriver d = parse_file_driver(c, f);
    EXPECT_EQ(d.t0, -0.5);
    EXPECT_EQ(d.dt, 0.25);
    EXPECT_EQ(d.steps, 3);
    long h = 0;
    EXPECT_NEAR(d.value(1, -0.125, h), 1.5, 1e-15);
    EXPECT_EQ(d.value(1, 0.1, h), 0.0);  // after the third sample (t = 0): padded
    std::string msg;
    c.t0_from_file = true;
    EXPECT_EQ(error_at(c, "# time step: 0.25\n0\n", &msg), "data.txt:1:1");
    EXPECT_NE(msg.find("initial time"), std::string::npos) << msg;
}

// Times 0, 0.1, 0.3, 1 and values 1, 2, 4, 11: linear between them; MBDyn pads at the first and
// last times themselves (t <= t_1, t >= t_n); the moving index follows t both ways and jumps.
TEST(FileDriver, VariableStep) {
    SourceFile f("data.txt", "0 1\n0.1 2\n0.3 4\n1 11\n");
    FileDriver d = parse_file_driver(variable_card(1), f);
    ASSERT_EQ(d.steps, 4);
    long h = 0;
    EXPECT_NEAR(d.value(1, 0.05, h), 1.5, 1e-15);
    EXPECT_EQ(h, 0);
    EXPECT_NEAR(d.value(1, 0.2, h), 3.0, 1e-15);
    EXPECT_EQ(h, 1);
    EXPECT_EQ(d.value(1, 0.3, h), 4.0);
    EXPECT_NEAR(d.value(1, 0.65, h), 7.5, 1e-14);
    EXPECT_EQ(h, 2);
    EXPECT_NEAR(d.value(1, 0.05, h), 1.5, 1e-15);  // back to the start
    EXPECT_EQ(h, 0);
    h = 123456;  // any hint is valid
    EXPECT_NEAR(d.value(1, 0.2, h), 3.0, 1e-15);
    EXPECT_EQ(d.value(1, 0.0, h), 0.0);
    EXPECT_EQ(d.value(1, 1.0, h), 0.0);
    d.pad_zeros = false;
    EXPECT_EQ(d.value(1, 0.0, h), 1.0);
    EXPECT_EQ(d.value(1, -1.0, h), 1.0);
    EXPECT_EQ(d.value(1, 1.0, h), 11.0);
    EXPECT_EQ(d.value(1, 5.0, h), 11.0);
    d.linear = false;
    EXPECT_EQ(d.value(1, 0.29, h), 2.0);
    EXPECT_EQ(d.value(1, 0.3, h), 4.0);
}

// Bad data: located at its line and column in the data file.
TEST(FileDriver, BadDataIsLocated) {
    std::string msg;
    EXPECT_EQ(error_at(fixed_card(-1, 2, 0, 1), "1 2\n3 x\n", &msg), "data.txt:2:3");
    EXPECT_NE(msg.find("expected a number"), std::string::npos) << msg;
    EXPECT_EQ(error_at(fixed_card(-1, 2, 0, 1), "1 2\n3\n", &msg), "data.txt:2:2");
    EXPECT_NE(msg.find("ends after 1 of 2 columns"), std::string::npos) << msg;
    EXPECT_EQ(error_at(fixed_card(-1, 2, 0, 1), "1 2 3\n", &msg), "data.txt:1:4");
    EXPECT_NE(msg.find("more than 2 columns"), std::string::npos) << msg;
    EXPECT_EQ(error_at(fixed_card(3, 1, 0, 1), "1\n2\n", &msg), "data.txt:2:2");
    EXPECT_NE(msg.find("ends after 2 samples"), std::string::npos) << msg;
    EXPECT_EQ(error_at(variable_card(1), "0 1\n0.5 2\n0.5 3\n", &msg), "data.txt:3:1");
    EXPECT_NE(msg.find("increase strictly"), std::string::npos) << msg;
    EXPECT_EQ(error_at(variable_card(1), "# only a comment\n", &msg), "data.txt:1:17");
    EXPECT_NE(msg.find("no samples"), std::string::npos) << msg;
    EXPECT_EQ(error_at(fixed_card(-1, 1, 0, 1), "1e400\n", &msg), "data.txt:1:1");
    EXPECT_EQ(error_at(fixed_card(-1, 1, 0, 1), "1.5abc\n", &msg), "data.txt:1:4");
    EXPECT_EQ(error_at(fixed_card(-1, 1, 0, 1), "+1.5\n-2\r\n.5\n"), "");
}
