// Control data (`begin: control data;`) into the counters (Model::declared_counts) and the typed
// settings Model::control (core/settings.hpp).
#include <algorithm>

#include "parser/builder_impl.hpp"

namespace mbs::parser {

// Control data's cards other than the counters: keyword and reader. Every card accepted here is
// stored in ControlSettings, or refused ("not supported yet"), or warned about and dropped where
// MBDyn treats it as cosmetic (parser/test/settings_keywords_test.cpp).
const std::vector<Builder::CardReader>& Builder::control_cards() {
    using B = Builder;
    auto flag = &B::control_flag_card, assembly = &B::assembly_card, out = &B::output_control_card,
         other = &B::control_misc_card;
    static const std::vector<CardReader> v = {
        {"gravity", flag},
        {"air properties", other},
        {"skip initial joint assembly", flag},
        {"use", [](B& b, const std::string&, DeckReader& r) { b.use_in_assembly_card(r); }},
        {"initial stiffness", assembly},
        {"stiffness", assembly},
        {"omega rotates", other},
        {"tolerance", assembly},
        {"initial tolerance", assembly},
        {"max iterations", assembly},
        {"max initial iterations", assembly},
        {"epsilon", other},
        {"default output",
         [](B& b, const std::string&, DeckReader& r) { b.default_output_card(r); }},
        {"output frequency", out},
        {"output meter", out},
        {"output precision", out},
        {"output results", out},
        {"default orientation", out},
        {"model", flag},
        {"title", out},
        {"print", other},
        {"default scale", other},
        {"default aerodynamic output", other},
        {"default beam output", other},
        {"make restart file", other},
        {"rigid body kinematics", other},
    };
    return v;
}

namespace {

// The types `default output` takes: all, none, the kinds counted in control data (counter_names())
// but the counters with no output of their own, then gravity and the outputs that are no
// entity kind.
const std::vector<std::string_view>& default_output_types() {
    static const std::vector<std::string_view> v = [] {
        std::vector<std::string_view> t = {"all", "none"};
        for (const std::string& c : counter_names())
            if (c != "rotors" && c != "external elements" && c != "joint regularizations" &&
                c != "file drivers")
                t.push_back(c);
        for (std::string_view x : {"gravity", "reference frames", "accelerations", "drive callers"})
            t.push_back(x);
        return t;
    }();
    return v;
}

}  // namespace

// A control-data counter (`joints: 3;`); false if `name` is none.
bool Builder::counter_card(const std::string& name, DeckReader& r) {
    for (const auto& counter : counter_names()) {
        if (normalize_keyword(counter) != name) continue;
        long n = 0;
        SourceLoc a = r.loc();
        if (!r.at_end()) n = r.integer(counter);
        if (n < 0) throw InputError(a, counter + " must not be negative");
        // Refused here, before anything is sized from it: far beyond what a direct sparse
        // solver can factor (the N = 1000 chain has 13000 unknowns).
        if (n > max_entity_count)
            throw InputError(a,
                             counter + ": " + std::to_string(n) +
                                 " is more than mbsolve accepts (" +
                                 std::to_string(max_entity_count) + ")",
                             "check the count; decks with more entities are not supported");
        std::string key = counter == "rotors" ? "induced velocity elements" : counter;
        if (st_.model.declared_counts.count(key))
            throw InputError(r.card_loc(), "'" + counter + "' is given twice");
        st_.model.declared_counts[key] = n;
        return true;
    }
    return false;
}

// gravity, skip initial joint assembly, model: static.
void Builder::control_flag_card(const std::string& name, DeckReader& r) {
    ControlSettings& c = st_.model.control;
    SourceLoc at = r.card_loc();
    if (name == "gravity") {
        c.order.set(c.gravity, true, at);
    } else if (name == "skipinitialjointassembly") {
        c.order.set(c.skip_initial_joint_assembly, true, at);
    } else {
        SourceLoc a = r.loc();
        r.keyword({"static"}, "model type");
        c.order.set(c.static_model, true, a);
    }
}

// use: <kind>, ..., in assembly;
void Builder::use_in_assembly_card(DeckReader& r) {
    ControlSettings& c = st_.model.control;
    // Rigid bodies (with their gravity load), forces and beams take part in the initial
    // assembly when listed; the other kinds have nothing that could (no such element is
    // supported) or act only through the bodies, and are named in a warning.
    std::vector<std::string> list;
    std::vector<SourceLoc> locs;
    SourceLoc first = r.loc();
    while (!r.at_end() && !r.peek("in assembly")) {
        locs.push_back(r.loc());
        list.push_back(r.keyword({"rigid bodies", "gravity", "forces", "beams", "plates",
                                  "aerodynamic elements", "loadable elements"},
                                 "element type"));
    }
    r.expect("in assembly");
    const bool bodies = std::find(list.begin(), list.end(), "rigid bodies") != list.end();
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string& k = list[i];
        if (k == "gravity" && !bodies)
            r.warn_at(locs[i],
                      "'gravity' in assembly is ignored: gravity acts in the initial assembly "
                      "through the rigid "
                      "bodies; list 'rigid bodies' as well");
        else if (k == "plates" || k == "aerodynamic elements" || k == "loadable elements")
            r.warn_at(locs[i], "'" + k +
                                   "' in assembly is ignored: no such element takes part in the "
                                   "initial assembly");
    }
    c.order.set(c.use_in_assembly, std::move(list), first);
}

