// Keyword registries filled by static registration objects.
#include "core/registry.hpp"

namespace mbs {

Registry& Registry::instance() {
    static Registry r;
    return r;
}

Registration::Registration(const char* card, const ElementCard& info) {
    Registry::instance().element_cards[normalize_keyword(card)] = info;
}

namespace {
const ElementKind* find_kind(const std::map<std::string, KeywordTable<ElementKind>>& tables,
                             std::string_view card, std::string_view subtype) {
    auto it = tables.find(normalize_keyword(card));
    return it == tables.end() ? nullptr : it->second.find(subtype);
}
}  // namespace

const ElementKind* find_element_kind(std::string_view card, std::string_view subtype) {
    return find_kind(Registry::instance().elements, card, subtype);
}

const ElementKind* find_node_kind(std::string_view card, std::string_view subtype) {
    return find_kind(Registry::instance().nodes, card, subtype);
}

Registration::Registration(KindTable t, const char* card, const char* subtype,
                           const ElementKind& kind) {
    auto& reg = Registry::instance();
    (t == KindTable::node ? reg.nodes : reg.elements)[normalize_keyword(card)].add(subtype, kind);
}

Registration::Registration(const char* keyword, const DriveKind& kind) {
    Registry::instance().drives.add(keyword, kind);
}

Registration::Registration(const char* keyword, const LawKind& kind) {
    Registry::instance().laws.add(keyword, kind);
}

}  // namespace mbs
