// The deck builder: walks cards in source order through MBDyn's block structure
// (data, initial value, control data, nodes, drivers, elements), handles the cards that are
// allowed anywhere (set, include, reference, drive caller, constitutive law, ...), checks counts
// and labels, and hands node/element cards to the registered readers.
#include "parser/builder.hpp"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "core/analysis.hpp"
#include "core/plugin/plugin.hpp"
#include "core/registry.hpp"
#include "parser/build_state.hpp"
#include "parser/deck.hpp"

namespace mbs::parser {

namespace fs = std::filesystem;

extern "C" char** environ;

namespace {

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

// Problems of the relative-coordinate path (solvers/reduced, core/analysis.hpp): their block
// takes the initial value block's cards (times, tolerance).
bool reduced_problem_block(const std::string& b) { return analysis_for_problem(b) != nullptr; }

enum class Block {
    start,
    data,
    after_data,
    problem,
    after_problem,
    control,
    after_control,
    nodes,
    after_nodes,
    drivers,
    after_drivers,
    elements,
    done
};

const char* block_name(Block b) {
    switch (b) {
        case Block::data:
            return "data";
        case Block::problem:
            return "initial value";
        case Block::control:
            return "control data";
        case Block::nodes:
            return "nodes";
        case Block::drivers:
            return "drivers";
        case Block::elements:
            return "elements";
        default:
            return "";
    }
}

// Control-data counters (docs/deck-language.md 2.2).
const std::vector<std::string>& counter_names() {
    static const std::vector<std::string> v = {"structural nodes",
                                               "abstract nodes",
                                               "parameter nodes",
                                               "electric nodes",
                                               "hydraulic nodes",
                                               "thermal nodes",
                                               "rigid bodies",
                                               "joints",
                                               "beams",
                                               "plates",
                                               "forces",
                                               "genels",
                                               "inertia",
                                               "aerodynamic elements",
                                               "induced velocity elements",
                                               "rotors",
                                               "electric elements",
                                               "hydraulic elements",
                                               "bulk elements",
                                               "output elements",
                                               "external elements",
                                               "joint regularizations",
                                               "loadable elements",
                                               "file drivers"};
    return v;
}

// Resource bounds (issue 8): counts and run lengths beyond these are refused as input errors.
constexpr long max_entity_count = 10'000'000;
constexpr double max_time_steps = 1e10;

bool is_node_counter(const std::string& c) {
    return c.size() > 6 && c.compare(c.size() - 6, 6, " nodes") == 0;
}

std::string expand_env(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '$') {
            out.push_back(s[i]);
            continue;
        }
        std::size_t j = i + 1;
        std::string name;
        if (j < s.size() && s[j] == '{') {
            std::size_t k = s.find('}', j);
            if (k == std::string::npos) {
                out.push_back('$');
                continue;
            }
            name = s.substr(j + 1, k - j - 1);
            i = k;
        } else {
            while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_'))
                name.push_back(s[j++]);
            i = j - 1;
        }
        if (const char* v = std::getenv(name.c_str())) out += v;
    }
    return out;
}

class Builder {
  public:
    explicit Builder(BuildState& st) : st_(st) {}

    void run_file(const std::string& path, const SourceLoc& included_from);
    void run_text(const std::string& name, std::string text);
    void finish(const SourceLoc& eof);

  private:
    void run(const SourceFile& file);
    void card(const SourceFile& file, const ast::Card& c);
    bool global_card(const std::string& name, DeckReader& r, const SourceFile& file,
                     const ast::Card& c);
    void begin_block(DeckReader& r);
    void end_block(DeckReader& r);
    void problem_card(const std::string& name, DeckReader& r);
    void control_card(const std::string& name, DeckReader& r);
    void node_card(const std::string& name, DeckReader& r);
    void element_card(const std::string& name, DeckReader& r);
    void driven_card(DeckReader& r);
    void output_card(DeckReader& r, bool nodes);
    void reference_card(DeckReader& r);
    void check_counts(DeckReader& r, bool nodes);
    void count(DeckReader& r, const std::string& counter, const SourceLoc& at);
    void claim_label(const std::string& space, long label, const SourceLoc& at,
                     const std::string& what);
    void store_raw(Props& p, const std::string& key, DeckReader& r);
    void ignore_card(DeckReader& r, const SourceLoc& at, const std::string& what,
                     const std::string& why);
    void read_line_search_options(Props& s, DeckReader& r);

    void check_run_length(const SourceLoc& end_card);

    BuildState& st_;
    Block block_ = Block::start;
    // in the options-only 'begin: equilibrium;' block (docs/relative-coordinates.md 4)
    bool equilibrium_options_ = false;
    SourceLoc final_time_loc_, time_step_loc_;  // for the run-length bound
    std::string cwd_;  // directory relative file names resolve against (changed by chdir)
    std::vector<std::string> loadable_paths_;  // `loadable path:` folders, in order
};

