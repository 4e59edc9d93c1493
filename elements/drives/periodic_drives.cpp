// Harmonic drive callers: sine, cosine, fourier series, frequency sweep, periodic
// (docs/deck-language.md section 7).
//
// Typed arguments (DriveSpec::args, described in card order under the names in quotes;
// sub-drives in DriveSpec::children):
//   sine, cosine     HarmonicArgs: t0 "initial time", omega "omega", amplitude "amplitude",
//                    periods "periods", initial "initial value"
//                    sine:   f = initial + A sin(omega (t - t0))        for t > t0
//                    cosine: f = initial + A (1 - cos(omega (t - t0)))  for t > t0
//   fourier series   FourierSeriesArgs: t0 "initial time", omega "omega", "order" (long n, from
//                    the coefficients), coefficients "coefficients" (VecN a0, a1, b1, ..., an,
//                    bn, as written), periods "periods", initial "initial value"
//                    f = initial + a0/2 + sum_k (ak cos(k omega t') + bk sin(k omega t'))
//   frequency sweep  FrequencySweepArgs: t0 "initial time", initial "initial value",
//                    t1 "final time", final_value "final value";
//                    children = {omega(t), amplitude(t)}
//                    f = initial + A(t) sin(omega(t) (t - t0)) on [t0, tf], final after tf
//   periodic         PeriodicArgs: t0 "initial time", period "period"; children = {f}
//                    0 for t < t0, else f(mod(t - t0, T)) (f sees the time since the
//                    start of the current period, as in MBDyn)
//
// `periods` is stored as a double so that every form is a number:
//   forever -> +inf   (an explicit 0 means the same in MBDyn and is stored as +inf too)
//   one     -> 1      sine: half a period 0 -> A -> 0;  cosine: one bump 0 -> 2A -> 0
//   half    -> -1     sine: a quarter period rising to A, then held;
//                     cosine: a smooth 0 -> 2A over pi/omega, then held
//   N > 0            sine stops after N - 1/2 periods, cosine after N periods, at `initial`
//   N < 0            sine holds initial + A after |N| - 3/4 periods,
//                    cosine holds initial + 2A after |N| - 1/2 periods
// Fourier series accept forever, one or N >= 0 (whole periods, then the value at t0).
//
// Runtime of the harmonic drive callers (docs/deck-language.md section 7): sine, cosine, fourier
// series, frequency sweep, periodic, from the typed arguments above, where `periods` is +inf for
// forever, -1 for half, else N.
//
// End of a sine or cosine after N periods (MBDyn's SineDriveCaller / CosineDriveCaller), with
// T = 2 pi / omega:
//   sine   N > 0: t0 + (N - 1/2) T, then `initial`;    N < 0: t0 + (|N| - 3/4) T, then initial + A
//   cosine N > 0: t0 + N T, then `initial`;             N < 0: t0 + (|N| - 1/2) T, then initial +
//   2A
// Derivatives are MBDyn's dGetP: 0 outside the active interval, the mean of the one-sided
// derivatives at its ends (the right one at the run's initial time: rt::Kinks), 0 where the
// value jumps (a fourier series that does not start at 0).
#include <cmath>
#include <numbers>

#include "core/registry.hpp"
#include "elements/drives/drive_util.hpp"
#include "elements/drives/runtime_util.hpp"

