// Self-registering keyword tables: an element or node kind registers itself, once, from the file
// that holds its reader and its runtime, so adding one touches no central switch:
//   MBS_REGISTER_ELEMENT_KIND("joint", "revolute hinge",
//                             {.read = read_revolute_hinge, .make = make_hinge<true>,
//                              .reduced = {.edge = revolute_hinge_edge}});
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/constitutive_law.hpp"
#include "core/reader.hpp"
#include "core/tree_edge.hpp"

namespace mbs {

class Element;
class BuildContext;

using EntityReaderFn = void (*)(Reader&, EntityDesc&);
// The DAE runtime of a kind (core/element.hpp). It may return nullptr for a card that adds
// nothing to the equations (bind).
using ElementFactoryFn = std::unique_ptr<Element> (*)(const EntityDesc&, BuildContext&);

// Everything mbsolve knows about one element or node kind, keyed by its card and subtype. An
// aggregate, so that a kind names only the members it has (designated initializers); the output
// schema is the element's output_schema() (core/element.hpp).
struct ElementKind {
    // The card reader (Builder::element_card / node_card): the card's arguments into the
    // EntityDesc's typed spec (ElementSpec, core/model.hpp).
    EntityReaderFn read = nullptr;
    // Why there is no reader (the card is read elsewhere, e.g. by the builder itself).
    const char* no_read = nullptr;
    // The DAE runtime (Engine::build_elements). For a node kind: the runtime element built for
    // each node of the kind (a scalar node's unknowns; a dynamic structural node's momenta).
    ElementFactoryFn make = nullptr;
    // Why there is no runtime: reduced path only, refused, or nothing to build. An element of a
    // kind without one stops the DAE run at its card ("... is not supported by the time
    // integrator yet"); a node without one is a structural node (Engine::build_nodes) or
    // refused there.
    const char* no_make = nullptr;
    // The relative-coordinate path's adapter (core/tree_edge.hpp): the kind as a tree edge, a
    // load or a node state, for example .reduced = {.edge = revolute_hinge_edge}. Without one,
    // tree::find_adapter() falls back to the card's "*" adapter (which says what the path
    // supports) or to none.
    tree::Adapter reduced{};
};
using DriveReaderFn = void (*)(Reader&, DriveSpec&);
using LawReaderFn = void (*)(Reader&, LawSpec&);

// Everything mbsolve knows about one drive caller keyword ("sine"; the scalar functions of the
// `scalar function:` card are registered as "scalar function <type>"): its reader and its
// runtime, registered once, side by side (elements/drives/*_drives.cpp).
struct DriveKind {
    // The drive caller's arguments into the DriveSpec (its typed `args`, children;
    // DeckReader::drive).
    DriveReaderFn read = nullptr;
    // The runtime drive (make_drive, core/drive.hpp).
    DriveFactoryFn make = nullptr;
    // Why there is no runtime (a reader that refuses the keyword, a drive not supported at run
    // time yet: make_drive then stops at the drive, "... is not supported at run time yet").
    const char* no_make = nullptr;
};

// The runtime factories of a constitutive law, one per dimension (nullptr: not defined for that
// dimension). MBS_LAW_FACTORIES(make_linear): a function template on N, for N = 1, 3, 6.
struct LawFactories {
    LawFactoryFn<1> n1 = nullptr;
    LawFactoryFn<3> n3 = nullptr;
    LawFactoryFn<6> n6 = nullptr;
};
#define MBS_LAW_FACTORIES(tmpl) \
    ::mbs::LawFactories { &tmpl<1>, &tmpl<3>, &tmpl<6> }

// Everything mbsolve knows about one constitutive law keyword ("linear elastic"): its reader and
// its runtime (make_law, core/constitutive_law.hpp), registered once, side by side
// (elements/laws/*_laws.cpp).
struct LawKind {
    LawReaderFn read = nullptr;
    LawFactories make{};
    // Why there is no runtime: the reader refuses the keyword, or stores the law under another
    // keyword (the `isotropic` spellings), whose runtime is used.
    const char* no_make = nullptr;
};

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
    std::map<std::string, ElementCard> element_cards;           // by normalised card name
    std::map<std::string, KeywordTable<ElementKind>> elements;  // card -> subtype -> kind
    std::map<std::string, KeywordTable<ElementKind>> nodes;     // card -> subtype -> kind
    KeywordTable<DriveKind> drives;  // drive callers and scalar functions
    KeywordTable<LawKind> laws;      // constitutive laws

    static Registry& instance();
};

// The kind of an element card ("joint", "revolute hinge"; subtype "" for cards without one) or
// of a node card ("structural", "dynamic"; "abstract", ""), or nullptr. The one lookup the
// builder and the Engine share.
const ElementKind* find_element_kind(std::string_view card, std::string_view subtype);
const ElementKind* find_node_kind(std::string_view card, std::string_view subtype);

enum class KindTable { element, node };

struct Registration {
    Registration(const char* card, const ElementCard& info);  // element card
    Registration(KindTable table, const char* card, const char* subtype, const ElementKind& kind);
    Registration(const char* keyword, const DriveKind& kind);
    Registration(const char* keyword, const LawKind& kind);
};

#define MBS_CONCAT2(a, b) a##b
#define MBS_CONCAT(a, b) MBS_CONCAT2(a, b)
#define MBS_UNIQUE(name) MBS_CONCAT(name, __LINE__)
// An element card: MBS_REGISTER_ELEMENT_CARD("joint", {"joints", "joint", true, true});
#define MBS_REGISTER_ELEMENT_CARD(card, ...) \
    static const ::mbs::Registration MBS_UNIQUE(mbs_reg_)(card, ::mbs::ElementCard __VA_ARGS__)
// An element kind, reader and runtime in one registration; subtype "" for cards without one:
//   MBS_REGISTER_ELEMENT_KIND("body", "", {.read = read_body, .make = make_body});
//   MBS_REGISTER_ELEMENT_KIND("joint", "x", {.read = read_x, .no_make = "reduced path only"});
#define MBS_REGISTER_ELEMENT_KIND(card, subtype, ...)                                      \
    static const ::mbs::Registration MBS_UNIQUE(mbs_reg_)(::mbs::KindTable::element, card, \
                                                          subtype, ::mbs::ElementKind __VA_ARGS__)
// A node kind: MBS_REGISTER_NODE_KIND("abstract", "", {.read = read_scalar, .make = ...});
#define MBS_REGISTER_NODE_KIND(card, subtype, ...)                                               \
    static const ::mbs::Registration MBS_UNIQUE(mbs_reg_)(::mbs::KindTable::node, card, subtype, \
                                                          ::mbs::ElementKind __VA_ARGS__)
// A drive caller, reader and runtime in one registration:
//   MBS_REGISTER_DRIVE_KIND("sine", {.read = read_sine_cosine, .make = make_sine});
#define MBS_REGISTER_DRIVE_KIND(keyword, ...) \
    static const ::mbs::Registration MBS_UNIQUE(mbs_reg_)(keyword, ::mbs::DriveKind __VA_ARGS__)
// A constitutive law, reader and runtime (per dimension) in one registration:
//   MBS_REGISTER_LAW_KIND("linear elastic",
//                         {.read = read_linear_elastic, .make = MBS_LAW_FACTORIES(make_linear)});
#define MBS_REGISTER_LAW_KIND(keyword, ...) \
    static const ::mbs::Registration MBS_UNIQUE(mbs_reg_)(keyword, ::mbs::LawKind __VA_ARGS__)

}  // namespace mbs
