// Deck -> Model: reads cards in source order, evaluates expressions, resolves reference frames
// and labels, and dispatches node/element/drive/law cards to the registered readers.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/model.hpp"

namespace mbs::parser {

struct BuildOptions {
    std::map<std::string, std::string> defines;  // -D NAME=VALUE (value is an expression)
    bool use_environment = true;                 // MBDYN_real_NAME=..., MBDYN_integer_NAME=...
    bool echo_warnings = true;
    std::ostream* remarks = nullptr;  // where remark:/print() go (stderr if null)
    bool load_modules = true;         // false: `module load:` is an input error (fuzzing)
};

// Reads the deck at `path`. Throws InputError on any problem in the input.
Model build_model(const std::string& path, const BuildOptions& options = {});

// Same, from text held in memory (tests); `name` is used in diagnostics and for includes.
Model build_model_from_text(const std::string& name, const std::string& text,
                            const BuildOptions& options = {});

}  // namespace mbs::parser
