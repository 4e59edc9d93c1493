// Evaluator of the deck math language: MBDyn's typing (bool < integer < real < string),
// integer division, right-associative '^' with integer results for integer operands.
#include "parser/expr.hpp"

#include <cctype>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <random>
#include <set>
#include <sstream>

namespace mbs::parser {

const char* type_name(Type t) {
    switch (t) {
        case Type::boolean:
            return "bool";
        case Type::integer:
            return "integer";
        case Type::real:
            return "real";
        case Type::string:
            return "string";
    }
    return "?";
}

double Value::as_real() const {
    switch (type) {
        case Type::boolean:
            return b ? 1.0 : 0.0;
        case Type::integer:
            return static_cast<double>(i);
        case Type::real:
            return r;
        case Type::string:
            return 0.0;
    }
    return 0.0;
}

std::string Value::to_string() const {
    std::ostringstream os;
    switch (type) {
        case Type::boolean:
            os << (b ? 1 : 0);
            break;
        case Type::integer:
            os << i;
            break;
        case Type::real:
            os.precision(16);
            os << r;
            break;
        case Type::string:
            os << s;
            break;
    }
    return os.str();
}

namespace {

const std::set<std::string>& function_names() {
    static const std::set<std::string> f = {
        "sin",      "cos",    "tan",     "ctan",  "asin",  "acos",    "atan",  "actan",
        "atan2",    "actan2", "sinh",    "cosh",  "tanh",  "ctanh",   "asinh", "acosh",
        "atanh",    "actanh", "exp",     "log",   "log10", "sqrt",    "abs",   "sign",
        "copysign", "max",    "min",     "floor", "ceil",  "round",   "rand",  "random",
        "seed",     "step",   "ramp",    "sramp", "par",   "in_ll",   "in_le", "in_el",
        "in_ee",    "print",  "sprintf", "stop",  "bool",  "integer", "real",  "string"};
    return f;
}

std::mt19937& rng() {
    static std::mt19937 g(12345);
    return g;
}

}  // namespace

SymbolTable::SymbolTable() {
    auto cr = [&](const char* n, double v) {
        vars_[n] = Variable{Type::real, true, Value::of_real(v)};
    };
    auto ci = [&](const char* n, long v) {
        vars_[n] = Variable{Type::integer, true, Value::of_int(v)};
    };
    cr("pi", M_PI);
    cr("e", M_E);
    vars_["TRUE"] = Variable{Type::boolean, true, Value::of_bool(true)};
    vars_["FALSE"] = Variable{Type::boolean, true, Value::of_bool(false)};
    ci("INT_MAX", INT_MAX);
    ci("INT_MIN", INT_MIN);
    ci("RAND_MAX", RAND_MAX);
    cr("REAL_MAX", DBL_MAX);
    cr("REAL_MIN", DBL_MIN);
    cr("deg2rad", M_PI / 180.0);
    cr("rad2deg", 180.0 / M_PI);
    cr("in2m", 0.0254);
    cr("m2in", 1.0 / 0.0254);
    cr("ft2m", 0.3048);
    cr("m2ft", 1.0 / 0.3048);
    cr("lb2kg", 0.45359237);
    cr("kg2lb", 1.0 / 0.45359237);
    cr("slug2kg", 14.5939029372);
    cr("kg2slug", 1.0 / 14.5939029372);
    cr("lbf2N", 4.4482216152605);
    cr("N2lbf", 1.0 / 4.4482216152605);
    // Run-time variables; their build-time values are those of the initial state.
    vars_["Time"] = Variable{Type::real, false, Value::of_real(0.0)};
    vars_["TimeStep"] = Variable{Type::real, false, Value::of_real(0.0)};
    vars_["Step"] = Variable{Type::integer, false, Value::of_int(0)};
    vars_["Var"] = Variable{Type::real, false, Value::of_real(0.0)};
}

const Variable* SymbolTable::find(const std::string& name) const {
    auto it = vars_.find(name);
    if (it == vars_.end()) return nullptr;
    it->second.used = true;
    return &it->second;
}

Variable* SymbolTable::find_mutable(const std::string& name) {
    auto it = vars_.find(name);
    return it == vars_.end() ? nullptr : &it->second;
}

bool SymbolTable::is_reserved(const std::string& name) const {
    static const std::set<std::string> kw = {"ifndef", "const"};
    return function_names().count(name) || kw.count(name);
}

// ---------------------------------------------------------------------------------------------
namespace {

struct Ctx {
    SymbolTable& symbols;
    const AstOrigin& origin;
    std::ostream& out;
    Diagnostics* diag = nullptr;
};

[[noreturn]] void fail(const Ctx& c, const ast::Located& at, std::string what,
                       std::string hint = {}) {
    throw InputError(c.origin.loc(at), std::move(what), std::move(hint));
}

long checked_int(const Ctx& c, const ast::Located& at, long long v) {
    if (v > INT_MAX || v < INT_MIN)
        fail(c, at, "integer overflow: " + std::to_string(v) + " does not fit in an integer",
             "write the number as a real (e.g. with a decimal point)");
    return static_cast<long>(v);
}

double checked_real(const Ctx& c, const ast::Located& at, double v, const char* what) {
    if (!std::isfinite(v)) fail(c, at, std::string(what) + " is not a finite number");
    return v;
}

Value convert(const Ctx& c, const ast::Located& at, const Value& v, Type to) {
    if (v.type == to) return v;
    switch (to) {
        case Type::boolean:
            if (v.type == Type::string) fail(c, at, "cannot convert a string to bool");
            return Value::of_bool(v.as_real() != 0.0);
        case Type::integer:
            if (v.type == Type::string) fail(c, at, "cannot convert a string to integer");
            if (v.type == Type::real) {
                if (!std::isfinite(v.r) || std::fabs(v.r) > 2147483647.0)
                    fail(c, at, "real value " + v.to_string() + " does not fit in an integer");
                return Value::of_int(static_cast<long>(std::trunc(v.r)));
            }
            return Value::of_int(v.b ? 1 : 0);
        case Type::real:
            if (v.type == Type::string) fail(c, at, "cannot convert a string to real");
            return Value::of_real(v.as_real());
        case Type::string:
            return Value::of_string(v.to_string());
    }
    return v;
}

Value eval_expr(const Ctx& c, const ast::Expression& e);
Value eval_stmt(const Ctx& c, const ast::Stmt& s);

// An assignment or declaration that stores a real with a fractional part in an integer truncates
// it; MBDyn warns ("implicit cast from real to integer may alter its value"), and so do we.
Value convert_implicit(const Ctx& c, const ast::Located& at, const Value& v, Type to) {
    Value r = convert(c, at, v, to);
    if (c.diag && to == Type::integer && v.type == Type::real && v.r != static_cast<double>(r.i))
        c.diag->warn(c.origin.loc(at),
                     "implicit cast of real " + v.to_string() + " to integer " + r.to_string() +
                         " truncates it",
                     "write integer(...) to truncate on purpose, or declare the variable real");
    return r;
}

Value number_value(const Ctx& c, const ast::Number& n) {
    std::string t = n.text;
    bool is_int = t.find_first_of(".eEdDfFgG") == std::string::npos;
    if (is_int) {
        errno = 0;
        long long v = std::strtoll(t.c_str(), nullptr, 10);
        if (errno == ERANGE) fail(c, n, "integer literal " + t + " is out of range");
        return Value::of_int(checked_int(c, n, v));
    }
    for (char& ch : t)
        if (std::strchr("dDfFgG", ch)) ch = 'e';
    double v = std::strtod(t.c_str(), nullptr);
    if (!std::isfinite(v)) fail(c, n, "real literal " + n.text + " is out of range");
    return Value::of_real(v);
}

struct OperandVisitor {
    const Ctx& c;
    Value operator()(const ast::Nil&) const { return Value::of_int(0); }
    Value operator()(const ast::Number& n) const { return number_value(c, n); }
    Value operator()(const ast::StringLit& s) const { return Value::of_string(s.value); }
    Value operator()(const ast::Ident& id) const {
        std::string name = id.name;
        if (name.rfind("default::", 0) == 0) name = name.substr(9);
        if (name.rfind("model::", 0) == 0)
            fail(c, id, "'" + name + "' is a function and needs arguments",
                 "model:: functions take node labels: " + name + "(L)");
        if (name.find("::") != std::string::npos)
            fail(c, id, "namespace '" + name.substr(0, name.find("::")) + "' is not supported",
                 "the namespaces are default:: and model:: (functions of nodes in string drives)");
        const Variable* v = c.symbols.find(name);
        if (!v) {
            std::vector<std::string> names;
            for (const auto& [k, _] : c.symbols.all()) names.push_back(k);
            std::string near = closest_match(name, names);
            if (function_names().count(name))
                fail(c, id, "'" + name + "' is a function and needs arguments",
                     "write " + name + "(...)");
            fail(c, id, "unknown variable '" + name + "'",
                 near.empty() ? "declare it first with 'set: real " + name + " = ...;'"
                              : "did you mean '" + near + "'?");
        }
        return v->value;
    }
    Value operator()(const ast::Unary& u) const {
        Value v = boost::apply_visitor(*this, u.operand);
        if (v.type == Type::string)
            fail(c, u, std::string("unary '") + u.op + "' cannot apply to a string");
        if (u.op == '!') return Value::of_bool(v.as_real() == 0.0);
        if (u.op == '+') return v.type == Type::boolean ? Value::of_int(v.b) : v;
        if (v.type == Type::real) return Value::of_real(-v.r);
        return Value::of_int(
            checked_int(c, u, -static_cast<long long>(v.type == Type::boolean ? v.b : v.i)));
    }
    Value operator()(const ast::Call& call) const;
    Value operator()(const ast::StmtList& l) const {
        Value last;
        for (const auto& s : l.stmts) last = eval_stmt(c, s);
        return last;
    }
    Value operator()(const ast::Expression& e) const { return eval_expr(c, e); }
};

Value operand(const Ctx& c, const ast::Operand& o) {
    return boost::apply_visitor(OperandVisitor{c}, o);
}

constexpr std::size_t max_string_bytes = std::size_t{1} << 20;

Value binary(const Ctx& c, const ast::Located& at, const std::string& op, const Value& a,
             const Value& b) {
    if (a.type == Type::string || b.type == Type::string) {
        if (op == "+") {
            // Strings name files, labels and formats; doubling one with `set: s = s + s;` forty
            // times would need a terabyte. Refused before the concatenation is made.
            const std::string sa = a.to_string(), sb = b.to_string();
            if (sa.size() + sb.size() > max_string_bytes)
                fail(c, at,
                     "string longer than " + std::to_string(max_string_bytes >> 20) + " MB (" +
                         std::to_string(sa.size() + sb.size()) + " bytes)",
                     "strings in a deck name files, labels and formats");
            return Value::of_string(sa + sb);
        }
        if (op == "==" || op == "!=") {
            bool eq = a.to_string() == b.to_string();
            return Value::of_bool(op == "==" ? eq : !eq);
        }
        fail(c, at, "operator '" + op + "' cannot apply to a string", "strings support only '+'");
    }
    if (op == "&&") return Value::of_bool(a.as_real() != 0.0 && b.as_real() != 0.0);
    if (op == "||") return Value::of_bool(a.as_real() != 0.0 || b.as_real() != 0.0);
    if (op == "~|") return Value::of_bool((a.as_real() != 0.0) != (b.as_real() != 0.0));
    bool both_int = a.type != Type::real && b.type != Type::real;
    if (op == ">" || op == ">=" || op == "<" || op == "<=" || op == "==" || op == "!=") {
        double x = a.as_real(), y = b.as_real();
        bool r = op == ">"    ? x > y
                 : op == ">=" ? x >= y
                 : op == "<"  ? x < y
                 : op == "<=" ? x <= y
                 : op == "==" ? x == y
                              : x != y;
        return Value::of_bool(r);
    }
    if (both_int) {
        long long x = a.type == Type::boolean ? a.b : a.i;
        long long y = b.type == Type::boolean ? b.b : b.i;
        if (op == "+") return Value::of_int(checked_int(c, at, x + y));
        if (op == "-") return Value::of_int(checked_int(c, at, x - y));
        if (op == "*") return Value::of_int(checked_int(c, at, x * y));
        if (op == "/" || op == "%") {
            if (y == 0) fail(c, at, "division by zero");
            return Value::of_int(checked_int(c, at, op == "/" ? x / y : x % y));
        }
        if (op == "^") {
            if (x < 0 && y <= 0) fail(c, at, "negative base with a non-positive exponent");
            if (y < 0) return Value::of_int(0);
            // 0, 1 and -1 never overflow: their powers directly. The loop below multiplied y
            // times, 2e9 for `1^1^7^11` = 1^1977326743 (a hang found by fuzz_expr); any other
            // base overflows (and stops it) within 32 multiplications.
            if (x == 0 || x == 1) return Value::of_int(y == 0 ? 1 : x);
            if (x == -1) return Value::of_int(y % 2 == 0 ? 1 : -1);
            long long r = 1;
            for (long long k = 0; k < y; ++k) {
                r *= x;
                if (r > INT_MAX || r < INT_MIN) checked_int(c, at, r);
            }
            return Value::of_int(r);
        }
    }
    double x = a.as_real(), y = b.as_real();
    if (op == "+") return Value::of_real(checked_real(c, at, x + y, "the sum"));
    if (op == "-") return Value::of_real(checked_real(c, at, x - y, "the difference"));
    if (op == "*") return Value::of_real(checked_real(c, at, x * y, "the product"));
    if (op == "/") {
        if (y == 0.0) fail(c, at, "division by zero");
        return Value::of_real(checked_real(c, at, x / y, "the quotient"));
    }
    if (op == "%")
        fail(c, at, "'%' needs integer operands (as in MBDyn)", "convert with integer(...)");
    if (op == "^") {
        if (x < 0 && y <= 0) fail(c, at, "negative base with a non-positive exponent");
        double r = std::pow(x, y);
        if (std::isnan(r)) fail(c, at, "negative base with a non-integer exponent");
        return Value::of_real(checked_real(c, at, r, "the power"));
    }
    fail(c, at, "unknown operator '" + op + "'");
}

Value eval_expr(const Ctx& c, const ast::Expression& e) {
    if (e.rest.empty()) return operand(c, e.first);
    if (e.rest.front().op == "^") {
        // Right-associative: a ^ b ^ c = a ^ (b ^ c).
        Value acc = operand(c, e.rest.back().operand);
        for (std::size_t k = e.rest.size(); k-- > 0;) {
            Value base = k == 0 ? operand(c, e.first) : operand(c, e.rest[k - 1].operand);
            acc = binary(c, e.rest[k], "^", base, acc);
        }
        return acc;
    }
    Value acc = operand(c, e.first);
    for (const auto& op : e.rest) acc = binary(c, op, op.op, acc, operand(c, op.operand));
    return acc;
}

// sprintf(format, value): only "%[flags][width][.precision]conversion" is accepted: no '*', no
// length modifiers, no %n, so a user's format can never read or write memory it should not.
Value call_sprintf(const Ctx& c, const ast::Call& call, const std::vector<Value>& args) {
    if (args.size() != 2 || args[0].type != Type::string)
        fail(c, call, "sprintf takes a format string and one value");
    const std::string& fmt = args[0].s;
    std::size_t conv_pos = std::string::npos;
    for (std::size_t i = 0; i < fmt.size(); ++i) {
        if (fmt[i] != '%') continue;
        if (i + 1 < fmt.size() && fmt[i + 1] == '%') {
            ++i;
            continue;
        }
        if (conv_pos != std::string::npos)
            fail(c, call.args[0], "sprintf format must contain exactly one conversion");
        std::size_t j = i + 1;
        while (j < fmt.size() && std::strchr("-+ #0", fmt[j])) ++j;
        while (j < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[j]))) ++j;
        if (j < fmt.size() && fmt[j] == '.') {
            ++j;
            while (j < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[j]))) ++j;
        }
        if (j >= fmt.size() || !std::strchr("diouxXeEfFgGs", fmt[j]) || j - i > 12)
            fail(c, call.args[0], "unsupported sprintf conversion in \"" + fmt + "\"",
                 "use %d, %i, %u, %x, %e, %f, %g or %s with optional flags, width and "
                 "precision");
        conv_pos = j;
        i = j;
    }
    if (conv_pos == std::string::npos)
        fail(c, call.args[0], "sprintf format must contain exactly one conversion");
    char conv = fmt[conv_pos];
    char buf[1024];
    if (std::strchr("diouxX", conv))
        std::snprintf(buf, sizeof buf, fmt.c_str(), static_cast<int>(args[1].as_real()));
    else if (conv == 's')
        std::snprintf(buf, sizeof buf, fmt.c_str(), args[1].to_string().c_str());
    else
        std::snprintf(buf, sizeof buf, fmt.c_str(), args[1].as_real());
    return Value::of_string(buf);
}