// initial stiffness (stiffness), tolerance (initial tolerance), max iterations (max initial
// iterations): the initial assembly's.
void Builder::assembly_card(const std::string& name, DeckReader& r) {
    ControlSettings& c = st_.model.control;
    SourceLoc a = r.loc();
    if (name == "initialstiffness" || name == "stiffness") {
        double kp = r.nonnegative("position stiffness");
        c.order.set(c.initial_stiffness, kp, a);
        SourceLoc b = r.loc();
        c.order.set(c.initial_velocity_stiffness,
                    r.at_end() ? kp : r.nonnegative("velocity stiffness"), r.at_end() ? a : b);
    } else if (name == "tolerance" || name == "initialtolerance") {
        c.order.set(c.assembly_tolerance, r.nonnegative("initial assembly tolerance"), a);
    } else {
        c.order.set(c.assembly_max_iterations, r.integer("initial assembly max iterations"), a);
    }
}

// default output: <type>, ...;
void Builder::default_output_card(DeckReader& r) {
    ControlSettings& c = st_.model.control;
    std::vector<std::string> list;
    SourceLoc first = r.loc();
    while (!r.at_end()) {
        SourceLoc a = r.loc();
        if (r.accept("reference frames")) {
            r.warn_at(a,
                      "this output type is ignored: mbsolve writes no reference-frame (.rfm) file");
            continue;
        }
        if (r.accept("drive callers")) {  // for the drive caller cards after this one, as MBDyn
            st_.drive_caller_output = true;
            continue;
        }
        list.push_back(r.keyword_of(default_output_types(), "output type"));
    }
    c.order.set(c.default_output, std::move(list), first);
}

// output frequency, output meter, output precision, output results, default orientation, title.
void Builder::output_control_card(const std::string& name, DeckReader& r) {
    ControlSettings& c = st_.model.control;
    SourceLoc at = r.card_loc();
    SourceLoc a = r.loc();
    if (name == "outputfrequency") {
        r.warn_at(at, "'output frequency' is deprecated; use 'output meter'");
        long every = r.integer("output frequency");
        if (every < 1)
            throw InputError(a, "output frequency must be at least 1 (every step), got " +
                                    std::to_string(every));
        c.order.set(c.output_frequency, every, a);
    } else if (name == "outputmeter") {
        c.order.set(c.output_meter, r.drive("output meter"), a);
    } else if (name == "outputprecision") {
        long p = r.integer("output precision");
        if (p < 1 || p > 17)
            throw InputError(a, "output precision must be between 1 and 17 digits");
        c.order.set(c.output_precision, p, a);
    } else if (name == "outputresults") {
        std::vector<std::string> list;
        while (!r.at_end())
            list.push_back(
                r.keyword({"netcdf", "sync", "no text", "notext", "hdf5"}, "output format"));
        c.order.set(c.output_results, std::move(list), a);
    } else if (name == "defaultorientation") {
        c.order.set(c.default_orientation,
                    r.keyword({"euler123", "euler313", "euler321", "orientation vector",
                               "orientation matrix"},
                              "orientation description"),
                    a);
    } else {
        c.order.set(c.title, r.string("title"), a);
    }
}

// The cards that take a message of their own: cosmetic ones dropped with a warning, and refusals.
void Builder::control_misc_card(const std::string& name, DeckReader& r) {
    SourceLoc at = r.card_loc();
    if (name == "airproperties") {
        ignore_card(r, at, "air properties", "aerodynamic elements are not supported");
    } else if (name == "omegarotates") {
        throw InputError(at, "'omega rotates' is not supported yet", "remove the card");
    } else if (name == "epsilon") {
        throw InputError(at, "'epsilon' of the initial assembly is not supported yet",
                         "remove the card");
    } else if (name == "print") {
        ignore_card(r, at, "print",
                    "mbsolve does not print MBDyn's degree-of-freedom and equation tables");
    } else if (name == "defaultscale") {
        ignore_card(r, at, "default scale",
                    "it scales only scaled residual tests, which mbsolve does not run");
    } else if (name == "defaultaerodynamicoutput") {
        ignore_card(r, at, "default aerodynamic output", "aerodynamic elements are not supported");
    } else if (name == "defaultbeamoutput") {
        throw InputError(at, "'default beam output' is not supported yet",
                         "give 'custom output' on each beam instead");
    } else if (name == "makerestartfile") {
        throw InputError(at, "'make restart file' is not supported yet", "remove the card");
    } else {
        throw InputError(at, "'rigid body kinematics' is not supported yet", "remove the card");
    }
}

void Builder::control_card(const std::string& name, DeckReader& r) {
    if (counter_card(name, r)) {
        r.finish();
        return;
    }
    for (const auto& c : control_cards())
        if (normalize_keyword(c.keyword) == name) {
            c.read(*this, name, r);
            r.finish();
            return;
        }
    std::vector<std::string> known = counter_names();
    for (const auto& c : control_cards()) known.emplace_back(c.keyword);
    std::string near = closest_match(name, known);
    throw InputError(r.card_loc(), "unknown card '" + name + "' in the control data block",
                     near.empty() ? "" : "did you mean '" + near + "'?");
}

}  // namespace mbs::parser
