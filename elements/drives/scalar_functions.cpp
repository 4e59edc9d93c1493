// Scalar functions f(x) (MBDyn's ScalarFunctionsImpl.cc): the readers of the card
// `scalar function: "name", <type>, args;` (docs/deck-language.md 1.5), registered as drives named
// "scalar function <type>", and the `scalar function, "name"` drive caller that evaluates one
// at its input (time unless fed otherwise).
//
// Arguments (DriveSpec::args; the keys of describe() in quotes, in card order):
//   const        ConstFunctionArgs: value "value"
//   exp, log     ExpLogArgs: base "base", coefficient "coefficient", multiplier "multiplier"
//                exp: f = m base^(c x); log: f = m log_base(c x)
//                (base defaults to e; MBDyn also reads base 1 as e; coefficient != 0)
//   pow          PowArgs: exponent "exponent"                     f = x^p
//   linear       LinearArgs: x1 "x1" y1 "y1" x2 "x2" y2 "y2"    the line through two points
//   cubic spline TabulatedArgs: hold "do not extrapolate", bailout "bailout" (bools),
//                x "x", y "y" (>= 3 points)
//   multilinear  TabulatedArgs, >= 2 points
//                x strictly increasing; the point list may end with the keyword `end`
//   chebychev    ChebychevArgs: lower "lower bound", upper "upper bound",
//                hold "do not extrapolate", coefficients "coefficients"
//   sin, cos     HarmonicArgs: amplitude "amplitude" frequency "frequency" phase "phase"
//                f = A sin(w x + phi)
//   sum sub mul div   BinaryArgs: f1 "f1", f2 "f2": two scalar functions (f1 op f2)
// All are ScalarFunctionArgs (core/scalar_function_args.hpp): an inline definition also
// describes its name last, as "name". A function is named by a ScalarFunctionRef (see
// read_scalar_function), which may carry an inline definition, described as "f1 definition" /
// "f2 definition". The drive caller (ScalarFunctionDriveArgs) holds function "function" likewise.
//
// Runtime of scalar functions f(x) (MBDyn's ScalarFunctionsImpl.cc) and of the `scalar function`
// drive caller that evaluates one at its input. Each type is a drive registered as "scalar
// function <type>", the spec type of a `scalar function:` card; the arguments are those of
// the readers above.
//
//   const  c                 exp  m b^(c x)             log  m log_b(c x)       pow  x^p
//   linear through (x1, y1), (x2, y2)                   sin, cos  A sin|cos(w x + phi)
//   multilinear   linear interpolation, extrapolated with the end segments
//   cubic spline  Forsythe-Malcolm-Moler spline (end third derivatives from divided
//                 differences, as MBDyn's spline()), extrapolated linearly with the end slopes
//   chebychev     sum c_i T_i(xi), xi = (2x - (a + b))/(b - a), extrapolated linearly
//   sum sub mul div of two scalar functions
// hold ("do not extrapolate") holds the end values instead (a chebychev series stops the run),
// and bailout stops the run outside the points. Derivatives are exact; MBDyn returns 0 outside
// the points of a multilinear or spline function even where it extrapolates.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/registry.hpp"
#include "core/scalar_function_args.hpp"
#include "elements/drives/drive_util.hpp"
#include "elements/drives/polynomial_drive.hpp"
#include "elements/drives/runtime_util.hpp"

