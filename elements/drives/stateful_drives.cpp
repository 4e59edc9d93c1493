// Sampled and stepping drive callers with a state: random, closest next, sample and hold,
// discrete filter (docs/deck-language.md section 7).
//
// Arguments (DriveSpec::args; the keys of describe() in quotes, in card order; sub-drives in
// DriveSpec::children):
//   random            RandomArgs: amplitude "amplitude", mean "mean", t0 "initial time",
//                     tf "final time", steps "steps" (default 1), [seed "seed" (a number, or
//                     the string "time" for seed_from_time)]
//   closest next      ClosestNextArgs: t0 "initial time", tf "final time"; children = {increment}
//   sample and hold   SampleAndHoldArgs: initial "initial value" (default 0);
//                     children = {function, trigger}
//   discrete filter   DiscreteFilterArgs: a "a" (a1..a_na), b0 "b0", b "b" (b1..b_nb);
//                     children = {input}
//                     y_k = sum a_i y_{k-i} + b0 u_k + sum b_i u_{k-i} (fixed time step only)
//
// Runtime of the drive callers with memory between steps (docs/deck-language.md 7; readers
// above): random, closest next, sample and hold, discrete filter.
//
// Their state advances once per time step, as MBDyn's DriveHandler does when it moves to a new
// step (SetTime: MyRand::Set, MyClosestNext::Set, MySH::Set, MyDiscreteFilter::Set). Here the
// advance happens lazily at the first evaluation in a step: the drive compares the clock's
// step counter with the last step it has seen (Sync below), so a drive shared by several
// elements, or used by one that never calls after_step(), still advances exactly once per step,
// and a step retried with a smaller dt (same counter) does not advance it twice. Time-dependent
// parts are evaluated at the new step's time; state-dependent ones (a `node` drive inside a
// sample and hold) see the state of that first evaluation (the predictor).
//
//   random           mean + A (2 u - 1) for t0 <= t <= tf (mean outside), u uniform in [0, 1)
//                    from a counter-based generator (splitmix64 of seed and sample number): a
//                    new sample every `steps` steps; reproducible for a given seed. `seed, time`
//                    seeds from the wall clock. Without `seed` the seed is 0 (MBDyn seeds from
//                    the wall clock by default; a reproducible default is preferred here).
//                    Mean `mean`, variance A^2 / 3.
//   closest next     1 when the clock time has reached the next scheduled instant (starting at
//                    t0; then advanced by the increment drive, at the step after it was
//                    reached, until it lies ahead of the time), 0 otherwise and outside
//                    [t0, tf]: "the first step at or after each multiple of the increment".
//   sample and hold  the held value: f sampled at each step whose trigger is non-zero;
//                    `initial value` before the first sample.
//   discrete filter  y_k = sum_i a_i y_(k-i) + b0 u_k + sum_i b_i u_(k-i), u_k the input drive
//                    evaluated now, k the step counter (fixed time step only, as in MBDyn);
//                    zero history before the first step. MBDyn's shift of its history vectors
//                    overwrites them (x[i] = x[i - 1] for ascending i); the difference equation
//                    of its manual is implemented instead.
// None is differentiable (deriv() = 0).
#include <array>
#include <cstdint>
#include <ctime>
#include <vector>

#include "core/registry.hpp"
#include "elements/drives/drive_util.hpp"
#include "elements/drives/runtime_util.hpp"

