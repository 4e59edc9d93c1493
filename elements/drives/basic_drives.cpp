// Constant, identity and polynomial drive callers: const, null, unit (one), time, timestep,
// direct, linear, parabolic, cubic (docs/deck-language.md section 7).
//
// Typed arguments (DriveSpec::args, described in card order under the names in quotes):
//   const                 ConstArgs (core/const_drive.hpp): value "value"
//   null unit time timestep direct   none (no args)
//   linear                PolynomialArgs c[0..1] "c0" "c1"            f = c0 + c1 t
//   parabolic             PolynomialArgs c[0..2] "c0" "c1" "c2"       f = c0 + c1 t + c2 t^2
//   cubic                 PolynomialArgs c[0..3] "c0" "c1" "c2" "c3"  f = c0 + ... + c3 t^3
//
// Transition drive callers: step, double step, ramp, double ramp, tanh, exponential
// (docs/deck-language.md section 7). `forever` is stored as +inf. Empty fields take MBDyn's
// defaults (step value 1, slopes +1 / -1, amplitude 1).
//
// Typed arguments (in card order):
//   step          StepArgs: t0 "initial time", step "step value", initial "initial value"
//                 f = initial for t < t0, initial + step for t >= t0
//   double step   StepArgs with t1 "final time" (after t0): the step is applied only on [t0, t1]
//   ramp          RampArgs: ramp.slope "slope", ramp.t0 "initial time", ramp.t1 "final time",
//                 initial "initial value"
//                 f = initial + slope (min(t, t1) - t0) for t > t0
//   double ramp   DoubleRampArgs: up.slope "ascending slope", up.t0 "ascending initial time",
//                 up.t1 "ascending final time", down.slope "descending slope",
//                 down.t0 "descending initial time", down.t1 "descending final time",
//                 initial "initial value"
//   tanh          TanhArgs: t0 "initial time", amplitude "amplitude", slope "slope",
//                 initial "initial value"
//                 f = initial + A tanh(slope (t - t0))
//   exponential   ExponentialArgs: amplitude "amplitude", tau "time constant",
//                 t0 "initial time", initial "initial value"
//                 f = initial + A (1 - exp(-(t - t0) / tau)) for t >= t0
//
// Tabulated and metering drive callers: piecewise linear, meter (docs/deck-language.md section 7).
//
// Typed arguments (in card order):
//   piecewise linear  PiecewiseLinearArgs: "points" (long n = x.size() >= 2), x "x" (VecN,
//                     strictly increasing), v "v" (VecN); linear in between, end values held
//                     outside [x1, xn]
//   meter             MeterArgs: t0 "initial time", t1 "final time", steps "steps" (long,
//                     default 1): 1 every n steps
//
// Runtime of the constant, polynomial, step, ramp and tabulated drive callers
// (docs/deck-language.md section 7): const, null, unit, time, timestep, direct, linear, parabolic,
// cubic, step, double step, ramp, double ramp, tanh, exponential, piecewise linear, meter.
// Each keyword's reader (above) and runtime are registered together (MBS_REGISTER_DRIVE_KIND).
//
// Derivatives are MBDyn's dGetP, with two of its slips corrected: tanh gives A b (1 - tanh^2)
// (MBDyn: A b (1 - tanh)) and exponential gives +A/tau e^(-(t - t0)/tau) (MBDyn: the opposite
// sign). At a kink the derivative is the mean of the one-sided ones; at a jump it is 0.
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "core/const_drive.hpp"
#include "core/registry.hpp"
#include "elements/drives/drive_util.hpp"
#include "elements/drives/polynomial_drive.hpp"
#include "elements/drives/runtime_util.hpp"

