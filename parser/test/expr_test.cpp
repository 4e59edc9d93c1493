// Unit tests of the deck math language (docs/deck-language.md 1.4) through parse_statement +
// Evaluator, and of compile_expression + CompiledExpr::eval for string drives.
//
// Expected values are written by hand from the language rules: a literal without '.' or an
// exponent is an integer, integer arithmetic stays integer (1/3 == 0), unary -,+,! bind tighter
// than '^' (-2^2 == 4), '^' is right-associative (2^3^2 == 512) and integer^negative integer is 0.
#include "parser/expr.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/compiled_expr.hpp"
#include "core/source.hpp"
#include "parser/deck.hpp"

namespace {

using mbs::CompiledExpr;
using mbs::InputError;
using mbs::SourceFile;
using mbs::SourceLoc;
using mbs::parser::AstOrigin;
using mbs::parser::Evaluator;
using mbs::parser::SymbolTable;
using mbs::parser::Type;
using mbs::parser::Value;

const double pi = 3.14159265358979323846;

// One evaluation context: a symbol table that persists across statements, like a deck.
struct Lang {
    SymbolTable symbols;
    Evaluator ev{symbols};
    std::ostringstream printed;
    std::vector<std::unique_ptr<SourceFile>> files;  // keep sources alive for error locations

