// Helpers shared by the runtime drive callers (elements/drives/runtime_*.cpp): parameter access,
// the sub-drives of a spec, the clock, and the derivative at a kink.
#pragma once

#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "core/drive.hpp"

namespace mbs::drives::rt {

inline constexpr double inf = std::numeric_limits<double>::infinity();

// A runtime drive of type T built from its constructor arguments.
template <class T, class... Args>
DrivePtr make(Args&&... args) {
    return std::make_shared<const T>(std::forward<Args>(args)...);
}

// The runtime drives of spec.children, in order.
inline std::vector<DrivePtr> children(const DriveSpec& d, const DriveEnv& env) {
    std::vector<DrivePtr> v;
    v.reserve(d.children.size());
    for (const auto& c : d.children) v.push_back(make_drive(*c, env));
    return v;
}

// The clock of drives that read the step size or the step counter; the engine always gives one.
inline const SimClock& clock(const DriveSpec& d, const DriveEnv& env) {
    if (!env.clock) throw std::logic_error("drive caller '" + d.type + "' needs DriveEnv::clock");
    return *env.clock;
}

// The time of the evaluation under way, for drives that are not fed the time but read it (a
// string drive's Time as the outer drive of `drive`, the function of `periodic`, `dof`, ...):
// the time-fed drive that feeds them sets it for the duration of the call (TimeScope); NaN
// outside any such call, and the clock's time is used.
inline thread_local double eval_time = std::numeric_limits<double>::quiet_NaN();
class TimeScope {
  public:
    explicit TimeScope(double t) : saved_(eval_time) { eval_time = t; }
    ~TimeScope() { eval_time = saved_; }
    TimeScope(const TimeScope&) = delete;
    TimeScope& operator=(const TimeScope&) = delete;

  private:
    double saved_;
};

// The run's initial time (the model's `initial time`, 0 when not given, as in MBDyn) when the
// drive's input is the time; NaN otherwise (no model: --check, unit tests of bare drives; a drive
// fed by another drive or by model data).
inline double run_start(const DriveEnv& env) {
    if (!env.time_input || !env.model) return std::numeric_limits<double>::quiet_NaN();
    return env.model->solver.t0();
}

// The derivative at a kink of a drive, between the one-sided slopes `left` and `right` (ramp
// ends, the start and end of a sine, the points of a piecewise linear drive):
//   - MBDyn's dGetP: the mean (left + right) / 2, so a ramp or sine starting at t0 has half its
//     slope at t0;
//   - at the run's initial time (`start`, see run_start): `right`. The run lives on
//     [initial time, ...) only, so the motion a drive prescribes there is its right piece: a
//     sine starting at the initial time moves at A omega from the first instant (MBDyn's mean
//     gives A omega / 2, a velocity that the prescribed motion never has).
struct Kinks {
    double start = std::numeric_limits<double>::quiet_NaN();
    explicit Kinks(const DriveEnv& env) : start(run_start(env)) {}
    double at(double x, double left, double right) const {
        return x == start ? right : 0.5 * (left + right);
    }
};

// Base of drives made of sub-drives: differentiable when all are, after_step passed on.
class Composite : public Drive {
  public:
    explicit Composite(std::vector<DrivePtr> parts) : parts_(std::move(parts)) {}
    bool differentiable() const override {
        for (const DrivePtr& p : parts_)
            if (!p->differentiable()) return false;
        return true;
    }
    void after_step() const override {
        for (const DrivePtr& p : parts_) p->after_step();
    }

  protected:
    std::vector<DrivePtr> parts_;
};

}  // namespace mbs::drives::rt
