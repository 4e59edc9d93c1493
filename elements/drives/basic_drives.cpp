// Constant, identity and polynomial drive callers: const, null, unit (one), time, timestep,
// direct, linear, parabolic, cubic (docs/deck-language.md section 7).
//
// Parameters (DriveSpec::params, in card order):
//   const                 "value"
//   null unit time timestep direct   (none)
//   linear                "c0" "c1"            f = c0 + c1 t
//   parabolic             "c0" "c1" "c2"       f = c0 + c1 t + c2 t^2
//   cubic                 "c0" "c1" "c2" "c3"  f = c0 + c1 t + c2 t^2 + c3 t^3
#include "core/registry.hpp"

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

}  // namespace

MBS_REGISTER_DRIVE("const", read_const);
MBS_REGISTER_DRIVE("null", read_no_args);
MBS_REGISTER_DRIVE("unit", read_no_args);
MBS_REGISTER_DRIVE("one", read_one);
MBS_REGISTER_DRIVE("time", read_no_args);
MBS_REGISTER_DRIVE("timestep", read_no_args);
MBS_REGISTER_DRIVE("direct", read_no_args);
MBS_REGISTER_DRIVE("linear", read_linear);
MBS_REGISTER_DRIVE("parabolic", read_parabolic);
MBS_REGISTER_DRIVE("cubic", read_cubic);

}  // namespace mbs::drives
