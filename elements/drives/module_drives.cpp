// Drive callers that MBDyn builds from its bundled modules (module-minmaxdrive,
// module-switch_drive, module-multi_step_drive, module-octave's `derivative`):
// min, max, switch, multi step, derivative (docs/deck-language.md section 7).
//
//   min         `min, n, dc1, ..., dcn` (n >= 1): children = {dc1, ..., dcn}
//   max         `max, n, dc1, ..., dcn`
//   switch      `switch, dc_s, {floor | ceil | nearest}, n, dc0, ..., dc(n-1)`: SwitchArgs
//               rounding "rounding" ("floor", "ceil", "nearest"); children = {dc_s, dc0, ...}
//   multi step  `multi step, n, x1, y1, ..., xn, yn` (n >= 1, x strictly increasing):
//               MultiStepArgs x "x" (VecN), y "y" (VecN)
//   derivative  `derivative, dc`: children = {dc}
//
// Runtime (the semantics of MBDyn's modules):
//   min/max     the smallest/largest child value; the derivative is the derivative of the
//               child that gives it (the first one on a tie, as MBDyn's strict comparison).
//   switch      child number k = floor/ceil/round(dc_s(t)) (round: half away from zero), with
//               dc_s evaluated at the time (MBDyn's DriveOwner::dGet()); the chosen child's value
//               and derivative at the input. k outside 0..n-1 makes the value NaN: the run stops
//               with "cause: drive caller 'switch' at file:line:col gives nan" (MBDyn aborts with
//               an index-out-of-range error).
//   multi step  y1 for x < x2 (x < x1 included, as MBDyn), yi on xi <= x < x(i+1), yn for
//               x >= xn; derivative 0 and not differentiable (MBDyn's bIsDifferentiable).
//   derivative  dc'(x); dc must be differentiable (refused at dc's location otherwise, as
//               MBDyn's reader does); the result has derivative 0 and is not differentiable.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/registry.hpp"
#include "elements/drives/drive_util.hpp"
#include "elements/drives/runtime_util.hpp"

namespace mbs::drives {
namespace {

enum class Rounding { floor, ceil, nearest };

struct SwitchArgs final : KindArgs {
    Rounding rounding = Rounding::floor;
    void describe(Props& out) const override {
        out.set("rounding", std::string(rounding == Rounding::floor  ? "floor"
                                        : rounding == Rounding::ceil ? "ceil"
                                                                     : "nearest"));
    }
};

struct MultiStepArgs final : KindArgs {
    VecN x, y;
    void describe(Props& out) const override {
        out.set("x", x);
        out.set("y", y);
    }
};

void read_min_max(Reader& r, DriveSpec& d) {
    const long n = count_of_items(r, "number of drive callers", 1, 1);
    for (long i = 1; i <= n; ++i)
        d.children.push_back(r.drive("drive caller #" + std::to_string(i)));
}

void read_switch(Reader& r, DriveSpec& d) {
    d.children.push_back(r.drive("switch drive caller"));
    auto& a = emplace_args<SwitchArgs>(d);
    const std::string k = r.keyword({"floor", "ceil", "nearest"}, "switch rounding");
    a.rounding = k == "floor" ? Rounding::floor : k == "ceil" ? Rounding::ceil : Rounding::nearest;
    const long n = count_of_items(r, "number of drive callers", 1, 1);
    for (long i = 0; i < n; ++i)
        d.children.push_back(r.drive("drive caller #" + std::to_string(i)));
}

void read_multi_step(Reader& r, DriveSpec& d) {
    const long n = count_of_items(r, "number of steps", 1, 2);
    auto& a = emplace_args<MultiStepArgs>(d);
    a.x.reserve(n);
    a.y.reserve(n);
    for (long i = 0; i < n; ++i) {
        SourceLoc at = r.loc();
        const double xi = r.real("abscissa x" + std::to_string(i + 1));
        if (i > 0 && xi <= a.x.back())
            r.error_at(at, "multi step abscissae must be strictly increasing: x" +
                               std::to_string(i + 1) + " = " + num(xi) + " is not greater than x" +
                               std::to_string(i) + " = " + num(a.x.back()));
        a.x.push_back(xi);
        a.y.push_back(r.real("value y" + std::to_string(i + 1)));
    }
}

void read_derivative(Reader& r, DriveSpec& d) {
    d.children.push_back(r.drive("drive caller to differentiate"));
}

// --- runtime -----------------------------------------------------------------------------------

using rt::Composite;  // elements/drives/runtime_util.hpp

// The extreme child value; Better = std::less for min, std::greater for max.
template <class Better>
class Extreme final : public Composite {
  public:
    using Composite::Composite;
    double value(double x) const override { return parts_[pick(x)]->value(x); }
    double deriv(double x) const override { return parts_[pick(x)]->deriv(x); }
    double deriv_time(double x) const override { return parts_[pick(x)]->deriv_time(x); }

