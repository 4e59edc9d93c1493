// Stack machine for compiled string-drive expressions, forward-mode derivative in time.
#include "core/compiled_expr.hpp"

#include <cmath>
#include <limits>
#include <utility>

namespace mbs {

namespace {
struct Dual {
    double v, d;
};
inline double sgn(double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0; }

// A function of one argument a (value and time derivative).
Dual unary(CompiledExpr::Op op, Dual a) {
    using Op = CompiledExpr::Op;
    switch (op) {
        case Op::neg:
            return {-a.v, -a.d};
        case Op::not_:
            return {a.v == 0.0 ? 1.0 : 0.0, 0.0};
        case Op::sin:
            return {std::sin(a.v), std::cos(a.v) * a.d};
        case Op::cos:
            return {std::cos(a.v), -std::sin(a.v) * a.d};
        case Op::tan: {
            double t = std::tan(a.v);
            return {t, (1 + t * t) * a.d};
        }
        case Op::ctan: {
            double t = std::tan(a.v);
            return {1.0 / t, -(1 + t * t) / (t * t) * a.d};
        }
        case Op::asin:
            return {std::asin(a.v), a.d / std::sqrt(1 - a.v * a.v)};
        case Op::acos:
            return {std::acos(a.v), -a.d / std::sqrt(1 - a.v * a.v)};
        case Op::atan:
            return {std::atan(a.v), a.d / (1 + a.v * a.v)};
        case Op::actan:
            return {std::atan2(1.0, a.v), -a.d / (1 + a.v * a.v)};
        case Op::sinh:
            return {std::sinh(a.v), std::cosh(a.v) * a.d};
        case Op::cosh:
            return {std::cosh(a.v), std::sinh(a.v) * a.d};
        case Op::tanh: {
            double t = std::tanh(a.v);
            return {t, (1 - t * t) * a.d};
        }
        case Op::ctanh: {
            double t = std::tanh(a.v);
            return {1.0 / t, -(1 - t * t) / (t * t) * a.d};
        }
        case Op::asinh:
            return {std::asinh(a.v), a.d / std::sqrt(a.v * a.v + 1)};
        case Op::acosh:
            return {std::acosh(a.v), a.d / std::sqrt(a.v * a.v - 1)};
        case Op::atanh:
            return {std::atanh(a.v), a.d / (1 - a.v * a.v)};
        case Op::actanh:
            return {std::atanh(1.0 / a.v), a.d / (1 - a.v * a.v)};
        case Op::exp: {
            double e = std::exp(a.v);
            return {e, e * a.d};
        }
        case Op::log:
            return {std::log(a.v), a.d / a.v};
        case Op::log10:
            return {std::log10(a.v), a.d / (a.v * std::log(10.0))};
        case Op::sqrt: {
            double r = std::sqrt(a.v);
            return {r, r > 0 ? a.d / (2 * r) : 0.0};
        }
        case Op::abs:
            return {std::fabs(a.v), sgn(a.v) * a.d};
        case Op::sign:
            return {sgn(a.v), 0.0};
        case Op::floor:
            return {std::floor(a.v), 0.0};
        case Op::ceil:
            return {std::ceil(a.v), 0.0};
        case Op::round:
            return {std::round(a.v), 0.0};
        case Op::step:
            return {a.v > 0 ? 1.0 : a.v < 0 ? 0.0 : 0.5, 0.0};
        case Op::ramp:
            return {a.v > 0 ? a.v : 0.0, a.v > 0 ? a.d : 0.0};
        case Op::par:
            return {a.v > 0 ? a.v * a.v : 0.0, a.v > 0 ? 2 * a.v * a.d : 0.0};
        case Op::to_int:
            return {std::trunc(a.v), 0.0};
        case Op::to_bool:
            return {a.v != 0.0 ? 1.0 : 0.0, 0.0};
        default:
            return a;  // not a function of one argument: eval() never calls it so
    }
}

// An operator or function of two arguments: b (left) and a (right).
Dual binary(CompiledExpr::Op op, Dual b, Dual a) {
    using Op = CompiledExpr::Op;
    switch (op) {
        case Op::add:
            return {b.v + a.v, b.d + a.d};
        case Op::sub:
            return {b.v - a.v, b.d - a.d};
        case Op::mul:
            return {b.v * a.v, b.d * a.v + b.v * a.d};
        case Op::div:
            return {b.v / a.v, (b.d * a.v - b.v * a.d) / (a.v * a.v)};
        case Op::idiv:
            return {std::trunc(b.v / a.v), 0.0};
        case Op::mod:
            return {std::fmod(b.v, a.v), b.d - std::trunc(b.v / a.v) * a.d};
        case Op::imod:
            return {std::fmod(b.v, a.v), 0.0};
        case Op::pow: {
            double v = std::pow(b.v, a.v);
            double d = (b.v != 0.0 ? a.v * std::pow(b.v, a.v - 1.0) * b.d : 0.0) +
                       (a.d != 0.0 && b.v > 0.0 ? v * std::log(b.v) * a.d : 0.0);
            return {v, d};
        }
        case Op::lt:
            return {b.v < a.v ? 1.0 : 0.0, 0.0};
        case Op::le:
            return {b.v <= a.v ? 1.0 : 0.0, 0.0};
        case Op::gt:
            return {b.v > a.v ? 1.0 : 0.0, 0.0};
        case Op::ge:
            return {b.v >= a.v ? 1.0 : 0.0, 0.0};
        case Op::eq:
            return {b.v == a.v ? 1.0 : 0.0, 0.0};
        case Op::ne:
            return {b.v != a.v ? 1.0 : 0.0, 0.0};
        case Op::and_:
            return {(b.v != 0.0 && a.v != 0.0) ? 1.0 : 0.0, 0.0};
        case Op::or_:
            return {(b.v != 0.0 || a.v != 0.0) ? 1.0 : 0.0, 0.0};
        case Op::xor_:
            return {((b.v != 0.0) != (a.v != 0.0)) ? 1.0 : 0.0, 0.0};
        case Op::atan2: {
            double y = b.v, x = a.v, r2 = x * x + y * y;
            return {std::atan2(y, x), r2 > 0 ? (x * b.d - y * a.d) / r2 : 0.0};
        }
        case Op::actan2: {
            double y = b.v, x = a.v, r2 = x * x + y * y;
            return {std::atan2(x, y), r2 > 0 ? (y * a.d - x * b.d) / r2 : 0.0};
        }
        case Op::copysign:
            return {std::copysign(b.v, a.v),
                    (std::signbit(b.v) == std::signbit(a.v) ? 1 : -1) * b.d};
        case Op::max:
            return b.v >= a.v ? b : a;
        case Op::min:
            return b.v <= a.v ? b : a;
        case Op::sramp:
            return b.v <= 0 ? Dual{0.0, 0.0} : b.v >= a.v ? Dual{a.v, a.d} : b;
        default:
            return b;  // not a function of two arguments: eval() never calls it so
    }
}

bool is_binary(CompiledExpr::Op op) {
    using Op = CompiledExpr::Op;
    switch (op) {
        case Op::add:
        case Op::sub:
        case Op::mul:
        case Op::div:
        case Op::idiv:
        case Op::mod:
        case Op::imod:
        case Op::pow:
        case Op::lt:
        case Op::le:
        case Op::gt:
        case Op::ge:
        case Op::eq:
        case Op::ne:
        case Op::and_:
        case Op::or_:
        case Op::xor_:
        case Op::atan2:
        case Op::actan2:
        case Op::copysign:
        case Op::max:
        case Op::min:
        case Op::sramp:
            return true;
        default:
            return false;
    }
}
}  // namespace

// MBDyn's model namespace (mbdyn/base/modelns.cc): [x|y|z]<quantity>[2]; unitvec has components
// only, angle and anglerel no squared norm.
std::optional<CompiledExpr::ModelRef> CompiledExpr::model_function(std::string_view name,
                                                                   const char** why) {
    using Q = ModelRef::Quantity;
    using P = ModelRef::Part;
    *why = nullptr;
    static constexpr std::string_view prev = "_prev";
    if (name.size() > prev.size() && name.substr(name.size() - prev.size()) == prev) {
        *why = "the previous step's state (the _prev functions) is not kept";
        name.remove_suffix(prev.size());
        if (!model_function(name, why)) return std::nullopt;
        *why = "the previous step's state (the _prev functions) is not kept";
        return std::nullopt;
    }
    if (name == "drive" || name == "drivep" || name == "sf" || name == "current" ||
        name == "node" || name == "element" || name == "uniqueElement") {
        *why = name == "node" ? "use a `node` drive caller (private data)"
               : name == "element" || name == "uniqueElement"
                   ? "use an `element` drive caller (private data)"
               : name == "sf"      ? "use a `scalar function` drive caller"
               : name == "current" ? "the current entity is not known to string drives"
                                   : "use the drive caller itself (reference, L) or `derivative`";
        return std::nullopt;
    }
    ModelRef r;
    std::string_view base = name;
    bool component = false;
    if (!base.empty() && (base[0] == 'x' || base[0] == 'y' || base[0] == 'z')) {
        static constexpr std::string_view rest[] = {"position", "distance", "unitvec",
                                                    "angle",    "anglerel", "velocity",
                                                    "vrel",     "angvel",   "angvrel"};
        for (std::string_view q : rest)
            if (base.substr(1) == q) component = true;
        if (component) {
            r.part = base[0] == 'x' ? P::x : base[0] == 'y' ? P::y : P::z;
            base.remove_prefix(1);
        }
    }
    bool square = false;
    if (!component && !base.empty() && base.back() == '2') {
        square = true;
        base.remove_suffix(1);
        r.part = P::square;
    }
    static constexpr std::pair<std::string_view, Q> table[] = {
        {"position", Q::position}, {"distance", Q::distance}, {"unitvec", Q::unitvec},
        {"angle", Q::angle},       {"anglerel", Q::anglerel}, {"velocity", Q::velocity},
        {"vrel", Q::vrel},         {"angvel", Q::angvel},     {"angvrel", Q::angvrel}};
    bool found = false;
    for (const auto& [n, q] : table)
        if (base == n) found = true, r.quantity = q;
    if (!found) return std::nullopt;
    if (r.quantity == Q::unitvec && !component) return std::nullopt;
    if (square && (r.quantity == Q::angle || r.quantity == Q::anglerel)) return std::nullopt;
    return r;
}

double CompiledExpr::eval(const Inputs& in, double* dvalue_dt) const {
    Dual st[max_stack];
    int sp = 0;
    for (const Instr& ins : code) {
        switch (ins.op) {
            case Op::push_const:
                st[sp++] = {ins.value, 0.0};
                break;
            case Op::push_time:
                st[sp++] = {in.time, in.time_dot};
                break;
            case Op::push_timestep:
                st[sp++] = {in.timestep, 0.0};
                break;
            case Op::push_step:
                st[sp++] = {in.step, 0.0};
                break;
            case Op::push_var:
                st[sp++] = {in.var, in.var_dot};
                break;
            case Op::push_model:
                // NaN without node values (an expression evaluated outside a run's drive).
                st[sp++] = {in.model ? in.model[static_cast<std::size_t>(ins.value)]
                                     : std::numeric_limits<double>::quiet_NaN(),
                            0.0};
                break;
            case Op::in_ll:
            case Op::in_le:
            case Op::in_el:
            case Op::in_ee: {
                // stack: lo, x, hi
                double lo = st[sp - 3].v, x = st[sp - 2].v, hi = st[sp - 1].v;
                bool lo_ok = (ins.op == Op::in_ll || ins.op == Op::in_le) ? lo < x : lo <= x;
                bool hi_ok = (ins.op == Op::in_ll || ins.op == Op::in_el) ? x < hi : x <= hi;
                sp -= 2;
                st[sp - 1] = {lo_ok && hi_ok ? 1.0 : 0.0, 0.0};
                break;
            }
            default:
                if (is_binary(ins.op)) {
                    st[sp - 2] = binary(ins.op, st[sp - 2], st[sp - 1]);
                    --sp;
                } else {
                    st[sp - 1] = unary(ins.op, st[sp - 1]);
                }
                break;
        }
    }
    if (dvalue_dt) *dvalue_dt = sp > 0 ? st[sp - 1].d : 0.0;
    return sp > 0 ? st[sp - 1].v : 0.0;
}

}  // namespace mbs
