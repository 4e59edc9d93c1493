// Constant, identity and polynomial drive callers: const, null, unit (one), time, timestep,
// direct, linear, parabolic, cubic (docs/deck-language.md section 7).
//
// Parameters (DriveSpec::params, in card order):
//   const                 "value"
//   null unit time timestep direct   (none)
//   linear                "c0" "c1"            f = c0 + c1 t
//   parabolic             "c0" "c1" "c2"       f = c0 + c1 t + c2 t^2
//   cubic                 "c0" "c1" "c2" "c3"  f = c0 + c1 t + c2 t^2 + c3 t^3
//
// Transition drive callers: step, double step, ramp, double ramp, tanh, exponential
// (docs/deck-language.md section 7). `forever` is stored as +inf. Empty fields take MBDyn's
// defaults (step value 1, slopes +1 / -1, amplitude 1).
//
// Parameters (DriveSpec::params, in card order):
//   step          "initial time" "step value" "initial value"
//                 f = initial for t < t0, initial + step for t >= t0
//   double step   "initial time" "final time" "step value" "initial value"
//                 the step is applied only on [t0, t1]
//   ramp          "slope" "initial time" "final time" "initial value"
//                 f = initial + slope (min(t, t1) - t0) for t > t0
//   double ramp   "ascending slope" "ascending initial time" "ascending final time"
//                 "descending slope" "descending initial time" "descending final time"
//                 "initial value"
//   tanh          "initial time" "amplitude" "slope" "initial value"
//                 f = initial + A tanh(slope (t - t0))
//   exponential   "amplitude" "time constant" "initial time" "initial value"
//                 f = initial + A (1 - exp(-(t - t0) / tau)) for t >= t0
//
// Tabulated and metering drive callers: piecewise linear, meter (docs/deck-language.md section 7).
//
// Parameters (DriveSpec::params, in card order):
//   piecewise linear  "points" (long n >= 2) "x" (VecN, strictly increasing) "v" (VecN);
//                     linear in between, end values held outside [x1, xn]
//   meter             "initial time" "final time" "steps" (long, default 1): 1 every n steps
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

#include "core/registry.hpp"
#include "elements/drives/drive_util.hpp"
#include "elements/drives/runtime_util.hpp"