namespace mbs::drives {
namespace {

// One ramp segment: 0 before t0, slope (min(x, t1) - t0) after (t0 = +inf: never starts).
struct RampSegment {
    double slope = 0.0, t0 = rt::inf, t1 = rt::inf;
    double value(double x) const { return x > t0 ? slope * (std::min(x, t1) - t0) : 0.0; }
    double deriv(double x, const rt::Kinks& k) const {
        if (x < t0 || x > t1 || t1 <= t0) return 0.0;
        if (x == t0) return k.at(x, 0.0, slope);
        if (x == t1) return k.at(x, slope, 0.0);
        return slope;
    }
};

// --- typed arguments ---------------------------------------------------------------------------

// linear, parabolic, cubic: c[0..degree], the rest 0.
struct PolynomialArgs final : KindArgs {
    int degree = 1;
    std::array<double, 4> c{};
    void describe(Props& out) const override {
        static const char* const names[] = {"c0", "c1", "c2", "c3"};
        for (int i = 0; i <= degree; ++i) out.set(names[i], c[i]);
    }
};

// step (t1 not given: +inf) and double step.
struct StepArgs final : KindArgs {
    double t0 = 0.0;
    std::optional<double> t1;
    double step = 1.0, initial = 0.0;
    void describe(Props& out) const override {
        out.set("initial time", t0);
        if (t1) out.set("final time", *t1);
        out.set("step value", step);
        out.set("initial value", initial);
    }
};

struct RampArgs final : KindArgs {
    RampSegment ramp;
    double initial = 0.0;
    void describe(Props& out) const override {
        out.set("slope", ramp.slope);
        out.set("initial time", ramp.t0);
        out.set("final time", ramp.t1);
        out.set("initial value", initial);
    }
};

struct DoubleRampArgs final : KindArgs {
    RampSegment up, down;
    double initial = 0.0;
    void describe(Props& out) const override {
        out.set("ascending slope", up.slope);
        out.set("ascending initial time", up.t0);
        out.set("ascending final time", up.t1);
        out.set("descending slope", down.slope);
        out.set("descending initial time", down.t0);
        out.set("descending final time", down.t1);
        out.set("initial value", initial);
    }
};

struct TanhArgs final : KindArgs {
    double t0 = 0.0, amplitude = 1.0, slope = 0.0, initial = 0.0;
    void describe(Props& out) const override {
        out.set("initial time", t0);
        out.set("amplitude", amplitude);
        out.set("slope", slope);
        out.set("initial value", initial);
    }
};

struct ExponentialArgs final : KindArgs {
    double amplitude = 1.0, tau = 1.0, t0 = 0.0, initial = 0.0;
    void describe(Props& out) const override {
        out.set("amplitude", amplitude);
        out.set("time constant", tau);
        out.set("initial time", t0);
        out.set("initial value", initial);
    }
};

struct PiecewiseLinearArgs final : KindArgs {
    VecN x, v;
    void describe(Props& out) const override {
        out.set("points", static_cast<long>(x.size()));
        out.set("x", x);
        out.set("v", v);
    }
};

struct MeterArgs final : KindArgs {
    double t0 = 0.0, t1 = rt::inf;
    long steps = 1;
    void describe(Props& out) const override {
        out.set("initial time", t0);
        out.set("final time", t1);
        out.set("steps", steps);
    }
};

// --- readers -----------------------------------------------------------------------------------

void read_const(Reader& r, DriveSpec& d) {
    emplace_args<ConstArgs>(d).value = r.real("constant value");
}

void read_no_args(Reader&, DriveSpec&) {}

// `one` is MBDyn's deprecated name of `unit`; both become type "unit".
void read_one(Reader& r, DriveSpec& d) {
    r.warn_at(d.loc, "drive caller \"one\" is deprecated; use \"unit\"");
    d.type = "unit";
}

void read_polynomial(Reader& r, DriveSpec& d, int degree) {
    static const char* const what[] = {"constant coefficient c0", "linear coefficient c1",
                                       "quadratic coefficient c2", "cubic coefficient c3"};
    auto& a = emplace_args<PolynomialArgs>(d);
    a.degree = degree;
    for (int i = 0; i <= degree; ++i) a.c[i] = r.real(what[i]);
}

void read_linear(Reader& r, DriveSpec& d) { read_polynomial(r, d, 1); }
void read_parabolic(Reader& r, DriveSpec& d) { read_polynomial(r, d, 2); }
void read_cubic(Reader& r, DriveSpec& d) { read_polynomial(r, d, 3); }

void read_step(Reader& r, DriveSpec& d) {
    auto& a = emplace_args<StepArgs>(d);
    a.t0 = r.real("step time");
    a.step = real_or(r, "step value", 1.0);
    a.initial = r.real("initial value");
}

// MBDyn only warns when t1 <= t0; an end before the start is rejected here, an empty
// interval (t1 == t0) is allowed.
void read_double_step(Reader& r, DriveSpec& d) {
    auto& a = emplace_args<StepArgs>(d);
    a.t0 = r.real("step time");
    a.t1 = final_time(r, "final time", a.t0, "step time");
    a.step = real_or(r, "step value", 1.0);
    a.initial = r.real("initial value");
}

void read_ramp(Reader& r, DriveSpec& d) {
    auto& a = emplace_args<RampArgs>(d);
    a.ramp.slope = real_or(r, "slope", 1.0);
    a.ramp.t0 = r.real("initial time");
    a.ramp.t1 = final_time(r, "final time", a.ramp.t0, "initial time");
    a.initial = r.real("initial value");
}

// The descending branch may start `forever` (then it never ends either); as in MBDyn the
// ascending branch must end after it starts and the descending one start after that.
void read_double_ramp(Reader& r, DriveSpec& d) {
    auto& a = emplace_args<DoubleRampArgs>(d);
    a.up.slope = real_or(r, "ascending slope", 1.0);
    const double a0 = a.up.t0 = r.real("ascending initial time");
    SourceLoc at = r.loc();
    const double a1 = a.up.t1 = r.real("ascending final time");
    if (a1 <= a0)
        r.error_at(at, "ascending final time " + num(a1) +
                           " must be after the ascending initial time " + num(a0));
    a.down.slope = real_or(r, "descending slope", -1.0);
    at = r.loc();
    const double d0 = a.down.t0 = time_or_forever(r, "descending initial time");
    if (d0 < a1)
        r.error_at(at, "descending initial time " + num(d0) +
                           " is before the ascending final time " + num(a1));
    at = r.loc();
    const double d1 = a.down.t1 = time_or_forever(r, "descending final time");
    if (d1 <= d0 && !(d1 == forever && d0 == forever))
        r.error_at(at,
                   "descending final time must be after the descending initial time " + num(d0));
    a.initial = r.real("initial value");
}

void read_tanh(Reader& r, DriveSpec& d) {
    auto& a = emplace_args<TanhArgs>(d);
    a.t0 = r.real("initial time");
    a.amplitude = real_or(r, "amplitude", 1.0);
    a.slope = r.real("slope");
    a.initial = r.real("initial value");
}

void read_exponential(Reader& r, DriveSpec& d) {
    auto& a = emplace_args<ExponentialArgs>(d);
    a.amplitude = real_or(r, "amplitude", 1.0);
    SourceLoc at = r.loc();
    a.tau = r.real("time constant");
    if (a.tau == 0.0) r.error_at(at, "the time constant of an exponential drive must not be zero");
    a.t0 = r.real("initial time");
    a.initial = r.real("initial value");
}

// MBDyn reads x1, v1 and then checks each further x against the previous one.
void read_piecewise_linear(Reader& r, DriveSpec& d) {
    long n = count_of_items(r, "number of points", 2, 2);
    auto& a = emplace_args<PiecewiseLinearArgs>(d);
    VecN &x = a.x, &v = a.v;
    x.reserve(n);
    v.reserve(n);
    for (long i = 0; i < n; ++i) {
        SourceLoc at = r.loc();
        double xi = r.real("abscissa x" + std::to_string(i + 1));
        if (i > 0 && xi <= x.back())
            r.error_at(at, "piecewise linear abscissae must be strictly increasing: x" +
                               std::to_string(i + 1) + " = " + num(xi) + " is not greater than x" +
                               std::to_string(i) + " = " + num(x.back()));
        x.push_back(xi);
        v.push_back(r.real("value v" + std::to_string(i + 1)));
    }
}

void read_meter(Reader& r, DriveSpec& d) {
    auto& a = emplace_args<MeterArgs>(d);
    a.t0 = r.real("initial time");
    a.t1 = final_time(r, "final time", a.t0, "initial time");
    while (r.accept("steps")) a.steps = read_steps(r);
}

// --- runtime -----------------------------------------------------------------------------------

// c0 + c1 x + c2 x^2 + c3 x^3: const, null, unit, time, direct and the polynomials.
class Polynomial final : public Drive {
  public:
    explicit Polynomial(std::array<double, 4> c) : c_(c) {}
    double value(double x) const override { return c_[0] + x * (c_[1] + x * (c_[2] + x * c_[3])); }
    double deriv(double x) const override { return c_[1] + x * (2.0 * c_[2] + 3.0 * x * c_[3]); }