void Builder::run_file(const std::string& path, const SourceLoc& from) {
    std::error_code dir_ec;
    if (fs::is_directory(path, dir_ec)) {
        if (from.valid())
            throw InputError(from, "'" + path + "' is a directory, not a file to include");
        throw InputError(SourceLoc{}, "'" + path + "' is a directory, not a deck");
    }
    // Included files must be regular files: a device such as /dev/zero would be read forever.
    // The deck itself may also be a pipe (mbsolve -f /dev/stdin).
    if (from.valid() && fs::exists(path, dir_ec) && !fs::is_regular_file(path, dir_ec))
        throw InputError(from, "'" + path + "' is not a regular file");
    auto refuse = [&](const std::string& what, const std::string& hint = {}) {
        throw InputError(from.valid() ? from : SourceLoc{}, what, hint);
    };
    std::error_code ec;
    std::string canon = fs::weakly_canonical(path, ec).string();
    for (std::size_t k = 0; k < st_.include_stack.size(); ++k)
        if (st_.include_stack[k] == canon) {
            std::string chain;
            for (std::size_t j = k; j < st_.include_stack.size(); ++j)
                chain += st_.include_stack[j] + " -> ";
            throw InputError(from, "include cycle: '" + path + "' is already being read",
                             chain + canon);
        }
    if (st_.include_stack.size() >= 64) throw InputError(from, "includes nested more than 64 deep");
    // Budgets of the whole deck, checked before anything is read: the number of files read
    // (30 files each including the next twice would read 2^30) and the bytes parsed in total
    // (a 100 MB file included 60 times). Source offsets are 32-bit; far below that, one file
    // this large is a mistake (or hostile).
    constexpr std::size_t max_file_bytes = std::size_t{256} << 20;
    constexpr std::size_t max_total_bytes = std::size_t{1} << 30;
    constexpr long max_reads = 10000;
    if (++st_.files_read > max_reads)
        refuse("more than " + std::to_string(max_reads) + " files read (includes)",
               "an include inside a loop of includes, or a file included from many places");
    std::error_code size_ec;
    const bool regular = fs::is_regular_file(path, size_ec);
    const std::uintmax_t size = regular ? fs::file_size(path, size_ec) : 0;
    if (regular && !size_ec && size > max_file_bytes)
        refuse("'" + path + "' is larger than 256 MB");
    // The same unchanged file included again is parsed from the text already held (its
    // locations stay valid), not read and stored once more.
    const SourceFile* file = nullptr;
    if (regular && !size_ec) {
        std::error_code t_ec;
        const long long mtime =
            static_cast<long long>(fs::last_write_time(path, t_ec).time_since_epoch().count());
        auto it = st_.file_cache.find(canon);
        if (!t_ec && it != st_.file_cache.end() && it->second.size == size &&
            it->second.mtime == mtime)
            file = it->second.file;
        if (!file && !t_ec) st_.file_cache[canon] = {nullptr, size, mtime};
    }
    if (!file) {
        std::ifstream in(path, std::ios::binary);
        if (!in) {
            if (from.valid()) throw InputError(from, "cannot open included file '" + path + "'");
            throw InputError(SourceLoc{}, "cannot open deck '" + path + "'");
        }
        std::string text;
        char buf[1 << 16];
        while (in.read(buf, sizeof buf) || in.gcount() > 0) {
            text.append(buf, static_cast<std::size_t>(in.gcount()));
            if (text.size() > max_file_bytes) refuse("'" + path + "' is larger than 256 MB");
        }
        st_.files.push_back(std::make_unique<SourceFile>(path, std::move(text)));
        file = st_.files.back().get();
        auto it = st_.file_cache.find(canon);
        if (it != st_.file_cache.end()) it->second.file = file;
    }
    st_.bytes_parsed += file->text.size();
    if (st_.bytes_parsed > max_total_bytes)
        refuse("the deck and its includes add up to more than 1 GB of text",
               "an include inside a loop of includes, or a file included from many places");
    st_.include_stack.push_back(canon);
    run(*file);
    st_.include_stack.pop_back();
}

void Builder::run_text(const std::string& name, std::string text) {
    st_.files.push_back(std::make_unique<SourceFile>(name, std::move(text)));
    st_.include_stack.push_back(name);
    run(*st_.files.back());
    st_.include_stack.pop_back();
}

void Builder::run(const SourceFile& file) {
    check_text(file);
    std::size_t pos = 0;
    ast::Card c;
    while (!st_.stop && parse_card(file, pos, c)) card(file, c);
}

void Builder::card(const SourceFile& file, const ast::Card& c) {
    std::string name = normalize_keyword(c.description);
    DeckReader r(st_, file, c);
    if (global_card(name, r, file, c)) return;
    if (name == "begin") return begin_block(r);
    if (name == "end") return end_block(r);
    SourceLoc at{&file, c.begin, c.begin + static_cast<std::uint32_t>(c.description.size())};
    switch (block_) {
        case Block::data:
            if (name == "problem" || name == "integrator") {
                SourceLoc pa = r.loc();
                std::string p = r.keyword(
                    {"initial value", "inverse dynamics", "multistep", "reduced inverse dynamics",
                     "reduced dynamics", "equilibrium", "modal"},
                    "problem");
                if (p == "inverse dynamics")
                    throw InputError(
                        pa, "'problem: inverse dynamics' is not supported yet by the DAE engine",
                        "'problem: reduced inverse dynamics;' (or --analysis inverse-dynamics) "
                        "runs the "
                        "inverse dynamics of the relative-coordinate model");
                st_.model.problem = p == "multistep" ? "initial value" : p;
                r.finish();
                return;
            }
            throw InputError(at, "unknown card '" + c.description + "' in the data block",
                             "expected 'problem: initial value;'");
        case Block::problem:
            return problem_card(name, r);
        case Block::control:
            return control_card(name, r);
        case Block::nodes:
            return node_card(name, r);
        case Block::elements:
            return element_card(name, r);
        case Block::drivers:
            throw InputError(at, "file drivers are not supported yet",
                             "remove the drivers block and 'file drivers:'");
        default:
            break;
    }
    std::vector<std::string> known = {"begin",
                                      "end",
                                      "set",
                                      "include",
                                      "reference",
                                      "remark",
                                      "drive caller",
                                      "constitutive law",
                                      "template drive caller",
                                      "scalar function"};
    std::string near = closest_match(name, known);
    throw InputError(at, "unexpected card '" + c.description + "' outside of any block",
                     near.empty() ? "cards go between 'begin: <block>;' and 'end: <block>;'"
                                  : "did you mean '" + near + "'?");
}

