// Runtime of string drives that call `model::` functions (docs/deck-language.md 1.4 and 7): the
// functions' node labels are resolved to the run's structural nodes when the drive is built.
#pragma once

#include "core/drive.hpp"

namespace mbs::drives {

// The string drive of `d` (its expression has model_refs), reading the nodes of env.data.
// Throws InputError at a call whose node does not exist, or at the drive outside a run.
DrivePtr make_model_string(const DriveSpec& d, const DriveEnv& env);

}  // namespace mbs::drives