    const SourceFile& file(const std::string& text) {
        files.push_back(std::make_unique<SourceFile>("expr", text));
        return *files.back();
    }
    Value eval(const std::string& text) {
        const SourceFile& f = file(text);
        mbs::ast::Stmt st = mbs::parser::parse_statement(f.text, SourceLoc{&f, 0, 1});
        ev.out = &printed;
        return ev.eval(st, AstOrigin{&f, 0});
    }
    std::shared_ptr<CompiledExpr> compile(const std::string& text) {
        const SourceFile& f = file(text);
        mbs::ast::Stmt st = mbs::parser::parse_statement(f.text, SourceLoc{&f, 0, 1});
        return mbs::parser::compile_expression(st, AstOrigin{&f, 0}, symbols);
    }
};

// Evaluates `text` in a fresh context and returns the InputError it throws.
InputError error_of(const std::string& text, const std::vector<std::string>& setup = {}) {
    Lang l;
    for (const auto& s : setup) l.eval(s);
    try {
        l.eval(text);
    } catch (const InputError& e) {
        return e;
    }
    ADD_FAILURE() << "no error for: " << text;
    return InputError(SourceLoc{}, "");
}

// ---------------------------------------------------------------------------------------------
// Precedence and typing.

struct NumCase {
    const char* text;
    Type type;
    double value;
};

std::ostream& operator<<(std::ostream& os, const NumCase& c) { return os << c.text; }

class Numeric : public ::testing::TestWithParam<NumCase> {};

TEST_P(Numeric, ValueAndType) {
    const NumCase& c = GetParam();
    Lang l;
    Value v = l.eval(c.text);
    EXPECT_EQ(mbs::parser::type_name(v.type), std::string(mbs::parser::type_name(c.type)))
        << c.text;
    if (std::isinf(c.value))
        EXPECT_EQ(v.as_real(), c.value) << c.text;
    else
        EXPECT_NEAR(v.as_real(), c.value, 1e-12 * std::max(1.0, std::fabs(c.value))) << c.text;
}

const NumCase precedence_cases[] = {
    // integer vs real arithmetic
    {"1/3", Type::integer, 0},
    {"7/2", Type::integer, 3},
    {"-7/2", Type::integer, -3},  // C truncation toward zero
    {"1./3", Type::real, 1.0 / 3.0},
    {"1/3.", Type::real, 1.0 / 3.0},
    {"real(1)/2", Type::real, 0.5},
    {"7%3", Type::integer, 1},
    {"-7%3", Type::integer, -1},
    {"2*3", Type::integer, 6},
    {"2*3.", Type::real, 6},
    // unary operators bind tighter than '^'
    {"-2^2", Type::integer, 4},
    {"-(2^2)", Type::integer, -4},
    {"+3", Type::integer, 3},
    // '^': right-associative, integer^integer is an integer, negative integer exponent gives 0
    {"2^3^2", Type::integer, 512},
    {"(2^3)^2", Type::integer, 64},
    {"2^-1", Type::integer, 0},
    {"2^0", Type::integer, 1},
    {"2.^-1", Type::real, 0.5},
    {"2^0.5", Type::real, 1.4142135623730951},
    {"4.^0.5", Type::real, 2},
    {"2*3^2", Type::integer, 18},
    // bases 0, 1 and -1 with huge exponents: in closed form (fuzz_expr found `1^1^7^11`, that is
    // 1^1977326743, multiplying 2e9 times: a hang)
    {"1^1^7^11", Type::integer, 1},
    {"1^2147483647", Type::integer, 1},
    {"(-1)^2147483647", Type::integer, -1},
    {"(-1)^2147483646", Type::integer, 1},
    {"0^2000000000", Type::integer, 0},
    {"0^0", Type::integer, 1},
    // additive / multiplicative precedence
    {"1+2*3", Type::integer, 7},
    {"(1+2)*3", Type::integer, 9},
    {"10-4-3", Type::integer, 3},    // left-associative
    {"100/10/5", Type::integer, 2},  // left-associative
    {"2+3*4^2", Type::integer, 50},
    // relational: one level, left-associative, result bool
    {"1 < 2", Type::boolean, 1},
    {"1 < 2 == 1", Type::boolean, 1},  // (1 < 2) == 1
    {"3 > 2 > 1", Type::boolean, 0},   // (3 > 2) > 1 -> true > 1 -> false
    {"2 >= 2", Type::boolean, 1},
    {"2 <= 1", Type::boolean, 0},
    {"2 != 2", Type::boolean, 0},
    {"1+1 == 2", Type::boolean, 1},  // relational binds looser than '+'
    // logical: && || ~| all on one level, left-associative, below relational
    {"1 && 0 || 1", Type::boolean, 1},
    {"0 || 1 && 0", Type::boolean, 0},  // (0 || 1) && 0: same level, left to right
    {"1 ~| 1", Type::boolean, 0},
    {"1 ~| 0", Type::boolean, 1},
    {"0 ~| 0", Type::boolean, 0},
    {"1 < 2 && 3 < 4", Type::boolean, 1},
    {"!0", Type::boolean, 1},
    {"!1", Type::boolean, 0},
    {"!2.5", Type::boolean, 0},
    {"!!3", Type::boolean, 1},
    // bool is promoted to integer in arithmetic
    {"TRUE + TRUE", Type::integer, 2},
    {"(1 < 2) * 5", Type::integer, 5},
    // literals: Fortran-style exponent letters, leading/trailing dot
    {"1.5e1", Type::real, 15},
    {"1E2", Type::real, 100},
    {"2.5d-1", Type::real, 0.25},
    {"2.5D+1", Type::real, 25},
    {"3f0", Type::real, 3},
    {"1g1", Type::real, 10},
    {".5", Type::real, 0.5},
    {"5.", Type::real, 5},
    {"12", Type::integer, 12},
    // casts
    {"integer(2.7)", Type::integer, 2},
    {"integer(-2.7)", Type::integer, -2},
    {"integer(TRUE)", Type::integer, 1},
    {"real(1)", Type::real, 1},
    {"bool(5)", Type::boolean, 1},
    {"bool(0.)", Type::boolean, 0},
    // statement lists: every statement runs, the last value is returned
    {"(real a = 2; a*a + 1)", Type::real, 5},
    {"(integer k = 7; k/2)", Type::integer, 3},
    {"(real dt = 1.e-3)", Type::real, 1e-3},
    // comments inside expressions
    {"1 /* one */ + /* two */ 2", Type::integer, 3},
    {"(1 + # to the end of the line\n 2) * 2", Type::integer, 6},
};

INSTANTIATE_TEST_SUITE_P(Precedence, Numeric, ::testing::ValuesIn(precedence_cases));

const NumCase function_cases[] = {
    {"sin(pi/2)", Type::real, 1},
    {"cos(pi)", Type::real, -1},
    {"tan(pi/4)", Type::real, 1},
    {"ctan(pi/4)", Type::real, 1},
    {"ctan(pi/3)", Type::real, 1 / std::sqrt(3.0)},
    {"asin(1.)", Type::real, pi / 2},
    {"acos(0.)", Type::real, pi / 2},
    {"acos(-1.)", Type::real, pi},
    {"atan(1.)", Type::real, pi / 4},
    {"actan(1.)", Type::real, pi / 4},
    {"actan(2.)", Type::real, std::atan(0.5)},
    {"atan2(1., 1.)", Type::real, pi / 4},
    {"atan2(1., -1.)", Type::real, 3 * pi / 4},
    {"atan2(-1., 0.)", Type::real, -pi / 2},
    {"actan2(1., 1.)", Type::real, pi / 4},
    {"actan2(0., -1.)", Type::real, -pi / 2},  // actan2(a, b) = atan2(b, a) (MBDyn mp_actg2)
    {"sinh(0.)", Type::real, 0},
    {"sinh(1.)", Type::real, 1.1752011936438014},
    {"cosh(0.)", Type::real, 1},
    {"tanh(0.5)", Type::real, 0.46211715726000974},
    {"ctanh(1.)", Type::real, 1.3130352854993312},  // 1/tanh(1)
    {"asinh(1.)", Type::real, 0.88137358701954305},
    {"acosh(2.)", Type::real, 1.3169578969248166},
    {"atanh(0.5)", Type::real, 0.54930614433405489},
    {"actanh(2.)", Type::real, 0.54930614433405489},  // atanh(1/2)
    {"exp(0)", Type::real, 1},
    {"exp(1)", Type::real, 2.718281828459045},
    {"log(e)", Type::real, 1},
    {"log(1)", Type::real, 0},
    {"log10(100)", Type::real, 2},
    {"log10(0.001)", Type::real, -3},
    {"sqrt(16)", Type::real, 4},
    {"sqrt(2.)", Type::real, 1.4142135623730951},
    {"abs(-3.5)", Type::real, 3.5},
    {"copysign(3., -1.)", Type::real, -3},
    {"copysign(-2., 1.)", Type::real, 2},
    {"floor(-1.5)", Type::real, -2},
    {"floor(2.7)", Type::real, 2},
    {"ceil(1.2)", Type::real, 2},
    {"ceil(-1.2)", Type::real, -1},
    {"round(2.5)", Type::real, 3},
    {"round(-2.5)", Type::real, -3},
    {"round(2.4)", Type::real, 2},
    {"max(2.5, -1.)", Type::real, 2.5},
    {"min(2.5, -1.)", Type::real, -1},
    {"step(0)", Type::real, 0.5},
    {"step(-1)", Type::real, 0},
    {"step(2)", Type::real, 1},
    {"ramp(-1)", Type::real, 0},
    {"ramp(3)", Type::real, 3},
    {"sramp(5, 2)", Type::real, 2},
    {"sramp(-1, 2)", Type::real, 0},
    {"sramp(1.5, 2)", Type::real, 1.5},
    {"par(3)", Type::real, 9},
    {"par(-3)", Type::real, 0},
    {"in_ll(0, 0, 1)", Type::boolean, 0},  // strict at the lower end
    {"in_ll(0, 1, 1)", Type::boolean, 0},  // strict at the upper end
    {"in_ll(0, 0.5, 1)", Type::boolean, 1},
    {"in_le(0, 1, 1)", Type::boolean, 1},
    {"in_le(0, 0, 1)", Type::boolean, 0},
    {"in_el(0, 0, 1)", Type::boolean, 1},
    {"in_el(0, 1, 1)", Type::boolean, 0},
    {"in_ee(0, 0, 1)", Type::boolean, 1},
    {"in_ee(0, 1, 1)", Type::boolean, 1},
    {"in_ee(0, 1.5, 1)", Type::boolean, 0},
    {"default::sin(pi/6)", Type::real, 0.5},
    // constants
    {"pi", Type::real, pi},
    {"e", Type::real, 2.718281828459045},
    {"deg2rad*180", Type::real, pi},
    {"rad2deg*pi", Type::real, 180},
    {"in2m", Type::real, 0.0254},
    {"ft2m", Type::real, 0.3048},
    {"lb2kg", Type::real, 0.45359237},
    {"slug2kg", Type::real, 14.5939029372},
    {"INT_MAX", Type::integer, 2147483647},
    {"INT_MIN", Type::integer, -2147483648.0},
    {"TRUE", Type::boolean, 1},
    {"FALSE", Type::boolean, 0},
    {"REAL_MAX", Type::real, 1.7976931348623157e308},
};

INSTANTIATE_TEST_SUITE_P(Functions, Numeric, ::testing::ValuesIn(function_cases));

// Typing as in MBDyn's mathp.cc: abs/max/min return real and sign returns integer, so
// abs(-7)/2 is 3.5 and sign(-2.)/2 is 0 (integer division).
TEST(Expr, FunctionResultTypesFollowMBDyn) {
    Lang l;
    EXPECT_EQ(l.eval("abs(-4)").type, Type::real);
    EXPECT_EQ(l.eval("abs(-7)/2").as_real(), 3.5);
    EXPECT_EQ(l.eval("max(2, 7)").type, Type::real);
    EXPECT_EQ(l.eval("min(2, 7)").as_real(), 2);
    EXPECT_EQ(l.eval("sign(-2.)").type, Type::integer);
    EXPECT_EQ(l.eval("sign(-2.)/2").as_real(), 0);
    EXPECT_EQ(l.eval("sign(0.)").as_real(), 0);
    EXPECT_EQ(l.eval("sign(3)").as_real(), 1);
    // actan(x) = atan2(1, x): the arc-cotangent in (0, pi), also for negative x.
    EXPECT_NEAR(l.eval("actan(-1.)").as_real(), 3 * pi / 4, 1e-15);
}

// ---------------------------------------------------------------------------------------------
// Strings.

TEST(Expr, StringConcatenation) {
    Lang l;
    Value v = l.eval("\"a\" + \"b\"");
    EXPECT_EQ(v.type, Type::string);
    EXPECT_EQ(v.s, "ab");
    EXPECT_EQ(l.eval("\"node\" + \"_\" + 12").s, "node_12");  // integers convert as %ld
    EXPECT_EQ(l.eval("\"x\" + (1 < 2)").s, "x1");
    EXPECT_EQ(l.eval("string(42)").s, "42");
    EXPECT_EQ(l.eval("\"q\\\"q\"").s, "q\"q");
    EXPECT_EQ(l.eval("\"back\\\\slash\"").s, "back\\slash");
    EXPECT_EQ(l.eval("\"\\41\\42C\"").s, "ABC");
    EXPECT_EQ(l.eval("\"a#b/*c*/\"").s, "a#b/*c*/");  // no comments inside strings
    EXPECT_EQ(l.eval("sprintf(\"L%03d\", 7)").s, "L007");
    EXPECT_TRUE(l.eval("\"ab\" == \"a\" + \"b\"").b);
}

TEST(Expr, PrintWritesItsArgument) {
    Lang l;
    Value v = l.eval("print(7)");
    EXPECT_EQ(v.as_real(), 7);
    EXPECT_EQ(l.printed.str(), "7\n");
}

// ---------------------------------------------------------------------------------------------
// Declarations and assignments.

// Storing a real with a fractional part in an integer truncates it with a warning at the value,
// as MBDyn does ("implicit cast from real to integer may alter its value"); an integral real, an
// explicit integer(...) and a declaration of another type do not warn.
TEST(Expr, ImplicitTruncationWarns) {
    Lang l;
    mbs::Diagnostics diag;
    diag.echo = false;
    l.ev.diag = &diag;
    EXPECT_EQ(l.eval("integer n = 2.5").i, 2);
    ASSERT_EQ(diag.warnings().size(), 1u);
    EXPECT_NE(diag.warnings()[0].find("expr:1:13: warning: implicit cast of real 2.5 to integer 2"),
              std::string::npos)
        << diag.warnings()[0];
    EXPECT_EQ(l.eval("n = -7.25").i, -7);
    EXPECT_EQ(diag.warnings().size(), 2u);
    l.eval("integer m = 3.0");
    l.eval("integer q = integer(2.5)");
    l.eval("real r = 2.5");
    l.eval("m = 4");
    EXPECT_EQ(diag.warnings().size(), 2u);
}

TEST(Expr, Declarations) {
    Lang l;
    EXPECT_EQ(l.eval("real x = 1").type, Type::real);
    EXPECT_EQ(l.eval("x").as_real(), 1.0);
    EXPECT_EQ(l.eval("x").type, Type::real);  // declared real from an integer literal

    Value k = l.eval("integer k = 2.7");  // truncated to the declared type
    EXPECT_EQ(k.type, Type::integer);
    EXPECT_EQ(k.i, 2);

    EXPECT_EQ(l.eval("bool flag = 3").type, Type::boolean);
    EXPECT_TRUE(l.eval("flag").b);
    EXPECT_EQ(l.eval("string s = \"txt\"").s, "txt");

    EXPECT_EQ(l.eval("real z").as_real(), 0.0);  // no value: 0
    EXPECT_EQ(l.eval("string empty").s, "");

    // assignment keeps the declared type
    l.eval("x = 7/2");
    EXPECT_EQ(l.eval("x").type, Type::real);
    EXPECT_EQ(l.eval("x").as_real(), 3.0);  // 7/2 is integer 3, then converted
    l.eval("k = k + 10");
    EXPECT_EQ(l.eval("k").i, 12);

    // ifndef keeps an existing definition and defines a missing one
    EXPECT_EQ(l.eval("ifndef real x = 99.").as_real(), 3.0);
    EXPECT_EQ(l.eval("x").as_real(), 3.0);
    EXPECT_EQ(l.eval("ifndef real y = 5.").as_real(), 5.0);
    EXPECT_EQ(l.eval("y").as_real(), 5.0);

    // const variables
    EXPECT_EQ(l.eval("const real c = 2*y").as_real(), 10.0);
    EXPECT_EQ(l.eval("ifndef const integer n = 4").i, 4);
    EXPECT_EQ(l.eval("n").i, 4);

    // declarations inside a statement list persist
    EXPECT_EQ(l.eval("(real a = 2; a*a)").as_real(), 4.0);
    EXPECT_EQ(l.eval("a").as_real(), 2.0);
}

// ---------------------------------------------------------------------------------------------
// Errors: InputError with a recognisable message, located at the offending token.

struct ErrCase {
    const char* text;
    const char* fragment;
    unsigned column;  // 1-based column of the reported location (0: do not check)
    std::vector<std::string> setup;
};

std::ostream& operator<<(std::ostream& os, const ErrCase& c) { return os << c.text; }

class Errors : public ::testing::TestWithParam<ErrCase> {};

TEST_P(Errors, ThrowInputError) {
    const ErrCase& c = GetParam();
    InputError e = error_of(c.text, c.setup);
    std::string text = e.message() + " / hint: " + e.hint();  // "did you mean" is in the hint
    EXPECT_NE(text.find(c.fragment), std::string::npos)
        << c.text << " -> '" << text << "' (expected '" << c.fragment << "')";
    if (c.column) {
        EXPECT_EQ(e.loc().begin + 1, c.column) << c.text << " -> " << e.where();
    }
}

const ErrCase error_cases[] = {
    {"1/0", "division by zero", 2, {}},
    {"1./0.", "division by zero", 3, {}},
    {"1./(2. - 2.)", "division by zero", 3, {}},
    {"5 % 0", "division by zero", 3, {}},
    {"5. % 2", "needs integer operands", 4, {}},
    {"sprintf(\"%n\", 1)", "unsupported sprintf conversion", 9, {}},
    {"sprintf(\"%*d\", 1)", "unsupported sprintf conversion", 9, {}},
    {"zzz + 1", "unknown variable 'zzz'", 1, {}},
    {"2*lenght", "did you mean 'length'", 3, {"real length = 1"}},
    {"real x = 2", "variable 'x' is already defined", 6, {"real x = 1"}},
    {"c = 2", "cannot assign to const variable 'c'", 1, {"const real c = 1"}},
    {"w = 2", "assignment to undeclared variable 'w'", 1, {}},
    {"const real c", "const variable 'c' needs a value", 1, {}},
    {"real sin = 1", "reserved name", 6, {}},
    {"log(-1.)", "log of a non-positive number", 1, {}},
    {"log(0)", "log of a non-positive number", 1, {}},
    {"log10(-1.)", "non-positive", 1, {}},
    {"sqrt(-4.)", "square root of a negative number", 1, {}},
    {"asin(2.)", "outside [-1, 1]", 1, {}},
    {"INT_MAX + 1", "integer overflow", 9, {}},
    {"INT_MIN - 1", "integer overflow", 9, {}},
    {"-INT_MIN", "integer overflow", 1, {}},
    {"2^31", "integer overflow", 2, {}},
    {"65536*65536", "integer overflow", 6, {}},
    {"3000000000", "does not fit in an integer", 1, {}},
    {"integer(1e10)", "does not fit in an integer", 1, {}},
    {"1e400", "out of range", 1, {}},
    {"10.^400", "not a finite number", 4, {}},
    {"(-2)^-1", "negative base", 5, {}},
    {"(-8.)^(1./3)", "negative base with a non-integer exponent", 6, {}},
    {"sin(1., 2.)", "takes 1 argument(s), got 2", 1, {}},
    {"atan2(1.)", "takes 2 argument(s), got 1", 1, {}},
    {"in_ll(1, 2)", "takes 3 argument(s), got 2", 1, {}},
    {"sin()", "takes 1 argument(s), got 0", 1, {}},
    {"sqrtt(4.)", "unknown function 'sqrtt'", 1, {}},
    {"2*sqrt", "is a function and needs arguments", 3, {}},
    {"sin(\"x\")", "needs a number, got a string", 5, {}},
    {"\"a\" * 2", "cannot apply to a string", 5, {}},
    {"\"a\" - \"b\"", "cannot apply to a string", 5, {}},
    {"-\"a\"", "cannot apply to a string", 1, {}},
    {"integer(\"12\")", "needs a number, got a string", 9, {}},
    {"integer k = \"12\"", "cannot convert a string to integer", 13, {}},
    {"real r = \"1.5\"", "cannot convert a string to real", 10, {}},
    {"model::position", "'model::position' is a function and needs arguments", 1, {}},
    {"other::position", "namespace 'other' is not supported", 1, {}},
    {"1 + model::xposition(1)", "reads the run-time state of nodes", 5, {}},
    {"stop(1)", "stop() requested", 1, {}},
    // syntax errors from parse_statement
    {"(1 + 2", "expected ')'", 7, {}},
    {"1 + ", "expected", 5, {}},
    {"1 2", "unexpected text after the expression", 3, {}},
    {"\"abc", "unterminated string", 1, {}},
    {"1 + /* open", "unterminated /* comment", 5, {}},
    {"sin(1.,)", "expected ')'", 7, {}},
};

INSTANTIATE_TEST_SUITE_P(Expr, Errors, ::testing::ValuesIn(error_cases));

TEST(Expr, ErrorLocationIsShiftedByTheOrigin) {
    // parse_statement reports syntax errors relative to `origin` (e.g. the inside of a string).
    SourceFile f("deck.mbd", "drive caller: 1, string, \"2*Time +\";\n");
    SourceLoc origin{&f, 26, 27};  // just after the opening quote
    try {
        mbs::parser::parse_statement("2*Time +", origin);
        ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(e.where(), "deck.mbd:1:35");
    }
}

// ---------------------------------------------------------------------------------------------
// String drives: compile_expression + CompiledExpr::eval (value and d/dt).

TEST(CompiledExpr, TimePlusVar) {
    Lang l;
    auto prog = l.compile("2*Time + Var");
    CompiledExpr::Inputs in;
    in.time = 1.5;
    in.var = 0.25;
    in.var_dot = 2.0;
    double d = 0;
    EXPECT_DOUBLE_EQ(prog->eval(in, &d), 3.25);  // 2*1.5 + 0.25
    EXPECT_DOUBLE_EQ(d, 4.0);                    // 2*1 + dVar/dt
    in.time = 0;
    in.var = -1;
    in.var_dot = 0;
    EXPECT_DOUBLE_EQ(prog->eval(in, &d), -1.0);
    EXPECT_DOUBLE_EQ(d, 2.0);
    EXPECT_DOUBLE_EQ(prog->eval(in), -1.0);  // derivative pointer is optional
}

TEST(CompiledExpr, StepIntegerDivision) {
    Lang l;
    auto prog = l.compile("Step/2");
    CompiledExpr::Inputs in;
    double d = -1;
    in.step = 5;
    EXPECT_DOUBLE_EQ(prog->eval(in, &d), 2.0);  // integer division: 5/2 = 2
    EXPECT_DOUBLE_EQ(d, 0.0);
    in.step = 4;
    EXPECT_DOUBLE_EQ(prog->eval(in), 2.0);
    in.step = 1;
    EXPECT_DOUBLE_EQ(prog->eval(in), 0.0);
    auto real_div = l.compile("Step/2.");
    in.step = 5;
    EXPECT_DOUBLE_EQ(real_div->eval(in), 2.5);
}

TEST(CompiledExpr, FoldsVariablesAtCompileTime) {
    Lang l;
    l.eval("real K = 3");
    auto prog = l.compile("K*sin(Time)");
    l.eval("K = 100");  // later changes do not affect the compiled program
    CompiledExpr::Inputs in;
    in.time = 0.5;
    double d = 0;
    EXPECT_NEAR(prog->eval(in, &d), 3 * std::sin(0.5), 1e-15);
    EXPECT_NEAR(d, 3 * std::cos(0.5), 1e-15);
}

TEST(CompiledExpr, DerivativesOfCommonForms) {
    Lang l;
    CompiledExpr::Inputs in;
    in.time = 2.0;
    double d = 0;
    EXPECT_DOUBLE_EQ(l.compile("Time^2")->eval(in, &d), 4.0);
    EXPECT_DOUBLE_EQ(d, 4.0);
    EXPECT_NEAR(l.compile("exp(-Time)")->eval(in, &d), std::exp(-2.0), 1e-15);
    EXPECT_NEAR(d, -std::exp(-2.0), 1e-15);
    EXPECT_DOUBLE_EQ(l.compile("Time/4")->eval(in, &d), 0.5);
    EXPECT_DOUBLE_EQ(d, 0.25);
    EXPECT_DOUBLE_EQ(l.compile("ramp(Time - 3)")->eval(in, &d), 0.0);
    EXPECT_DOUBLE_EQ(d, 0.0);
    EXPECT_DOUBLE_EQ(l.compile("step(Time - 1)")->eval(in, &d), 1.0);
    EXPECT_DOUBLE_EQ(d, 0.0);
    EXPECT_DOUBLE_EQ(l.compile("-2^2 + 0*Time")->eval(in, &d), 4.0);  // unary minus first
    EXPECT_DOUBLE_EQ(l.compile("2^3^2 + 0*Time")->eval(in), 512.0);
    EXPECT_DOUBLE_EQ(l.compile("(Time > 1) && (Time < 3)")->eval(in), 1.0);
}

// model:: functions compile to references resolved at run time (CompiledExpr::ModelRef): the
// value is read from Inputs::model, with time derivative 0.
TEST(CompiledExpr, ModelFunctionsReadTheirInputs) {
    Lang l;
    l.eval("const integer N = 4");
    auto prog = l.compile("2*model::xposition(N) + model::distance2(1, N+1) - Time");
    ASSERT_EQ(prog->model_refs.size(), 2u);
    using Ref = CompiledExpr::ModelRef;
    EXPECT_EQ(prog->model_refs[0].quantity, Ref::Quantity::position);
    EXPECT_EQ(prog->model_refs[0].part, Ref::Part::x);
    EXPECT_EQ(prog->model_refs[0].label1, 4);
    EXPECT_EQ(prog->model_refs[1].quantity, Ref::Quantity::distance);
    EXPECT_EQ(prog->model_refs[1].part, Ref::Part::square);
    EXPECT_EQ(prog->model_refs[1].label1, 1);
    EXPECT_EQ(prog->model_refs[1].label2, 5);
    EXPECT_EQ(prog->model_refs[1].loc.begin, 24u);  // the call, for errors at run time
    const double values[] = {1.5, 9.0};
    CompiledExpr::Inputs in;
    in.time = 0.5;
    in.model = values;
    double d = 0;
    EXPECT_DOUBLE_EQ(prog->eval(in, &d), 2 * 1.5 + 9.0 - 0.5);
    EXPECT_DOUBLE_EQ(d, -1.0);  // only Time moves
    in.model = nullptr;         // no node values (outside a run): NaN, never a crash
    EXPECT_TRUE(std::isnan(prog->eval(in)));
}

TEST(CompiledExpr, ModelFunctionNames) {
    using Ref = CompiledExpr::ModelRef;
    const char* why = nullptr;
    struct Case {
        const char* name;
        Ref::Quantity q;
        Ref::Part p;
    };
    for (const Case& c : {Case{"position", Ref::Quantity::position, Ref::Part::norm},
                          Case{"zvelocity", Ref::Quantity::velocity, Ref::Part::z},
                          Case{"angvel2", Ref::Quantity::angvel, Ref::Part::square},
                          Case{"yunitvec", Ref::Quantity::unitvec, Ref::Part::y},
                          Case{"xanglerel", Ref::Quantity::anglerel, Ref::Part::x},
                          Case{"angvrel", Ref::Quantity::angvrel, Ref::Part::norm},
                          Case{"vrel2", Ref::Quantity::vrel, Ref::Part::square}}) {
        auto r = CompiledExpr::model_function(c.name, &why);
        ASSERT_TRUE(r) << c.name;
        EXPECT_EQ(r->quantity, c.q) << c.name;
        EXPECT_EQ(r->part, c.p) << c.name;
    }
    // Not MBDyn names: no unitvec norm, no squared angle.
    for (const char* n : {"unitvec", "angle2", "anglerel2", "wposition", "xposition2", "pos"}) {
        EXPECT_FALSE(CompiledExpr::model_function(n, &why)) << n;
        EXPECT_EQ(why, nullptr) << n;
    }
    // MBDyn names refused with a reason.
    for (const char* n : {"xposition_prev", "angle_prev", "drive", "sf", "node", "current"}) {
        EXPECT_FALSE(CompiledExpr::model_function(n, &why)) << n;
        EXPECT_NE(why, nullptr) << n;
    }
}

TEST(CompiledExpr, ModelFunctionErrorsAtTheCall) {
    auto err = [](const std::string& text) {
        Lang l;
        try {
            l.compile(text);
        } catch (const InputError& e) {
            return std::to_string(e.loc().begin + 1) + ": " + e.message() + " / " + e.hint();
        }
        return std::string("no error");
    };
    EXPECT_EQ(err("1 + model::xpos(1)").rfind("5: unknown function 'model::xpos'", 0), 0u);
    EXPECT_EQ(err("model::distance(1)"),
              "1: function 'model::distance' takes 2 node labels, got 1 argument(s) / ");
    EXPECT_EQ(err("model::xposition(Time)").rfind("18: a model:: function's node label", 0), 0u);
    EXPECT_EQ(err("model::xposition(1.5)").rfind("18: expected a node label", 0), 0u);
    EXPECT_EQ(err("model::yposition_prev(1)"),
              "1: 'model::yposition_prev' is not supported / the previous step's state (the _prev "
              "functions) is not kept");
    EXPECT_NE(err("model::node(1, \"X\")").find("use a `node` drive caller"), std::string::npos);
}

TEST(CompiledExpr, RejectsNonNumericAndStatements) {
    Lang l;
    EXPECT_THROW(l.compile("\"a\" + Time"), InputError);
    EXPECT_THROW(l.compile("real q = Time"), InputError);
    EXPECT_THROW(l.compile("2*Tme"), InputError);
}

}  // namespace
