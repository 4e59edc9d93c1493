// Tabulated, sampled and stepping drive callers: piecewise linear, random, meter, closest next,
// sample and hold, discrete filter (docs/deck-language.md section 7).
//
// Parameters (DriveSpec::params, in card order; sub-drives in DriveSpec::children):
//   piecewise linear  "points" (long n >= 2) "x" (VecN, strictly increasing) "v" (VecN);
//                     linear in between, end values held outside [x1, xn]
//   random            "amplitude" "mean" "initial time" "final time" "steps" (long, default 1)
//                     ["seed" (long, or the string "time")]
//   meter             "initial time" "final time" "steps" (long, default 1): 1 every n steps
//   closest next      "initial time" "final time"; children = {increment}
//   sample and hold   "initial value" (default 0); children = {function, trigger}
//   discrete filter   "a" (VecN a1..a_na) "b0" "b" (VecN b1..b_nb); children = {input}
//                     y_k = sum a_i y_{k-i} + b0 u_k + sum b_i u_{k-i} (fixed time step only)
#include "core/registry.hpp"
#include "elements/drives/drive_util.hpp"

namespace mbs::drives {
namespace {

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

// `steps, n`: MBDyn silently falls back to 1 for n <= 0; a clear error is better.
long read_steps(Reader& r) { return count_at_least(r, "number of steps", 1); }

void read_random(Reader& r, DriveSpec& d) {
    d.params.set("amplitude", real_or(r, "amplitude", 1.0));
    d.params.set("mean", r.real("mean value"));
    double t0 = r.real("initial time");
    d.params.set("initial time", t0);
    d.params.set("final time", final_time(r, "final time", t0, "initial time"));
    long steps = 1;
    PropValue seed;
    bool has_seed = false;
    for (;;) {
        if (r.accept("steps")) {
            steps = read_steps(r);
        } else if (r.accept("seed")) {
            has_seed = true;
            if (r.accept("time"))
                seed = std::string("time");
            else
                seed = r.integer("random seed");
        } else {
            break;
        }
    }
    d.params.set("steps", steps);
    if (has_seed) d.params.set("seed", seed);
}

void read_meter(Reader& r, DriveSpec& d) {
    double t0 = r.real("initial time");
    d.params.set("initial time", t0);
    d.params.set("final time", final_time(r, "final time", t0, "initial time"));
    long steps = 1;
    while (r.accept("steps")) steps = read_steps(r);
    d.params.set("steps", steps);
}

void read_closest_next(Reader& r, DriveSpec& d) {
    double t0 = r.real("initial time");
    d.params.set("initial time", t0);
    d.params.set("final time", final_time(r, "final time", t0, "initial time"));
    d.children.push_back(r.drive("increment drive"));
}

void read_sample_and_hold(Reader& r, DriveSpec& d) {
    d.children.push_back(r.drive("sampled function"));
    d.children.push_back(r.drive("trigger drive"));
    double v0 = 0.0;
    if (r.accept("initial value")) v0 = r.real("initial value");
    d.params.set("initial value", v0);
}

void read_discrete_filter(Reader& r, DriveSpec& d) {
    long na = count_at_least(r, "number of denominator coefficients na", 0);
    VecN a;
    for (long i = 1; i <= na; ++i) a.push_back(r.real("coefficient a" + std::to_string(i)));
    d.params.set("a", std::move(a));
    d.params.set("b0", r.real("coefficient b0"));
    long nb = count_at_least(r, "number of numerator coefficients nb", 0);
    VecN b;
    for (long i = 1; i <= nb; ++i) b.push_back(r.real("coefficient b" + std::to_string(i)));
    d.params.set("b", std::move(b));
    d.children.push_back(r.drive("filter input drive"));
}

}  // namespace

MBS_REGISTER_DRIVE("piecewise linear", read_piecewise_linear);
MBS_REGISTER_DRIVE("random", read_random);
MBS_REGISTER_DRIVE("meter", read_meter);
MBS_REGISTER_DRIVE("closest next", read_closest_next);
MBS_REGISTER_DRIVE("sample and hold", read_sample_and_hold);
MBS_REGISTER_DRIVE("discrete filter", read_discrete_filter);

}  // namespace mbs::drives
