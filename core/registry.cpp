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

// A kind registered in parts (MBS_REGISTER_ELEMENT and MBS_REGISTER_ELEMENT_RUNTIME, until they
// are gone) is merged: each part sets the members it has.
Registration::Registration(KindTable t, const char* card, const char* subtype,
                           const ElementKind& kind) {
    auto& reg = Registry::instance();
    auto& table = (t == KindTable::node ? reg.nodes : reg.elements)[normalize_keyword(card)];
    ElementKind k = kind;
    if (const ElementKind* old = table.find(subtype)) {
        if (!k.read) k.read = old->read;
        if (!k.no_read) k.no_read = old->no_read;
        if (!k.make) k.make = old->make;
        if (!k.no_make) k.no_make = old->no_make;
        if (!k.reduced.edge && !k.reduced.load && !k.reduced.node) k.reduced = old->reduced;
    }
    table.add(subtype, k);
}

Registration::Registration(const char* keyword, DriveReaderFn fn) {
    Registry::instance().drives.add(keyword, fn);
}

Registration::Registration(const char* keyword, LawReaderFn fn) {
    Registry::instance().laws.add(keyword, fn);
}

}  // namespace mbs