bool Builder::global_card(const std::string& name, DeckReader& r, const SourceFile& file,
                          const ast::Card& c) {
    if (name == "set") {
        while (!r.at_end()) {
            if (r.peek_empty()) {
                r.skip();
                continue;
            }
            if (!r.peek_word().empty() && r.peek("["))
                r.error("plugin variables ('set: [...]') are not supported");
            r.value("statement");
        }
        return true;
    }
    if (name == "remark") {
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
        return true;
    }
    if (name == "include") {
        SourceLoc at = r.loc();
        std::string p = expand_env(r.string("file name"));
        r.finish();
        fs::path path(p);
        if (path.is_relative()) path = fs::path(file.path).parent_path() / path;
        run_file(path.lexically_normal().string(), at);
        return true;
    }
    if (name == "exit") {
        st_.stop = true;
        return true;
    }
    if (name == "chdir") {
        SourceLoc at = r.loc();
        std::string d = expand_env(r.string("directory"));
        std::error_code ec;
        fs::current_path(d, ec);
        if (ec) throw InputError(at, "cannot change directory to '" + d + "': " + ec.message());
        return true;
    }
    if (name == "setenv") {
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
        return true;
    }
    if (name == "printsymboltable") {
        std::ostream& os = st_.options.remarks ? *st_.options.remarks : std::cerr;
        for (const auto& [k, v] : st_.symbols.all())
            os << (v.is_const ? "const " : "") << type_name(v.type) << " " << k << " = "
               << v.value.to_string() << '\n';
        while (!r.at_end()) r.skip();
        return true;
    }
    if (name == "reference") {
        reference_card(r);
        return true;
    }
    if (name == "drivecaller") {
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
        if (r.accept("output")) {
            while (!r.at_end()) r.skip();
        }
        r.finish();
        st_.model.drive_callers[l] = d;
        st_.drive_caller_locs[l] = at;
        return true;
    }
    if (name == "templatedrivecaller") {
        SourceLoc at = r.loc();
        long l = r.label("template drive caller label");
        if (st_.tpl_drive_callers.count(l))
            throw InputError(at,
                             "template drive caller " + std::to_string(l) + " is already defined");
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
                throw InputError(dat,
                                 "template drive dimension must be 1, 3, 6, \"3x3\" or \"6x6\"");
        }
        st_.tpl_drive_callers[l] = r.tpl_drive(dim, "template drive caller");
        r.finish();
        return true;
    }
    if (name == "constitutivelaw") {
        SourceLoc at = r.loc();
        long l = r.label("constitutive law label");
        if (st_.law_locs.count(l))
            throw InputError(at, "constitutive law " + std::to_string(l) +
                                     " is already defined at " + st_.law_locs[l].where());
        if (r.accept("name")) r.string("name");
        SourceLoc dat = r.loc();
        long dim = r.integer("dimension");
        if (dim != 1 && dim != 3 && dim != 6)
            throw InputError(
                dat, "constitutive law dimension must be 1, 3 or 6, got " + std::to_string(dim));
        st_.model.laws[l] = r.law(static_cast<int>(dim), "constitutive law");
        r.finish();
        st_.law_locs[l] = at;
        return true;
    }
    if (name == "scalarfunction") {
        SourceLoc at = r.loc();
        std::string fname = r.string("scalar function name");
        if (st_.model.scalar_functions.count(fname))
            throw InputError(at, "scalar function \"" + fname + "\" is already defined");
        std::string type = r.peek_word();
        const DriveReaderFn* fn =
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
            r.error(
                "unknown scalar function type" + (type.empty() ? std::string{} : " '" + type + "'"),
                near.empty() ? "e.g. const, linear, cubic spline, multilinear"
                             : "did you mean '" + near + "'?");
        }
        auto spec = std::make_shared<DriveSpec>();
        spec->type = "scalarfunction" + type;
        spec->loc = at;
        (*fn)(r, *spec);
        r.finish();
        r.account_drive(*spec, at);
        st_.model.scalar_functions[fname] = spec;
        return true;
    }
    if (name == "moduleload") {
        // module load: "name" [, args...];  the module reads its own arguments (core/plugin).
        SourceLoc at = r.loc();
        std::string mod = expand_env(r.string("module name"));
        if (!st_.options.load_modules)
            throw InputError(at, "module loading is disabled here ('" + mod + "' not loaded)");
        std::string dir = fs::path(file.path).parent_path().string();
        plugin::load_module(mod, plugin::search_path(dir, loadable_paths_), &r, at);
        r.finish();
        return true;
    }
    if (name == "loadablepath") {
        // loadable path: [set|add,] "folder";  relative folders are relative to this file's.
        bool set = r.accept("set");
        if (!set) r.accept("add");
        std::string d = expand_env(r.string("module folder"));
        r.finish();
        fs::path p(d);
        if (p.is_relative()) p = fs::path(file.path).parent_path() / p;
        if (set) loadable_paths_.clear();
        loadable_paths_.push_back(p.lexically_normal().string());
        return true;
    }
    if (name == "hydraulicfluid" || name == "c81data") {
        throw InputError(r.card_loc(), "'" + c.description + "' is out of scope for mbsolve");
    }
    return false;
}

void Builder::begin_block(DeckReader& r) {
    SourceLoc at = r.loc();
    std::string b = r.keyword({"data", "initial value", "multistep", "inverse dynamics",
                               "reduced inverse dynamics", "reduced dynamics", "equilibrium",
                               "modal", "control data", "nodes", "drivers", "elements"},
                              "block name");
    r.finish();
    auto order_error = [&](const char* expected) {
        throw InputError(at, "'begin: " + b + "' is out of order",
                         std::string("expected ") + expected);
    };
    if (block_ == Block::start) {
        if (b != "data")
            throw InputError(at, "a deck must start with 'begin: data;'",
                             "found 'begin: " + b + "'");
        block_ = Block::data;
        return;
    }
    if (b == "data") throw InputError(at, "'begin: data' appears twice");
    if (b == "equilibrium" && block_ == Block::after_problem &&
        st_.model.problem != "equilibrium") {
        // A deck of another problem may add the relative-coordinate equilibrium's options (read
        // by --analysis equilibrium / modal) right after its problem block: problem_card.
        block_ = Block::problem;
        equilibrium_options_ = true;
    } else if (b == "initial value" || b == "multistep" || b == "inverse dynamics" ||
               reduced_problem_block(b)) {
        if (block_ != Block::after_data) order_error("the problem block right after 'end: data;'");
        block_ = Block::problem;
    } else if (b == "control data") {
        if (block_ != Block::after_problem)
            order_error("'begin: control data;' after the 'initial value' block");
        block_ = Block::control;
    } else if (b == "nodes") {
        if (block_ != Block::after_control) order_error("'begin: nodes;' after control data");
        block_ = Block::nodes;
    } else if (b == "drivers") {
        if (block_ != Block::after_control && block_ != Block::after_nodes)
            order_error("'begin: drivers;' after nodes");
        block_ = Block::drivers;
    } else if (b == "elements") {
        if (block_ != Block::after_control && block_ != Block::after_nodes &&
            block_ != Block::after_drivers)
            order_error("'begin: elements;' after nodes");
        if (block_ == Block::after_control) {
            for (const auto& [c, n] : st_.model.declared_counts)
                if (is_node_counter(c) && n > 0)
                    throw InputError(at, "'" + c + ": " + std::to_string(n) +
                                             "' declared but the nodes block is missing");
        }
        block_ = Block::elements;
    }
}

