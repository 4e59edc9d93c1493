// Self-registering keyword tables: a card reader registers itself from its own .cpp file, so
// adding a node, element, drive or law type touches no central switch.
//   MBS_REGISTER_ELEMENT("joint", "revolute hinge", read_revolute_hinge);
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/reader.hpp"

namespace mbs {

using EntityReaderFn = void (*)(Reader&, EntityDesc&);
using DriveReaderFn = void (*)(Reader&, DriveSpec&);
using LawReaderFn = void (*)(Reader&, LawSpec&);

// Card-level facts about an element card ("joint", "body", ...).
struct ElementCard {
    std::string count;        // control-data counter it is checked against ("joints"); "" = a flag
    std::string label_space;  // labels are unique within it ("force" and "couple" share "force")
    bool labelled = true;     // false for single-instance cards (gravity)
    bool has_subtype = true;  // true: "joint: L, <subtype>, ..."
};

// A keyword registry; keys are normalised (no blanks, lower case).
template <class Fn>
class KeywordTable {
  public:
    void add(const std::string& keyword, Fn fn) {
        table_[normalize_keyword(keyword)] = {keyword, fn};
    }
    const Fn* find(std::string_view keyword) const {
        auto it = table_.find(normalize_keyword(keyword));
        return it == table_.end() ? nullptr : &it->second.second;
    }
    std::vector<std::string> names() const {
        std::vector<std::string> v;
        for (const auto& [k, p] : table_) v.push_back(p.first);
        return v;
    }

  private:
    std::map<std::string, std::pair<std::string, Fn>> table_;
};

struct Registry {
    std::map<std::string, ElementCard> element_cards;              // by normalised card name
    std::map<std::string, KeywordTable<EntityReaderFn>> elements;  // card -> subtype -> reader
    std::map<std::string, KeywordTable<EntityReaderFn>> nodes;     // card -> subtype -> reader
    KeywordTable<DriveReaderFn> drives;
    KeywordTable<LawReaderFn> laws;

    static Registry& instance();
};

struct Registration {
    Registration(const char* card, const ElementCard& info);  // element card
    Registration(const char* kind, const char* card, const char* subtype, EntityReaderFn fn);
    Registration(const char* keyword, DriveReaderFn fn);
    Registration(const char* keyword, LawReaderFn fn);
};

#define MBS_CONCAT2(a, b) a##b
#define MBS_CONCAT(a, b) MBS_CONCAT2(a, b)
#define MBS_UNIQUE(name) MBS_CONCAT(name, __LINE__)
// An element card: MBS_REGISTER_ELEMENT_CARD("joint", {"joints", "joint", true, true});
#define MBS_REGISTER_ELEMENT_CARD(card, ...) \
    static const ::mbs::Registration MBS_UNIQUE(mbs_reg_)(card, ::mbs::ElementCard __VA_ARGS__)
// An element type; subtype "" for cards without one (body).
#define MBS_REGISTER_ELEMENT(card, subtype, fn) \
    static const ::mbs::Registration MBS_UNIQUE(mbs_reg_)("element", card, subtype, fn)
// A node type: MBS_REGISTER_NODE("structural", "dynamic", read_dynamic_node);
#define MBS_REGISTER_NODE(card, subtype, fn) \
    static const ::mbs::Registration MBS_UNIQUE(mbs_reg_)("node", card, subtype, fn)
#define MBS_REGISTER_DRIVE(keyword, fn)                            \
    static const ::mbs::Registration MBS_UNIQUE(mbs_reg_)(keyword, \
                                                          static_cast<::mbs::DriveReaderFn>(fn))
#define MBS_REGISTER_LAW(keyword, fn)                              \
    static const ::mbs::Registration MBS_UNIQUE(mbs_reg_)(keyword, \
                                                          static_cast<::mbs::LawReaderFn>(fn))

}  // namespace mbs
