// A compiled scalar expression (the body of a `string` drive): a flat program evaluated on a
// fixed-size stack of (value, d/dt) pairs. Evaluation never allocates; it runs in the Newton loop.
#pragma once

#include <cstdint>
#include <vector>

namespace mbs {

struct CompiledExpr {
    enum class Op : std::uint8_t {
        push_const,
        push_time,
        push_timestep,
        push_step,
        push_var,
        neg,
        not_,
        add,
        sub,
        mul,
        div,
        idiv,
        mod,
        imod,
        pow,
        lt,
        le,
        gt,
        ge,
        eq,
        ne,
        and_,
        or_,
        xor_,
        sin,
        cos,
        tan,
        ctan,
        asin,
        acos,
        atan,
        actan,
        sinh,
        cosh,
        tanh,
        ctanh,
        asinh,
        acosh,
        atanh,
        actanh,
        exp,
        log,
        log10,
        sqrt,
        abs,
        sign,
        floor,
        ceil,
        round,
        step,
        ramp,
        par,
        to_int,
        to_bool,
        atan2,
        actan2,
        copysign,
        max,
        min,
        sramp,
        in_ll,
        in_le,
        in_el,
        in_ee,
    };
    struct Instr {
        Op op;
        double value = 0.0;  // push_const
    };
    static constexpr int max_stack = 64;

    std::vector<Instr> code;
    int stack_depth = 0;

    // Inputs of one evaluation: simulated time, step size, step counter, drive input Var and
    // the derivatives of Time and Var with respect to the variable of differentiation (dVar/dt
    // for drives fed by another drive; time_dot = 0 to differentiate with respect to Var alone).
    struct Inputs {
        double time = 0.0;
        double timestep = 0.0;
        double step = 0.0;
        double var = 0.0;
        double var_dot = 0.0;
        double time_dot = 1.0;
    };
    // Returns the value; `*dvalue_dt` (if non-null) receives its derivative with respect to time.
    double eval(const Inputs& in, double* dvalue_dt = nullptr) const;
};

}  // namespace mbs
