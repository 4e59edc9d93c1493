// DeckReader: reads a card's arguments in order for the registered card readers.
#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/const_drive.hpp"
#include "core/registry.hpp"
#include "parser/build_state.hpp"
#include "parser/deck.hpp"

namespace mbs::parser {

AstOrigin origin_of(const SourceFile& f) { return AstOrigin{&f, 0}; }

namespace {

struct LocOf {
    template <class T>
    std::pair<std::uint32_t, std::uint32_t> operator()(const T& n) const {
        if constexpr (std::is_base_of_v<ast::Located, T>)
            return {n.begin, n.end};
        else if constexpr (std::is_same_v<T, ast::x3::forward_ast<ast::Card>>)
            return (*this)(n.get());
        else
            return boost::apply_visitor(*this, n);
    }
};

// A bare name used as an argument can be a keyword: descend single-operand expressions.
std::string ident_word(const ast::Operand& o);
std::string ident_word(const ast::Expression& e) {
    return e.rest.empty() ? ident_word(e.first) : std::string{};
}
std::string ident_word(const ast::Operand& o) {
    if (const auto* id = boost::get<ast::Ident>(&o)) return id->name;
    if (const auto* f = boost::get<ast::x3::forward_ast<ast::Expression>>(&o))
        return ident_word(f->get());
    return {};
}

// (Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "'" + std::string(s) + "'".)
std::string quoted(std::string_view s) {
    std::string q;
    q.reserve(s.size() + 2);
    q += '\'';
    q += s;
    q += '\'';
    return q;
}

}  // namespace

DeckReader::DeckReader(BuildState& st, const SourceFile& file, const ast::Card& card,
                       std::size_t first_arg)
    : st_(st), file_(file), card_(card), pos_(first_arg) {
    args_.reserve(card.args.size());
    for (const auto& a : card.args) {
        ArgView v;
        v.arg = &a;
        auto [b, e] = boost::apply_visitor(LocOf{}, a);
        v.loc = SourceLoc{&file, b, std::max(e, b + 1)};
        if (const auto* c = boost::get<ast::x3::forward_ast<ast::Card>>(&a)) {
            // A card as the last argument: only `driven` takes one (builder.cpp).
            if (normalize_keyword(card.description) != "driven")
                throw InputError(v.loc, "unexpected ':' after '" + c->get().description + "'",
                                 "a card inside a card is only allowed in 'driven'; otherwise a "
                                 "',' is missing or a ';' ends the card too early");
            v.nested = &c->get();
        } else if (boost::get<ast::Empty>(&a))
            v.empty = true;
        else if (const auto* w = boost::get<ast::Word>(&a))
            v.word = normalize_keyword(w->text);
        else if (const auto* s = boost::get<ast::Stmt>(&a))
            if (const auto* ex = boost::get<ast::Expression>(s)) {
                v.ident = ident_word(*ex);
                v.word = normalize_keyword(v.ident);
            }
        args_.push_back(std::move(v));
    }
}

bool DeckReader::at_end() const {
    for (std::size_t k = pos_; k < args_.size(); ++k)
        if (!args_[k].empty) return false;
    return true;
}

SourceLoc DeckReader::loc() const {
    if (pos_ < args_.size()) return args_[pos_].loc;
    return SourceLoc{&file_, card_.end > 0 ? card_.end - 1 : 0, card_.end};
}

SourceLoc DeckReader::card_loc() const { return SourceLoc{&file_, card_.begin, card_.end}; }

void DeckReader::error(const std::string& what, const std::string& hint) const {
    throw InputError(loc(), what, hint);
}

void DeckReader::error_at(const SourceLoc& at, const std::string& what,
                          const std::string& hint) const {
    throw InputError(at, what, hint);
}

void DeckReader::warn(const std::string& what) { st_.diag.warn(loc(), what); }
void DeckReader::warn_at(const SourceLoc& at, const std::string& what) { st_.diag.warn(at, what); }

bool DeckReader::peek(std::string_view keyword) const {
    return pos_ < args_.size() && !args_[pos_].word.empty() &&
           args_[pos_].word == normalize_keyword(keyword);
}

bool DeckReader::accept(std::string_view keyword) {
    if (!peek(keyword)) return false;
    ++pos_;
    return true;
}

void DeckReader::expect(std::string_view keyword) {
    if (accept(keyword)) return;
    if (pos_ >= args_.size())
        error("expected '" + std::string(keyword) + "', found the end of the card");
    error("expected '" + std::string(keyword) + "'");
}

std::string DeckReader::peek_word() const {
    return pos_ < args_.size() ? args_[pos_].word : std::string{};
}
bool DeckReader::peek_empty() const { return pos_ < args_.size() && args_[pos_].empty; }
void DeckReader::skip() {
    if (pos_ < args_.size()) ++pos_;
}

std::string DeckReader::keyword(std::initializer_list<std::string_view> choices,
                                std::string_view what) {
    return keyword_of(std::span(choices.begin(), choices.size()), what);
}

std::string DeckReader::keyword_of(std::span<const std::string_view> choices,
                                   std::string_view what) {
    std::vector<std::string> names;
    for (auto c : choices) {
        if (accept(c)) return std::string(c);
        names.emplace_back(c);
    }
    std::string list;
    for (auto c : choices) list += (list.empty() ? "" : ", ") + quoted(c);
    if (pos_ >= args_.size() || args_[pos_].empty)
        error("missing " + std::string(what) + " (one of " + list + ")");
    std::string found = args_[pos_].word;
    std::string near = found.empty() ? std::string{} : closest_match(found, names);
    error("unknown " + std::string(what) + (found.empty() ? std::string{} : " " + quoted(found)),
          near.empty() ? "expected one of " + list : "did you mean " + quoted(near) + "?");
}

const ArgView& DeckReader::next(std::string_view what) {
    if (pos_ >= args_.size()) error("missing " + std::string(what) + ": the card ends here");
    if (args_[pos_].empty) error("missing " + std::string(what) + ": the argument is empty");
    return args_[pos_++];
}

Value DeckReader::value(std::string_view what) {
    const ArgView& a = next(what);
    const auto* s = boost::get<ast::Stmt>(a.arg);
    if (a.nested) throw InputError(a.loc, "expected " + std::string(what) + ", found a card");
    if (!s)
        throw InputError(a.loc, "expected " + std::string(what) + ", found keyword '" +
                                    boost::get<ast::Word>(*a.arg).text + "'");
    return st_.evaluator.eval(*s, origin_of(file_));
}

double DeckReader::real(std::string_view what) {
    std::size_t at = pos_;
    if (at < args_.size() && !args_[at].empty && !is_value(at)) {
        error("expected a number for " + std::string(what) + ", found keyword '" + args_[at].word +
              "'");
    }
    Value v = value(what);
    if (v.type == Type::string)
        throw InputError(args_[at].loc,
                         "expected a number for " + std::string(what) + ", found a string");
    double r = v.as_real();
    if (!std::isfinite(r)) throw InputError(args_[at].loc, std::string(what) + " is not finite");
    return r;
}

long DeckReader::integer(std::string_view what) {
    std::size_t at = pos_;
    Value v = value(what);
    if (v.type == Type::string)
        throw InputError(args_[at].loc,
                         "expected an integer for " + std::string(what) + ", found a string");
    if (v.type == Type::real) {
        if (std::fabs(v.r) > 2147483647.0 || !std::isfinite(v.r))
            throw InputError(args_[at].loc, std::string(what) + " is out of the integer range");
        if (v.r != std::trunc(v.r))
            st_.diag.warn(args_[at].loc, std::string(what) + ": real value " + v.to_string() +
                                             " truncated to an integer");
        return static_cast<long>(v.r);
    }
    return v.type == Type::boolean ? (v.b ? 1 : 0) : v.i;
}

long DeckReader::label(std::string_view what) {
    std::size_t at = pos_;
    long l = integer(what);
    if (l < 0)
        throw InputError(args_[at].loc, std::string(what) + " must be a non-negative label, got " +
                                            std::to_string(l));
    return l;
}

bool DeckReader::boolean(std::string_view what) {
    if (accept("yes") || accept("true")) return true;
    if (accept("no") || accept("false")) return false;
    return real(what) != 0.0;
}

std::string DeckReader::string(std::string_view what) {
    std::size_t at = pos_;
    Value v = value(what);
    if (v.type != Type::string)
        throw InputError(args_[at].loc,
                         "expected a string (in double quotes) for " + std::string(what));
    return v.s;
}

double DeckReader::positive(std::string_view what) {
    std::size_t at = pos_;
    double v = real(what);
    if (!(v > 0))
        throw InputError(args_[at].loc, std::string(what) + " must be positive, got " +
                                            Value::of_real(v).to_string());
    return v;
}

double DeckReader::nonnegative(std::string_view what) {
    std::size_t at = pos_;
    double v = real(what);
    if (v < 0)
        throw InputError(args_[at].loc, std::string(what) + " must not be negative, got " +
                                            Value::of_real(v).to_string());
    return v;
}

bool DeckReader::is_value(std::size_t k) const {
    if (k >= args_.size() || args_[k].empty || !boost::get<ast::Stmt>(args_[k].arg)) return false;
    return args_[k].ident.empty() || st_.symbols.find(args_[k].ident) != nullptr;
}

bool DeckReader::next_is_value() const { return is_value(pos_); }

void DeckReader::values_missing(const std::string& message) {
    if (pos_ < args_.size() && !args_[pos_].ident.empty()) {
        const std::string& id = args_[pos_].ident;
        bool has_upper = std::any_of(id.begin(), id.end(), [](char ch) {
            return std::isupper(static_cast<unsigned char>(ch));
        });
        if (has_upper) value("value");  // throws "unknown variable" (keywords are lower case)
    }
    error(message);
}

void DeckReader::finish() {
    if (at_end()) return;
    const ArgView& a = args_[pos_];
    throw InputError(
        a.loc, "unexpected extra argument" + (a.word.empty() ? std::string{} : " '" + a.word + "'"),
        "the card's arguments end before this one; check the argument count");
}

// --- entities -------------------------------------------------------------------------------

const EntityDesc& DeckReader::node(std::string_view category, std::string_view what) {
    std::size_t at = pos_;
    long l = label(what);
    for (const auto& n : st_.model.nodes)
        if (n.label == l && (category.empty() || n.category == category)) return n;
    throw InputError(args_[at].loc,
                     "unknown label " + std::to_string(l) + " for " +
                         (category.empty() ? std::string("node") : std::string(category) + " node"),
                     "a node must be defined (in the nodes block) before a card uses it");
}

const EntityDesc& DeckReader::element(std::string_view category, std::string_view what) {
    std::size_t at = pos_;
    long l = label(what);
    if (const EntityDesc* e = st_.model.find_element(category, l)) return *e;
    throw InputError(args_[at].loc,
                     "unknown label " + std::to_string(l) + " for " + std::string(category),
                     "elements can only refer to elements defined before them");
}

// --- drives and laws ------------------------------------------------------------------------

std::shared_ptr<const CompiledExpr> DeckReader::compile(const std::string& text,
                                                        const SourceLoc& at) {
    // Offsets inside the string map to the file after the opening quote (exact without escapes).
    SourceLoc origin = at;
    origin.begin += 1;
    ast::Stmt stmt = parse_statement(text, origin);
    return compile_expression(stmt, AstOrigin{at.file, at.begin + 1}, st_.symbols);
}

// Resource bounds: the readers recurse through nested drive callers (stack), and the run-time
// drives are built by expanding every reference (a deck can share one drive caller twice per
// level and double the size with each card).
constexpr int max_drive_nesting = 64;
constexpr double max_drive_size = 1e6;

DeckReader::Nesting::Nesting(DeckReader& r, const SourceLoc& at) : r_(r) {
    if (++r_.nesting_ > max_drive_nesting)
        throw InputError(at,
                         "drive callers, template drives or laws nested more than " +
                             std::to_string(max_drive_nesting) + " deep",
                         "define the inner ones with 'drive caller:' cards");
}

void DeckReader::account(const void* spec, const std::vector<const void*>& children,
                         const SourceLoc& at) {
    BuildState::SpecCost c;
    for (const void* child : children) {
        auto it = st_.spec_costs.find(child);
        BuildState::SpecCost cc = it == st_.spec_costs.end() ? BuildState::SpecCost{} : it->second;
        c.depth = std::max(c.depth, cc.depth + 1);
        c.size += cc.size;
    }
    if (c.depth > max_drive_nesting)
        throw InputError(at, "drive callers nested more than " + std::to_string(max_drive_nesting) +
                                 " deep (through references)");
    if (c.size > max_drive_size) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.3g", c.size);
        throw InputError(at,
                         std::string("this drive caller, law or scalar function expands to ") +
                             buf + " parts at run time (through repeated references), more than " +
                             std::to_string(static_cast<long>(max_drive_size)),
                         "refer to a shared part once, or define fewer levels");
    }
    st_.spec_costs[spec] = c;
}