namespace mbs::drives {
namespace {

struct RandomArgs final : KindArgs {
    double amplitude = 1.0, mean = 0.0, t0 = 0.0, tf = forever;
    long steps = 1;               // a new sample every `steps` steps
    bool has_seed = false;        // `seed` given
    bool seed_from_time = false;  // `seed, time`: from the wall clock
    long seed = 0;                // `seed, n`
    void describe(Props& out) const override {
        out.set("amplitude", amplitude);
        out.set("mean", mean);
        out.set("initial time", t0);
        out.set("final time", tf);
        out.set("steps", steps);
        if (has_seed) out.set("seed", seed_from_time ? PropValue(std::string("time")) : seed);
    }
};

void read_random(Reader& r, DriveSpec& d) {
    auto& a = emplace_args<RandomArgs>(d);
    a.amplitude = real_or(r, "amplitude", 1.0);
    a.mean = r.real("mean value");
    a.t0 = r.real("initial time");
    a.tf = final_time(r, "final time", a.t0, "initial time");
    for (;;) {
        if (r.accept("steps")) {
            a.steps = read_steps(r);
        } else if (r.accept("seed")) {
            a.has_seed = true;
            a.seed_from_time = r.accept("time");
            a.seed = a.seed_from_time ? 0 : r.integer("random seed");
        } else {
            break;
        }
    }
}

struct ClosestNextArgs final : KindArgs {
    double t0 = 0.0, tf = forever;
    void describe(Props& out) const override {
        out.set("initial time", t0);
        out.set("final time", tf);
    }
};

void read_closest_next(Reader& r, DriveSpec& d) {
    auto& a = emplace_args<ClosestNextArgs>(d);
    a.t0 = r.real("initial time");
    a.tf = final_time(r, "final time", a.t0, "initial time");
    d.children.push_back(r.drive("increment drive"));
}

struct SampleAndHoldArgs final : KindArgs {
    double initial = 0.0;  // the value before the first sample
    void describe(Props& out) const override { out.set("initial value", initial); }
};

void read_sample_and_hold(Reader& r, DriveSpec& d) {
    auto& a = emplace_args<SampleAndHoldArgs>(d);
    d.children.push_back(r.drive("sampled function"));
    d.children.push_back(r.drive("trigger drive"));
    if (r.accept("initial value")) a.initial = r.real("initial value");
}

struct DiscreteFilterArgs final : KindArgs {
    VecN a;  // a1..a_na
    double b0 = 0.0;
    VecN b;  // b1..b_nb
    void describe(Props& out) const override {
        out.set("a", a);
        out.set("b0", b0);
        out.set("b", b);
    }
};

void read_discrete_filter(Reader& r, DriveSpec& d) {
    auto& f = emplace_args<DiscreteFilterArgs>(d);
    long na = count_at_least(r, "number of denominator coefficients na", 0);
    for (long i = 1; i <= na; ++i) f.a.push_back(r.real("coefficient a" + std::to_string(i)));
    f.b0 = r.real("coefficient b0");
    long nb = count_at_least(r, "number of numerator coefficients nb", 0);
    for (long i = 1; i <= nb; ++i) f.b.push_back(r.real("coefficient b" + std::to_string(i)));
    d.children.push_back(r.drive("filter input drive"));
}

// Once-per-step advance (see the file comment).
class Sync {
  public:
    explicit Sync(const SimClock& c) : clock_(&c) {}
    // True (once) when the clock has moved to a step not seen yet.
    bool new_step() const {
        if (seen_ == clock_->step) return false;
        seen_ = clock_->step;
        return true;
    }
    const SimClock& clock() const { return *clock_; }

  private:
    const SimClock* clock_;
    mutable long seen_ = -1;
};

class Stateful : public Drive {
  public:
    explicit Stateful(const SimClock& c) : sync_(c) {}
    double deriv(double) const override { return 0.0; }
    bool differentiable() const override { return false; }

