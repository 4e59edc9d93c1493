// Card reader for `inertia` (docs/deck-language.md 5.5): logs the equivalent inertia of a set of
// bodies (and of the bodies connected by joints) about a reference point.
//   inertia: L [, name, "n"] [, position, <Vec3 abs>] [, orientation, <OrMat abs>],
//            {body | joint}, {all | l1 [, l2, ...]} [, ...]
//            [, output, {no | yes | log | both | always}];
// `loadable` groups are not supported (no loadable elements yet).
// Typed spec: InertiaSpec (below). Its generic view: "position", "orientation" (when given),
// then one per element type "body" | "joint", in the order of their first group: the string
// "all" or the labels (VecN; the labels of later groups of the same type are appended, `all`
// replaces them); "output mode" (when given).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/registry.hpp"

namespace mbs {
namespace {

bool at_group_end(Reader& r) {
    return r.at_end() || r.peek("output") || r.peek("body") || r.peek("joint") ||
           r.peek("loadable");
}

struct InertiaSpec final : ElementSpec {
    // The elements of one type ("body" or "joint"): all of them, or the labels.
    struct Group {
        std::string type;
        bool all = false;
        VecN labels;
    };
    std::optional<Vec3> position;     // global
    std::optional<Mat3> orientation;  // global
    std::vector<Group> groups;        // one per type, in the order of their first group
    std::string output_mode;          // "": not given

    Group& group(const std::string& type) {
        for (Group& g : groups)
            if (g.type == type) return g;
        groups.push_back(Group{type});
        return groups.back();
    }
    void describe(Props& p) const override {
        if (position) p.set("position", *position);
        if (orientation) p.set("orientation", *orientation);
        for (const Group& g : groups) {
            if (g.all)
                p.set(g.type, std::string("all"));
            else
                p.set(g.type, g.labels);
        }
        if (!output_mode.empty()) p.set("output mode", output_mode);
    }
};

void read_inertia(Reader& r, EntityDesc& e) {
    auto s = std::make_shared<InertiaSpec>();
    if (r.accept("position")) s->position = r.position_abs("reference point");
    if (r.accept("orientation")) s->orientation = r.orientation_abs("reference orientation");
    bool any = false;
    while (!r.at_end() && !r.peek("output")) {
        if (r.peek("loadable")) r.error("'loadable' elements are not supported yet");
        std::string type = r.keyword({"body", "joint"}, "element type of the inertia group");
        any = true;
        InertiaSpec::Group& g = s->group(type);
        if (r.accept("all")) {
            g.all = true;
            g.labels.clear();
            continue;
        }
        g.all = false;  // labels after `all` start a new list
        do {
            g.labels.push_back(
                static_cast<double>(r.element(type, std::string(type) + " label").label));
        } while (!at_group_end(r));
    }
    if (!any) r.error("missing the elements of the inertia card", "e.g. 'body, all'");
    if (r.accept("output")) {
        std::string mode = r.keyword({"no", "yes", "log", "both", "always"}, "inertia output mode");
        e.output = mode != "no";
        s->output_mode = mode;
    }
    e.spec = std::move(s);
}

}  // namespace

// MBDyn logs the inertia at start-up; mbsolve only reads the card (--check, --dump-model).
MBS_REGISTER_ELEMENT_KIND("inertia", "",
                          {.read = read_inertia,
                           .no_make = "the equivalent inertia is not computed yet: a DAE run "
                                      "stops at the card"});

}  // namespace mbs