std::vector<const void*> DeckReader::spec_parts(const Props& params) const {
    std::vector<const void*> parts;
    for (const auto& [key, v] : params.items()) {
        if (const auto* d = std::get_if<std::shared_ptr<const DriveSpec>>(&v))
            parts.push_back(d->get());
        else if (const auto* t = std::get_if<std::shared_ptr<const TplDriveSpec>>(&v))
            parts.push_back(t->get());
        else if (const auto* l = std::get_if<std::shared_ptr<const LawSpec>>(&v))
            parts.push_back(l->get());
        else if (const auto* name = std::get_if<std::string>(&v)) {
            // A scalar function named by its parameter (drives::read_scalar_function_ref):
            // the run-time object builds the named function once per reference.
            auto it = st_.model.scalar_functions.find(*name);
            if (it != st_.model.scalar_functions.end()) parts.push_back(it->second.get());
        }
    }
    return parts;
}

void DeckReader::account_drive(const DriveSpec& spec, const SourceLoc& at) {
    std::vector<const void*> kids = spec_parts(spec.view());
    for (const auto& c : spec.children) kids.push_back(c.get());
    account(&spec, kids, at);
}

std::shared_ptr<const DriveSpec> DeckReader::drive(std::string_view what) {
    SourceLoc at = loc();
    Nesting nest(*this, at);
    if (accept("reference")) {
        SourceLoc lab = loc();
        long l = label("drive caller label");
        auto it = st_.model.drive_callers.find(l);
        if (it == st_.model.drive_callers.end())
            throw InputError(
                lab, "unknown drive caller " + std::to_string(l),
                "define it earlier with 'drive caller: " + std::to_string(l) + ", ...;'");
        return it->second;
    }
    auto& reg = Registry::instance();
    if (pos_ >= args_.size() || args_[pos_].empty)
        error("missing " + std::string(what) + " (a drive caller)");
    std::string w = args_[pos_].word;
    auto spec = std::make_shared<DriveSpec>();
    spec->loc = at;
    if (!w.empty()) {
        if (const auto* fn = reg.drives.find(w)) {
            ++pos_;
            spec->type = w;
            fn->read(*this, *spec);
            spec->loc.end = loc().begin;
            account_drive(*spec, at);
            return spec;
        }
        if (!is_value(pos_)) {
            std::vector<std::string> names;
            for (auto& n : reg.drives.names())
                if (n.rfind("scalar function", 0) != 0) names.push_back(n);
            std::string near = closest_match(w, names);
            error("unknown drive caller '" + w + "'",
                  near.empty()
                      ? "a drive caller is a keyword such as const, linear, sine, ramp, string"
                      : "did you mean '" + near + "'?");
        }
    }
    // A bare expression is a constant drive.
    spec->type = "const";
    emplace_args<ConstArgs>(*spec).value = real(what);
    account(spec.get(), {}, at);
    return spec;
}

