// Control data (`begin: control data;`) into the counters (Model::declared_counts) and the typed
// settings Model::control (core/settings.hpp).
#include "parser/builder_impl.hpp"

namespace mbs::parser {

void Builder::control_card(const std::string& name, DeckReader& r) {
    Props& c = st_.model.control;
    SourceLoc at = r.card_loc();
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
            throw InputError(at, "'" + counter + "' is given twice");
        st_.model.declared_counts[key] = n;
        r.finish();
        return;
    }
    if (name == "gravity" || name == "airproperties") {
        c.set(name == "gravity" ? "gravity" : "air properties", true);
    } else if (name == "skipinitialjointassembly") {
        c.set("skip initial joint assembly", true);
    } else if (name == "use") {
        // Rigid bodies (with their gravity load), forces and beams take part in the initial
        // assembly when listed; the other kinds have nothing that could (no such element is
        // supported) or act only through the bodies, and are named in a warning.
        std::string list;
        std::vector<std::pair<std::string, SourceLoc>> items;
        while (!r.at_end() && !r.peek("in assembly")) {
            SourceLoc a = r.loc();
            items.emplace_back(r.keyword({"rigid bodies", "gravity", "forces", "beams", "plates",
                                          "aerodynamic elements", "loadable elements"},
                                         "element type"),
                               a);
            list += (list.empty() ? "" : ", ") + items.back().first;
        }
        r.expect("in assembly");
        const bool bodies = list.find("rigid bodies") != std::string::npos;
        for (const auto& [k, a] : items) {
            if (k == "gravity" && !bodies)
                r.warn_at(a,
                          "'gravity' in assembly is ignored: gravity acts in the initial assembly "
                          "through the rigid "
                          "bodies; list 'rigid bodies' as well");
            else if (k == "plates" || k == "aerodynamic elements" || k == "loadable elements")
                r.warn_at(a, "'" + k +
                                 "' in assembly is ignored: no such element takes part in the "
                                 "initial assembly");
        }
        c.set("use in assembly", list);
    } else if (name == "initialstiffness" || name == "stiffness") {
        double kp = r.nonnegative("position stiffness");
        c.set("initial stiffness", kp);
        c.set("initial velocity stiffness", r.at_end() ? kp : r.nonnegative("velocity stiffness"));
    } else if (name == "omegarotates") {
        throw InputError(at, "'omega rotates' is not supported yet", "remove the card");
    } else if (name == "tolerance" || name == "initialtolerance") {
        c.set("assembly tolerance", r.nonnegative("initial assembly tolerance"));
    } else if (name == "maxiterations" || name == "maxinitialiterations") {
        c.set("assembly max iterations", r.integer("initial assembly max iterations"));
    } else if (name == "epsilon") {
        throw InputError(at, "'epsilon' of the initial assembly is not supported yet",
                         "remove the card");
    } else if (name == "defaultoutput") {
        std::string list;
        while (!r.at_end()) {
            SourceLoc a = r.loc();
            if (r.accept("reference frames") || r.accept("drive callers")) {
                r.warn_at(a,
                          "this output type is ignored: mbsolve writes no reference-frame (.rfm) "
                          "or drive-caller (.drv) file");
                continue;
            }
            list += (list.empty() ? "" : ", ") + r.keyword({"all",
                                                            "none",
                                                            "structural nodes",
                                                            "electric nodes",
                                                            "abstract nodes",
                                                            "hydraulic nodes",
                                                            "parameter nodes",
                                                            "thermal nodes",
                                                            "rigid bodies",
                                                            "joints",
                                                            "beams",
                                                            "plates",
                                                            "forces",
                                                            "genels",
                                                            "gravity",
                                                            "inertia",
                                                            "aerodynamic elements",
                                                            "induced velocity elements",
                                                            "electric elements",
                                                            "hydraulic elements",
                                                            "bulk elements",
                                                            "loadable elements",
                                                            "output elements",
                                                            "reference frames",
                                                            "accelerations",
                                                            "drive callers"},
                                                           "output type");
        }
        c.set("default output", list);
    } else if (name == "outputfrequency") {
        r.warn_at(at, "'output frequency' is deprecated; use 'output meter'");
        SourceLoc a = r.loc();
        long every = r.integer("output frequency");
        if (every < 1)
            throw InputError(a, "output frequency must be at least 1 (every step), got " +
                                    std::to_string(every));
        c.set("output frequency", every);
    } else if (name == "outputmeter") {
        c.set("output meter", r.drive("output meter"));
    } else if (name == "outputprecision") {
        SourceLoc a = r.loc();
        long p = r.integer("output precision");
        if (p < 1 || p > 17)
            throw InputError(a, "output precision must be between 1 and 17 digits");
        c.set("output precision", p);
    } else if (name == "outputresults") {
        std::string list;
        while (!r.at_end())
            list += (list.empty() ? "" : ", ") +
                    r.keyword({"netcdf", "sync", "no text", "notext", "hdf5"}, "output format");
        c.set("output results", list);
    } else if (name == "defaultorientation") {
        c.set("default orientation", r.keyword({"euler123", "euler313", "euler321",
                                                "orientation vector", "orientation matrix"},
                                               "orientation description"));
    } else if (name == "model") {
        c.set("model", r.keyword({"static"}, "model type"));
    } else if (name == "title") {
        c.set("title", r.string("title"));
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
    } else if (name == "rigidbodykinematics") {
        throw InputError(at, "'rigid body kinematics' is not supported yet", "remove the card");
    } else {
        std::vector<std::string> known = counter_names();
        for (const char* k : {"gravity", "air properties", "skip initial joint assembly", "use",
                              "initial stiffness", "omega rotates", "tolerance", "max iterations",
                              "epsilon", "default output", "output meter", "output precision",
                              "output results", "default orientation", "model", "title", "print"})
            known.emplace_back(k);
        std::string near = closest_match(name, known);
        throw InputError(at, "unknown card '" + name + "' in the control data block",
                         near.empty() ? "" : "did you mean '" + near + "'?");
    }
    r.finish();
}

}  // namespace mbs::parser
