// Runtime of the harmonic drive callers (docs/deck-language.md section 7): sine, cosine, fourier
// series, frequency sweep, periodic. Parameter names are those of periodic_drives.cpp, where
// "periods" is +inf for forever, -1 for half, else N.
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

#include "elements/drives/runtime_util.hpp"

namespace mbs::drives {
namespace {

using rt::real;

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
    Harmonic(bool cosine, const DriveSpec& d, const DriveEnv& env) : cosine_(cosine), k_(env) {
        w_.t0 = real(d, "initial time");
        omega_ = real(d, "omega");
        a_ = real(d, "amplitude");
        initial_ = real(d, "initial value");
        final_ = initial_;
        const double n = real(d, "periods");
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
    return rt::make<Harmonic>(false, d, env);
}
DrivePtr make_cosine(const DriveSpec& d, const DriveEnv& env) {
    return rt::make<Harmonic>(true, d, env);
}

// initial + a0/2 + sum_k (a_k cos(k omega t') + b_k sin(k omega t')), t' = x - t0, on
// [t0, t0 + N T) (forever: no end); `initial` elsewhere.
class FourierSeries final : public Drive {
  public:
    FourierSeries(const DriveSpec& d, const DriveEnv& env)
        : coef_(d.params.get<VecN>("coefficients")), k_(env) {
        w_.t0 = real(d, "initial time");
        omega_ = real(d, "omega");
        initial_ = real(d, "initial value");
        const double n = real(d, "periods");
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
    return rt::make<FourierSeries>(d, env);
}

// initial + A(x) sin(omega(x) (x - t0)) on (t0, tf), `final value` after tf; tf == t0 means
// no end (MBDyn).
class FrequencySweep final : public Drive {
  public:
    FrequencySweep(const DriveSpec& d, const DriveEnv& env, DrivePtr omega, DrivePtr amplitude)
        : omega_(std::move(omega)), amp_(std::move(amplitude)), k_(env) {
        w_.t0 = real(d, "initial time");
        initial_ = real(d, "initial value");
        final_ = real(d, "final value");
        const double tf = real(d, "final time");
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
    return rt::make<FrequencySweep>(d, env, make_drive(*d.children.at(0), env),
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
    return rt::make<Periodic>(real(d, "initial time"), real(d, "period"),
                              make_drive(*d.children.at(0), local), env.time_input);
}

}  // namespace

MBS_REGISTER_DRIVE_RUNTIME("sine", make_sine);
MBS_REGISTER_DRIVE_RUNTIME("cosine", make_cosine);
MBS_REGISTER_DRIVE_RUNTIME("fourier series", make_fourier_series);
MBS_REGISTER_DRIVE_RUNTIME("frequency sweep", make_frequency_sweep);
MBS_REGISTER_DRIVE_RUNTIME("periodic", make_periodic);

}  // namespace mbs::drives
