// The `driven` wrapper's record (parser/builder_entities.cpp, Builder::driven_card; runtime in
// elements/drives/driven_element.cpp): the drive that switches the element on and off, the
// element it wraps, and MBDyn's hints as written (the runtime says which element takes which).
// Its generic view: "drive", "element", then "hint 1", "hint 2", ... (a DriveSpec whose type is
// the hint's text, located at it).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/model.hpp"

namespace mbs {

struct DrivenSpec final : ElementSpec {
    struct Hint {
        std::string text;  // as written, e.g. "offset{1}"
        SourceLoc loc;
    };
    std::shared_ptr<const DriveSpec> drive;
    EntityRef element;
    std::vector<Hint> hints;
    void describe(Props& out) const override;
};

}  // namespace mbs