// The model:: namespace (MBDyn's modelns.cc) reads the run-time state of nodes: only string
// drives compile it (OperandCompiler); everywhere else it is refused at the call.
bool is_model_call(const ast::Call& call) { return call.name.name.rfind("model::", 0) == 0; }

Value OperandVisitor::operator()(const ast::Call& call) const {
    if (is_model_call(call))
        fail(c, call.name,
             "'" + call.name.name +
                 "' reads the run-time state of nodes: it can be used only in "
                 "a string drive caller",
             "write it inside string, \"...\" (a drive of the run)");
    std::string name = call.name.name;
    if (name.rfind("default::", 0) == 0) name = name.substr(9);
    std::vector<Value> args;
    for (const auto& a : call.args) args.push_back(eval_expr(c, a));
    auto nargs = [&](std::size_t lo, std::size_t hi) {
        if (args.size() < lo || args.size() > hi)
            fail(c, call,
                 "function '" + name + "' takes " +
                     (lo == hi ? std::to_string(lo)
                               : std::to_string(lo) + " to " + std::to_string(hi)) +
                     " argument(s), got " + std::to_string(args.size()));
        for (std::size_t k = 0; k < args.size(); ++k)
            if (args[k].type == Type::string && name != "print" && name != "sprintf" &&
                name != "string")
                fail(c, call.args[k], "function '" + name + "' needs a number, got a string");
    };
    auto x = [&](std::size_t k) { return args[k].as_real(); };
    auto real1 = [&](double v) {
        if (!std::isfinite(v)) fail(c, call, "argument out of the domain of '" + name + "'");
        return Value::of_real(v);
    };
    if (name == "bool" || name == "integer" || name == "real" || name == "string") {
        nargs(1, 1);
        Type t = name == "bool"      ? Type::boolean
                 : name == "integer" ? Type::integer
                 : name == "real"    ? Type::real
                                     : Type::string;
        return convert(c, call, args[0], t);
    }
    static const std::map<std::string, double (*)(double)> unary = {
        {"sin", [](double v) { return std::sin(v); }},
        {"cos", [](double v) { return std::cos(v); }},
        {"tan", [](double v) { return std::tan(v); }},
        {"ctan", [](double v) { return 1.0 / std::tan(v); }},
        {"asin", [](double v) { return std::asin(v); }},
        {"acos", [](double v) { return std::acos(v); }},
        {"atan", [](double v) { return std::atan(v); }},
        {"actan", [](double v) { return std::atan2(1.0, v); }},
        {"sinh", [](double v) { return std::sinh(v); }},
        {"cosh", [](double v) { return std::cosh(v); }},
        {"tanh", [](double v) { return std::tanh(v); }},
        {"ctanh", [](double v) { return 1.0 / std::tanh(v); }},
        {"asinh", [](double v) { return std::asinh(v); }},
        {"acosh", [](double v) { return std::acosh(v); }},
        {"atanh", [](double v) { return std::atanh(v); }},
        {"actanh", [](double v) { return std::atanh(1.0 / v); }},
        {"exp", [](double v) { return std::exp(v); }},
        {"log", [](double v) { return std::log(v); }},
        {"log10", [](double v) { return std::log10(v); }},
        {"sqrt", [](double v) { return std::sqrt(v); }},
        {"ramp", [](double v) { return v > 0 ? v : 0.0; }},
        {"par", [](double v) { return v > 0 ? v * v : 0.0; }},
        {"step", [](double v) { return v > 0   ? 1.0
                                       : v < 0 ? 0.0
                                               : 0.5; }},
    };
    if (auto it = unary.find(name); it != unary.end()) {
        nargs(1, 1);
        if ((name == "log" || name == "log10") && x(0) <= 0)
            fail(c, call, name + " of a non-positive number");
        if (name == "sqrt" && x(0) < 0) fail(c, call, "square root of a negative number");
        if ((name == "asin" || name == "acos") && std::fabs(x(0)) > 1)
            fail(c, call, name + " of a number outside [-1, 1]");
        return real1(it->second(x(0)));
    }
    // As in MBDyn: abs, max and min return real; sign returns integer.
    if (name == "abs") {
        nargs(1, 1);
        return Value::of_real(std::fabs(x(0)));
    }
    if (name == "sign") {
        nargs(1, 1);
        return Value::of_int(x(0) > 0 ? 1 : x(0) < 0 ? -1 : 0);
    }
    if (name == "floor" || name == "ceil" || name == "round") {
        nargs(1, 1);
        double v = name == "floor"  ? std::floor(x(0))
                   : name == "ceil" ? std::ceil(x(0))
                                    : std::round(x(0));
        return Value::of_real(v);
    }
    if (name == "atan2" || name == "actan2" || name == "copysign") {
        nargs(2, 2);
        double v = name == "atan2"    ? std::atan2(x(0), x(1))
                   : name == "actan2" ? std::atan2(x(1), x(0))
                                      : std::copysign(x(0), x(1));
        return real1(v);
    }
    if (name == "max" || name == "min") {
        nargs(2, 2);
        bool first = name == "max" ? x(0) >= x(1) : x(0) <= x(1);
        return Value::of_real(first ? x(0) : x(1));
    }
    if (name == "sramp") {
        nargs(2, 2);
        return Value::of_real(x(0) <= 0 ? 0.0 : x(0) >= x(1) ? x(1) : x(0));
    }
    if (name.rfind("in_", 0) == 0 && name.size() == 5) {
        nargs(3, 3);
        bool lo = name[3] == 'l' ? x(0) < x(1) : x(0) <= x(1);
        bool hi = name[4] == 'l' ? x(1) < x(2) : x(1) <= x(2);
        return Value::of_bool(lo && hi);
    }
    if (name == "rand") {
        nargs(0, 0);
        return Value::of_int(static_cast<long>(rng()() % (static_cast<unsigned>(RAND_MAX) + 1u)));
    }
    if (name == "random") {
        nargs(0, 0);
        return Value::of_real(std::uniform_real_distribution<double>(-1.0, 1.0)(rng()));
    }
    if (name == "seed") {
        nargs(1, 1);
        rng().seed(static_cast<unsigned>(x(0)));
        return Value::of_int(0);
    }
    if (name == "print") {
        nargs(1, 1);
        c.out << args[0].to_string() << '\n';
        return args[0];
    }
    if (name == "sprintf") return call_sprintf(c, call, args);
    if (name == "stop") {
        nargs(1, 2);
        if (args[0].as_real() != 0.0) fail(c, call, "stop() requested by the deck");
        return Value::of_bool(false);
    }
    std::vector<std::string> names(function_names().begin(), function_names().end());
    std::string near = closest_match(name, names);
    fail(c, call.name, "unknown function '" + name + "'",
         near.empty() ? "" : "did you mean '" + near + "'?");
}