std::shared_ptr<const TplDriveSpec> DeckReader::tpl_drive(int dim, std::string_view what) {
    SourceLoc at = loc();
    Nesting nest(*this, at);
    bool referenced = false;
    std::shared_ptr<const TplDriveSpec> spec = read_tpl_drive(dim, what, referenced);
    if (!referenced) {  // new, not a reference to a template drive caller (costed already)
        std::vector<const void*> kids;
        if (spec->drive) kids.push_back(spec->drive.get());
        for (const auto& c : spec->components)
            if (c) kids.push_back(c.get());
        for (const auto& c : spec->children) kids.push_back(c.get());
        account(spec.get(), kids, at);
    }
    return spec;
}

std::shared_ptr<const TplDriveSpec> DeckReader::read_tpl_drive(int dim, std::string_view what,
                                                               bool& referenced) {
    auto spec = std::make_shared<TplDriveSpec>();
    spec->dim = dim;
    spec->loc = loc();
    int n = dim;  // number of entity components (9 for 3x3, 36 for 6x6)
    if (accept("null") || accept("zero")) {
        spec->type = "null";
        return spec;
    }
    if (peek("reference") && pos_ + 1 < args_.size() && args_[pos_ + 1].word.empty()) {
        ++pos_;
        SourceLoc lab = loc();
        long l = label("template drive caller label");
        auto it = st_.tpl_drive_callers.find(l);
        if (it == st_.tpl_drive_callers.end())
            throw InputError(lab, "unknown template drive caller " + std::to_string(l));
        if (it->second->dim != dim)
            throw InputError(lab, "template drive caller " + std::to_string(l) + " has dimension " +
                                      std::to_string(it->second->dim) + ", expected " +
                                      std::to_string(dim));
        referenced = true;
        return it->second;
    }
    if (accept("component")) {
        spec->type = "component";
        int count = n;
        if (n == 9 && accept("sym"))
            count = 6;
        else if (n == 9 && accept("diag"))
            count = 3;
        else if (n == 36 && accept("sym"))
            count = 21;
        else if (n == 36 && accept("diag"))
            count = 6;
        for (int k = 0; k < count; ++k) {
            if (accept("inactive"))
                spec->components.push_back(nullptr);
            else
                spec->components.push_back(
                    drive("component " + std::to_string(k + 1) + " of " + std::string(what)));
        }
        return spec;
    }
    if (accept("array")) {
        spec->type = "array";
        SourceLoc cl = loc();
        long count = integer("number of template drives in the array");
        if (count < 1) throw InputError(cl, "an array template drive needs at least 1 entry");
        for (long k = 0; k < count; ++k) spec->children.push_back(tpl_drive(dim, what));
        return spec;
    }
    accept("single");
    spec->type = "single";
    if (dim == 3) {
        Frame f = frame_prefix();
        Vec3 v = vec3(what);
        if (f.kind == Frame::label) v = f.ref->R * v;
        spec->entity.assign(v.data(), v.data() + 3);
    } else if (dim == 9) {
        Mat3 m = mat3(what);
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) spec->entity.push_back(m(i, j));
    } else if (dim == 36) {
        Mat6 m = mat6(what);
        for (int i = 0; i < 6; ++i)
            for (int j = 0; j < 6; ++j) spec->entity.push_back(m(i, j));
    } else if (dim == 1) {
        // MBDyn's 1D template drive is the drive caller alone (its GetT for a scalar reads
        // nothing): `prestrain, const, 0.`. mbsolve's earlier form `value, <drive>` (value times
        // the drive) is still read when a value is followed by a drive caller keyword, which
        // MBDyn's form cannot be.
        const Registry& reg = Registry::instance();
        auto is_drive = [&](std::size_t i) {
            return i < args_.size() && !args_[i].word.empty() && reg.drives.find(args_[i].word);
        };
        if (!is_drive(pos_) && is_drive(pos_ + 1))
            spec->entity = entity(dim, what);
        else
            spec->entity = {1.0};
    } else {
        spec->entity = entity(dim, what);
    }
    spec->drive = drive(what);
    return spec;
}