  protected:
    Sync sync_;
};

// splitmix64 (Steele, Lea, Flood 2014): a bijective 64-bit mix, good enough for test signals.
std::uint64_t splitmix64(std::uint64_t z) {
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

class Random final : public Stateful {
  public:
    Random(const RandomArgs& a, std::uint64_t seed, const SimClock& c)
        : Stateful(c),
          seed_(seed),
          steps_(a.steps),
          amp_(a.amplitude),
          mean_(a.mean),
          t0_(a.t0),
          tf_(a.tf) {}
    double value(double x) const override {
        if (sync_.new_step()) {
            if (count_ % steps_ == 0) u_ = sample(count_ / steps_);
            ++count_;
        }
        if (x < t0_ || x > tf_) return mean_;
        return mean_ + amp_ * (2.0 * u_ - 1.0);
    }
    // Uniform in [0, 1): the top 53 bits of the mix of (seed, n).
    double sample(long n) const {
        std::uint64_t z = splitmix64(seed_ ^ splitmix64(static_cast<std::uint64_t>(n)));
        return static_cast<double>(z >> 11) * 0x1.0p-53;
    }

  private:
    std::uint64_t seed_;
    long steps_;
    double amp_, mean_, t0_, tf_;
    mutable long count_ = 0;
    mutable double u_ = 0.5;
};

DrivePtr make_random(const DriveSpec& d, const DriveEnv& env) {
    const auto& a = d.args_as<RandomArgs>();
    std::uint64_t seed = 0;
    if (a.has_seed)
        seed = a.seed_from_time ? static_cast<std::uint64_t>(std::time(nullptr))
                                : static_cast<std::uint64_t>(a.seed);
    return rt::make<Random>(a, seed, rt::clock(d, env));
}

class ClosestNext final : public Stateful {
  public:
    ClosestNext(const ClosestNextArgs& a, DrivePtr inc, const SimClock& c)
        : Stateful(c), inc_(std::move(inc)), t0_(a.t0), tf_(a.tf), next_(a.t0) {}
    double value(double x) const override {
        const double t = sync_.clock().time;
        if (sync_.new_step()) {
            if (must_set_) {
                // A non-positive increment would never move past t: stop at the first one.
                do {
                    double dt = inc_->value(t);
                    if (!(dt > 0.0)) {
                        next_ = rt::inf;
                        break;
                    }
                    next_ += dt;
                } while (t >= next_);
                must_set_ = false;
            } else if (t >= next_) {
                must_set_ = true;
            }
        }
        if (x < t0_ || x > tf_) return 0.0;
        return t >= next_ ? 1.0 : 0.0;
    }
    void after_step() const override { inc_->after_step(); }

  private:
    DrivePtr inc_;
    double t0_, tf_;
    mutable double next_;
    mutable bool must_set_ = false;
};

DrivePtr make_closest_next(const DriveSpec& d, const DriveEnv& env) {
    return rt::make<ClosestNext>(d.args_as<ClosestNextArgs>(), make_drive(*d.children.at(0), env),
                                 rt::clock(d, env));
}

class SampleAndHold final : public Stateful {
  public:
    SampleAndHold(DrivePtr f, DrivePtr trigger, double v0, const SimClock& c)
        : Stateful(c), f_(std::move(f)), trigger_(std::move(trigger)), held_(v0) {}
    double value(double x) const override {
        if (sync_.new_step() && trigger_->value(x) != 0.0) held_ = f_->value(x);
        return held_;
    }
    void after_step() const override {
        f_->after_step();
        trigger_->after_step();
    }

  private:
    DrivePtr f_, trigger_;
    mutable double held_;
};

DrivePtr make_sample_and_hold(const DriveSpec& d, const DriveEnv& env) {
    return rt::make<SampleAndHold>(make_drive(*d.children.at(0), env),
                                   make_drive(*d.children.at(1), env),
                                   d.args_as<SampleAndHoldArgs>().initial, rt::clock(d, env));
}

class DiscreteFilter final : public Stateful {
  public:
    DiscreteFilter(const DiscreteFilterArgs& f, DrivePtr input, const SimClock& c)
        : Stateful(c),
          in_(std::move(input)),
          a_(f.a),
          b_(f.b),
          b0_(f.b0),
          y_(a_.size(), 0.0),
          u_(b_.size(), 0.0) {}
    double value(double x) const override {
        if (sync_.new_step() && started_) {
            // The last evaluation of the previous step (its converged state) enters the history.
            shift(y_, last_y_);
            shift(u_, last_u_);
        }
        started_ = true;
        last_u_ = in_->value(x);
        double y = b0_ * last_u_;
        for (std::size_t i = 0; i < a_.size(); ++i) y += a_[i] * y_[i];
        for (std::size_t i = 0; i < b_.size(); ++i) y += b_[i] * u_[i];
        return last_y_ = y;
    }
    void after_step() const override { in_->after_step(); }

  private:
    // h = (v, h_0, ..., h_(n-2)): newest first. Set-up sized, no allocation.
    static void shift(std::vector<double>& h, double v) {
        for (std::size_t i = h.size(); i-- > 1;) h[i] = h[i - 1];
        if (!h.empty()) h[0] = v;
    }

    DrivePtr in_;
    VecN a_, b_;
    double b0_;
    mutable std::vector<double> y_, u_;
    mutable double last_y_ = 0.0, last_u_ = 0.0;
    mutable bool started_ = false;
};

DrivePtr make_discrete_filter(const DriveSpec& d, const DriveEnv& env) {
    return rt::make<DiscreteFilter>(d.args_as<DiscreteFilterArgs>(),
                                    make_drive(*d.children.at(0), env), rt::clock(d, env));
}

}  // namespace

MBS_REGISTER_DRIVE_KIND("random", {.read = read_random, .make = make_random});
MBS_REGISTER_DRIVE_KIND("closest next", {.read = read_closest_next, .make = make_closest_next});
MBS_REGISTER_DRIVE_KIND("sample and hold",
                        {.read = read_sample_and_hold, .make = make_sample_and_hold});
MBS_REGISTER_DRIVE_KIND("discrete filter",
                        {.read = read_discrete_filter, .make = make_discrete_filter});

}  // namespace mbs::drives
