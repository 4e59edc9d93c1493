// Cards allowed anywhere in a deck (docs/deck-language.md 1): set, remark, include, exit, chdir,
// setenv, print symbol table, reference, drive caller, template drive caller, constitutive law,
// scalar function, module load, loadable path.
#include <filesystem>
#include <iostream>

#include "core/plugin/plugin.hpp"
#include "core/registry.hpp"
#include "parser/builder_impl.hpp"

namespace mbs::parser {

namespace fs = std::filesystem;

// The cards allowed anywhere: keyword (as users write it) and the member that reads it. Every card
// here is consumed, or refused ("out of scope"); parser/test/settings_keywords_test.cpp walks them.
const std::vector<Builder::GlobalCardReader>& Builder::global_cards() {
    using B = Builder;
    static const std::vector<GlobalCardReader> v = {
        {"set", &B::set_card},
        {"remark", &B::remark_card},
        {"include", &B::include_card},
        {"exit", &B::exit_card},
        {"chdir", &B::chdir_card},
        {"setenv", &B::setenv_card},
        {"print symbol table", &B::print_symbol_table_card},
        {"reference",
         [](B& b, DeckReader& r, const SourceFile&, const ast::Card&) { b.reference_card(r); }},
        {"drive caller", &B::drive_caller_card},
        {"template drive caller", &B::template_drive_caller_card},
        {"constitutive law", &B::constitutive_law_card},
        {"scalar function", &B::scalar_function_card},
        {"module load", &B::module_load_card},
        {"loadable path", &B::loadable_path_card},
        {"hydraulic fluid", &B::out_of_scope_card},
        {"c81 data", &B::out_of_scope_card},
    };
    return v;
}

bool Builder::global_card(const std::string& name, DeckReader& r, const SourceFile& file,
                          const ast::Card& c) {
    for (const auto& g : global_cards())
        if (normalize_keyword(g.keyword) == name) {
            g.read(*this, r, file, c);
            return true;
        }
    return false;
}

void Builder::set_card(DeckReader& r, const SourceFile&, const ast::Card&) {
    while (!r.at_end()) {
        if (r.peek_empty()) {
            r.skip();
            continue;
        }
        if (!r.peek_word().empty() && r.peek("["))
            r.error("plugin variables ('set: [...]') are not supported");
        r.value("statement");
    }
}

void Builder::remark_card(DeckReader& r, const SourceFile& file, const ast::Card& c) {
    std::ostream& os = st_.options.remarks ? *st_.options.remarks : std::cerr;
    auto [l, col] = file.line_col(c.begin);
    os << file.path << ":" << l << ": remark:";
    bool first = true;
    while (!r.at_end()) {
        Value v = r.value("remark value");
        os << (first ? " " : ", ") << v.to_string();
        first = false;
    }
    os << '\n';
}

void Builder::include_card(DeckReader& r, const SourceFile& file, const ast::Card&) {
    SourceLoc at = r.loc();
    std::string p = expand_env(r.string("file name"));
    r.finish();
    fs::path path(p);
    if (path.is_relative()) path = fs::path(file.path).parent_path() / path;
    run_file(path.lexically_normal().string(), at);
}

// MBDyn stops reading at `exit`. Before 'end: elements;' that leaves blocks unread, and the
// model would run incomplete: refused at the card.
void Builder::exit_card(DeckReader& r, const SourceFile&, const ast::Card&) {
    check_exit(r.card_loc());
    st_.stop = true;
}

void Builder::chdir_card(DeckReader& r, const SourceFile&, const ast::Card&) {
    SourceLoc at = r.loc();
    std::string d = expand_env(r.string("directory"));
    std::error_code ec;
    fs::current_path(d, ec);
    if (ec) throw InputError(at, "cannot change directory to '" + d + "': " + ec.message());
}

void Builder::setenv_card(DeckReader& r, const SourceFile&, const ast::Card&) {
    bool overwrite = true;
    if (r.accept("overwrite")) overwrite = r.boolean("overwrite flag");
    SourceLoc at = r.loc();
    std::string s = r.string("NAME=value");
    auto eq = s.find('=');
    if (eq == 0) throw InputError(at, "setenv needs a variable name");
    if (eq == std::string::npos)
        ::unsetenv(s.c_str());
    else
        ::setenv(s.substr(0, eq).c_str(), s.substr(eq + 1).c_str(), overwrite ? 1 : 0);
}

void Builder::print_symbol_table_card(DeckReader& r, const SourceFile&, const ast::Card&) {
    std::ostream& os = st_.options.remarks ? *st_.options.remarks : std::cerr;
    for (const auto& [k, v] : st_.symbols.all())
        os << (v.is_const ? "const " : "") << type_name(v.type) << " " << k << " = "
           << v.value.to_string() << '\n';
    while (!r.at_end()) r.skip();
}

void Builder::drive_caller_card(DeckReader& r, const SourceFile&, const ast::Card&) {
    SourceLoc at = r.loc();
    long l = r.label("drive caller label");
    if (st_.drive_caller_locs.count(l))
        throw InputError(at, "drive caller " + std::to_string(l) + " is already defined at " +
                                 st_.drive_caller_locs[l].where());
    if (r.accept("name")) r.string("name");
    r.accept("deferred");
    auto read = r.drive("drive caller");
    auto d = std::make_shared<DriveSpec>(*read);
    st_.spec_costs[d.get()] = st_.spec_costs[read.get()];
    d->named_label = l;
    // MBDyn's DriveCallerRead::ReadOutput: [output, <flags>] [, output trace, <flags>], with
    // <flags> = {value, b [, derivative, b] | derivative, b | b}; `yes` alone: the value, and the
    // derivative if the drive has one; `output` starts from the value after `default output:
    // drive callers` (only for the cards after it, as MBDyn). Written by
    // elements/drives/drive_output.cpp (.drv at the output steps, .trc at every step;
    // docs/deck-language.md 1.5).
    auto flags = [&r](const char* what, unsigned char f) {
        bool any = false;
        auto set = [&](unsigned char bit, bool on) {
            f = static_cast<unsigned char>(on ? f | bit : f & ~bit);
        };
        if (r.accept("value")) {
            any = true;
            set(DriveOutput::value, r.boolean(std::string(what) + " value"));
        }
        if (r.accept("derivative")) {
            any = true;
            set(DriveOutput::derivative, r.boolean(std::string(what) + " derivative"));
        }
        if (!any)
            f = r.boolean(std::string(what) + " (yes or no, or value/derivative)")
                    ? DriveOutput::value | DriveOutput::derivative_if_any
                    : 0;
        return f;
    };
    d->output = st_.drive_caller_output ? DriveOutput::value : 0;
    if (r.accept("output")) d->output = flags("output", d->output);
    if (r.accept("output trace")) d->trace = flags("output trace", 0);
    r.finish();
    st_.model.drive_callers[l] = d;
    st_.drive_caller_locs[l] = at;
}

void Builder::template_drive_caller_card(DeckReader& r, const SourceFile&, const ast::Card&) {
    SourceLoc at = r.loc();
    long l = r.label("template drive caller label");
    if (st_.tpl_drive_callers.count(l))
        throw InputError(at, "template drive caller " + std::to_string(l) + " is already defined");
    int dim = 0;
    SourceLoc dat = r.loc();
    if (r.accept("3x3"))
        dim = 9;
    else if (r.accept("6x6"))
        dim = 36;
    else {
        Value v = r.value("dimension");
        std::string s = v.to_string();
        dim = s == "1" ? 1 : s == "3" ? 3 : s == "6" ? 6 : s == "3x3" ? 9 : s == "6x6" ? 36 : 0;
        if (!dim)
            throw InputError(dat, "template drive dimension must be 1, 3, 6, \"3x3\" or \"6x6\"");
    }
    st_.tpl_drive_callers[l] = r.tpl_drive(dim, "template drive caller");
    r.finish();
}

void Builder::constitutive_law_card(DeckReader& r, const SourceFile&, const ast::Card&) {
    SourceLoc at = r.loc();
    long l = r.label("constitutive law label");
    if (st_.law_locs.count(l))
        throw InputError(at, "constitutive law " + std::to_string(l) + " is already defined at " +
                                 st_.law_locs[l].where());
    if (r.accept("name")) r.string("name");
    SourceLoc dat = r.loc();
    long dim = r.integer("dimension");
    if (dim != 1 && dim != 3 && dim != 6)
        throw InputError(
            dat, "constitutive law dimension must be 1, 3 or 6, got " + std::to_string(dim));
    st_.model.laws[l] = r.law(static_cast<int>(dim), "constitutive law");
    r.finish();
    st_.law_locs[l] = at;
}

void Builder::scalar_function_card(DeckReader& r, const SourceFile&, const ast::Card&) {
    SourceLoc at = r.loc();
    std::string fname = r.string("scalar function name");
    if (st_.model.scalar_functions.count(fname))
        throw InputError(at, "scalar function \"" + fname + "\" is already defined");
    std::string type = r.peek_word();
    const DriveKind* fn =
        type.empty() ? nullptr : Registry::instance().drives.find("scalar function " + type);
    if (!fn && r.next_is_value()) {
        // MBDyn's default type: `scalar function: "k", 3.;` is a constant.
        type = "const";
        fn = Registry::instance().drives.find("scalar function const");
    } else if (fn) {
        r.skip();
    }
    if (!fn) {
        std::vector<std::string> names;
        for (auto& n : Registry::instance().drives.names())
            if (n.rfind("scalar function ", 0) == 0) names.push_back(n.substr(16));
        std::string near = closest_match(type, names);
        r.error("unknown scalar function type" + (type.empty() ? std::string{} : " '" + type + "'"),
                near.empty() ? "e.g. const, linear, cubic spline, multilinear"
                             : "did you mean '" + near + "'?");
    }
    auto spec = std::make_shared<DriveSpec>();
    spec->type = "scalarfunction" + type;
    spec->loc = at;
    fn->read(r, *spec);
    r.finish();
    r.account_drive(*spec, at);
    st_.model.scalar_functions[fname] = spec;
}

void Builder::module_load_card(DeckReader& r, const SourceFile& file, const ast::Card&) {
    // module load: "name" [, args...];  the module reads its own arguments (core/plugin).
    SourceLoc at = r.loc();
    std::string mod = expand_env(r.string("module name"));
    if (!st_.options.load_modules)
        throw InputError(at, "module loading is disabled here ('" + mod + "' not loaded)");
    std::string dir = fs::path(file.path).parent_path().string();
    plugin::load_module(mod, plugin::search_path(dir, loadable_paths_), &r, at);
    r.finish();
}

void Builder::loadable_path_card(DeckReader& r, const SourceFile& file, const ast::Card&) {
    // loadable path: [set|add,] "folder";  relative folders are relative to this file's.
    bool set = r.accept("set");
    if (!set) r.accept("add");
    std::string d = expand_env(r.string("module folder"));
    r.finish();
    fs::path p(d);
    if (p.is_relative()) p = fs::path(file.path).parent_path() / p;
    if (set) loadable_paths_.clear();
    loadable_paths_.push_back(p.lexically_normal().string());
}

void Builder::out_of_scope_card(DeckReader& r, const SourceFile&, const ast::Card& c) {
    throw InputError(r.card_loc(), "'" + c.description + "' is out of scope for mbsolve");
}

void Builder::reference_card(DeckReader& r) {
    ReferenceFrame f;
    f.loc = r.card_loc();
    SourceLoc at = r.loc();
    f.label = r.label("reference label");
    if (st_.model.references.count(f.label))
        throw InputError(at, "reference " + std::to_string(f.label) + " is already defined at " +
                                 st_.model.references[f.label].loc.where());
    if (r.accept("name")) f.name = r.string("reference name");
    if (r.accept("denavit hartenberg"))
        r.error("Denavit-Hartenberg references are not supported yet");
    r.accept("position");
    f.x = r.position_abs("reference position");
    r.accept("orientation");
    f.R = r.orientation_abs("reference orientation");
    if (!r.at_end()) {
        r.accept("velocity");
        f.v = r.velocity_abs(f.x, "reference velocity");
        if (!r.at_end()) {
            r.accept("angular velocity");
            f.w = r.angular_velocity_abs("reference angular velocity");
        }
    }
    r.finish();
    st_.model.references[f.label] = f;
}

}  // namespace mbs::parser