std::shared_ptr<const LawSpec> DeckReader::law(int dim, std::string_view what) {
    SourceLoc at = loc();
    Nesting nest(*this, at);
    if (accept("reference")) {
        SourceLoc lab = loc();
        long l = label("constitutive law label");
        auto it = st_.model.laws.find(l);
        if (it == st_.model.laws.end())
            throw InputError(lab, "unknown constitutive law " + std::to_string(l),
                             "define it earlier with 'constitutive law: " + std::to_string(l) +
                                 ", " + std::to_string(dim) + ", ...;'");
        if (it->second->dim != dim)
            throw InputError(lab, "constitutive law " + std::to_string(l) + " has dimension " +
                                      std::to_string(it->second->dim) + ", but " +
                                      std::string(what) + " needs dimension " +
                                      std::to_string(dim));
        return it->second;
    }
    auto& reg = Registry::instance();
    std::string w = peek_word();
    const LawKind* fn = w.empty() ? nullptr : reg.laws.find(w);
    if (!fn) {
        std::string near = w.empty() ? std::string{} : closest_match(w, reg.laws.names());
        if (pos_ >= args_.size()) error("missing " + std::string(what) + " (a constitutive law)");
        error("unknown constitutive law" + (w.empty() ? std::string{} : " '" + w + "'"),
              near.empty() ? "e.g. 'linear elastic, K' or 'linear viscoelastic generic, K, C'"
                           : "did you mean '" + near + "'?");
    }
    ++pos_;
    auto spec = std::make_shared<LawSpec>();
    spec->type = w;
    spec->dim = dim;
    spec->loc = at;
    fn->read(*this, *spec);
    if (accept("prestress")) spec->prestress = entity(dim, "prestress");
    if (peek("prestrain")) {
        if (spec->kind == LawResponse::viscous)
            error("a viscous law takes no prestrain", "use 'prestress' (as MBDyn does)");
        skip();
        spec->prestrain = tpl_drive(dim, "prestrain");
    }
    // A law referring to earlier laws twice per card doubles with each card, like drives.
    std::vector<const void*> kids = spec_parts(spec->view());
    for (const auto& c : spec->children) kids.push_back(c.get());
    if (spec->prestrain) kids.push_back(spec->prestrain.get());
    account(spec.get(), kids, at);
    return spec;
}

}  // namespace mbs::parser
