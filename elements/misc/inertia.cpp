// Card reader for `inertia` (docs/deck-language.md 5.5): logs the equivalent inertia of a set of
// bodies (and of the bodies connected by joints) about a reference point.
//   inertia: L [, name, "n"] [, position, <Vec3 abs>] [, orientation, <OrMat abs>],
//            {body | joint}, {all | l1 [, l2, ...]} [, ...]
//            [, output, {no | yes | log | both | always}];
// `loadable` groups are not supported (no loadable elements yet).
// Props: "position", "orientation" (when given), then one per group "body" | "joint": the
// string "all" or the labels (VecN); "output mode".
#include "core/registry.hpp"

namespace mbs {
namespace {

bool at_group_end(Reader& r) {
    return r.at_end() || r.peek("output") || r.peek("body") || r.peek("joint") ||
           r.peek("loadable");
}

void read_inertia(Reader& r, EntityDesc& e) {
    if (r.accept("position")) e.props.set("position", r.position_abs("reference point"));
    if (r.accept("orientation"))
        e.props.set("orientation", r.orientation_abs("reference orientation"));
    bool any = false;
    while (!r.at_end() && !r.peek("output")) {
        if (r.peek("loadable")) r.error("'loadable' elements are not supported yet");
        std::string type = r.keyword({"body", "joint"}, "element type of the inertia group");
        any = true;
        if (r.accept("all")) {
            e.props.set(type, std::string("all"));
            continue;
        }
        VecN labels;
        if (const PropValue* v = e.props.find(type); v && std::holds_alternative<VecN>(*v))
            labels = std::get<VecN>(*v);
        do {
            labels.push_back(
                static_cast<double>(r.element(type, std::string(type) + " label").label));
        } while (!at_group_end(r));
        e.props.set(type, labels);
    }
    if (!any) r.error("missing the elements of the inertia card", "e.g. 'body, all'");
    if (r.accept("output")) {
        std::string mode = r.keyword({"no", "yes", "log", "both", "always"}, "inertia output mode");
        e.output = mode != "no";
        e.props.set("output mode", mode);
    }
}

}  // namespace

// MBDyn logs the inertia at start-up; mbsolve only reads the card (--check, --dump-model).
MBS_REGISTER_ELEMENT_KIND("inertia", "",
                          {.read = read_inertia,
                           .no_make = "the equivalent inertia is not computed yet: a DAE run "
                                      "stops at the card"});

}  // namespace mbs
