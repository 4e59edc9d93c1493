// A compiled scalar expression (the body of a `string` drive): a flat program evaluated on a
// fixed-size stack of (value, d/dt) pairs. Evaluation never allocates; it runs in the Newton loop.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/source.hpp"

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
        push_model,  // the value of model_refs[value] (Inputs::model)
    };
    struct Instr {
        Op op;
        double value = 0.0;  // push_const
    };
    static constexpr int max_stack = 64;

    // A `model::` function (MBDyn's modelns.cc) reading the run-time state of structural nodes:
    // quantity q of node label1 (position, angle, velocity, angvel) or of node label2 relative
    // to label1 (distance, unitvec, anglerel, vrel, angvrel); component 0..2 (x, y, z), norm or
    // squared norm. Resolved to the nodes when the drive is built (elements/drives).
    struct ModelRef {
        enum class Quantity : std::uint8_t {
            position,
            distance,
            unitvec,
            angle,
            anglerel,
            velocity,
            vrel,
            angvel,
            angvrel
        };
        enum class Part : std::uint8_t { x, y, z, norm, square };
        Quantity quantity = Quantity::position;
        Part part = Part::norm;
        long label1 = 0, label2 = 0;
        SourceLoc loc;  // the call, for errors when the drive is built
        bool two_nodes() const {
            return quantity == Quantity::distance || quantity == Quantity::unitvec ||
                   quantity == Quantity::anglerel || quantity == Quantity::vrel ||
                   quantity == Quantity::angvrel;
        }
    };
    // The ModelRef of a function name after `model::` ("xposition", "distance2", ...), or
    // nothing when the name is not one of them. *why says why a known MBDyn name is refused.
    static std::optional<ModelRef> model_function(std::string_view name, const char** why);
    static constexpr int max_model_refs = 16;

    std::vector<Instr> code;
    int stack_depth = 0;
    std::vector<ModelRef> model_refs;

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
        // model_refs' current values (time derivative 0); null gives NaN for each.
        const double* model = nullptr;
    };
    // Returns the value; `*dvalue_dt` (if non-null) receives its derivative with respect to time.
    double eval(const Inputs& in, double* dvalue_dt = nullptr) const;
};

}  // namespace mbs