  private:
    std::array<double, 4> c_;
};

DrivePtr make_const(const DriveSpec& d, const DriveEnv&) {
    return polynomial_drive(d.args_as<ConstArgs>().value);
}
DrivePtr make_null(const DriveSpec&, const DriveEnv&) { return polynomial_drive(0.0); }
DrivePtr make_unit(const DriveSpec&, const DriveEnv&) { return polynomial_drive(1.0); }
// `time` and `direct` both return their input (MBDyn's TimeDriveCaller::dGet(dVar) is dVar).
DrivePtr make_identity(const DriveSpec&, const DriveEnv&) { return polynomial_drive(0.0, 1.0); }

// linear, parabolic, cubic.
DrivePtr make_polynomial(const DriveSpec& d, const DriveEnv&) {
    return rt::make<Polynomial>(d.args_as<PolynomialArgs>().c);
}

// The current step size; MBDyn gives it no derivative.
class TimeStep final : public Drive {
  public:
    explicit TimeStep(const SimClock& c) : clock_(&c) {}
    double value(double) const override { return clock_->timestep; }
    double deriv(double) const override { return 0.0; }
    bool differentiable() const override { return false; }

  private:
    const SimClock* clock_;
};

DrivePtr make_timestep(const DriveSpec& d, const DriveEnv& env) {
    return rt::make<TimeStep>(rt::clock(d, env));
}

// initial + step on [t0, t1], initial elsewhere (a single step has t1 = +inf).
class Step final : public Drive {
  public:
    Step(double t0, double t1, double step, double initial)
        : t0_(t0), t1_(t1), step_(step), initial_(initial) {}
    double value(double x) const override {
        return x >= t0_ && x <= t1_ ? initial_ + step_ : initial_;
    }
    double deriv(double) const override { return 0.0; }

