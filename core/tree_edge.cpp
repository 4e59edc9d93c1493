// The table of relative-coordinate adapters (tree_edge.hpp), filled before main() by the element
// files' MBS_REGISTER_TREE_* objects.
#include "core/tree_edge.hpp"

#include <map>

#include "core/registry.hpp"
#include "core/source.hpp"

namespace mbs::tree {
namespace {

std::map<std::string, Adapter>& table() {
    static std::map<std::string, Adapter> t;
    return t;
}

std::string key(std::string_view category, std::string_view type) {
    return normalize_keyword(category) + "/" + normalize_keyword(type);
}

}  // namespace

void unsupported(const EntityDesc& d, const std::string& why) {
    // Beams and abstract nodes have no type word: "beam3 1: ...", not "beam3 1 (): ...".
    throw InputError(d.loc,
                     d.category + " " + std::to_string(d.label) +
                         (d.type.empty() ? std::string() : " (" + d.type + ")") +
                         ": not supported by the relative-coordinate path",
                     why);
}

void slide_and_ball(Growth& g, int first, int n) {
    // The point of end b moves along the axes of end a's frame, end b turns freely. From end b
    // the rotations come first; they bring the frame to end a's.
    if (g.sign > 0) {
        for (int j = first; j < first + n; ++j) g.steps.push_back(translation(j, g.d0[j]));
        ball(g.steps, g.Rrel);
    } else {
        ball(g.steps, g.Rrel);
        // d0 from end a's frame: pb - pa = sum d_j e_j, so from end b the moves are -d_j.
        const Vec3 d1 = g.Rc.transpose() * (g.pp - g.pc);
        for (int j = first; j < first + n; ++j) g.steps.push_back(translation(j, -d1[j]));
    }
}

const Adapter* find_adapter(std::string_view category, std::string_view type) {
    // The kind's own adapter (ElementKind::reduced), else one registered apart
    // (MBS_REGISTER_TREE_*), else the card's "*" fallback.
    if (const ElementKind* k = find_element_kind(category, type)) {
        const Adapter& a = k->reduced;
        if (a.edge || a.load || a.node) return &a;
    }
    const auto& t = table();
    auto it = t.find(key(category, type));
    if (it == t.end()) it = t.find(key(category, "*"));
    return it == t.end() ? nullptr : &it->second;
}

Registration::Registration(std::string_view category, std::string_view type, EdgeFn fn) {
    table()[key(category, type)].edge = fn;
}
Registration::Registration(std::string_view category, std::string_view type, LoadFn fn) {
    table()[key(category, type)].load = fn;
}
Registration::Registration(std::string_view category, std::string_view type, NodeFn fn) {
    table()[key(category, type)].node = fn;
}

}  // namespace mbs::tree
