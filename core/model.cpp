// Property lists and model look-ups (used while building, never inside the Newton loop).
#include "core/model.hpp"

#include "core/driven_spec.hpp"

namespace mbs {

void Props::set(std::string key, PropValue v) {
    for (auto& [k, old] : items_)
        if (k == key) {
            old = std::move(v);
            return;
        }
    items_.emplace_back(std::move(key), std::move(v));
}

const PropValue* Props::find(std::string_view key) const {
    for (const auto& [k, v] : items_)
        if (k == key) return &v;
    return nullptr;
}

bool Props::has(std::string_view key) const { return find(key) != nullptr; }

Props DriveSpec::view() const {
    Props p;
    if (args) args->describe(p);
    return p;
}

Props LawSpec::view() const {
    Props p;
    if (args) args->describe(p);
    return p;
}

Props EntityDesc::view() const {
    Props p;
    if (spec) spec->describe(p);
    return p;
}

void DrivenSpec::describe(Props& out) const {
    out.set("drive", drive);
    out.set("element", element);
    for (std::size_t i = 0; i < hints.size(); ++i) {
        auto h = std::make_shared<DriveSpec>();
        h->type = hints[i].text;
        h->loc = hints[i].loc;
        out.set("hint " + std::to_string(i + 1), std::shared_ptr<const DriveSpec>(std::move(h)));
    }
}

const EntityDesc* Model::find_node(std::string_view category, long label) const {
    for (const auto& n : nodes)
        if (n.category == category && n.label == label) return &n;
    return nullptr;
}

const EntityDesc* Model::find_element(std::string_view category, long label) const {
    for (const auto& e : elements)
        if (e.category == category && e.label == label) return &e;
    return nullptr;
}

}  // namespace mbs
