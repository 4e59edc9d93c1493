// Scalar functions f(x) (MBDyn's ScalarFunctionsImpl.cc): the readers of the card
// `scalar function: "name", <type>, args;` (docs/deck-language.md 1.5), registered as drives named
// "scalar function <type>", and the `scalar function, "name"` drive caller that evaluates one
// at its input (time unless fed otherwise).
//
// Parameters (DriveSpec::params, in card order):
//   const        "value"
//   exp          "base" "coefficient" "multiplier"     f = m base^(c x)
//   log          "base" "coefficient" "multiplier"     f = m log_base(c x)
//                (base defaults to e; MBDyn also reads base 1 as e; coefficient != 0)
//   pow          "exponent"                            f = x^p
//   linear       "x1" "y1" "x2" "y2"                   the line through two points
//   cubic spline "do not extrapolate" "bailout" (bools) "x" "y" (VecN, >= 3 points)
//   multilinear  "do not extrapolate" "bailout" "x" "y" (VecN, >= 2 points)
//                x strictly increasing; the point list may end with the keyword `end`
//   chebychev    "lower bound" "upper bound" "do not extrapolate" "coefficients" (VecN)
//   sin, cos     "amplitude" "frequency" "phase"       f = A sin(w x + phi)
//   sum sub mul div   "f1" "f2": names of two scalar functions (f1 op f2)
// A name may also carry an inline definition (see read_scalar_function_ref), stored as
// "f1 definition" / "f2 definition". The drive caller stores "function" likewise.
#include <cmath>

#include "core/registry.hpp"
#include "elements/drives/drive_util.hpp"

namespace mbs::drives {
namespace {

void read_sf_const(Reader& r, DriveSpec& d) { d.params.set("value", r.real("constant value")); }

// [base, b,] [coefficient, c,] m
void read_exp_log(Reader& r, DriveSpec& d) {
    double base = std::exp(1.0);
    if (r.accept("base")) {
        SourceLoc at = r.loc();
        double b = r.real("base");
        if (b <= 0.0) r.error_at(at, "the base must be positive, got " + num(b));
        if (b != 1.0) base = b;
    }
    double coef = 1.0;
    if (r.accept("coefficient")) {
        SourceLoc at = r.loc();
        coef = r.real("coefficient");
        if (coef == 0.0) r.error_at(at, "the coefficient must not be zero");
    }
    d.params.set("base", base);
    d.params.set("coefficient", coef);
    d.params.set("multiplier", r.real("multiplier"));
}

void read_sf_pow(Reader& r, DriveSpec& d) { d.params.set("exponent", r.real("exponent")); }

void read_sf_linear(Reader& r, DriveSpec& d) {
    double x1 = r.real("x1");
    d.params.set("x1", x1);
    d.params.set("y1", r.real("y1"));
    SourceLoc at = r.loc();
    double x2 = r.real("x2");
    if (x2 == x1) r.error_at(at, "the two abscissae of a linear scalar function must differ");
    d.params.set("x2", x2);
    d.params.set("y2", r.real("y2"));
}

void read_extrapolation_flags(Reader& r, DriveSpec& d) {
    bool no_extrapolation = r.accept("do not extrapolate");
    bool bailout = no_extrapolation && r.accept("bailout");
    d.params.set("do not extrapolate", no_extrapolation);
    d.params.set("bailout", bailout);
}

// At least `min_points` (x, y) pairs, then more until `end`, the end of the card, or a keyword.
void read_points(Reader& r, DriveSpec& d, int min_points) {
    VecN x, y;
    for (int i = 0;; ++i) {
        if (i >= min_points) {
            if (r.accept("end") || !next_is_value(r)) break;
        }
        SourceLoc at = r.loc();
        double xi = r.real("abscissa x" + std::to_string(i + 1));
        if (!x.empty() && xi <= x.back())
            r.error_at(at, "abscissae must be strictly increasing: x" + std::to_string(i + 1) +
                               " = " + num(xi) + " is not greater than x" + std::to_string(i) +
                               " = " + num(x.back()));
        x.push_back(xi);
        y.push_back(r.real("ordinate y" + std::to_string(i + 1)));
    }
    d.params.set("x", std::move(x));
    d.params.set("y", std::move(y));
}

void read_cubic_spline(Reader& r, DriveSpec& d) {
    read_extrapolation_flags(r, d);
    read_points(r, d, 3);
}

void read_multilinear(Reader& r, DriveSpec& d) {
    read_extrapolation_flags(r, d);
    read_points(r, d, 2);
}

void read_chebychev(Reader& r, DriveSpec& d) {
    double a = r.real("lower bound");
    SourceLoc at = r.loc();
    double b = r.real("upper bound");
    if (b <= a)
        r.error_at(at,
                   "the upper bound " + num(b) + " must be larger than the lower bound " + num(a));
    d.params.set("lower bound", a);
    d.params.set("upper bound", b);
    d.params.set("do not extrapolate", r.accept("do not extrapolate"));
    VecN c;
    at = r.loc();
    while (!r.accept("end") && next_is_value(r)) c.push_back(r.real("chebychev coefficient"));
    if (c.empty()) r.error_at(at, "a chebychev scalar function needs at least one coefficient");
    d.params.set("coefficients", std::move(c));
}

void read_sf_harmonic(Reader& r, DriveSpec& d) {
    d.params.set("amplitude", r.real("amplitude"));
    SourceLoc at = r.loc();
    double w = r.real("frequency");
    if (w == 0.0) r.error_at(at, "the frequency must not be zero");
    d.params.set("frequency", w);
    d.params.set("phase", r.real("phase"));
}

void read_sf_binary(Reader& r, DriveSpec& d) {
    read_scalar_function_ref(r, d.params, "f1");
    read_scalar_function_ref(r, d.params, "f2");
}

// The drive caller: `scalar function, "name" [, <inline definition>]`.
void read_scalar_function_drive(Reader& r, DriveSpec& d) {
    read_scalar_function_ref(r, d.params, "function");
}

}  // namespace

MBS_REGISTER_DRIVE("scalar function", read_scalar_function_drive);
MBS_REGISTER_DRIVE("scalar function const", read_sf_const);
MBS_REGISTER_DRIVE("scalar function exp", read_exp_log);
MBS_REGISTER_DRIVE("scalar function log", read_exp_log);
MBS_REGISTER_DRIVE("scalar function pow", read_sf_pow);
MBS_REGISTER_DRIVE("scalar function linear", read_sf_linear);
MBS_REGISTER_DRIVE("scalar function cubic spline", read_cubic_spline);
MBS_REGISTER_DRIVE("scalar function multilinear", read_multilinear);
MBS_REGISTER_DRIVE("scalar function chebychev", read_chebychev);
MBS_REGISTER_DRIVE("scalar function sin", read_sf_harmonic);
MBS_REGISTER_DRIVE("scalar function cos", read_sf_harmonic);
MBS_REGISTER_DRIVE("scalar function sum", read_sf_binary);
MBS_REGISTER_DRIVE("scalar function sub", read_sf_binary);
MBS_REGISTER_DRIVE("scalar function mul", read_sf_binary);
MBS_REGISTER_DRIVE("scalar function div", read_sf_binary);

}  // namespace mbs::drives