namespace mbs::drives {
namespace {

double read_periods(Reader& r, bool allow_half_and_negative) {
    if (r.accept("forever")) return forever;
    if (r.accept("one")) return 1.0;
    if (allow_half_and_negative && r.accept("half")) return -1.0;
    SourceLoc at = r.loc();
    long n = r.integer(allow_half_and_negative ? "number of periods (N, one, half or forever)"
                                               : "number of periods (N, one or forever)");
    if (n < 0 && !allow_half_and_negative)
        r.error_at(at, "the number of periods of a fourier series must not be negative, got " +
                           std::to_string(n));
    return n == 0 ? forever : static_cast<double>(n);
}

// --- typed arguments ---------------------------------------------------------------------------

// sine and cosine.
struct HarmonicArgs final : KindArgs {
    double t0 = 0.0, omega = 1.0, amplitude = 0.0, periods = forever, initial = 0.0;
    void describe(Props& out) const override {
        out.set("initial time", t0);
        out.set("omega", omega);
        out.set("amplitude", amplitude);
        out.set("periods", periods);
        out.set("initial value", initial);
    }
};

struct FourierSeriesArgs final : KindArgs {
    double t0 = 0.0, omega = 1.0;
    VecN coefficients;  // a0, a1, b1, ..., an, bn: 1 + 2 n values
    double periods = forever, initial = 0.0;
    long order() const { return static_cast<long>(coefficients.size() / 2); }
    void describe(Props& out) const override {
        out.set("initial time", t0);
        out.set("omega", omega);
        out.set("order", order());
        out.set("coefficients", coefficients);
        out.set("periods", periods);
        out.set("initial value", initial);
    }
};

struct FrequencySweepArgs final : KindArgs {
    double t0 = 0.0, initial = 0.0, t1 = forever, final_value = 0.0;
    void describe(Props& out) const override {
        out.set("initial time", t0);
        out.set("initial value", initial);
        out.set("final time", t1);
        out.set("final value", final_value);
    }
};

struct PeriodicArgs final : KindArgs {
    double t0 = 0.0, period = 1.0;
    void describe(Props& out) const override {
        out.set("initial time", t0);
        out.set("period", period);
    }
};

// --- readers -----------------------------------------------------------------------------------

void read_sine_cosine(Reader& r, DriveSpec& d) {
    auto& a = emplace_args<HarmonicArgs>(d);
    a.t0 = r.real("initial time");
    a.omega = real_or(r, "omega", 1.0);
    a.amplitude = r.real("amplitude");
    a.periods = read_periods(r, true);
    a.initial = r.real("initial value");
}

void read_fourier_series(Reader& r, DriveSpec& d) {
    auto& a = emplace_args<FourierSeriesArgs>(d);
    a.t0 = r.real("initial time");
    a.omega = real_or(r, "omega", 1.0);
    long n = count_of_items(r, "order of the fourier series", 1, 2);
    VecN& coef = a.coefficients;
    coef.reserve(1 + 2 * n);
    coef.push_back(r.real("coefficient a0"));
    for (long k = 1; k <= n; ++k) {
        coef.push_back(r.real("coefficient a" + std::to_string(k)));
        coef.push_back(r.real("coefficient b" + std::to_string(k)));
    }
    a.periods = read_periods(r, false);
    a.initial = r.real("initial value");
}

void read_frequency_sweep(Reader& r, DriveSpec& d) {
    auto& a = emplace_args<FrequencySweepArgs>(d);
    a.t0 = r.real("initial time");
    d.children.push_back(r.drive("angular frequency drive"));
    d.children.push_back(r.drive("amplitude drive"));
    a.initial = r.real("initial value");
    a.t1 = final_time(r, "final time", a.t0, "initial time");
    a.final_value = r.real("final value");
}

void read_periodic(Reader& r, DriveSpec& d) {
    auto& a = emplace_args<PeriodicArgs>(d);
    a.t0 = r.real("initial time");
    SourceLoc at = r.loc();
    a.period = r.real("period");
    if (a.period <= 0.0) r.error_at(at, "the period must be positive, got " + num(a.period));
    d.children.push_back(r.drive("periodic function"));
}

// The active interval [t0, t_end) of a drive that runs a number of periods and then holds.
struct Window {
    double t0 = 0.0, t_end = rt::inf;
    bool outside(double x) const { return x < t0 || x > t_end; }
    // The derivative at x of a drive flat outside the window whose slope inside is d.
    double slope(double x, double d, const rt::Kinks& k) const {
        if (x == t0) return k.at(x, 0.0, d);
        if (x == t_end) return k.at(x, d, 0.0);
        return d;
    }
};

// sine:   initial + A sin(omega (x - t0))
// cosine: initial + A (1 - cos(omega (x - t0)))
class Harmonic final : public Drive {
  public:
    Harmonic(bool cosine, const HarmonicArgs& a, const DriveEnv& env) : cosine_(cosine), k_(env) {
        w_.t0 = a.t0;
        omega_ = a.omega;
        a_ = a.amplitude;
        initial_ = a.initial;
        final_ = initial_;
        const double n = a.periods;
        const double period = 2.0 * std::numbers::pi / omega_;
        if (n > 0.0 && n != rt::inf) {
            w_.t_end = w_.t0 + period * (cosine ? n : n - 0.5);
        } else if (n < 0.0) {
            w_.t_end = w_.t0 + period * (cosine ? -n - 0.5 : -n - 0.75);
            final_ = initial_ + (cosine ? 2.0 : 1.0) * a_;
        }
    }
    double value(double x) const override {
        if (x <= w_.t0) return initial_;
        if (x >= w_.t_end) return final_;
        double th = omega_ * (x - w_.t0);
        return initial_ + a_ * (cosine_ ? 1.0 - std::cos(th) : std::sin(th));
    }
    double deriv(double x) const override {
        if (w_.outside(x)) return 0.0;
        double th = omega_ * (x - w_.t0);
        return w_.slope(x, a_ * omega_ * (cosine_ ? std::sin(th) : std::cos(th)), k_);
    }