  private:
    double t0_, t1_, step_, initial_;
};

// step and double step.
DrivePtr make_step(const DriveSpec& d, const DriveEnv&) {
    const auto& a = d.args_as<StepArgs>();
    return rt::make<Step>(a.t0, a.t1.value_or(rt::inf), a.step, a.initial);
}

// initial + up to two ramp segments: `ramp` uses one, `double ramp` both; the descending
// segment adds to the value the ascending one holds.
class Ramp final : public Drive {
  public:
    Ramp(RampSegment up, RampSegment down, double initial, const DriveEnv& env)
        : up_(up), down_(down), initial_(initial), k_(env) {}
    double value(double x) const override { return initial_ + up_.value(x) + down_.value(x); }
    double deriv(double x) const override { return up_.deriv(x, k_) + down_.deriv(x, k_); }

  private:
    RampSegment up_, down_;
    double initial_;
    rt::Kinks k_;
};

DrivePtr make_ramp(const DriveSpec& d, const DriveEnv& env) {
    const auto& a = d.args_as<RampArgs>();
    return rt::make<Ramp>(a.ramp, RampSegment{}, a.initial, env);
}

DrivePtr make_double_ramp(const DriveSpec& d, const DriveEnv& env) {
    const auto& a = d.args_as<DoubleRampArgs>();
    return rt::make<Ramp>(a.up, a.down, a.initial, env);
}

// initial + A tanh(b (x - t0)).
class Tanh final : public Drive {
  public:
    Tanh(double t0, double a, double b, double initial)
        : t0_(t0), a_(a), b_(b), initial_(initial) {}
    double value(double x) const override { return initial_ + a_ * std::tanh(b_ * (x - t0_)); }
    double deriv(double x) const override {
        double th = std::tanh(b_ * (x - t0_));
        return a_ * b_ * (1.0 - th * th);
    }

  private:
    double t0_, a_, b_, initial_;
};

DrivePtr make_tanh(const DriveSpec& d, const DriveEnv&) {
    const auto& a = d.args_as<TanhArgs>();
    return rt::make<Tanh>(a.t0, a.amplitude, a.slope, a.initial);
}

// initial + A (1 - e^(-(x - t0)/tau)) after t0, initial before.
class Exponential final : public Drive {
  public:
    Exponential(double a, double tau, double t0, double initial, const DriveEnv& env)
        : a_(a), tau_(tau), t0_(t0), initial_(initial), k_(env) {}
    double value(double x) const override {
        return x <= t0_ ? initial_ : initial_ + a_ * (1.0 - std::exp((t0_ - x) / tau_));
    }
    double deriv(double x) const override {
        if (x < t0_) return 0.0;
        double d = a_ / tau_ * std::exp((t0_ - x) / tau_);
        return x == t0_ ? k_.at(x, 0.0, d) : d;
    }

