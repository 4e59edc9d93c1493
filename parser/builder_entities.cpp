// Node and element cards (handed to the registered readers), `driven:` and `output:`.
#include <map>
#include <stdexcept>
#include <string_view>

#include "core/driven_spec.hpp"
#include "core/registry.hpp"
#include "parser/builder_impl.hpp"

namespace mbs::parser {

namespace {

// `output: <nodes>, accelerations, ...`: the node also writes XPP, OmegaP. The flag is in the
// node's typed spec (NodeSpec, core/model.hpp); every node kind has one.
void set_output_accelerations(EntityDesc& e) {
    const auto* s = dynamic_cast<const NodeSpec*>(e.spec.get());
    if (!s) throw std::logic_error(e.category + " node without a NodeSpec");
    e.spec = s->with_output_accelerations();
}

// The reader of a registered kind (core/registry.hpp), nullptr if none; the subtypes that have one.
EntityReaderFn reader_of(const KeywordTable<ElementKind>& kinds, std::string_view subtype) {
    const ElementKind* k = kinds.find(subtype);
    return k ? k->read : nullptr;
}
std::vector<std::string> read_names(const KeywordTable<ElementKind>& kinds) {
    std::vector<std::string> v;
    for (const std::string& n : kinds.names())
        if (reader_of(kinds, n)) v.push_back(n);
    return v;
}

}  // namespace

void Builder::output_card(DeckReader& r, bool nodes) {
    // output: <type>, {labels... | range, a, b};
    std::string type = normalize_keyword(
        r.keyword({"structural", "abstract", "electric", "hydraulic", "parameter", "thermal",
                   "joint", "joints", "body", "rigid bodies", "beam", "beams", "force", "forces",
                   "couple", "genel", "genels", "gravity", "inertia"},
                  "output type"));
    // `output: structural, accelerations, ...`: those nodes also write XPP, OmegaP.
    const bool accelerations = nodes && r.accept("accelerations");
    static const std::map<std::string, std::string> canon = {
        {"joints", "joint"}, {"rigidbodies", "body"}, {"beams", "beam"},
        {"forces", "force"}, {"genels", "genel"},     {"couple", "force"}};
    if (auto it = canon.find(type); it != canon.end()) type = it->second;
    auto mark = [&](long l, const SourceLoc& a) {
        auto& list = nodes ? st_.model.nodes : st_.model.elements;
        for (auto& e : list)
            if (normalize_keyword(e.category) == type && e.label == l) {
                e.output = true;
                if (accelerations) set_output_accelerations(e);
                return;
            }
        throw InputError(a, "output: unknown " + type + " " + std::to_string(l));
    };
    if (r.accept("range")) {
        long a = r.label("first label"), b = r.label("last label");
        auto& list = nodes ? st_.model.nodes : st_.model.elements;
        for (auto& e : list)
            if (normalize_keyword(e.category) == type && e.label >= a && e.label <= b) {
                e.output = true;
                if (accelerations) set_output_accelerations(e);
            }
    } else {
        while (!r.at_end()) {
            SourceLoc a = r.loc();
            mark(r.label("label"), a);
        }
    }
    r.finish();
}

void Builder::node_card(const std::string& name, DeckReader& r) {
    SourceLoc at = r.card_loc();
    if (name == "output") return output_card(r, true);
    auto& reg = Registry::instance();
    auto it = reg.nodes.find(name);
    if (it == reg.nodes.end()) {
        std::vector<std::string> known;
        for (const auto& [card, kinds] : reg.nodes) known.push_back(card);
        known.emplace_back("output");
        std::string near = closest_match(name, known);
        throw InputError(at, "unknown node type '" + name + "'",
                         near.empty() ? "" : "did you mean '" + near + "'?");
    }
    EntityDesc e;
    e.category = name;
    e.loc = at;
    std::string counter = name + " nodes";
    count(r, counter, at);
    SourceLoc lab = r.loc();
    e.label = r.label(name + " node label");
    claim_label(name, e.label, lab, name + " node");
    if (r.accept("name")) e.name = r.string("node name");
    EntityReaderFn fn = reader_of(it->second, "");
    if (!fn) {
        std::vector<std::string> names = read_names(it->second);
        std::string list;
        std::vector<std::string_view> dummy;
        std::string w = r.peek_word();
        for (const auto& n : names) {
            if (normalize_keyword(n) == w) {
                fn = reader_of(it->second, n);
                e.type = n;
                r.skip();
                break;
            }
            list += (list.empty() ? "" : ", ") + n;
        }
        if (!fn) {
            std::string near = w.empty() ? std::string{} : closest_match(w, names);
            r.error("unknown " + name + " node type" + (w.empty() ? std::string{} : " '" + w + "'"),
                    near.empty() ? "expected one of " + list : "did you mean '" + near + "'?");
        }
    }
    e.output = st_.model.control.outputs_by_default(counter);
    fn(r, e);
    if (r.accept("output")) e.output = r.boolean("output flag");
    r.finish();
    st_.model.nodes.push_back(std::move(e));
}

// driven: L, <drive>, {existing: <type>, L | <the element's card, label L>};  (MBDyn's driven
// elements: active while the drive is non-zero). The element is read as its own card would be
// (counted, label claimed); a "driven" entry with a DrivenSpec (core/model.hpp: the drive, the
// element) follows it. MBDyn's `hint, "..."`s (geometry re-read on activation) are kept in the
// spec with their locations; the runtime (elements/drives/driven_element.cpp) says which element
// takes which.
void Builder::driven_card(DeckReader& r) {
    SourceLoc at = r.card_loc(), label_at = r.loc();
    long label = r.label("driven element label");
    auto drive = r.drive("activity drive (the element is active while it is non-zero)");
    std::vector<DrivenSpec::Hint> hints;
    while (r.accept("hint")) {
        DrivenSpec::Hint h;
        h.loc = r.loc();
        h.text = r.string("hint, e.g. \"offset{1}\"");
        std::string t = h.text;
        for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        bool ok = false;
        for (const char* k : {"offset{", "hinge{", "position-hinge{", "orientation-hinge{"})
            ok = ok || t == std::string(k) + "1}" || t == std::string(k) + "2}";
        if (!ok)
            throw InputError(h.loc, "unknown driven element hint \"" + h.text + "\"",
                             "hints: offset{1|2}, hinge{1|2}, position-hinge{1|2}, "
                             "orientation-hinge{1|2} (drive hints are not supported)");
        hints.push_back(std::move(h));
    }
    if (r.position() >= r.size() || !r.view(r.position()).nested)
        r.error("expected the driven element: 'existing: <type>, <label>' or its card",
                "e.g. 'driven: 3, step, 1., 1., 0., joint: 3, revolute pin, ...;'");
    const ast::Card& inner = *r.view(r.position()).nested;
    r.skip_to(r.position() + 1);
    r.finish();
    DeckReader ir(st_, r.file(), inner, 0);
    std::string type = normalize_keyword(inner.description);
    EntityRef ref;
    if (type == "existing") {
        SourceLoc type_at = ir.loc();
        std::string t = ir.peek_word();
        ir.skip();
        SourceLoc el_at = ir.loc();
        long l = ir.label("element label");
        ir.finish();
        const EntityDesc* e = nullptr;
        for (const auto& x : st_.model.elements)
            if (normalize_keyword(x.category) == t && x.label == l) e = &x;
        if (!e)
            ir.error_at(t.empty() ? type_at : el_at,
                        (t.empty() ? "element" : t) + " " + std::to_string(l) + " is not defined",
                        "drive an element defined before the driven card");
        ref = EntityRef{e->category, l};
    } else {
        if (type == "driven")
            throw InputError(SourceLoc{&r.file(), inner.begin, inner.end},
                             "a driven element cannot drive another driven element");
        element_card(type, ir);
        const EntityDesc& e = st_.model.elements.back();
        ref = EntityRef{e.category, e.label};
    }
    if (ref.label != label)
        r.error_at(label_at,
                   "driven label " + std::to_string(label) + " differs from the label " +
                       std::to_string(ref.label) + " of the element it drives",
                   "MBDyn requires the same label");
    for (const auto& x : st_.model.elements) {
        if (x.category != "driven") continue;
        const EntityRef& other = x.spec_as<DrivenSpec>().element;
        if (other.label == ref.label && other.category == ref.category)
            r.error_at(label_at, ref.category + " " + std::to_string(label) + " is driven already");
    }
    auto spec = std::make_shared<DrivenSpec>();
    spec->drive = std::move(drive);
    spec->element = ref;
    spec->hints = std::move(hints);
    EntityDesc d;
    d.category = "driven";
    d.label = label;
    d.loc = at;
    d.spec = std::move(spec);
    st_.model.elements.push_back(std::move(d));
}

namespace {

// MBDyn's element cards that mbsolve refuses by name (any other unknown card is "unknown element
// type" with the nearest known name): aerodynamics, hydraulics and electric networks are out of
// scope; the rest are deformable or generic elements not built yet.
struct RefusedElementCard {
    std::string_view card;  // as MBDyn's manual writes it
    bool out_of_scope;
};

const RefusedElementCard* refused_element_card(const std::string& name) {
    static const RefusedElementCard table[] = {
        {"aerodynamic body", true},
        {"aerodynamic beam2", true},
        {"aerodynamic beam3", true},
        {"aerodynamic beam", true},
        {"aerodynamic external", true},
        {"aerodynamic external modal", true},
        {"aeromodal", true},
        {"aircraft instruments", true},
        {"air properties", true},
        {"generic aerodynamic force", true},
        {"induced velocity", true},
        {"rotor", true},
        {"hydraulic", true},
        {"electric", true},
        {"loadable", false},
        {"plate", false},
        {"shell4", false},
        {"shell4eas", false},
        {"shell4easans", false},
        {"membrane4", false},
        {"membrane4eas", false},
        {"bulk", false},
        {"external", false},
    };
    for (const RefusedElementCard& x : table)
        if (normalize_keyword(x.card) == name) return &x;
    return nullptr;
}

}  // namespace

void Builder::element_card(const std::string& name, DeckReader& r) {
    SourceLoc at = r.card_loc();
    if (name == "output") return output_card(r, false);
    if (name == "driven") return driven_card(r);
    auto& reg = Registry::instance();
    auto ci = reg.element_cards.find(name);
    if (ci == reg.element_cards.end()) {
        if (name == "userdefined")
            throw InputError(at, "no module loaded so far defines 'user defined' elements",
                             "load the module first: 'module load: \"name\";'");
        if (const RefusedElementCard* x = refused_element_card(name))
            throw InputError(
                at,
                "'" + std::string(x->card) + "' elements " +
                    (x->out_of_scope ? "are out of scope for mbsolve" : "are not supported yet"),
                x->out_of_scope ? "mbsolve models no aerodynamics, hydraulics or "
                                  "electric networks; remove the card"
                                : std::string());
        std::vector<std::string> known;
        for (const auto& [k, _] : reg.element_cards) known.push_back(k);
        std::string near = closest_match(name, known);
        throw InputError(at, "unknown element type '" + name + "'",
                         near.empty() ? "" : "did you mean '" + near + "'?");
    }
    const ElementCard& info = ci->second;
    EntityDesc e;
    e.category = name;
    e.loc = at;
    count(r, info.count.empty() ? info.label_space : info.count, at);
    if (info.labelled) {
        SourceLoc lab = r.loc();
        e.label = r.label(name + " label");
        claim_label(info.label_space, e.label, lab, name);
        if (r.accept("name")) e.name = r.string("element name");
    }
    auto ti = reg.elements.find(name);
    EntityReaderFn fn = nullptr;
    if (ti != reg.elements.end()) {
        if (!info.has_subtype)
            fn = reader_of(ti->second, "");
        else {
            std::string w = r.peek_word();
            auto names = read_names(ti->second);
            for (const auto& n : names)
                if (normalize_keyword(n) == w) {
                    fn = reader_of(ti->second, n);
                    e.type = n;
                    r.skip();
                    break;
                }
            if (!fn) {
                std::string near = w.empty() ? std::string{} : closest_match(w, names);
                if (r.at_end()) r.error("missing " + name + " type: the card ends here");
                r.error("unknown " + name + " type" + (w.empty() ? std::string{} : " '" + w + "'"),
                        near.empty() ? "" : "did you mean '" + near + "'?");
            }
        }
    }
    if (!fn) throw InputError(at, "'" + name + "' elements are not supported yet");
    e.output =
        st_.model.control.outputs_by_default(info.count.empty() ? info.label_space : info.count);
    fn(r, e);
    if (r.accept("output")) e.output = r.boolean("output flag");
    r.finish();
    st_.model.elements.push_back(std::move(e));
}

}  // namespace mbs::parser