  private:
    bool cosine_;
    rt::Kinks k_;
    Window w_;
    double omega_, a_, initial_, final_;
};

DrivePtr make_sine(const DriveSpec& d, const DriveEnv& env) {
    return rt::make<Harmonic>(false, d.args_as<HarmonicArgs>(), env);
}
DrivePtr make_cosine(const DriveSpec& d, const DriveEnv& env) {
    return rt::make<Harmonic>(true, d.args_as<HarmonicArgs>(), env);
}

// initial + a0/2 + sum_k (a_k cos(k omega t') + b_k sin(k omega t')), t' = x - t0, on
// [t0, t0 + N T) (forever: no end); `initial` elsewhere.
class FourierSeries final : public Drive {
  public:
    FourierSeries(const FourierSeriesArgs& a, const DriveEnv& env)
        : coef_(a.coefficients), k_(env) {
        w_.t0 = a.t0;
        omega_ = a.omega;
        initial_ = a.initial;
        const double n = a.periods;
        if (n != rt::inf) w_.t_end = w_.t0 + n * 2.0 * std::numbers::pi / omega_;
        jump_ = coef_[0] / 2.0;
        for (std::size_t i = 1; i < coef_.size(); i += 2) jump_ += coef_[i];
    }
    double value(double x) const override {
        if (x < w_.t0 || x >= w_.t_end) return initial_;
        const double t = x - w_.t0;
        double v = initial_ + coef_[0] / 2.0;
        for (std::size_t i = 1, k = 1; i + 1 < coef_.size(); i += 2, ++k)
            v += coef_[i] * std::cos(k * omega_ * t) + coef_[i + 1] * std::sin(k * omega_ * t);
        return v;
    }
    double deriv(double x) const override {
        if (w_.outside(x)) return 0.0;
        if ((x == w_.t0 || x == w_.t_end) && jump_ != 0.0) return 0.0;
        const double t = x - w_.t0;
        double d = 0.0;
        for (std::size_t i = 1, k = 1; i + 1 < coef_.size(); i += 2, ++k) {
            const double wk = k * omega_;
            d += wk * (-coef_[i] * std::sin(wk * t) + coef_[i + 1] * std::cos(wk * t));
        }
        return w_.slope(x, d, k_);
    }

