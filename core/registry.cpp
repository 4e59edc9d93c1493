// Keyword registries filled by static registration objects.
#include "core/registry.hpp"

#include <cstring>

namespace mbs {

Registry& Registry::instance() {
    static Registry r;
    return r;
}

Registration::Registration(const char* card, const ElementCard& info) {
    Registry::instance().element_cards[normalize_keyword(card)] = info;
}

Registration::Registration(const char* kind, const char* card, const char* subtype,
                           EntityReaderFn fn) {
    auto& reg = Registry::instance();
    auto& table = std::strcmp(kind, "node") == 0 ? reg.nodes : reg.elements;
    table[normalize_keyword(card)].add(subtype, fn);
}

Registration::Registration(const char* keyword, DriveReaderFn fn) {
    Registry::instance().drives.add(keyword, fn);
}

Registration::Registration(const char* keyword, LawReaderFn fn) {
    Registry::instance().laws.add(keyword, fn);
}

}  // namespace mbs
