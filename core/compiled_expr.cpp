// Stack machine for compiled string-drive expressions, forward-mode derivative in time.
#include "core/compiled_expr.hpp"

#include <cmath>

namespace mbs {

namespace {
struct Dual {
    double v, d;
};
inline double sgn(double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0; }
}  // namespace

double CompiledExpr::eval(const Inputs& in, double* dvalue_dt) const {
    Dual st[max_stack];
    int sp = 0;
    for (const Instr& ins : code) {
        Dual* a = sp >= 1 ? &st[sp - 1] : nullptr;
        Dual* b = sp >= 2 ? &st[sp - 2] : nullptr;  // b = left operand, a = right operand
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
            case Op::neg:
                *a = {-a->v, -a->d};
                break;
            case Op::not_:
                *a = {a->v == 0.0 ? 1.0 : 0.0, 0.0};
                break;
            case Op::add:
                *b = {b->v + a->v, b->d + a->d}, --sp;
                break;
            case Op::sub:
                *b = {b->v - a->v, b->d - a->d}, --sp;
                break;
            case Op::mul:
                *b = {b->v * a->v, b->d * a->v + b->v * a->d}, --sp;
                break;
            case Op::div:
                *b = {b->v / a->v, (b->d * a->v - b->v * a->d) / (a->v * a->v)}, --sp;
                break;
            case Op::idiv:
                *b = {std::trunc(b->v / a->v), 0.0}, --sp;
                break;
            case Op::mod:
                *b = {std::fmod(b->v, a->v), b->d - std::trunc(b->v / a->v) * a->d}, --sp;
                break;
            case Op::imod:
                *b = {std::fmod(b->v, a->v), 0.0}, --sp;
                break;
            case Op::pow: {
                double v = std::pow(b->v, a->v);
                double d = (b->v != 0.0 ? a->v * std::pow(b->v, a->v - 1.0) * b->d : 0.0) +
                           (a->d != 0.0 && b->v > 0.0 ? v * std::log(b->v) * a->d : 0.0);
                *b = {v, d}, --sp;
                break;
            }
            case Op::lt:
                *b = {b->v < a->v ? 1.0 : 0.0, 0.0}, --sp;
                break;
            case Op::le:
                *b = {b->v <= a->v ? 1.0 : 0.0, 0.0}, --sp;
                break;
            case Op::gt:
                *b = {b->v > a->v ? 1.0 : 0.0, 0.0}, --sp;
                break;
            case Op::ge:
                *b = {b->v >= a->v ? 1.0 : 0.0, 0.0}, --sp;
                break;
            case Op::eq:
                *b = {b->v == a->v ? 1.0 : 0.0, 0.0}, --sp;
                break;
            case Op::ne:
                *b = {b->v != a->v ? 1.0 : 0.0, 0.0}, --sp;
                break;
            case Op::and_:
                *b = {(b->v != 0.0 && a->v != 0.0) ? 1.0 : 0.0, 0.0}, --sp;
                break;
            case Op::or_:
                *b = {(b->v != 0.0 || a->v != 0.0) ? 1.0 : 0.0, 0.0}, --sp;
                break;
            case Op::xor_:
                *b = {((b->v != 0.0) != (a->v != 0.0)) ? 1.0 : 0.0, 0.0}, --sp;
                break;
            case Op::sin:
                *a = {std::sin(a->v), std::cos(a->v) * a->d};
                break;
            case Op::cos:
                *a = {std::cos(a->v), -std::sin(a->v) * a->d};
                break;
            case Op::tan: {
                double t = std::tan(a->v);
                *a = {t, (1 + t * t) * a->d};
                break;
            }
            case Op::ctan: {
                double t = std::tan(a->v);
                *a = {1.0 / t, -(1 + t * t) / (t * t) * a->d};
                break;
            }
            case Op::asin:
                *a = {std::asin(a->v), a->d / std::sqrt(1 - a->v * a->v)};
                break;
            case Op::acos:
                *a = {std::acos(a->v), -a->d / std::sqrt(1 - a->v * a->v)};
                break;
            case Op::atan:
                *a = {std::atan(a->v), a->d / (1 + a->v * a->v)};
                break;
            case Op::actan:
                *a = {std::atan2(1.0, a->v), -a->d / (1 + a->v * a->v)};
                break;
            case Op::sinh:
                *a = {std::sinh(a->v), std::cosh(a->v) * a->d};
                break;
            case Op::cosh:
                *a = {std::cosh(a->v), std::sinh(a->v) * a->d};
                break;
            case Op::tanh: {
                double t = std::tanh(a->v);
                *a = {t, (1 - t * t) * a->d};
                break;
            }
            case Op::ctanh: {
                double t = std::tanh(a->v);
                *a = {1.0 / t, -(1 - t * t) / (t * t) * a->d};
                break;
            }
            case Op::asinh:
                *a = {std::asinh(a->v), a->d / std::sqrt(a->v * a->v + 1)};
                break;
            case Op::acosh:
                *a = {std::acosh(a->v), a->d / std::sqrt(a->v * a->v - 1)};
                break;
            case Op::atanh:
                *a = {std::atanh(a->v), a->d / (1 - a->v * a->v)};
                break;
            case Op::actanh:
                *a = {std::atanh(1.0 / a->v), a->d / (1 - a->v * a->v)};
                break;
            case Op::exp: {
                double e = std::exp(a->v);
                *a = {e, e * a->d};
                break;
            }
            case Op::log:
                *a = {std::log(a->v), a->d / a->v};
                break;
            case Op::log10:
                *a = {std::log10(a->v), a->d / (a->v * std::log(10.0))};
                break;
            case Op::sqrt: {
                double r = std::sqrt(a->v);
                *a = {r, r > 0 ? a->d / (2 * r) : 0.0};
                break;
            }
            case Op::abs:
                *a = {std::fabs(a->v), sgn(a->v) * a->d};
                break;
            case Op::sign:
                *a = {sgn(a->v), 0.0};
                break;
            case Op::floor:
                *a = {std::floor(a->v), 0.0};
                break;
            case Op::ceil:
                *a = {std::ceil(a->v), 0.0};
                break;
            case Op::round:
                *a = {std::round(a->v), 0.0};
                break;
            case Op::step:
                *a = {a->v > 0 ? 1.0 : a->v < 0 ? 0.0 : 0.5, 0.0};
                break;
            case Op::ramp:
                *a = {a->v > 0 ? a->v : 0.0, a->v > 0 ? a->d : 0.0};
                break;
            case Op::par:
                *a = {a->v > 0 ? a->v * a->v : 0.0, a->v > 0 ? 2 * a->v * a->d : 0.0};
                break;
            case Op::to_int:
                *a = {std::trunc(a->v), 0.0};
                break;
            case Op::to_bool:
                *a = {a->v != 0.0 ? 1.0 : 0.0, 0.0};
                break;
            case Op::atan2: {
                double y = b->v, x = a->v, r2 = x * x + y * y;
                *b = {std::atan2(y, x), r2 > 0 ? (x * b->d - y * a->d) / r2 : 0.0}, --sp;
                break;
            }
            case Op::actan2: {
                double y = b->v, x = a->v, r2 = x * x + y * y;
                *b = {std::atan2(x, y), r2 > 0 ? (y * a->d - x * b->d) / r2 : 0.0}, --sp;
                break;
            }
            case Op::copysign:
                *b = {std::copysign(b->v, a->v),
                      (std::signbit(b->v) == std::signbit(a->v) ? 1 : -1) * b->d},
                --sp;
                break;
            case Op::max:
                *b = b->v >= a->v ? *b : *a, --sp;
                break;
            case Op::min:
                *b = b->v <= a->v ? *b : *a, --sp;
                break;
            case Op::sramp:
                *b = b->v <= 0 ? Dual{0.0, 0.0} : b->v >= a->v ? Dual{a->v, a->d} : *b, --sp;
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
        }
    }
    if (dvalue_dt) *dvalue_dt = sp > 0 ? st[sp - 1].d : 0.0;
    return sp > 0 ? st[sp - 1].v : 0.0;
}

}  // namespace mbs