struct StmtVisitor {
    const Ctx& c;
    Value operator()(const ast::Expression& e) const { return eval_expr(c, e); }
    Value operator()(const ast::Decl& d) const {
        const std::string& name = d.name.name;
        Type t = d.type == "bool"      ? Type::boolean
                 : d.type == "integer" ? Type::integer
                 : d.type == "real"    ? Type::real
                                       : Type::string;
        if (c.symbols.is_reserved(name))
            fail(c, d.name, "'" + name + "' is a reserved name and cannot be a variable");
        if (name.find("::") != std::string::npos)
            fail(c, d.name, "variable names cannot have a namespace");
        if (const Variable* old = c.symbols.find(name)) {
            // `ifndef` keeps a definition made before (-D, the environment, an earlier card);
            // a string where the deck declares a number (or the reverse) would only fail later,
            // far from the cause.
            if (d.ifndef && (old->type == Type::string) != (t == Type::string))
                fail(c, d.name,
                     "'" + name + "' is already defined as " +
                         (old->type == Type::string ? "a string" : "a number") +
                         ", but this declaration is " + d.type,
                     "give -D " + name + "=... (or the earlier definition) a value of type " +
                         d.type);
            if (d.ifndef) return old->value;
            fail(
                c, d.name, "variable '" + name + "' is already defined",
                "use 'ifndef' to keep an existing definition, or assign with '" + name + " = ...'");
        }
        if (d.is_const && !d.init) fail(c, d, "const variable '" + name + "' needs a value");
        Value v = d.init ? convert_implicit(c, *d.init, eval_expr(c, *d.init), t)
                         : (t == Type::string ? Value::of_string("")
                                              : convert(c, d, Value::of_int(0), t));
        c.symbols.define(name, Variable{t, d.is_const, v});
        return v;
    }
    Value operator()(const ast::Assign& a) const {
        Variable* var = c.symbols.find_mutable(a.name.name);
        if (!var)
            fail(c, a.name, "assignment to undeclared variable '" + a.name.name + "'",
                 "declare it with 'set: real " + a.name.name + " = ...;'");
        if (var->is_const) fail(c, a.name, "cannot assign to const variable '" + a.name.name + "'");
        var->value = convert_implicit(c, a.value, eval_expr(c, a.value), var->type);
        return var->value;
    }
};