  private:
    std::size_t pick(double x) const {
        std::size_t best = 0;
        double v = parts_[0]->value(x);
        for (std::size_t i = 1; i < parts_.size(); ++i) {
            const double vi = parts_[i]->value(x);
            if (Better{}(vi, v)) {
                v = vi;
                best = i;
            }
        }
        return best;
    }
};

// parts_[0] is the switch (fed the time), parts_[1 + k] the branch k.
class Switch final : public Composite {
  public:
    Switch(std::vector<DrivePtr> parts, Rounding rounding, bool time_input, const SimClock& c)
        : Composite(std::move(parts)), rounding_(rounding), time_input_(time_input), clock_(&c) {}
    double value(double x) const override {
        const Drive* b = branch(x);
        return b ? b->value(x) : std::numeric_limits<double>::quiet_NaN();
    }
    double deriv(double x) const override {
        const Drive* b = branch(x);
        return b ? b->deriv(x) : std::numeric_limits<double>::quiet_NaN();
    }
    double deriv_time(double x) const override {
        const Drive* b = branch(x);
        return b ? b->deriv_time(x) : std::numeric_limits<double>::quiet_NaN();
    }
    // The switch itself only picks a branch: differentiable when every branch is (MBDyn).
    bool differentiable() const override {
        for (std::size_t i = 1; i < parts_.size(); ++i)
            if (!parts_[i]->differentiable()) return false;
        return true;
    }

  private:
    const Drive* branch(double x) const {
        const double t = time_input_ ? x : std::isnan(rt::eval_time) ? clock_->time : rt::eval_time;
        const double s = parts_[0]->value(t);
        const double k = rounding_ == Rounding::floor  ? std::floor(s)
                         : rounding_ == Rounding::ceil ? std::ceil(s)
                                                       : std::round(s);
        if (!(k >= 0.0 && k < static_cast<double>(parts_.size() - 1))) return nullptr;
        return parts_[1 + static_cast<std::size_t>(k)].get();
    }

    Rounding rounding_;
    bool time_input_;
    const SimClock* clock_;
};

class MultiStep final : public Drive {
  public:
    MultiStep(VecN x, VecN y) : x_(std::move(x)), y_(std::move(y)) {}
    double value(double x) const override {
        // The last xi <= x; before x1 the first value.
        auto it = std::upper_bound(x_.begin(), x_.end(), x);
        const std::size_t i = it == x_.begin() ? 0 : static_cast<std::size_t>(it - x_.begin()) - 1;
        return y_[i];
    }
    double deriv(double) const override { return 0.0; }
    bool differentiable() const override { return false; }

  private:
    VecN x_, y_;
};

class Derivative final : public Drive {
  public:
    explicit Derivative(DrivePtr f) : f_(std::move(f)) {}
    double value(double x) const override { return f_->deriv(x); }
    double deriv(double) const override { return 0.0; }
    bool differentiable() const override { return false; }
    void after_step() const override { f_->after_step(); }

  private:
    DrivePtr f_;
};

template <class Better>
DrivePtr make_extreme(const DriveSpec& d, const DriveEnv& env) {
    return rt::make<Extreme<Better>>(rt::children(d, env));
}

DrivePtr make_switch(const DriveSpec& d, const DriveEnv& env) {
    std::vector<DrivePtr> parts;
    parts.reserve(d.children.size());
    DriveEnv at_time = env;
    at_time.time_input = true;  // the switch is evaluated at the time
    parts.push_back(make_drive(*d.children.at(0), at_time));
    for (std::size_t i = 1; i < d.children.size(); ++i)
        parts.push_back(make_drive(*d.children[i], env));
    return rt::make<Switch>(std::move(parts), d.args_as<SwitchArgs>().rounding, env.time_input,
                            rt::clock(d, env));
}

DrivePtr make_multi_step(const DriveSpec& d, const DriveEnv&) {
    const auto& a = d.args_as<MultiStepArgs>();
    return rt::make<MultiStep>(a.x, a.y);
}

DrivePtr make_derivative(const DriveSpec& d, const DriveEnv& env) {
    const DriveSpec& c = *d.children.at(0);
    DrivePtr f = make_drive(c, env);
    if (!f->differentiable())
        throw InputError(c.loc, "drive caller '" + c.type + "' is not differentiable",
                         "'derivative' needs a drive caller with a derivative");
    return rt::make<Derivative>(std::move(f));
}

}  // namespace

MBS_REGISTER_DRIVE_KIND("min", {.read = read_min_max, .make = make_extreme<std::less<double>>});
MBS_REGISTER_DRIVE_KIND("max", {.read = read_min_max, .make = make_extreme<std::greater<double>>});
MBS_REGISTER_DRIVE_KIND("switch", {.read = read_switch, .make = make_switch});
MBS_REGISTER_DRIVE_KIND("multi step", {.read = read_multi_step, .make = make_multi_step});
MBS_REGISTER_DRIVE_KIND("derivative", {.read = read_derivative, .make = make_derivative});

}  // namespace mbs::drives