namespace mbs::drives {
namespace {

struct ConstFunctionArgs final : ScalarFunctionArgs {
    double value = 0.0;
    void describe_own(Props& out) const override { out.set("value", value); }
};

void read_sf_const(Reader& r, DriveSpec& d) {
    emplace_args<ConstFunctionArgs>(d).value = r.real("constant value");
}

struct ExpLogArgs final : ScalarFunctionArgs {
    double base = std::exp(1.0), coefficient = 1.0, multiplier = 0.0;
    void describe_own(Props& out) const override {
        out.set("base", base);
        out.set("coefficient", coefficient);
        out.set("multiplier", multiplier);
    }
};

// [base, b,] [coefficient, c,] m
void read_exp_log(Reader& r, DriveSpec& d) {
    auto& a = emplace_args<ExpLogArgs>(d);
    if (r.accept("base")) {
        SourceLoc at = r.loc();
        double b = r.real("base");
        if (b <= 0.0) r.error_at(at, "the base must be positive, got " + num(b));
        if (b != 1.0) a.base = b;
    }
    if (r.accept("coefficient")) {
        SourceLoc at = r.loc();
        a.coefficient = r.real("coefficient");
        if (a.coefficient == 0.0) r.error_at(at, "the coefficient must not be zero");
    }
    a.multiplier = r.real("multiplier");
}

struct PowArgs final : ScalarFunctionArgs {
    double exponent = 1.0;
    void describe_own(Props& out) const override { out.set("exponent", exponent); }
};

void read_sf_pow(Reader& r, DriveSpec& d) {
    emplace_args<PowArgs>(d).exponent = r.real("exponent");
}

struct LinearArgs final : ScalarFunctionArgs {
    double x1 = 0.0, y1 = 0.0, x2 = 1.0, y2 = 0.0;
    void describe_own(Props& out) const override {
        out.set("x1", x1);
        out.set("y1", y1);
        out.set("x2", x2);
        out.set("y2", y2);
    }
};

void read_sf_linear(Reader& r, DriveSpec& d) {
    auto& a = emplace_args<LinearArgs>(d);
    a.x1 = r.real("x1");
    a.y1 = r.real("y1");
    SourceLoc at = r.loc();
    a.x2 = r.real("x2");
    if (a.x2 == a.x1) r.error_at(at, "the two abscissae of a linear scalar function must differ");
    a.y2 = r.real("y2");
}

// cubic spline and multilinear: the points and what happens outside them.
struct TabulatedArgs final : ScalarFunctionArgs {
    bool hold = false;     // "do not extrapolate": the end values are held outside the points
    bool bailout = false;  // the run stops outside the points (only with hold)
    VecN x, y;             // x strictly increasing
    void describe_own(Props& out) const override {
        out.set("do not extrapolate", hold);
        out.set("bailout", bailout);
        out.set("x", x);
        out.set("y", y);
    }
};

// [do not extrapolate [, bailout],] then at least `min_points` (x, y) pairs, then more until
// `end`, the end of the card, or a keyword.
void read_tabulated(Reader& r, DriveSpec& d, int min_points) {
    auto& a = emplace_args<TabulatedArgs>(d);
    a.hold = r.accept("do not extrapolate");
    a.bailout = a.hold && r.accept("bailout");
    VecN &x = a.x, &y = a.y;
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
}

void read_cubic_spline(Reader& r, DriveSpec& d) { read_tabulated(r, d, 3); }

void read_multilinear(Reader& r, DriveSpec& d) { read_tabulated(r, d, 2); }

struct ChebychevArgs final : ScalarFunctionArgs {
    double lower = -1.0, upper = 1.0;  // the interval [a, b], a < b
    bool hold = false;                 // "do not extrapolate": the run stops outside [a, b]
    VecN coefficients;                 // c_0, c_1, ... (at least one)
    void describe_own(Props& out) const override {
        out.set("lower bound", lower);
        out.set("upper bound", upper);
        out.set("do not extrapolate", hold);
        out.set("coefficients", coefficients);
    }
};

void read_chebychev(Reader& r, DriveSpec& d) {
    auto& a = emplace_args<ChebychevArgs>(d);
    a.lower = r.real("lower bound");
    SourceLoc at = r.loc();
    a.upper = r.real("upper bound");
    if (a.upper <= a.lower)
        r.error_at(at, "the upper bound " + num(a.upper) + " must be larger than the lower bound " +
                           num(a.lower));
    a.hold = r.accept("do not extrapolate");
    at = r.loc();
    while (!r.accept("end") && next_is_value(r))
        a.coefficients.push_back(r.real("chebychev coefficient"));
    if (a.coefficients.empty())
        r.error_at(at, "a chebychev scalar function needs at least one coefficient");
}

struct HarmonicArgs final : ScalarFunctionArgs {
    double amplitude = 0.0, frequency = 1.0, phase = 0.0;
    void describe_own(Props& out) const override {
        out.set("amplitude", amplitude);
        out.set("frequency", frequency);
        out.set("phase", phase);
    }
};

void read_sf_harmonic(Reader& r, DriveSpec& d) {
    auto& a = emplace_args<HarmonicArgs>(d);
    a.amplitude = r.real("amplitude");
    SourceLoc at = r.loc();
    a.frequency = r.real("frequency");
    if (a.frequency == 0.0) r.error_at(at, "the frequency must not be zero");
    a.phase = r.real("phase");
}

struct BinaryArgs final : ScalarFunctionArgs {
    ScalarFunctionRef f1, f2;
    void describe_own(Props& out) const override {
        f1.describe(out, "f1");
        f2.describe(out, "f2");
    }
};

void read_sf_binary(Reader& r, DriveSpec& d) {
    auto& a = emplace_args<BinaryArgs>(d);
    a.f1 = read_scalar_function(r);
    a.f2 = read_scalar_function(r);
}

// The drive caller: `scalar function, "name" [, <inline definition>]`.
struct ScalarFunctionDriveArgs final : KindArgs {
    ScalarFunctionRef function;
    void describe(Props& out) const override { function.describe(out, "function"); }
};

void read_scalar_function_drive(Reader& r, DriveSpec& d) {
    emplace_args<ScalarFunctionDriveArgs>(d).function = read_scalar_function(r);
}

// The runtime drive of scalar function `f`, named by spec `d`.
DrivePtr make_function(const DriveSpec& d, const ScalarFunctionRef& f, const DriveEnv& env) {
    const DriveSpec* def = f.spec(env.model);
    if (!def) throw InputError(d.loc, "scalar function \"" + f.name + "\" is not defined");
    return make_drive(*def, env);
}

// `scalar function, "name"`: the function itself, evaluated at the drive's input.
DrivePtr make_scalar_function_drive(const DriveSpec& d, const DriveEnv& env) {
    return make_function(d, d.args_as<ScalarFunctionDriveArgs>().function, env);
}

// const and linear are the polynomial drives of the same name (basic_drives.cpp).
DrivePtr make_const(const DriveSpec& d, const DriveEnv&) {
    return polynomial_drive(d.args_as<ConstFunctionArgs>().value);
}

DrivePtr make_linear(const DriveSpec& d, const DriveEnv&) {
    const auto& a = d.args_as<LinearArgs>();
    const double slope = (a.y2 - a.y1) / (a.x2 - a.x1);
    return polynomial_drive(a.y1 - slope * a.x1, slope);
}

// m e^(k x), k = c ln(b).
class Exp final : public Drive {
  public:
    Exp(double m, double k) : m_(m), k_(k) {}
    double value(double x) const override { return m_ * std::exp(k_ * x); }
    double deriv(double x) const override { return k_ * value(x); }