  private:
    VecN coef_;  // a0, a1, b1, ..., an, bn
    rt::Kinks k_;
    Window w_;
    double omega_, initial_;
    double jump_;  // the value's jump at t0: a0/2 + sum a_k
};

DrivePtr make_fourier_series(const DriveSpec& d, const DriveEnv& env) {
    return rt::make<FourierSeries>(d.args_as<FourierSeriesArgs>(), env);
}

// initial + A(x) sin(omega(x) (x - t0)) on (t0, tf), `final value` after tf; tf == t0 means
// no end (MBDyn).
class FrequencySweep final : public Drive {
  public:
    FrequencySweep(const FrequencySweepArgs& a, const DriveEnv& env, DrivePtr omega,
                   DrivePtr amplitude)
        : omega_(std::move(omega)), amp_(std::move(amplitude)), k_(env) {
        w_.t0 = a.t0;
        initial_ = a.initial;
        final_ = a.final_value;
        const double tf = a.t1;
        if (tf > w_.t0) w_.t_end = tf;
    }
    double value(double x) const override {
        if (x <= w_.t0) return initial_;
        if (x >= w_.t_end) return final_;
        return initial_ + amp_->value(x) * std::sin(omega_->value(x) * (x - w_.t0));
    }
    double deriv(double x) const override {
        if (w_.outside(x)) return 0.0;
        const double t = x - w_.t0;
        const double a = amp_->value(x), w = omega_->value(x);
        double d =
            amp_->deriv(x) * std::sin(w * t) + a * std::cos(w * t) * (omega_->deriv(x) * t + w);
        return w_.slope(x, d, k_);
    }
    bool differentiable() const override {
        return omega_->differentiable() && amp_->differentiable();
    }
    void after_step() const override {
        omega_->after_step();
        amp_->after_step();
    }

  private:
    DrivePtr omega_, amp_;
    rt::Kinks k_;
    Window w_;
    double initial_, final_;
};

DrivePtr make_frequency_sweep(const DriveSpec& d, const DriveEnv& env) {
    return rt::make<FrequencySweep>(d.args_as<FrequencySweepArgs>(), env,
                                    make_drive(*d.children.at(0), env),
                                    make_drive(*d.children.at(1), env));
}

// 0 before t0, then f(t') with t' = (x - t0) mod T: the function sees the time since the start
// of the current period (MBDyn's PeriodicDriveCaller), not the time (DriveEnv::time_input).
class Periodic final : public Drive {
  public:
    Periodic(double t0, double period, DrivePtr f, bool time_input)
        : t0_(t0), period_(period), f_(std::move(f)), time_input_(time_input) {}
    double value(double x) const override {
        if (x < t0_) return 0.0;
        if (!time_input_) return f_->value(local(x));
        const rt::TimeScope at(x);
        return f_->value(local(x));
    }
    // The function is not fed the time: its own time derivative (a string drive reading Time)
    // adds to d/dx when x is the time, else it is deriv_time.
    double deriv(double x) const override {
        if (x < t0_) return 0.0;
        if (!time_input_) return f_->deriv(local(x));
        const rt::TimeScope at(x);
        return f_->deriv(local(x)) + f_->deriv_time(local(x));
    }
    double deriv_time(double x) const override {
        return x < t0_ || time_input_ ? 0.0 : f_->deriv_time(local(x));
    }
    bool differentiable() const override { return f_->differentiable(); }
    void after_step() const override { f_->after_step(); }

  private:
    double local(double x) const {
        const double t = x - t0_;
        return t - std::floor(t / period_) * period_;
    }

    double t0_, period_;
    DrivePtr f_;
    bool time_input_;
};

DrivePtr make_periodic(const DriveSpec& d, const DriveEnv& env) {
    DriveEnv local = env;
    local.time_input = false;
    const auto& a = d.args_as<PeriodicArgs>();
    return rt::make<Periodic>(a.t0, a.period, make_drive(*d.children.at(0), local), env.time_input);
}

}  // namespace

MBS_REGISTER_DRIVE_KIND("sine", {.read = read_sine_cosine, .make = make_sine});
MBS_REGISTER_DRIVE_KIND("cosine", {.read = read_sine_cosine, .make = make_cosine});
MBS_REGISTER_DRIVE_KIND("fourier series",
                        {.read = read_fourier_series, .make = make_fourier_series});
MBS_REGISTER_DRIVE_KIND("frequency sweep",
                        {.read = read_frequency_sweep, .make = make_frequency_sweep});
MBS_REGISTER_DRIVE_KIND("periodic", {.read = read_periodic, .make = make_periodic});

}  // namespace mbs::drives
