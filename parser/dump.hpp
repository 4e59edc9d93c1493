// Stable text dumps of a built model: `mbsolve --dump-model` (golden tests) and `--check`.
#pragma once

#include <ostream>

#include "core/model.hpp"

namespace mbs::parser {

void dump_model(const Model& m, std::ostream& os);
void print_summary(const Model& m, std::ostream& os);
// Unknowns of the absolute-coordinate problem: node states plus joint multipliers.
long count_unknowns(const Model& m);

}  // namespace mbs::parser