  private:
    double m_, k_;
};

DrivePtr make_exp(const DriveSpec& d, const DriveEnv&) {
    const auto& a = d.args_as<ExpLogArgs>();
    return rt::make<Exp>(a.multiplier, a.coefficient * std::log(a.base));
}

// (m / ln b) ln(c x).
class Log final : public Drive {
  public:
    Log(double m, double c) : m_(m), c_(c) {}
    double value(double x) const override { return m_ * std::log(c_ * x); }
    double deriv(double x) const override { return m_ / x; }

  private:
    double m_, c_;
};

DrivePtr make_log(const DriveSpec& d, const DriveEnv&) {
    const auto& a = d.args_as<ExpLogArgs>();
    return rt::make<Log>(a.multiplier / std::log(a.base), a.coefficient);
}

class Pow final : public Drive {
  public:
    explicit Pow(double p) : p_(p) {}
    double value(double x) const override { return std::pow(x, p_); }
    double deriv(double x) const override { return p_ * std::pow(x, p_ - 1.0); }

  private:
    double p_;
};

DrivePtr make_pow(const DriveSpec& d, const DriveEnv&) {
    return rt::make<Pow>(d.args_as<PowArgs>().exponent);
}

// A sin(w x + phi) or A cos(w x + phi).
class Harmonic final : public Drive {
  public:
    Harmonic(bool cosine, const HarmonicArgs& a)
        : cosine_(cosine), a_(a.amplitude), w_(a.frequency), phi_(a.phase) {}
    double value(double x) const override {
        const double th = w_ * x + phi_;
        return a_ * (cosine_ ? std::cos(th) : std::sin(th));
    }
    double deriv(double x) const override {
        const double th = w_ * x + phi_;
        return a_ * w_ * (cosine_ ? -std::sin(th) : std::cos(th));
    }

