// Unit tests of core: rotation parametrisations, diagnostics formatting, keyword helpers,
// compiled expressions.
#include <gtest/gtest.h>

#include <cmath>

#include "core/compiled_expr.hpp"
#include "core/math.hpp"
#include "core/source.hpp"

using namespace mbs;

TEST(Rotations, Euler123IsProductOfMovingAxisRotations) {
    Vec3 a(0.3, -0.7, 1.1);
    Mat3 R = euler123_to_matrix(a);
    // Column 3 of Rx(a1) Ry(a2) Rz(a3) is Rx(a1) Ry(a2) e3 = (sin a2, -sin a1 cos a2, cos a1 cos
    // a2).
    EXPECT_NEAR(R(0, 2), std::sin(a[1]), 1e-15);
    EXPECT_NEAR(R(1, 2), -std::sin(a[0]) * std::cos(a[1]), 1e-15);
    EXPECT_NEAR(R(2, 2), std::cos(a[0]) * std::cos(a[1]), 1e-15);
    EXPECT_NEAR((R.transpose() * R - Mat3::Identity()).norm(), 0.0, 1e-14);
}

TEST(Rotations, Euler313And321AreOrthonormalAndDistinct) {
    Vec3 a(0.2, 0.4, 0.6);
    Mat3 A = euler313_to_matrix(a), B = euler321_to_matrix(a);
    EXPECT_NEAR(A.determinant(), 1.0, 1e-14);
    EXPECT_NEAR(B.determinant(), 1.0, 1e-14);
    // 313 keeps e3 of the last rotation: R e3 = Rz(a1) Rx(a2) e3.
    Vec3 c = A.col(2);
    EXPECT_NEAR(c.z(), std::cos(a[1]), 1e-15);
    // 321: R(2,0) = -sin(a2).
    EXPECT_NEAR(B(2, 0), -std::sin(a[1]), 1e-15);
}

TEST(Rotations, RotationVectorMatchesRodrigues) {
    Vec3 phi(0.1, -0.2, 0.3);
    double th = phi.norm();
    Mat3 K = skew(phi / th);
    Mat3 expected = Mat3::Identity() + std::sin(th) * K + (1 - std::cos(th)) * K * K;
    EXPECT_NEAR((rotation_vector_to_matrix(phi) - expected).norm(), 0.0, 1e-15);
    EXPECT_NEAR((rotation_vector_to_matrix(Vec3::Zero()) - Mat3::Identity()).norm(), 0.0, 0.0);
    // Near-singular: a tiny rotation is I + skew(phi) to first order.
    Vec3 tiny(1e-12, 0, 0);
    EXPECT_NEAR((rotation_vector_to_matrix(tiny) - (Mat3::Identity() + skew(tiny))).norm(), 0.0,
                1e-20);
}

TEST(Diagnostics, FormatsFileLineColumnCaretAndHint) {
    SourceFile f("deck.mbd", "begin: data;\n  joint: 1, revolute hinje, 1;\n");
    SourceLoc loc{&f, 26, 40};
    std::string s = format_diagnostic(Severity::error, loc, "unknown joint type",
                                      "did you mean 'revolute hinge'?");
    EXPECT_EQ(s.substr(0, s.find('\n')), "deck.mbd:2:14: error: unknown joint type");
    EXPECT_NE(s.find("    ^~~~"), std::string::npos) << s;
    EXPECT_NE(s.find("hint: did you mean 'revolute hinge'?"), std::string::npos);
    InputError e(loc, "x");
    EXPECT_EQ(e.where(), "deck.mbd:2:14");
}

// UTF-8 text in the quoted line is shown as written and the caret counts characters, so it
// sits under the blamed word; bytes that are not UTF-8 are shown as '?'. (The column number
// counts bytes.)
TEST(Diagnostics, QuotesUtf8LinesWithTheCaretUnderTheWord) {
    SourceFile f("deck.mbd", "set: real \xc3\x84\xc3\x96 = 1, \xffx;\n");
    SourceLoc loc{&f, 10, 14};  // the two-letter name
    std::string s = format_diagnostic(Severity::error, loc, "bad name", "");
    EXPECT_NE(s.find("    set: real \xc3\x84\xc3\x96 = 1, ?x;\n"), std::string::npos) << s;
    EXPECT_NE(s.find("\n              ^~\n"), std::string::npos) << s;
    SourceLoc after{&f, 20, 21};  // the byte 0xff, after two 2-byte characters
    s = format_diagnostic(Severity::error, after, "bad byte", "");
    EXPECT_EQ(s.substr(0, s.find('\n')), "deck.mbd:1:21: error: bad byte");
    EXPECT_NE(s.find("\n" + std::string(22, ' ') + "^\n"), std::string::npos) << s;
}

TEST(Keywords, NormalizeAndClosestMatch) {
    EXPECT_EQ(normalize_keyword("Control  Data"), "controldata");
    EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
    EXPECT_EQ(closest_match("revolutehinje", {"revolute hinge", "revolute pin", "clamp"}),
              "revolute hinge");
    EXPECT_EQ(closest_match("xyzzy", {"revolute hinge", "clamp"}), "");
}

TEST(CompiledExpr, ValueAndTimeDerivative) {
    // 3*Time^2 + Var  ->  d/dt = 6 Time + Var'
    CompiledExpr e;
    using Op = CompiledExpr::Op;
    e.code = {{Op::push_const, 3.0}, {Op::push_time}, {Op::push_const, 2.0}, {Op::pow}, {Op::mul},
              {Op::push_var},        {Op::add}};
    CompiledExpr::Inputs in;
    in.time = 2.0;
    in.var = 5.0;
    in.var_dot = 0.5;
    double d = 0;
    EXPECT_DOUBLE_EQ(e.eval(in, &d), 17.0);
    EXPECT_DOUBLE_EQ(d, 12.5);
}