Value eval_stmt(const Ctx& c, const ast::Stmt& s) {
    return boost::apply_visitor(StmtVisitor{c}, s);
}

}  // namespace

Value Evaluator::eval(const ast::Stmt& s, const AstOrigin& origin) {
    Ctx c{symbols_, origin, out ? *out : std::cerr, diag};
    return eval_stmt(c, s);
}

Value Evaluator::eval(const ast::Expression& e, const AstOrigin& origin) {
    Ctx c{symbols_, origin, out ? *out : std::cerr, diag};
    return eval_expr(c, e);
}

// ---------------------------------------------------------------------------------------------
// Compilation of string drives. Static types decide integer vs real arithmetic (Step is the only
// integer run-time input); subtrees without run-time inputs are folded to constants.
namespace {

using Op = CompiledExpr::Op;

struct Compiler {
    Ctx c;
    CompiledExpr& out;
    int depth = 0;

    void emit(Op op, double v = 0.0, int delta = 0) {
        out.code.push_back({op, v});
        depth += delta;
        if (depth > out.stack_depth) out.stack_depth = depth;
        if (depth > CompiledExpr::max_stack) throw InputError(SourceLoc{}, "expression too deep");
    }

    static bool runtime_name(const std::string& n) {
        return n == "Time" || n == "TimeStep" || n == "Step" || n == "Var";
    }
    bool has_runtime(const ast::Operand& o) const;
    bool has_runtime(const ast::Expression& e) const {
        if (has_runtime(e.first)) return true;
        for (const auto& r : e.rest)
            if (has_runtime(r.operand)) return true;
        return false;
    }

