// The deck builder: walks cards in source order through MBDyn's block structure
// (data, initial value, control data, nodes, drivers, elements), handles the cards that are
// allowed anywhere (set, include, reference, drive caller, constitutive law, ...), checks counts
// and labels, and hands node/element cards to the registered readers. The blocks' own cards are
// in builder_global.cpp, builder_problem.cpp, builder_control.cpp and builder_entities.cpp.
#include "parser/builder.hpp"

#include <algorithm>
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
#include "parser/builder_impl.hpp"
#include "parser/deck.hpp"

namespace mbs::parser {

namespace fs = std::filesystem;

extern "C" char** environ;

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

namespace {

// The problem blocks of the DAE path (`begin: initial value;`). `inverse dynamics` names a block,
// as in MBDyn, but is refused as a `problem:`: the DAE path has no inverse dynamics.
constexpr std::string_view dae_problem_blocks[] = {"initial value", "multistep",
                                                   "inverse dynamics"};

bool is_dae_problem_block(std::string_view b) {
    return std::find(std::begin(dae_problem_blocks), std::end(dae_problem_blocks), b) !=
           std::end(dae_problem_blocks);
}

// The `problem:` keywords accepted: the DAE's, then the relative-coordinate path's from the
// analysis table (core/analysis.hpp), in the order of the "expected one of" hint.
const std::vector<std::string_view>& problem_keywords() {
    static const std::vector<std::string_view> v = [] {
        std::vector<std::string_view> k;
        for (std::string_view b : dae_problem_blocks)
            if (b != "inverse dynamics") k.push_back(b);
        for (const AnalysisInfo& a : analyses())
            if (!a.problem.empty()) k.push_back(a.problem);
        return k;
    }();
    return v;
}

// The block names of `begin:` and `end:`: data, the problem blocks (DAE and relative-coordinate),
// then the model's blocks in deck order.
const std::vector<std::string_view>& block_names() {
    static const std::vector<std::string_view> v = [] {
        std::vector<std::string_view> k = {"data"};
        k.insert(k.end(), std::begin(dae_problem_blocks), std::end(dae_problem_blocks));
        for (const AnalysisInfo& a : analyses())
            if (!a.problem.empty()) k.push_back(a.problem);
        for (std::string_view b : {"control data", "nodes", "drivers", "elements"}) k.push_back(b);
        return k;
    }();
    return v;
}

}  // namespace

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
                if (r.peek("inverse dynamics"))
                    throw InputError(
                        pa, "'problem: inverse dynamics' is not supported yet by the DAE engine",
                        "'problem: reduced inverse dynamics;' (or --analysis inverse-dynamics) "
                        "runs the "
                        "inverse dynamics of the relative-coordinate model");
                std::string p = r.keyword_of(problem_keywords(), "problem");
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
            return driver_card(name, r, at);
        default:
            break;
    }
    std::vector<std::string> known = {"begin", "end"};
    for (const auto& g : global_cards()) known.emplace_back(g.keyword);
    std::string near = closest_match(name, known);
    throw InputError(at, "unexpected card '" + c.description + "' outside of any block",
                     near.empty() ? "cards go between 'begin: <block>;' and 'end: <block>;'"
                                  : "did you mean '" + near + "'?");
}

void Builder::begin_block(DeckReader& r) {
    SourceLoc at = r.loc();
    std::string b = r.keyword_of(block_names(), "block name");
    r.finish();
    auto order_error = [&](const char* expected) {
        throw InputError(at, "'begin: " + b + "' is out of order",
                         std::string("expected ") + expected);
    };
    // A block left open: its 'end:' card is missing (not a block out of order).
    std::string open = equilibrium_options_ ? "equilibrium" : block_name(block_);
    if (!open.empty() && !(b == open && b == "data"))
        throw InputError(
            at, "'begin: " + b + "' inside the " + open + " block: 'end: " + open + ";' is missing",
            "add 'end: " + open + ";' before this card");
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
    } else if (is_dae_problem_block(b) || reduced_problem_block(b)) {
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
    std::string b = r.keyword_of(block_names(), "block name");
    r.finish();
    std::string open = block_name(block_);
    bool problem_alias =
        block_ == Block::problem && (is_dae_problem_block(b) || reduced_problem_block(b));
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

void Builder::check_exit(const SourceLoc& at) {
    if (block_ == Block::done || block_ == Block::start) return;  // start: finish() says why
    std::string open = equilibrium_options_ ? "equilibrium" : block_name(block_);
    std::string where = open.empty() ? "between blocks" : "inside the '" + open + "' block";
    std::vector<std::string> unread;
    if (block_ <= Block::data) unread.emplace_back("problem");
    if (block_ <= Block::problem) unread.emplace_back("control data");
    if (block_ <= Block::nodes) unread.emplace_back("nodes");
    unread.emplace_back(block_ == Block::elements ? "rest of the elements" : "elements");
    std::string list;
    for (std::size_t i = 0; i < unread.size(); ++i)
        list += (i == 0 ? "" : i + 1 == unread.size() ? " and " : ", ") + unread[i];
    throw InputError(at,
                     "'exit' ends the input " + where + ": the " + list + " block" +
                         (unread.size() > 1 ? "s are" : " is") + " never read",
                     "MBDyn stops reading at 'exit'; remove it, or put it after 'end: elements;'");
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
    if (st_.model.control.gravity.given()) any_elements = true;
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
    if (!nodes && st_.model.control.gravity.given() && !st_.defined_counts["gravity"])
        r.error_at(r.card_loc(),
                   "gravity: declared in control data but no gravity card in the elements block");
}

void Builder::count(DeckReader& r, const std::string& counter, const SourceLoc& at) {
    long declared = 0;
    auto it = st_.model.declared_counts.find(counter);
    if (it != st_.model.declared_counts.end()) declared = it->second;
    long n = ++st_.defined_counts[counter];
    if (counter == "bind") return;  // bind cards are not counted in control data (MBDyn)
    // MBDyn checks no count for its `inertia` (log) elements: decks written for it often have
    // `inertia:` cards and no `inertia: N;` in control data. A declared count is kept to.
    if (counter == "inertia" && it == st_.model.declared_counts.end()) return;
    if (counter == "gravity") {
        if (!st_.model.control.gravity.given())
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

namespace {

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
        if (t == Type::integer && v.type == Type::real) {
            const Value r = Value::of_int(static_cast<long>(v.r));
            if (v.r != static_cast<double>(r.i))  // as a deck's `set: integer` (parser/expr.cpp)
                st.diag.warn(SourceLoc{f, 0, 1},
                             "implicit cast of real " + v.to_string() + " to integer " +
                                 r.to_string() + " truncates it",
                             "give " + name + " an integer value");
            v = r;
        }
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
    st.evaluator.diag = &st.diag;
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