  private:
    bool cosine_;
    double a_, w_, phi_;
};

DrivePtr make_sin(const DriveSpec& d, const DriveEnv&) {
    return rt::make<Harmonic>(false, d.args_as<HarmonicArgs>());
}
DrivePtr make_cos(const DriveSpec& d, const DriveEnv&) {
    return rt::make<Harmonic>(true, d.args_as<HarmonicArgs>());
}

// Tabulated functions: the interval [x_1, x_n], what happens outside it, and the piece of
// index i (x_i <= x < x_{i+1}, clamped to the end pieces) that holds x.
class Tabulated : public Drive {
  public:
    explicit Tabulated(const TabulatedArgs& a)
        : x_(a.x), y_(a.y), hold_(a.hold), bailout_(a.bailout), name_(a.name.value_or("")) {}

  protected:
    // True (and *held set) when x is outside the points and the end value is held.
    bool held(double x, double* held) const {
        if (x > x_.front() && x < x_.back()) return false;
        if (bailout_ && (x < x_.front() || x > x_.back()))
            throw std::range_error("scalar function \"" + name_ + "\" evaluated at " +
                                   std::to_string(x) + ", outside its points, with bailout");
        if (!hold_) return false;
        if (x <= x_.front()) return *held = y_.front(), true;
        if (x >= x_.back()) return *held = y_.back(), true;
        return false;
    }
    std::size_t piece(double x) const {
        auto it = std::upper_bound(x_.begin(), x_.end() - 1, x);
        return static_cast<std::size_t>(std::max<std::ptrdiff_t>(it - x_.begin() - 1, 0));
    }

    VecN x_, y_;

  private:
    bool hold_, bailout_;
    std::string name_;
};

class Multilinear final : public Tabulated {
  public:
    using Tabulated::Tabulated;
    double value(double x) const override {
        double v;
        if (held(x, &v)) return v;
        std::size_t i = piece(x);
        return y_[i] + slope(i) * (x - x_[i]);
    }
    double deriv(double x) const override {
        double v;
        return held(x, &v) ? 0.0 : slope(piece(x));
    }

  private:
    double slope(std::size_t i) const { return (y_[i + 1] - y_[i]) / (x_[i + 1] - x_[i]); }
};

// s(x) = y_i + b_i dx + c_i dx^2 + d_i dx^3, dx = x - x_i; linear with slope b outside.
class CubicSpline final : public Tabulated {
  public:
    explicit CubicSpline(const TabulatedArgs& a) : Tabulated(a) { coefficients(); }
    double value(double x) const override {
        double v;
        if (held(x, &v)) return v;
        if (x <= x_.front()) return y_.front() + b_.front() * (x - x_.front());
        if (x >= x_.back()) return y_.back() + b_.back() * (x - x_.back());
        std::size_t i = piece(x);
        double dx = x - x_[i];
        return y_[i] + dx * (b_[i] + dx * (c_[i] + dx * d_[i]));
    }
    double deriv(double x) const override {
        double v;
        if (held(x, &v)) return 0.0;
        if (x <= x_.front()) return b_.front();
        if (x >= x_.back()) return b_.back();
        std::size_t i = piece(x);
        double dx = x - x_[i];
        return b_[i] + dx * (2.0 * c_[i] + 3.0 * dx * d_[i]);
    }