void Builder::end_block(DeckReader& r) {
    SourceLoc at = r.loc();
    std::string b = r.keyword({"data", "initial value", "multistep", "inverse dynamics",
                               "reduced inverse dynamics", "reduced dynamics", "equilibrium",
                               "modal", "control data", "nodes", "drivers", "elements"},
                              "block name");
    r.finish();
    std::string open = block_name(block_);
    bool problem_alias = block_ == Block::problem &&
                         (b == "multistep" || b == "inverse dynamics" || reduced_problem_block(b));
    if (open.empty() || (open != b && !problem_alias))
        throw InputError(at, "'end: " + b + "' does not match the open block",
                         open.empty() ? "no block is open" : "the open block is '" + open + "'");
    switch (block_) {
        case Block::data:
            block_ = Block::after_data;
            break;
        case Block::problem:
            if (equilibrium_options_ && b != "equilibrium")
                throw InputError(at, "'end: " + b + "' does not match the open block",
                                 "the open block is 'equilibrium'");
            if (!equilibrium_options_) check_run_length(r.card_loc());
            equilibrium_options_ = false;
            block_ = Block::after_problem;
            break;
        case Block::control:
            block_ = Block::after_control;
            break;
        case Block::nodes:
            check_counts(r, true);
            block_ = Block::after_nodes;
            break;
        case Block::drivers:
            block_ = Block::after_drivers;
            break;
        case Block::elements:
            check_counts(r, false);
            block_ = Block::done;
            st_.stop = true;  // nothing after 'end: elements;' is read
            break;
        default:
            break;
    }
}

void Builder::finish(const SourceLoc& eof) {
    if (block_ == Block::done) return;
    if (block_ == Block::start) throw InputError(eof, "the deck is empty or has no 'begin: data;'");
    if (st_.stop && block_ != Block::done) return;  // exit;
    std::string open = block_name(block_);
    if (!open.empty())
        throw InputError(eof, "end of file inside the '" + open + "' block",
                         "add 'end: " + open + ";'");
    bool any_elements = false;
    for (const auto& [c, n] : st_.model.declared_counts)
        if (!is_node_counter(c) && c != "file drivers" && n > 0) any_elements = true;
    if (st_.model.control.has("gravity")) any_elements = true;
    if (block_ < Block::after_control)
        throw InputError(eof, "end of file before the control data block");
    if (any_elements)
        throw InputError(eof, "end of file before the elements block",
                         "control data declares elements");
    for (const auto& [c, n] : st_.model.declared_counts)
        if (is_node_counter(c) && n > 0 && block_ < Block::after_nodes)
            throw InputError(eof, "end of file before the nodes block",
                             "control data declares " + c);
}

// A run of more than max_time_steps steps is refused before anything is built (with the
// engine's defaults: initial time 0, final time initial + 1, time step 1e-3).
void Builder::check_run_length(const SourceLoc& end_card) {
    const Props& s = st_.model.solver;
    auto real = [&](const char* key, double fallback) {
        const PropValue* v = s.find(key);
        if (const double* x = v ? std::get_if<double>(v) : nullptr) return *x;
        if (const long* l = v ? std::get_if<long>(v) : nullptr) return static_cast<double>(*l);
        return fallback;
    };
    if (s.get_or<std::string>("final time", "") == "forever") return;
    double t0 = real("initial time", 0.0);
    double tf = real("final time", t0 + 1.0);
    double dt = real("time step", 1e-3);
    // A final time before the initial one used to run no step at all and exit 0 (issue 20).
    if (tf < t0) {
        char msg[160];
        std::snprintf(msg, sizeof msg, "final time %g is before initial time %g", tf, t0);
        throw InputError(final_time_loc_.valid() ? final_time_loc_ : end_card, msg,
                         "the run goes from the initial time forward to the final time");
    }
    double steps = (tf - t0) / dt;
    if (!(steps > max_time_steps)) return;
    SourceLoc at = time_step_loc_.valid()    ? time_step_loc_
                   : final_time_loc_.valid() ? final_time_loc_
                                             : end_card;
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "initial time %g, final time %g and time step %g make %.3g steps, more than "
                  "mbsolve accepts (%g)",
                  t0, tf, dt, steps, max_time_steps);
    throw InputError(
        at, buf,
        "raise the time step or lower the final time ('final time: forever;' runs until stopped)");
}

void Builder::check_counts(DeckReader& r, bool nodes) {
    for (const auto& [c, n] : st_.model.declared_counts) {
        if (is_node_counter(c) != nodes || c == "file drivers") continue;
        long got = st_.defined_counts[c];
        if (got != n)
            r.error_at(
                r.card_loc(),
                c + ": " + std::to_string(n) + " declared, " + std::to_string(got) + " defined",
                "the count in control data must match the number of cards");
    }
    if (!nodes && st_.model.control.has("gravity") && !st_.defined_counts["gravity"])
        r.error_at(r.card_loc(),
                   "gravity: declared in control data but no gravity card in the elements block");
}

void Builder::count(DeckReader& r, const std::string& counter, const SourceLoc& at) {
    long declared = 0;
    auto it = st_.model.declared_counts.find(counter);
    if (it != st_.model.declared_counts.end()) declared = it->second;
    long n = ++st_.defined_counts[counter];
    if (counter == "bind") return;  // bind cards are not counted in control data (MBDyn)
    if (counter == "gravity") {
        if (!st_.model.control.has("gravity"))
            throw InputError(at, "gravity card without 'gravity;' in control data",
                             "add 'gravity;' to control data");
        if (n > 1) throw InputError(at, "gravity is defined twice");
        return;
    }
    if (n > declared)
        r.error_at(at,
                   counter + ": " + std::to_string(declared) + " declared, this is number " +
                       std::to_string(n),
                   "raise '" + counter + ": " + std::to_string(n) + ";' in control data");
}

void Builder::claim_label(const std::string& space, long label, const SourceLoc& at,
                          const std::string& what) {
    auto& m = st_.labels[space];
    auto it = m.find(label);
    if (it != m.end())
        throw InputError(
            at, what + " " + std::to_string(label) + " is already defined at " + it->second.where(),
            "labels must be unique within each type");
    m[label] = at;
}

