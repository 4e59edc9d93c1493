// Small reading helpers shared by the drive-caller readers (docs/deck-language.md section 7).
#pragma once

#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/reader.hpp"
#include "core/registry.hpp"
#include "core/scalar_function_args.hpp"

namespace mbs::drives {

inline constexpr double forever = std::numeric_limits<double>::infinity();

// A number as a deck would write it (shortest %g form); +inf reads "forever".
inline std::string num(double v) {
    if (v == forever) return "forever";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

// A real with a default for an empty field (",,"), as MBDyn's GetReal(default) does.
inline double real_or(Reader& r, std::string_view what, double fallback) {
    if (r.peek_empty()) {
        r.skip();
        return fallback;
    }
    return r.real(what);
}

// `<label>, <type>` of an element read by a drive caller or a `bind` card: the type is an
// element card name ("joint", "body", ...; compared without blanks; "beam" also names beam2 and
// beam3 elements, MBDyn's single beam type), and the element must be defined before the card
// that reads it (`hint` says so in the error).
inline const EntityDesc& read_element_ref(Reader& r, const std::string& hint) {
    SourceLoc at = r.loc();
    long label = r.label("element label");
    SourceLoc type_at = r.loc();
    std::string type = r.peek_word();
    if (type.empty()) r.error("expected an element type (joint, body, force, ...)");
    r.skip();
    const EntityDesc* found = nullptr;
    for (const auto& x : r.model().elements)
        if (!found && x.label == label) {
            const std::string c = normalize_keyword(x.category);
            if (c == type || (type == "beam" && (c == "beam2" || c == "beam3"))) found = &x;
        }
    if (!found && !Registry::instance().element_cards.count(type))
        r.error_at(type_at, "unknown element type \"" + type + "\"");
    if (!found) r.error_at(at, type + " " + std::to_string(label) + " is not defined", hint);
    return *found;
}

// `{forever | t}`: +inf for the keyword, else the time.
inline double time_or_forever(Reader& r, std::string_view what) {
    if (r.accept("forever")) return forever;
    return r.real(what);
}

// A final time that may not precede the initial time `t0`.
inline double final_time(Reader& r, std::string_view what, double t0, std::string_view t0_name) {
    SourceLoc at = r.loc();
    double t1 = time_or_forever(r, what);
    if (t1 < t0)
        r.error_at(at, std::string(what) + " " + num(t1) + " is before the " +
                           std::string(t0_name) + " " + num(t0));
    return t1;
}

// An integer count that must be >= `min`, checked at the count.
inline long count_at_least(Reader& r, std::string_view what, long min) {
    SourceLoc at = r.loc();
    long n = r.integer(what);
    if (n < min)
        r.error_at(at, std::string(what) + " must be at least " + std::to_string(min) + ", got " +
                           std::to_string(n));
    return n;
}

// `steps, n` of the random and meter drives: MBDyn silently falls back to 1 for n <= 0; a clear
// error is better.
inline long read_steps(Reader& r) { return count_at_least(r, "number of steps", 1); }

// A count of items that take at least `args_per_item` arguments each: a count the rest of the
// card cannot hold is refused at the count, before anything is sized from it.
inline long count_of_items(Reader& r, std::string_view what, long min, long args_per_item) {
    SourceLoc at = r.loc();
    long n = count_at_least(r, what, min);
    auto left = static_cast<long>(r.remaining());
    if (n > left / args_per_item)
        r.error_at(at, std::string(what) + " " + std::to_string(n) + " needs " +
                           std::to_string(n * args_per_item) +
                           " more values, but the card has only " + std::to_string(left) +
                           " arguments left");
    return n;
}

// True when the next argument is there and reads as a value: not a keyword that ends an
// optional list (`end`, `prestress`, `prestrain`, or the name of a drive or law that follows).
inline bool next_is_value(const Reader& r) {
    if (r.at_end()) return false;
    if (r.peek_empty()) return true;
    std::string w = r.peek_word();
    if (w.empty()) return true;
    if (w == "end" || w == "prestress" || w == "prestrain") return false;
    const Registry& reg = Registry::instance();
    return !reg.drives.find(w) && !reg.laws.find(w);
}

// A scalar function used by a drive or a law: its name and, when the name is not that of an
// earlier `scalar function:` card, the inline definition that followed it.
struct ScalarFunctionRef {
    std::string name;
    std::shared_ptr<const DriveSpec> definition;  // null: the model's card of that name

    // The generic view: the name under `key`, the inline definition under `key + " definition"`.
    void describe(Props& out, const std::string& key) const {
        out.set(key, name);
        if (definition) out.set(key + " definition", definition);
    }
    // The function's spec: the inline definition, or the `scalar function:` card of that name
    // in `model` (null when there is none).
    const DriveSpec* spec(const Model* model) const {
        if (definition) return definition.get();
        if (!model) return nullptr;
        auto it = model->scalar_functions.find(name);
        return it == model->scalar_functions.end() ? nullptr : it->second.get();
    }
};

// `"name" [, <type>, <args>]` (MBDyn's ParseScalarFunction). A name not defined by an earlier
// `scalar function:` card must be followed by an inline definition (a type keyword, or a bare
// value for `const`); that definition is a DriveSpec of type "scalarfunction<type>" like the
// card's, whose ScalarFunctionArgs carry the name.
inline ScalarFunctionRef read_scalar_function(Reader& r) {
    SourceLoc at = r.loc();
    ScalarFunctionRef ref;
    ref.name = r.string("scalar function name");
    const std::string& name = ref.name;
    if (r.model().scalar_functions.count(name)) return ref;

    std::string word = r.at_end() ? std::string() : r.peek_word();
    const DriveKind* fn =
        word.empty() ? nullptr : Registry::instance().drives.find("scalar function " + word);
    if (!fn && !next_is_value(r))
        r.error_at(at, "scalar function \"" + name + "\" is not defined",
                   "define it first with: scalar function: \"" + name + "\", <type>, ...;");
    auto def = std::make_shared<DriveSpec>();
    def->loc = r.loc();
    const bool implicit_const = !fn;
    if (fn) {
        r.skip();
        def->type = normalize_keyword("scalar function " + word);
    } else {
        fn = Registry::instance().drives.find("scalar function const");
        def->type = "scalarfunctionconst";
    }
    if (!fn) r.error_at(def->loc, "scalar function types are not registered");
    if (implicit_const) {
        // An implicit `const` that does not read as a number (e.g. the next name) means the
        // name was meant as a reference: say so at the name.
        try {
            fn->read(r, *def);
        } catch (const InputError&) {
            r.error_at(at, "scalar function \"" + name + "\" is not defined",
                       "define it first with: scalar function: \"" + name + "\", <type>, ...;");
        }
    } else {
        fn->read(r, *def);
    }
    // The arguments fn->read just made for this definition (not shared yet) take its name.
    auto* args =
        dynamic_cast<ScalarFunctionArgs*>(std::const_pointer_cast<KindArgs>(def->args).get());
    if (!args)
        throw std::logic_error("scalar function kind '" + def->type +
                               "' does not read ScalarFunctionArgs");
    args->name = name;
    ref.definition = std::move(def);
    return ref;
}

}  // namespace mbs::drives