    // Returns true when the emitted value is integer-typed.
    bool fold(const ast::Located& at, const Value& v) {
        if (v.type == Type::string) fail(c, at, "a string drive expression must be numeric");
        emit(Op::push_const, v.as_real(), +1);
        return v.type != Type::real;
    }
    bool expr(const ast::Expression& e);
    bool operand(const ast::Operand& o);
};

struct RuntimeProbe {
    const Compiler& k;
    bool operator()(const ast::Nil&) const { return false; }
    bool operator()(const ast::Number&) const { return false; }
    bool operator()(const ast::StringLit&) const { return false; }
    bool operator()(const ast::Ident& id) const { return Compiler::runtime_name(id.name); }
    bool operator()(const ast::Unary& u) const { return k.has_runtime(u.operand); }
    bool operator()(const ast::Call& call) const {
        if (is_model_call(call)) return true;
        for (const auto& a : call.args)
            if (k.has_runtime(a)) return true;
        return false;
    }
    bool operator()(const ast::StmtList& l) const {
        for (const auto& s : l.stmts) {
            if (const auto* e = boost::get<ast::Expression>(&s); e && k.has_runtime(*e))
                return true;
            if (const auto* a = boost::get<ast::Assign>(&s); a && k.has_runtime(a->value))
                return true;
            if (const auto* d = boost::get<ast::Decl>(&s); d && d->init && k.has_runtime(*d->init))
                return true;
        }
        return false;
    }
    bool operator()(const ast::Expression& e) const { return k.has_runtime(e); }
};

bool Compiler::has_runtime(const ast::Operand& o) const {
    return boost::apply_visitor(RuntimeProbe{*this}, o);
}

struct OperandCompiler {
    Compiler& k;
    bool operator()(const ast::Nil&) const {
        k.emit(Op::push_const, 0.0, 1);
        return true;
    }
    bool operator()(const ast::Number& n) const { return k.fold(n, number_value(k.c, n)); }
    bool operator()(const ast::StringLit& s) const { return k.fold(s, Value::of_string(s.value)); }
    bool operator()(const ast::Ident& id) const {
        if (id.name == "Time") return k.emit(Op::push_time, 0, 1), false;
        if (id.name == "TimeStep") return k.emit(Op::push_timestep, 0, 1), false;
        if (id.name == "Step") return k.emit(Op::push_step, 0, 1), true;
        if (id.name == "Var") return k.emit(Op::push_var, 0, 1), false;
        return k.fold(id, OperandVisitor{k.c}(id));
    }
    bool operator()(const ast::Unary& u) const {
        if (!k.has_runtime(u.operand)) return k.fold(u, OperandVisitor{k.c}(u));
        bool is_int = k.operand(u.operand);
        if (u.op == '-') k.emit(Op::neg);
        if (u.op == '!') k.emit(Op::not_), is_int = true;
        return is_int;
    }
    bool operator()(const ast::Call& call) const {
        if (is_model_call(call)) return model_call(call);
        if (!k.has_runtime(ast::Operand(call))) return k.fold(call, OperandVisitor{k.c}(call));
        static const std::map<std::string, std::pair<Op, int>> table = {
            {"sin", {Op::sin, 1}},         {"cos", {Op::cos, 1}},
            {"tan", {Op::tan, 1}},         {"ctan", {Op::ctan, 1}},
            {"asin", {Op::asin, 1}},       {"acos", {Op::acos, 1}},
            {"atan", {Op::atan, 1}},       {"actan", {Op::actan, 1}},
            {"sinh", {Op::sinh, 1}},       {"cosh", {Op::cosh, 1}},
            {"tanh", {Op::tanh, 1}},       {"ctanh", {Op::ctanh, 1}},
            {"asinh", {Op::asinh, 1}},     {"acosh", {Op::acosh, 1}},
            {"atanh", {Op::atanh, 1}},     {"actanh", {Op::actanh, 1}},
            {"exp", {Op::exp, 1}},         {"log", {Op::log, 1}},
            {"log10", {Op::log10, 1}},     {"sqrt", {Op::sqrt, 1}},
            {"abs", {Op::abs, 1}},         {"sign", {Op::sign, 1}},
            {"floor", {Op::floor, 1}},     {"ceil", {Op::ceil, 1}},
            {"round", {Op::round, 1}},     {"step", {Op::step, 1}},
            {"ramp", {Op::ramp, 1}},       {"par", {Op::par, 1}},
            {"integer", {Op::to_int, 1}},  {"bool", {Op::to_bool, 1}},
            {"real", {Op::push_const, 1}}, {"atan2", {Op::atan2, 2}},
            {"actan2", {Op::actan2, 2}},   {"copysign", {Op::copysign, 2}},
            {"max", {Op::max, 2}},         {"min", {Op::min, 2}},
            {"sramp", {Op::sramp, 2}},     {"in_ll", {Op::in_ll, 3}},
            {"in_le", {Op::in_le, 3}},     {"in_el", {Op::in_el, 3}},
            {"in_ee", {Op::in_ee, 3}}};
        std::string name = call.name.name;
        if (name.rfind("default::", 0) == 0) name = name.substr(9);
        auto it = table.find(name);
        if (it == table.end())
            fail(k.c, call.name,
                 "function '" + name + "' cannot depend on Time/Var in a string drive");
        if (static_cast<int>(call.args.size()) != it->second.second)
            fail(k.c, call,
                 "function '" + name + "' takes " + std::to_string(it->second.second) +
                     " argument(s), got " + std::to_string(call.args.size()));
        bool all_int = true;
        for (const auto& a : call.args) all_int = k.expr(a) && all_int;
        if (it->second.first != Op::push_const) k.emit(it->second.first, 0, 1 - it->second.second);
        if (name == "integer" || name == "bool" || name.rfind("in_", 0) == 0 || name == "step" ||
            name == "sign")
            return true;
        if (name == "real") return false;
        (void)all_int;  // abs, max, min return real (as in MBDyn)
        return false;
    }
    bool operator()(const ast::StmtList& l) const {
        if (!k.has_runtime(ast::Operand(l))) return k.fold(l, OperandVisitor{k.c}(l));
        for (std::size_t i = 0; i + 1 < l.stmts.size(); ++i) eval_stmt(k.c, l.stmts[i]);
        const auto* e = boost::get<ast::Expression>(&l.stmts.back());
        if (!e) fail(k.c, l, "the last statement of a string drive must be an expression");
        return k.expr(*e);
    }
    bool operator()(const ast::Expression& e) const { return k.expr(e); }
    bool model_call(const ast::Call& call) const;
};

// model::<function>(L [, L2]): the labels are constant integers; the value is read from the
// nodes at run time (CompiledExpr::ModelRef).
bool OperandCompiler::model_call(const ast::Call& call) const {
    const std::string fn = call.name.name.substr(7);
    const char* why = nullptr;
    std::optional<CompiledExpr::ModelRef> ref = CompiledExpr::model_function(fn, &why);
    if (!ref) {
        if (why) fail(k.c, call.name, "'" + call.name.name + "' is not supported", why);
        fail(k.c, call.name, "unknown function '" + call.name.name + "'",
             "model:: functions of structural nodes: [x|y|z]position, distance, velocity, vrel, "
             "angvel, angvrel, angle, anglerel (and their squared norms position2, ...), "
             "x|y|zunitvec (docs/deck-language.md 1.4)");
    }
    const std::size_t n = ref->two_nodes() ? 2 : 1;
    if (call.args.size() != n)
        fail(k.c, call,
             "function '" + call.name.name + "' takes " + std::to_string(n) +
                 (n == 1 ? " node label" : " node labels") + ", got " +
                 std::to_string(call.args.size()) + " argument(s)");
    long labels[2] = {0, 0};
    for (std::size_t i = 0; i < n; ++i) {
        if (k.has_runtime(call.args[i]))
            fail(k.c, call.args[i], "a model:: function's node label must be a constant");
        const Value v = eval_expr(k.c, call.args[i]);
        if (v.type != Type::integer || v.i < 0)
            fail(k.c, call.args[i], "expected a node label (a non-negative integer)");
        labels[i] = v.i;
    }
    ref->label1 = labels[0];
    ref->label2 = labels[1];
    ref->loc = k.c.origin.loc(call);
    auto& refs = k.out.model_refs;
    if (static_cast<int>(refs.size()) >= CompiledExpr::max_model_refs)
        fail(k.c, call,
             "more than " + std::to_string(CompiledExpr::max_model_refs) +
                 " model:: calls in one string drive");
    refs.push_back(*ref);
    k.emit(Op::push_model, static_cast<double>(refs.size() - 1), 1);
    return false;
}

bool Compiler::operand(const ast::Operand& o) {
    return boost::apply_visitor(OperandCompiler{*this}, o);
}

bool Compiler::expr(const ast::Expression& e) {
    if (!has_runtime(e)) return fold(e, eval_expr(c, e));
    if (e.rest.empty()) return operand(e.first);
    auto binop = [&](const std::string& op, bool li, bool ri) {
        bool ints = li && ri;
        static const std::map<std::string, Op> ops = {
            {"+", Op::add},   {"-", Op::sub},  {"*", Op::mul},  {"^", Op::pow}, {"<", Op::lt},
            {"<=", Op::le},   {">", Op::gt},   {">=", Op::ge},  {"==", Op::eq}, {"!=", Op::ne},
            {"&&", Op::and_}, {"||", Op::or_}, {"~|", Op::xor_}};
        if (op == "/")
            emit(ints ? Op::idiv : Op::div, 0, -1);
        else if (op == "%") {
            if (!ints)
                throw InputError(c.origin.loc(e), "'%' needs integer operands (as in MBDyn)");
            emit(Op::imod, 0, -1);
        } else
            emit(ops.at(op), 0, -1);
        bool rel = op != "+" && op != "-" && op != "*" && op != "^";
        return rel || ints;
    };
    if (e.rest.front().op == "^") {
        // a ^ (b ^ (c ...)): push all operands, then fold from the right.
        std::vector<bool> ints{operand(e.first)};
        for (const auto& r : e.rest) ints.push_back(operand(r.operand));
        bool acc = ints.back();
        for (std::size_t k = e.rest.size(); k-- > 0;) acc = binop("^", ints[k], acc);
        return acc;
    }
    bool acc = operand(e.first);
    for (const auto& r : e.rest) acc = binop(r.op, acc, operand(r.operand));
    return acc;
}

}  // namespace

std::shared_ptr<CompiledExpr> compile_expression(const ast::Stmt& stmt, const AstOrigin& origin,
                                                 SymbolTable& symbols) {
    auto out = std::make_shared<CompiledExpr>();
    std::ostringstream sink;
    Compiler k{Ctx{symbols, origin, sink}, *out};
    const auto* e = boost::get<ast::Expression>(&stmt);
    if (!e) throw InputError(origin.loc(ast::Located{}), "a string drive must be an expression");
    k.expr(*e);
    return out;
}

}  // namespace mbs::parser
