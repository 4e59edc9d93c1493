// Harmonic drive callers: sine, cosine, fourier series, frequency sweep, periodic
// (docs/deck-language.md section 7).
//
// Parameters (DriveSpec::params, in card order; sub-drives in DriveSpec::children):
//   sine, cosine     "initial time" "omega" "amplitude" "periods" "initial value"
//                    sine:   f = initial + A sin(omega (t - t0))        for t > t0
//                    cosine: f = initial + A (1 - cos(omega (t - t0)))  for t > t0
//   fourier series   "initial time" "omega" "order" (long n) "coefficients" (VecN a0, a1, b1,
//                    ..., an, bn, as written) "periods" "initial value"
//                    f = initial + a0/2 + sum_k (ak cos(k omega t') + bk sin(k omega t'))
//   frequency sweep  "initial time" "initial value" "final time" "final value";
//                    children = {omega(t), amplitude(t)}
//                    f = initial + A(t) sin(omega(t) (t - t0)) on [t0, tf], final after tf
//   periodic         "initial time" "period"; children = {f}
//                    0 for t < t0, else f(mod(t - t0, T)) (f sees the time since the
//                    start of the current period, as in MBDyn)
//
// "periods" is stored as a double so that every form is a number:
//   forever -> +inf   (an explicit 0 means the same in MBDyn and is stored as +inf too)
//   one     -> 1      sine: half a period 0 -> A -> 0;  cosine: one bump 0 -> 2A -> 0
//   half    -> -1     sine: a quarter period rising to A, then held;
//                     cosine: a smooth 0 -> 2A over pi/omega, then held
//   N > 0            sine stops after N - 1/2 periods, cosine after N periods, at `initial`
//   N < 0            sine holds initial + A after |N| - 3/4 periods,
//                    cosine holds initial + 2A after |N| - 1/2 periods
// Fourier series accept forever, one or N >= 0 (whole periods, then the value at t0).
#include "core/registry.hpp"
#include "elements/drives/drive_util.hpp"

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

void read_sine_cosine(Reader& r, DriveSpec& d) {
    d.params.set("initial time", r.real("initial time"));
    d.params.set("omega", real_or(r, "omega", 1.0));
    d.params.set("amplitude", r.real("amplitude"));
    d.params.set("periods", read_periods(r, true));
    d.params.set("initial value", r.real("initial value"));
}

void read_fourier_series(Reader& r, DriveSpec& d) {
    d.params.set("initial time", r.real("initial time"));
    d.params.set("omega", real_or(r, "omega", 1.0));
    long n = count_of_items(r, "order of the fourier series", 1, 2);
    d.params.set("order", n);
    VecN coef;
    coef.reserve(1 + 2 * n);
    coef.push_back(r.real("coefficient a0"));
    for (long k = 1; k <= n; ++k) {
        coef.push_back(r.real("coefficient a" + std::to_string(k)));
        coef.push_back(r.real("coefficient b" + std::to_string(k)));
    }
    d.params.set("coefficients", std::move(coef));
    d.params.set("periods", read_periods(r, false));
    d.params.set("initial value", r.real("initial value"));
}

void read_frequency_sweep(Reader& r, DriveSpec& d) {
    double t0 = r.real("initial time");
    d.params.set("initial time", t0);
    d.children.push_back(r.drive("angular frequency drive"));
    d.children.push_back(r.drive("amplitude drive"));
    d.params.set("initial value", r.real("initial value"));
    d.params.set("final time", final_time(r, "final time", t0, "initial time"));
    d.params.set("final value", r.real("final value"));
}

void read_periodic(Reader& r, DriveSpec& d) {
    d.params.set("initial time", r.real("initial time"));
    SourceLoc at = r.loc();
    double period = r.real("period");
    if (period <= 0.0) r.error_at(at, "the period must be positive, got " + num(period));
    d.params.set("period", period);
    d.children.push_back(r.drive("periodic function"));
}

}  // namespace

MBS_REGISTER_DRIVE("sine", read_sine_cosine);
MBS_REGISTER_DRIVE("cosine", read_sine_cosine);
MBS_REGISTER_DRIVE("fourier series", read_fourier_series);
MBS_REGISTER_DRIVE("frequency sweep", read_frequency_sweep);
MBS_REGISTER_DRIVE("periodic", read_periodic);

}  // namespace mbs::drives