  private:
    // Forsythe, Malcolm and Moler's spline: a tridiagonal system for sigma_i = s''(x_i)/6
    // (diagonal b, off-diagonal h = d, right-hand side c), closed at each end by matching the
    // third derivative of the cubic through the four end points (n = 3: sigma_1 = sigma_2 and
    // sigma_2 = sigma_3), then the polynomial coefficients of each piece.
    void coefficients() {
        const std::size_t n = x_.size();
        VecN& b = b_;
        VecN& c = c_;
        VecN& h = d_;
        b.assign(n, 0.0), c.assign(n, 0.0), h.assign(n, 0.0);
        h[0] = x_[1] - x_[0];
        c[1] = (y_[1] - y_[0]) / h[0];
        for (std::size_t i = 1; i + 1 < n; ++i) {
            h[i] = x_[i + 1] - x_[i];
            b[i] = 2.0 * (h[i - 1] + h[i]);
            c[i + 1] = (y_[i + 1] - y_[i]) / h[i];
            c[i] = c[i + 1] - c[i];
        }
        b[0] = -h[0];
        b[n - 1] = -h[n - 2];
        c[0] = c[n - 1] = 0.0;
        if (n > 3) {
            c[0] = c[2] / (x_[3] - x_[1]) - c[1] / (x_[2] - x_[0]);
            c[0] *= h[0] * h[0] / (x_[3] - x_[0]);
            c[n - 1] = c[n - 2] / (x_[n - 1] - x_[n - 3]) - c[n - 3] / (x_[n - 2] - x_[n - 4]);
            c[n - 1] *= -h[n - 2] * h[n - 2] / (x_[n - 1] - x_[n - 4]);
        }
        for (std::size_t i = 1; i < n; ++i) {
            double t = h[i - 1] / b[i - 1];
            b[i] -= t * h[i - 1];
            c[i] -= t * c[i - 1];
        }
        c[n - 1] /= b[n - 1];
        for (std::size_t i = n - 1; i-- > 0;) c[i] = (c[i] - h[i] * c[i + 1]) / b[i];
        b[n - 1] = (y_[n - 1] - y_[n - 2]) / h[n - 2] + h[n - 2] * (c[n - 2] + 2.0 * c[n - 1]);
        for (std::size_t i = 0; i + 1 < n; ++i) {
            b[i] = (y_[i + 1] - y_[i]) / h[i] - h[i] * (c[i + 1] + 2.0 * c[i]);
            h[i] = (c[i + 1] - c[i]) / h[i];  // from here on d_i
            c[i] *= 3.0;
        }
        c[n - 1] *= 3.0;
        h[n - 1] = h[n - 2];
    }

    VecN b_, c_, d_;
};

DrivePtr make_multilinear(const DriveSpec& d, const DriveEnv&) {
    return rt::make<Multilinear>(d.args_as<TabulatedArgs>());
}
DrivePtr make_cubic_spline(const DriveSpec& d, const DriveEnv&) {
    return rt::make<CubicSpline>(d.args_as<TabulatedArgs>());
}

// sum c_i T_i(xi) on [a, b], T_0 = 1, T_1 = xi, T_{i+1} = 2 xi T_i - T_{i-1}.
class Chebychev final : public Drive {
  public:
    explicit Chebychev(const ChebychevArgs& a)
        : c_(a.coefficients),
          a_(a.lower),
          b_(a.upper),
          extrapolate_(!a.hold),
          name_(a.name.value_or("")) {}
    double value(double x) const override {
        if (x >= a_ && x <= b_) return series(x, false);
        const double edge = outside(x);
        return series(edge, false) + series(edge, true) * (x - edge);
    }
    double deriv(double x) const override {
        return x >= a_ && x <= b_ ? series(x, true) : series(outside(x), true);
    }

  private:
    // The end of [a, b] nearest to x, from which x is extrapolated; stops the run instead with
    // "do not extrapolate" (MBDyn).
    double outside(double x) const {
        if (!extrapolate_)
            throw std::range_error("chebychev scalar function \"" + name_ + "\" evaluated at " +
                                   std::to_string(x) + ", outside [" + std::to_string(a_) + ", " +
                                   std::to_string(b_) + "], with \"do not extrapolate\"");
        return x < a_ ? a_ : b_;
    }
    // The series or its derivative at x in [a, b].
    double series(double x, bool derivative) const {
        const double xi = (2.0 * x - (a_ + b_)) / (b_ - a_);
        double t0 = 1.0, t1 = xi, dt0 = 0.0, dt1 = 1.0;
        double v = c_[0] + (c_.size() > 1 ? c_[1] * xi : 0.0);
        double dv = c_.size() > 1 ? c_[1] : 0.0;
        for (std::size_t i = 2; i < c_.size(); ++i) {
            double t2 = 2.0 * xi * t1 - t0, dt2 = 2.0 * t1 + 2.0 * xi * dt1 - dt0;
            v += c_[i] * t2;
            dv += c_[i] * dt2;
            t0 = t1, t1 = t2, dt0 = dt1, dt1 = dt2;
        }
        return derivative ? dv * 2.0 / (b_ - a_) : v;
    }