namespace mbs::drives {
namespace {

void read_const(Reader& r, DriveSpec& d) { d.params.set("value", r.real("constant value")); }

void read_no_args(Reader&, DriveSpec&) {}

// `one` is MBDyn's deprecated name of `unit`; both become type "unit".
void read_one(Reader& r, DriveSpec& d) {
    r.warn_at(d.loc, "drive caller \"one\" is deprecated; use \"unit\"");
    d.type = "unit";
}

void read_polynomial(Reader& r, DriveSpec& d, int degree) {
    static const char* const names[] = {"c0", "c1", "c2", "c3"};
    static const char* const what[] = {"constant coefficient c0", "linear coefficient c1",
                                       "quadratic coefficient c2", "cubic coefficient c3"};
    for (int i = 0; i <= degree; ++i) d.params.set(names[i], r.real(what[i]));
}

void read_linear(Reader& r, DriveSpec& d) { read_polynomial(r, d, 1); }
void read_parabolic(Reader& r, DriveSpec& d) { read_polynomial(r, d, 2); }
void read_cubic(Reader& r, DriveSpec& d) { read_polynomial(r, d, 3); }

void read_step(Reader& r, DriveSpec& d) {
    d.params.set("initial time", r.real("step time"));
    d.params.set("step value", real_or(r, "step value", 1.0));
    d.params.set("initial value", r.real("initial value"));
}

// MBDyn only warns when t1 <= t0; an end before the start is rejected here, an empty
// interval (t1 == t0) is allowed.
void read_double_step(Reader& r, DriveSpec& d) {
    double t0 = r.real("step time");
    d.params.set("initial time", t0);
    d.params.set("final time", final_time(r, "final time", t0, "step time"));
    d.params.set("step value", real_or(r, "step value", 1.0));
    d.params.set("initial value", r.real("initial value"));
}

void read_ramp(Reader& r, DriveSpec& d) {
    d.params.set("slope", real_or(r, "slope", 1.0));
    double t0 = r.real("initial time");
    d.params.set("initial time", t0);
    d.params.set("final time", final_time(r, "final time", t0, "initial time"));
    d.params.set("initial value", r.real("initial value"));
}

// The descending branch may start `forever` (then it never ends either); as in MBDyn the
// ascending branch must end after it starts and the descending one start after that.
void read_double_ramp(Reader& r, DriveSpec& d) {
    d.params.set("ascending slope", real_or(r, "ascending slope", 1.0));
    double a0 = r.real("ascending initial time");
    d.params.set("ascending initial time", a0);
    SourceLoc at = r.loc();
    double a1 = r.real("ascending final time");
    if (a1 <= a0)
        r.error_at(at, "ascending final time " + num(a1) +
                           " must be after the ascending initial time " + num(a0));
    d.params.set("ascending final time", a1);
    d.params.set("descending slope", real_or(r, "descending slope", -1.0));
    at = r.loc();
    double d0 = time_or_forever(r, "descending initial time");
    if (d0 < a1)
        r.error_at(at, "descending initial time " + num(d0) +
                           " is before the ascending final time " + num(a1));
    d.params.set("descending initial time", d0);
    at = r.loc();
    double d1 = time_or_forever(r, "descending final time");
    if (d1 <= d0 && !(d1 == forever && d0 == forever))
        r.error_at(at,
                   "descending final time must be after the descending initial time " + num(d0));
    d.params.set("descending final time", d1);
    d.params.set("initial value", r.real("initial value"));
}

void read_tanh(Reader& r, DriveSpec& d) {
    d.params.set("initial time", r.real("initial time"));
    d.params.set("amplitude", real_or(r, "amplitude", 1.0));
    d.params.set("slope", r.real("slope"));
    d.params.set("initial value", r.real("initial value"));
}

void read_exponential(Reader& r, DriveSpec& d) {
    d.params.set("amplitude", real_or(r, "amplitude", 1.0));
    SourceLoc at = r.loc();
    double tau = r.real("time constant");
    if (tau == 0.0) r.error_at(at, "the time constant of an exponential drive must not be zero");
    d.params.set("time constant", tau);
    d.params.set("initial time", r.real("initial time"));
    d.params.set("initial value", r.real("initial value"));
}

// MBDyn reads x1, v1 and then checks each further x against the previous one.
void read_piecewise_linear(Reader& r, DriveSpec& d) {
    long n = count_of_items(r, "number of points", 2, 2);
    VecN x, v;
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
    d.params.set("points", n);
    d.params.set("x", std::move(x));
    d.params.set("v", std::move(v));
}

void read_meter(Reader& r, DriveSpec& d) {
    double t0 = r.real("initial time");
    d.params.set("initial time", t0);
    d.params.set("final time", final_time(r, "final time", t0, "initial time"));
    long steps = 1;
    while (r.accept("steps")) steps = read_steps(r);
    d.params.set("steps", steps);
}

using rt::real;

// c0 + c1 x + c2 x^2 + c3 x^3: const, null, unit, time, direct and the polynomials.
class Polynomial final : public Drive {
  public:
    explicit Polynomial(std::array<double, 4> c) : c_(c) {}
    double value(double x) const override { return c_[0] + x * (c_[1] + x * (c_[2] + x * c_[3])); }
    double deriv(double x) const override { return c_[1] + x * (2.0 * c_[2] + 3.0 * x * c_[3]); }

