// Helpers shared by the runtime drive callers (elements/drives/runtime_*.cpp): parameter access,
// the sub-drives of a spec, the clock, and the one-sided-derivative rule at a kink.
#pragma once

#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/drive.hpp"

namespace mbs::drives::rt {

inline constexpr double inf = std::numeric_limits<double>::infinity();

inline double real(const DriveSpec& d, std::string_view key) { return d.params.get<double>(key); }

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

// MBDyn's dGetP at a kink between a flat piece and a piece of slope `s` (ramp ends, the start
// of a sine, ...): the mean of the one-sided derivatives, s/2.
inline double at_kink(double s) { return 0.5 * s; }

}  // namespace mbs::drives::rt