// A card (or the rest of one) that does not change the results and that mbsolve does not act on:
// its arguments are read (so that their expressions are still checked) and dropped, with a warning
// that names it. Cards that would change the results are refused instead ("not supported yet").
void Builder::ignore_card(DeckReader& r, const SourceLoc& at, const std::string& what,
                          const std::string& why) {
    Props dropped;
    store_raw(dropped, what, r);
    r.warn_at(at, "'" + what + "' is ignored: " + why);
}

// Stores a card's arguments as given: numbers as numbers, keywords as words.
void Builder::store_raw(Props& p, const std::string& key, DeckReader& r) {
    std::string text;
    VecN nums;
    bool all_numbers = true;
    while (!r.at_end()) {
        if (r.peek_empty()) {
            r.skip();
            continue;
        }
        std::string w = r.peek_word();
        std::string item;
        if (!w.empty() && !r.next_is_value()) {
            item = w;
            r.skip();
            all_numbers = false;
        } else {
            Value v = r.value(key);
            item = v.type == Type::string ? "\"" + v.s + "\"" : v.to_string();
            if (v.type == Type::string)
                all_numbers = false;
            else
                nums.push_back(v.as_real());
        }
        text += (text.empty() ? "" : ", ") + item;
    }
    if (all_numbers && nums.size() == 1)
        p.set(key, nums[0]);
    else if (all_numbers && !nums.empty())
        p.set(key, nums);
    else
        p.set(key, text.empty() ? std::string("yes") : text);
}

// `nonlinear solver: line search [, modified, n], <keyword>, <value>, ...`
// (docs/deck-language.md 2.1): each option as "line search <keyword>"; the solver checks none of
// them again.
void Builder::read_line_search_options(Props& s, DeckReader& r) {
    // `, yes|no` (or a number) after a flag; a bare flag means yes.
    auto yes_no = [&](const char* key) {
        bool v = r.at_end() || !(r.peek("yes") || r.peek("no") || r.peek("true") ||
                                 r.peek("false") || r.next_is_value())
                     ? true
                     : r.boolean(key);
        s.set(std::string("line search ") + key, v);
    };
    while (!r.at_end()) {
        SourceLoc at = r.loc();
        std::string k = r.keyword(
            {"keep jacobian matrix", "keep jacobian", "honor element requests", "tolerance x",
             "tolerance min", "max iterations", "alpha", "lambda min", "lambda factor min",
             "max step", "zero gradient", "divergence check", "algorithm", "scale newton step",
             "print convergence info", "verbose", "abort at lambda min"},
            "line search option");
        if (k == "keep jacobian matrix" || k == "keep jacobian" || k == "honor element requests")
            throw InputError(at, "line search option '" + k + "' is not supported", "remove it");
        std::string key = "line search " + k;
        if (k == "tolerance x" || k == "tolerance min" || k == "alpha" || k == "max step") {
            s.set(key, r.nonnegative(k));
        } else if (k == "max iterations") {
            SourceLoc a = r.loc();
            long n = r.integer(k);
            if (n < 1) throw InputError(a, "line search max iterations must be at least 1");
            s.set(key, n);
        } else if (k == "lambda min") {
            SourceLoc a = r.loc();
            double v = r.nonnegative(k);
            if (v > 1.0) throw InputError(a, "lambda min must be in [0, 1]");
            s.set(key, v);
            if (r.accept("relative")) yes_no("lambda min relative");
        } else if (k == "lambda factor min") {
            SourceLoc a = r.loc();
            double v = r.real(k);
            if (!(v > 0.0 && v < 1.0)) throw InputError(a, "lambda factor min must be in (0, 1)");
            s.set(key, v);
        } else if (k == "zero gradient") {
            r.expect("continue");
            yes_no("zero gradient continue");
        } else if (k == "divergence check") {
            yes_no("divergence check");
            if (r.accept("factor"))
                s.set("line search divergence factor", r.positive("divergence check factor"));
        } else if (k == "algorithm") {
            s.set(key, r.keyword({"cubic", "factor"}, "line search algorithm"));
        } else if (k == "scale newton step") {
            yes_no("scale newton step");
            if (r.accept("min scale")) {
                SourceLoc a = r.loc();
                double v = r.nonnegative("min scale");
                if (v > 1.0) throw InputError(a, "min scale must be in [0, 1]");
                s.set("line search min scale", v);
            }
        } else {
            yes_no(k.c_str());  // print convergence info, verbose, abort at lambda min
        }
    }
}

