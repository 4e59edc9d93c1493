// The `const` drive caller's typed arguments (f = value) and the value of a drive caller that is
// a constant. The `const` kind is read and run in elements/drives/basic_drives.cpp; the deck
// reader makes one of a bare number where a drive caller is expected, and the settings that
// must be constants (spectral radii, the max time step) read their value through
// constant_value() instead of the arguments of a kind.
#pragma once

#include <optional>

#include "core/model.hpp"

namespace mbs {

// `const, value`: described as "value".
struct ConstArgs final : KindArgs {
    double value = 0.0;
    void describe(Props& out) const override;
};

// The value of a drive caller that is a constant: `const` its value, `null` 0, `unit` (`one`) 1;
// nullopt for every other kind.
std::optional<double> constant_value(const DriveSpec& d);

}  // namespace mbs