  private:
    double a_, tau_, t0_, initial_;
    rt::Kinks k_;
};

DrivePtr make_exponential(const DriveSpec& d, const DriveEnv& env) {
    const auto& a = d.args_as<ExponentialArgs>();
    return rt::make<Exponential>(a.amplitude, a.tau, a.t0, a.initial, env);
}

// Linear interpolation of (x_i, v_i), end values held outside [x_1, x_n]. At an inner point
// the derivative is the mean of the two slopes, at an end point half the end slope (rt::Kinks:
// the right slope at the run's initial time).
class PiecewiseLinear final : public Drive {
  public:
    PiecewiseLinear(VecN x, VecN v, const DriveEnv& env)
        : x_(std::move(x)), v_(std::move(v)), k_(env) {}
    double value(double x) const override {
        if (x <= x_.front()) return v_.front();
        if (x >= x_.back()) return v_.back();
        std::size_t i = segment(x);
        return v_[i] + slope(i) * (x - x_[i]);
    }
    double deriv(double x) const override {
        const std::size_t n = x_.size();
        if (x < x_.front() || x > x_.back()) return 0.0;
        if (x == x_.front()) return k_.at(x, 0.0, slope(0));
        if (x == x_.back()) return k_.at(x, slope(n - 2), 0.0);
        std::size_t i = segment(x);
        return x == x_[i] ? k_.at(x, slope(i - 1), slope(i)) : slope(i);
    }

  private:
    // The i with x_i <= x < x_{i+1}, for x_1 < x < x_n.
    std::size_t segment(double x) const {
        auto it = std::upper_bound(x_.begin(), x_.end(), x);
        return static_cast<std::size_t>(it - x_.begin()) - 1;
    }
    double slope(std::size_t i) const { return (v_[i + 1] - v_[i]) / (x_[i + 1] - x_[i]); }

    VecN x_, v_;
    rt::Kinks k_;
};

DrivePtr make_piecewise_linear(const DriveSpec& d, const DriveEnv& env) {
    const auto& a = d.args_as<PiecewiseLinearArgs>();
    return rt::make<PiecewiseLinear>(a.x, a.v, env);
}

// 1 on the steps whose counter is a multiple of n while t0 <= x <= tf, else 0; not
// differentiable (MBDyn's meter).
class Meter final : public Drive {
  public:
    Meter(double t0, double tf, long steps, const SimClock& c)
        : t0_(t0), tf_(tf), steps_(steps), clock_(&c) {}
    double value(double x) const override {
        if (x < t0_ || x > tf_) return 0.0;
        return clock_->step % steps_ == 0 ? 1.0 : 0.0;
    }
    double deriv(double) const override { return 0.0; }
    bool differentiable() const override { return false; }

  private:
    double t0_, tf_;
    long steps_;
    const SimClock* clock_;
};

DrivePtr make_meter(const DriveSpec& d, const DriveEnv& env) {
    const auto& a = d.args_as<MeterArgs>();
    return rt::make<Meter>(a.t0, a.t1, a.steps, rt::clock(d, env));
}

}  // namespace

DrivePtr polynomial_drive(double c0, double c1, double c2, double c3) {
    return rt::make<Polynomial>(std::array<double, 4>{c0, c1, c2, c3});
}

MBS_REGISTER_DRIVE_KIND("const", {.read = read_const, .make = make_const});
MBS_REGISTER_DRIVE_KIND("null", {.read = read_no_args, .make = make_null});
MBS_REGISTER_DRIVE_KIND("unit", {.read = read_no_args, .make = make_unit});
MBS_REGISTER_DRIVE_KIND("one", {.read = read_one, .make = make_unit});
MBS_REGISTER_DRIVE_KIND("time", {.read = read_no_args, .make = make_identity});
MBS_REGISTER_DRIVE_KIND("timestep", {.read = read_no_args, .make = make_timestep});
MBS_REGISTER_DRIVE_KIND("direct", {.read = read_no_args, .make = make_identity});
MBS_REGISTER_DRIVE_KIND("linear", {.read = read_linear, .make = make_polynomial});
MBS_REGISTER_DRIVE_KIND("parabolic", {.read = read_parabolic, .make = make_polynomial});
MBS_REGISTER_DRIVE_KIND("cubic", {.read = read_cubic, .make = make_polynomial});
MBS_REGISTER_DRIVE_KIND("step", {.read = read_step, .make = make_step});
MBS_REGISTER_DRIVE_KIND("double step", {.read = read_double_step, .make = make_step});
MBS_REGISTER_DRIVE_KIND("ramp", {.read = read_ramp, .make = make_ramp});
MBS_REGISTER_DRIVE_KIND("double ramp", {.read = read_double_ramp, .make = make_double_ramp});
MBS_REGISTER_DRIVE_KIND("tanh", {.read = read_tanh, .make = make_tanh});
MBS_REGISTER_DRIVE_KIND("exponential", {.read = read_exponential, .make = make_exponential});
MBS_REGISTER_DRIVE_KIND("piecewise linear",
                        {.read = read_piecewise_linear, .make = make_piecewise_linear});
MBS_REGISTER_DRIVE_KIND("meter", {.read = read_meter, .make = make_meter});

}  // namespace mbs::drives
