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
#include "core/registry.hpp"
#include "elements/drives/drive_util.hpp"

namespace mbs::drives {
namespace {

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

}  // namespace

MBS_REGISTER_DRIVE("step", read_step);
MBS_REGISTER_DRIVE("double step", read_double_step);
MBS_REGISTER_DRIVE("ramp", read_ramp);
MBS_REGISTER_DRIVE("double ramp", read_double_ramp);
MBS_REGISTER_DRIVE("tanh", read_tanh);
MBS_REGISTER_DRIVE("exponential", read_exponential);

}  // namespace mbs::drives