    VecN c_;
    double a_, b_;
    bool extrapolate_;
    std::string name_;
};

DrivePtr make_chebychev(const DriveSpec& d, const DriveEnv&) {
    return rt::make<Chebychev>(d.args_as<ChebychevArgs>());
}

// f1 op f2 for op in + - * /.
class Binary final : public Drive {
  public:
    Binary(char op, DrivePtr f1, DrivePtr f2) : op_(op), f1_(std::move(f1)), f2_(std::move(f2)) {}
    double value(double x) const override {
        const double a = f1_->value(x), b = f2_->value(x);
        switch (op_) {
            case '+':
                return a + b;
            case '-':
                return a - b;
            case '*':
                return a * b;
            default:
                return a / b;
        }
    }
    double deriv(double x) const override {
        const double da = f1_->deriv(x), db = f2_->deriv(x);
        switch (op_) {
            case '+':
                return da + db;
            case '-':
                return da - db;
            case '*':
                return da * f2_->value(x) + f1_->value(x) * db;
            default: {
                const double b = f2_->value(x);
                return (da * b - f1_->value(x) * db) / (b * b);
            }
        }
    }
    bool differentiable() const override { return f1_->differentiable() && f2_->differentiable(); }

  private:
    char op_;
    DrivePtr f1_, f2_;
};

template <char Op>
DrivePtr make_binary(const DriveSpec& d, const DriveEnv& env) {
    const auto& a = d.args_as<BinaryArgs>();
    return rt::make<Binary>(Op, make_function(d, a.f1, env), make_function(d, a.f2, env));
}

}  // namespace

MBS_REGISTER_DRIVE_KIND("scalar function",
                        {.read = read_scalar_function_drive, .make = make_scalar_function_drive});
MBS_REGISTER_DRIVE_KIND("scalar function const", {.read = read_sf_const, .make = make_const});
MBS_REGISTER_DRIVE_KIND("scalar function exp", {.read = read_exp_log, .make = make_exp});
MBS_REGISTER_DRIVE_KIND("scalar function log", {.read = read_exp_log, .make = make_log});
MBS_REGISTER_DRIVE_KIND("scalar function pow", {.read = read_sf_pow, .make = make_pow});
MBS_REGISTER_DRIVE_KIND("scalar function linear", {.read = read_sf_linear, .make = make_linear});
MBS_REGISTER_DRIVE_KIND("scalar function cubic spline",
                        {.read = read_cubic_spline, .make = make_cubic_spline});
MBS_REGISTER_DRIVE_KIND("scalar function multilinear",
                        {.read = read_multilinear, .make = make_multilinear});
MBS_REGISTER_DRIVE_KIND("scalar function chebychev",
                        {.read = read_chebychev, .make = make_chebychev});
MBS_REGISTER_DRIVE_KIND("scalar function sin", {.read = read_sf_harmonic, .make = make_sin});
MBS_REGISTER_DRIVE_KIND("scalar function cos", {.read = read_sf_harmonic, .make = make_cos});
MBS_REGISTER_DRIVE_KIND("scalar function sum", {.read = read_sf_binary, .make = make_binary<'+'>});
MBS_REGISTER_DRIVE_KIND("scalar function sub", {.read = read_sf_binary, .make = make_binary<'-'>});
MBS_REGISTER_DRIVE_KIND("scalar function mul", {.read = read_sf_binary, .make = make_binary<'*'>});
MBS_REGISTER_DRIVE_KIND("scalar function div", {.read = read_sf_binary, .make = make_binary<'/'>});

}  // namespace mbs::drives