void Builder::problem_card(const std::string& name, DeckReader& r) {
    Props& s = st_.model.solver;
    auto at = r.card_loc();
    // Options of the relative-coordinate equilibrium (`exchange:`, `extra:`, `spin:`; read by
    // solvers/reduced/equilibrium.cpp): kept as located records, "equilibrium card <n>" = a
    // DriveSpec with type = the card name, loc = the card, params "1", "2", ... = its arguments
    // (words as strings, expressions evaluated to numbers).
    // The same cards (and `time:`) in a `problem: modal;` deck's block and in the options-only
    // equilibrium block of any other deck, which takes nothing else.
    const bool eq_card = name == "exchange" || name == "extra" || name == "spin" || name == "time";
    if (equilibrium_options_ && !eq_card)
        throw InputError(
            at, "'" + name + "' is not an equilibrium option",
            "this 'begin: equilibrium;' block takes exchange, extra, spin and time cards; the '" +
                st_.model.problem + "' problem's cards go in its own block");
    if ((st_.model.problem == "equilibrium" || st_.model.problem == "modal" ||
         equilibrium_options_) &&
        eq_card) {
        auto rec = std::make_shared<DriveSpec>();
        rec->type = name;
        rec->loc = at;
        int n = 0;
        while (!r.at_end()) {
            if (r.peek_empty()) {
                r.skip();
                continue;
            }
            std::string w = r.peek_word();
            if (!w.empty() && !r.next_is_value()) {
                rec->params.set(std::to_string(++n), w);
                r.skip();
                continue;
            }
            Value v = r.value(name);
            if (v.type == Type::string)
                rec->params.set(std::to_string(++n), v.s);
            else
                rec->params.set(std::to_string(++n), v.as_real());
        }
        long k = 0;
        for (const auto& item : s.items()) k += item.first.rfind("equilibrium card ", 0) == 0;
        s.set("equilibrium card " + std::to_string(k + 1), std::shared_ptr<const DriveSpec>(rec));
        r.finish();
        return;
    }
    if (name == "initialtime")
        s.set("initial time", r.real("initial time"));
    else if (name == "finaltime") {
        final_time_loc_ = r.loc();
        if (r.accept("forever"))
            s.set("final time", std::string("forever"));
        else
            s.set("final time", r.real("final time"));
    } else if (name == "timestep") {
        SourceLoc a = r.loc();
        time_step_loc_ = a;
        double dt = r.real("time step");
        if (dt == 0.0) throw InputError(a, "time step must not be zero");
        if (dt < 0) r.warn_at(a, "negative time step replaced by its absolute value");
        s.set("time step", std::fabs(dt));
    } else if (name == "mintimestep")
        s.set("min time step", r.positive("min time step"));
    else if (name == "maxtimestep") {
        if (r.accept("unlimited"))
            s.set("max time step", std::string("unlimited"));
        else
            s.set("max time step", r.drive("max time step"));
        SourceLoc a = r.loc();
        if (r.accept("hard limit"))
            throw InputError(a, "'hard limit' of the max time step is not supported yet",
                             "remove it");
    } else if (name == "maxiterations") {
        SourceLoc a = r.loc();
        long n = r.integer("max iterations");
        if (n < 1) throw InputError(a, "max iterations must be at least 1");
        s.set("max iterations", n);
        SourceLoc b = r.loc();
        if (r.accept("at most"))
            r.warn_at(b, "'at most' is ignored: a step that has not converged after " +
                             std::to_string(n) +
                             " iterations stops the run (or is retried with a smaller step under "
                             "'strategy: factor')");
    } else if (name == "tolerance") {
        // tolerance: {null|res} [, test, {norm|minmax|none} [, scale]] [, {null|sol} [, test, ...]]
        if (r.accept("null"))
            s.set("residual tolerance", 0.0);
        else
            s.set("residual tolerance", r.nonnegative("residual tolerance"));
        if (r.accept("test")) {
            s.set("residual test", r.keyword({"norm", "minmax", "none"}, "residual test"));
            SourceLoc a = r.loc();
            if (r.accept("scale"))
                throw InputError(a,
                                 "a scaled residual test ('test, ..., scale') is not supported yet",
                                 "remove 'scale': the residual is tested unscaled");
        }
        if (!r.at_end()) {
            if (r.accept("null"))
                s.set("solution tolerance", 0.0);
            else
                s.set("solution tolerance", r.nonnegative("solution tolerance"));
            if (r.accept("test")) {
                SourceLoc a = r.loc();
                if (r.keyword({"norm", "minmax", "none"}, "solution test") != "norm")
                    throw InputError(a, "only the 'norm' solution test is supported yet",
                                     "write 'test, norm' or omit the test");
            }
        }
    } else if (name == "method") {
        SourceLoc ma = r.loc();
        std::string m = r.keyword({"ms", "nostro", "hope", "crank nicolson", "crank nicholson",
                                   "bdf", "implicit euler", "third order"},
                                  "integration method");
        if (m == "crank nicholson")
            r.warn_at(at, "'crank nicholson' is a misspelling of 'crank nicolson'"),
                m = "crank nicolson";
        if (m == "nostro") r.warn_at(at, "'nostro' is a deprecated alias of 'ms'"), m = "ms";
        s.set("method", m);
        if (m == "ms" || m == "hope") {
            auto rho = r.drive("spectral radius");
            s.set("rho", rho);
            s.set("rho algebraic", r.at_end() ? rho : r.drive("algebraic spectral radius"));
        } else if (m == "bdf") {
            long order = 2;
            if (r.accept("order")) {
                SourceLoc a = r.loc();
                order = r.integer("bdf order");
                if (order != 1 && order != 2) throw InputError(a, "bdf order must be 1 or 2");
            }
            s.set("bdf order", order);
        } else if (m == "third order") {
            throw InputError(ma, "integration method 'third order' is not supported yet",
                             "use ms, hope, bdf, implicit euler or crank nicolson");
        }
    } else if (name == "linearsolver" || name == "solver") {
        std::string ls = r.keyword(
            {"naive", "umfpack", "klu", "y12", "lapack", "superlu", "taucs", "watson", "empty"},
            "linear solver");
        if (ls != "naive" && ls != "umfpack" && ls != "klu")
            r.warn_at(at, "linear solver '" + ls + "' is not available; klu is used instead"),
                ls = "klu";
        s.set("linear solver", ls);
        // MBDyn's options choose storage, ordering, pivoting and threads (e.g. 'umfpack, cc',
        // 'naive, colamd'): they change the factorization's cost, not the solution.
        if (!r.at_end())
            ignore_card(r, r.loc(), "linear solver options",
                        "mbsolve orders and pivots " + ls +
                            " itself; the solution does not depend on them");
    } else if (name == "nonlinearsolver") {
        SourceLoc ns_at = r.loc();
        std::string ns = r.keyword({"default", "newton raphson", "line search", "matrix free"},
                                   "nonlinear solver");
        if (ns == "matrix free")
            throw InputError(ns_at, "nonlinear solver 'matrix free' is not supported",
                             "use newton raphson or line search");
        s.set("nonlinear solver", ns);
        if (r.accept("modified")) {
            s.set("newton modified iterations", r.integer("iterations between Jacobian updates"));
        } else {
            r.accept("true");
        }
        if (ns == "line search")
            read_line_search_options(s, r);
        else if (!r.at_end())
            throw InputError(r.loc(), "these nonlinear solver options are not supported yet",
                             "'modified, N' is; remove the rest");
    } else if (name == "newtonraphson") {
        if (r.accept("modified"))
            s.set("newton modified iterations", r.at_end() ? 1L : r.integer("iterations"));
        else
            r.accept("true");
        r.accept("keep jacobian");
    } else if (name == "derivativestolerance")
        s.set("derivatives tolerance", r.nonnegative("derivatives tolerance"));
    else if (name == "derivativesmaxiterations")
        s.set("derivatives max iterations", r.integer("derivatives max iterations"));
    else if (name == "derivativescoefficient") {
        if (!r.peek("auto"))
            s.set("derivatives coefficient", r.positive("derivatives coefficient"));
        if (r.accept("auto")) {
            // `auto [, max iterations, n] [, factor, f]`: on failure the coefficient grows by f, n
            // times.
            s.set("derivatives coefficient auto", true);
            while (!r.at_end()) {
                if (r.accept("max iterations"))
                    s.set("derivatives coefficient max iterations", r.integer("max iterations"));
                else if (r.accept("factor"))
                    s.set("derivatives coefficient factor", r.positive("factor"));
                else
                    r.keyword({"max iterations", "factor"}, "derivatives coefficient option");
            }
        }
    } else if (name.rfind("dummysteps", 0) == 0 || name.rfind("fictitioussteps", 0) == 0) {
        std::string what = name.substr(name.rfind("steps") + 5);
        if (name[0] == 'f')
            r.warn_at(at, "'fictitious steps' is a deprecated alias of 'dummy steps'");
        if (what == "method") {
            throw InputError(at, "'dummy steps method' is not supported yet",
                             "remove it: dummy steps use the integration method of the run");
        } else if (what == "number" || what == "maxiterations") {
            s.set("dummy steps " + std::string(what == "number" ? "number" : "max iterations"),
                  r.integer("dummy steps"));
        } else if (what == "ratio" || what == "tolerance") {
            s.set("dummy steps " + what, r.nonnegative("dummy steps " + what));
        } else {
            throw InputError(at, "unknown card 'dummy steps " + what + "'",
                             "number, ratio, tolerance, max iterations or method");
        }
    } else if (name == "strategy") {
        std::string k = r.keyword({"factor", "change", "no change"}, "strategy");
        s.set("strategy", k);
        if (k == "factor") {
            SourceLoc a = r.loc();
            double red = r.real("reduction factor");
            if (!(red > 0 && red < 1))
                throw InputError(a, "strategy reduction factor must be in (0, 1)");
            s.set("strategy reduction factor", red);
            s.set("strategy steps before reduction", r.integer("steps before reduction"));
            SourceLoc b = r.loc();
            double raise = r.real("raise factor");
            if (!(raise >= 1)) throw InputError(b, "strategy raise factor must be at least 1");
            s.set("strategy raise factor", raise);
            s.set("strategy steps before raise", r.integer("steps before raise"));
            s.set("strategy min iterations", r.integer("min iterations"));
            if (!r.at_end()) s.set("strategy max iterations", r.integer("max iterations"));
        } else if (k == "change") {
            throw InputError(at,
                             "'strategy: change' (the time step from a drive) is not supported yet",
                             "remove it for a fixed step, or use 'strategy: factor, ...'");
        }
    } else if (name == "output") {
        ignore_card(
            r, at, "output",
            "mbsolve does not print MBDyn's solver diagnostics (iterations, residual, ...)");
    } else if (name == "abortafter") {
        s.set("abort after",
              r.keyword({"input", "assembly", "derivatives", "dummy steps"}, "abort phase"));
    } else if (name == "outputmeter") {
        throw InputError(
            at, "'output meter' belongs in the control data block, not in the initial value block",
            "move it to 'begin: control data;'");
    } else if (name == "threads") {
        ignore_card(r, at, "threads", "mbsolve assembles and solves on one thread");
    } else if (name == "eigenanalysis") {
        throw InputError(at, "'eigenanalysis' is not supported yet",
                         "remove the card; 'mbsolve --analysis modal' gives the modes of the "
                         "relative-coordinate model");
    } else if (name == "modifyresidualtest" || name == "enforceconstraintequations") {
        throw InputError(
            at,
            "'" +
                std::string(name == "modifyresidualtest" ? "modify residual test"
                                                         : "enforce constraint equations") +
                "' is not supported yet",
            "remove the card");
    } else {
        static const std::vector<std::string> known = {"initial time",
                                                       "final time",
                                                       "time step",
                                                       "min time step",
                                                       "max time step",
                                                       "max iterations",
                                                       "tolerance",
                                                       "method",
                                                       "linear solver",
                                                       "nonlinear solver",
                                                       "newton raphson",
                                                       "derivatives tolerance",
                                                       "derivatives max iterations",
                                                       "derivatives coefficient",
                                                       "dummy steps number",
                                                       "dummy steps ratio",
                                                       "dummy steps tolerance",
                                                       "dummy steps max iterations",
                                                       "strategy",
                                                       "output",
                                                       "abort after",
                                                       "eigenanalysis",
                                                       "threads",
                                                       "modify residual test"};
        std::string near = closest_match(name, known);
        throw InputError(at, "unknown card '" + name + "' in the initial value block",
                         near.empty() ? "" : "did you mean '" + near + "'?");
    }
    r.finish();
}

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
                if (accelerations) e.props.set("accelerations", true);
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
                if (accelerations) e.props.set("accelerations", true);
            }
    } else {
        while (!r.at_end()) {
            SourceLoc a = r.loc();
            mark(r.label("label"), a);
        }
    }
    r.finish();
}