  private:
    std::array<double, 4> c_;
};

DrivePtr polynomial(double c0, double c1 = 0.0, double c2 = 0.0, double c3 = 0.0) {
    return rt::make<Polynomial>(std::array<double, 4>{c0, c1, c2, c3});
}

DrivePtr make_const(const DriveSpec& d, const DriveEnv&) { return polynomial(real(d, "value")); }
DrivePtr make_null(const DriveSpec&, const DriveEnv&) { return polynomial(0.0); }
DrivePtr make_unit(const DriveSpec&, const DriveEnv&) { return polynomial(1.0); }
// `time` and `direct` both return their input (MBDyn's TimeDriveCaller::dGet(dVar) is dVar).
DrivePtr make_identity(const DriveSpec&, const DriveEnv&) { return polynomial(0.0, 1.0); }

DrivePtr make_linear(const DriveSpec& d, const DriveEnv&) {
    return polynomial(real(d, "c0"), real(d, "c1"));
}
DrivePtr make_parabolic(const DriveSpec& d, const DriveEnv&) {
    return polynomial(real(d, "c0"), real(d, "c1"), real(d, "c2"));
}
DrivePtr make_cubic(const DriveSpec& d, const DriveEnv&) {
    return polynomial(real(d, "c0"), real(d, "c1"), real(d, "c2"), real(d, "c3"));
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

DrivePtr make_step(const DriveSpec& d, const DriveEnv&) {
    return rt::make<Step>(real(d, "initial time"), rt::inf, real(d, "step value"),
                          real(d, "initial value"));
}

DrivePtr make_double_step(const DriveSpec& d, const DriveEnv&) {
    return rt::make<Step>(real(d, "initial time"), real(d, "final time"), real(d, "step value"),
                          real(d, "initial value"));
}

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
    RampSegment up{real(d, "slope"), real(d, "initial time"), real(d, "final time")};
    return rt::make<Ramp>(up, RampSegment{}, real(d, "initial value"), env);
}

DrivePtr make_double_ramp(const DriveSpec& d, const DriveEnv& env) {
    RampSegment up{real(d, "ascending slope"), real(d, "ascending initial time"),
                   real(d, "ascending final time")};
    RampSegment down{real(d, "descending slope"), real(d, "descending initial time"),
                     real(d, "descending final time")};
    return rt::make<Ramp>(up, down, real(d, "initial value"), env);
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
    return rt::make<Tanh>(real(d, "initial time"), real(d, "amplitude"), real(d, "slope"),
                          real(d, "initial value"));
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
    return rt::make<Exponential>(real(d, "amplitude"), real(d, "time constant"),
                                 real(d, "initial time"), real(d, "initial value"), env);
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
    return rt::make<PiecewiseLinear>(d.params.get<VecN>("x"), d.params.get<VecN>("v"), env);
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
    return rt::make<Meter>(real(d, "initial time"), real(d, "final time"),
                           d.params.get<long>("steps"), rt::clock(d, env));
}

}  // namespace

MBS_REGISTER_DRIVE_KIND("const", {.read = read_const, .make = make_const});
MBS_REGISTER_DRIVE_KIND("null", {.read = read_no_args, .make = make_null});
MBS_REGISTER_DRIVE_KIND("unit", {.read = read_no_args, .make = make_unit});
MBS_REGISTER_DRIVE_KIND("one", {.read = read_one, .make = make_unit});
MBS_REGISTER_DRIVE_KIND("time", {.read = read_no_args, .make = make_identity});
MBS_REGISTER_DRIVE_KIND("timestep", {.read = read_no_args, .make = make_timestep});
MBS_REGISTER_DRIVE_KIND("direct", {.read = read_no_args, .make = make_identity});
MBS_REGISTER_DRIVE_KIND("linear", {.read = read_linear, .make = make_linear});
MBS_REGISTER_DRIVE_KIND("parabolic", {.read = read_parabolic, .make = make_parabolic});
MBS_REGISTER_DRIVE_KIND("cubic", {.read = read_cubic, .make = make_cubic});
MBS_REGISTER_DRIVE_KIND("step", {.read = read_step, .make = make_step});
MBS_REGISTER_DRIVE_KIND("double step", {.read = read_double_step, .make = make_double_step});
MBS_REGISTER_DRIVE_KIND("ramp", {.read = read_ramp, .make = make_ramp});
MBS_REGISTER_DRIVE_KIND("double ramp", {.read = read_double_ramp, .make = make_double_ramp});
MBS_REGISTER_DRIVE_KIND("tanh", {.read = read_tanh, .make = make_tanh});
MBS_REGISTER_DRIVE_KIND("exponential", {.read = read_exponential, .make = make_exponential});
MBS_REGISTER_DRIVE_KIND("piecewise linear",
                        {.read = read_piecewise_linear, .make = make_piecewise_linear});
MBS_REGISTER_DRIVE_KIND("meter", {.read = read_meter, .make = make_meter});

}  // namespace mbs::drives
