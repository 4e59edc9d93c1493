// The typed arguments of a scalar function kind: `scalar function <type>`, built in
// (elements/drives/scalar_functions.cpp) or registered by a module (core/plugin). An inline
// definition (`scalar function, "g", linear, ...`, read by drives::read_scalar_function) carries
// the name it was given; describe() lists it last, as "name", after the kind's own arguments.
#pragma once

#include <optional>
#include <string>

#include "core/model.hpp"

namespace mbs {

class ScalarFunctionArgs : public KindArgs {
  public:
    // The name of an inline definition (used in run-time errors); none for a
    // `scalar function:` card, whose name is the key of Model::scalar_functions.
    std::optional<std::string> name;

    void describe(Props& out) const final {
        describe_own(out);
        if (name) out.set("name", *name);
    }

  protected:
    // The kind's own arguments, in card order.
    virtual void describe_own(Props& out) const = 0;
};

}  // namespace mbs