// Whether entities of a counter are output by default (control data `default output`).
bool default_output(const Props& control, const std::string& counter) {
    const auto* v = control.find("default output");
    if (!v) return counter != "gravity";
    std::string list = std::get<std::string>(*v);
    bool on = counter != "gravity";
    std::size_t pos = 0;
    while (pos < list.size()) {
        std::size_t e = list.find(", ", pos);
        std::string item = list.substr(pos, e == std::string::npos ? std::string::npos : e - pos);
        if (item == "all")
            on = true;
        else if (item == "none")
            on = false;
        else if (item == counter)
            on = true;
        if (e == std::string::npos) break;
        pos = e + 2;
    }
    return on;
}

void Builder::node_card(const std::string& name, DeckReader& r) {
    SourceLoc at = r.card_loc();
    if (name == "output") return output_card(r, true);
    auto& reg = Registry::instance();
    auto it = reg.nodes.find(name);
    if (it == reg.nodes.end()) {
        std::vector<std::string> known = {"structural", "abstract", "electric", "hydraulic",
                                          "parameter",  "thermal",  "output"};
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
    e.output = default_output(st_.model.control, counter);
    fn(r, e);
    if (r.accept("output")) e.output = r.boolean("output flag");
    r.finish();
    st_.model.nodes.push_back(std::move(e));
}

// driven: L, <drive>, {existing: <type>, L | <the element's card, label L>};  (MBDyn's driven
// elements: active while the drive is non-zero). The element is read as its own card would be
// (counted, label claimed); a "driven" entry naming it ("drive", "element") follows it.
// MBDyn's `hint, "..."`s (geometry re-read on activation) are kept as located records
// "hint 1", "hint 2", ... (a DriveSpec, type = the text); the runtime (elements/drives/
// driven_element.cpp) says which element takes which.
void Builder::driven_card(DeckReader& r) {
    SourceLoc at = r.card_loc(), label_at = r.loc();
    long label = r.label("driven element label");
    auto drive = r.drive("activity drive (the element is active while it is non-zero)");
    std::vector<std::shared_ptr<const DriveSpec>> hints;
    while (r.accept("hint")) {
        auto h = std::make_shared<DriveSpec>();
        h->loc = r.loc();
        h->type = r.string("hint, e.g. \"offset{1}\"");
        std::string t = h->type;
        for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        bool ok = false;
        for (const char* k : {"offset{", "hinge{", "position-hinge{", "orientation-hinge{"})
            ok = ok || t == std::string(k) + "1}" || t == std::string(k) + "2}";
        if (!ok)
            throw InputError(h->loc, "unknown driven element hint \"" + h->type + "\"",
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
    for (const auto& x : st_.model.elements)
        if (x.category == "driven" && x.props.get<EntityRef>("element").label == ref.label &&
            x.props.get<EntityRef>("element").category == ref.category)
            r.error_at(label_at, ref.category + " " + std::to_string(label) + " is driven already");
    EntityDesc d;
    d.category = "driven";
    d.label = label;
    d.loc = at;
    d.props.set("drive", drive);
    d.props.set("element", ref);
    for (std::size_t i = 0; i < hints.size(); ++i)
        d.props.set("hint " + std::to_string(i + 1), hints[i]);
    st_.model.elements.push_back(std::move(d));
}

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
        if (name == "driven" || name == "bind" || name == "loadable" || name == "plate" ||
            name == "shell4" || name == "aerodynamicbody" || name == "hydraulic" ||
            name == "electric")
            throw InputError(at, "'" + name + "' elements are not supported yet");
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
        default_output(st_.model.control, info.count.empty() ? info.label_space : info.count);
    fn(r, e);
    if (r.accept("output")) e.output = r.boolean("output flag");
    r.finish();
    st_.model.elements.push_back(std::move(e));
}

// Returns the -D definitions with the source each was parsed from (for warn_unused_defines).
std::vector<std::pair<std::string, const SourceFile*>> apply_definitions(BuildState& st) {
    // MBDYN_real_NAME / MBDYN_integer_NAME from the environment, then -D NAME=VALUE.
    auto define = [&](const std::string& name, const std::string& text, const char* type,
                      const std::string& origin) {
        SourceFile* f = st.files.emplace_back(std::make_unique<SourceFile>(origin, text)).get();
        ast::Stmt stmt = parse_statement(f->text, SourceLoc{f, 0, 1});
        Value v = st.evaluator.eval(stmt, origin_of(*f));
        Type t = std::string(type) == "integer"  ? Type::integer
                 : std::string(type) == "bool"   ? Type::boolean
                 : std::string(type) == "string" ? Type::string
                 : std::string(type) == "real"   ? Type::real
                                                 : v.type;
        if (t == Type::integer && v.type == Type::real) v = Value::of_int(static_cast<long>(v.r));
        if (t == Type::real) v = Value::of_real(v.as_real());
        st.symbols.define(name, Variable{t, false, v});
        return f;
    };
    if (st.options.use_environment) {
        for (char** e = environ; e && *e; ++e) {
            std::string kv(*e);
            for (const char* type : {"real", "integer", "bool", "string"}) {
                std::string prefix = std::string("MBDYN_") + type + "_";
                if (kv.rfind(prefix, 0) != 0) continue;
                auto eq = kv.find('=');
                std::string name = kv.substr(prefix.size(), eq - prefix.size());
                std::string val = kv.substr(eq + 1);
                if (std::string(type) == "string") val = "\"" + val + "\"";
                define(name, val, type, "environment " + kv.substr(0, eq));
            }
        }
    }
    std::vector<std::pair<std::string, const SourceFile*>> defined;
    for (const auto& [name, val] : st.options.defines)
        defined.emplace_back(name, define(name, val, "", "-D " + name));
    return defined;
}

// A -D the deck never reads is most likely a misspelt name: say so (the run goes on, as a
// sweep may pass the same definitions to decks that read only some of them).
void warn_unused_defines(BuildState& st,
                         const std::vector<std::pair<std::string, const SourceFile*>>& defined) {
    for (const auto& [name, file] : defined) {
        auto it = st.symbols.all().find(name);  // not find(): that marks the variable used
        if (it != st.symbols.all().end() && !it->second.used)
            st.diag.warn(SourceLoc{file, 0, static_cast<std::uint32_t>(file->text.size())},
                         "-D " + name + ": the deck never reads '" + name + "'");
    }
}

// Reads the deck (a file, or text held in memory), checks the end of input, hands over warnings
// and the source files (every SourceLoc in the model points into them).
template <class Read>
Model build(const std::string& name, const BuildOptions& options, Read read) {
    BuildState st;
    st.options = options;
    st.diag.echo = options.echo_warnings;
    st.model.deck_path = name;
    const auto defined = apply_definitions(st);
    std::size_t deck = st.files.size();  // the deck is the first file read after the definitions
    Builder b(st);
    read(b);
    const SourceFile* f = st.files.at(deck).get();
    auto eof = static_cast<std::uint32_t>(f->text.size());
    b.finish(SourceLoc{f, eof, eof});
    warn_unused_defines(st, defined);
    if (st.diag.echo && st.diag.suppressed())
        std::cerr << "mbsolve: " << st.diag.suppressed()
                  << " more warnings like the ones above were not shown\n";
    st.model.warnings = st.diag.warnings();
    st.model.sources = std::move(st.files);
    return std::move(st.model);
}

}  // namespace

Model build_model(const std::string& path, const BuildOptions& options) {
    return build(path, options, [&](Builder& b) { b.run_file(path, SourceLoc{}); });
}

Model build_model_from_text(const std::string& name, const std::string& text,
                            const BuildOptions& options) {
    return build(name, options, [&](Builder& b) { b.run_text(name, text); });
}

}  // namespace mbs::parser
