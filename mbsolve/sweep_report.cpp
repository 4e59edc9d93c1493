// --report: run-data terms sampled during the run, combined at the end by the deck evaluator.
#include "mbsolve/sweep_report.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "core/struct_node.hpp"
#include "elements/nodes/node_private_data.hpp"
#include "parser/deck.hpp"
#include "parser/expr.hpp"
#include "solvers/dae/engine.hpp"

namespace mbs::sweep {

namespace {

const char* const kAggNames[] = {"final", "initial", "maximum", "minimum", "maxabs", "mean", "rms"};
const char* const kNodeFields[] = {"x",  "y",  "z",  "vx",    "vy",   "vz",
                                   "wx", "wy", "wz", "speed", "omega"};
const char* const kJointFields[] = {"Fx", "Fy", "Fz", "Mx", "My", "Mz", "fx",
                                    "fy", "fz", "mx", "my", "mz", "F",  "M"};

bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

template <std::size_t N>
int find_name(const char* const (&list)[N], const std::string& w) {
    for (std::size_t i = 0; i < N; ++i)
        if (w == list[i]) return static_cast<int>(i);
    return -1;
}

template <std::size_t N>
std::string join(const char* const (&list)[N]) {
    std::string s;
    for (std::size_t i = 0; i < N; ++i) s += (i ? ", " : "") + std::string(list[i]);
    return s;
}

// The report's text as a source file (so errors point into what the user typed) and where
// the expression starts in it.
struct ReportSource {
    SourceFile file;
    std::uint32_t shift;
    ReportSource(const Report& r)
        : file("--report", r.spec),
          shift(static_cast<std::uint32_t>(r.spec.size() - r.expr.size())) {}
};

[[noreturn]] void fail_at(const Report& r, std::size_t offset, std::size_t len,
                          const std::string& what, const std::string& hint = {}) {
    ReportSource src(r);
    auto b = static_cast<std::uint32_t>(src.shift + offset);
    throw InputError(
        SourceLoc{&src.file, b, static_cast<std::uint32_t>(b + std::max<std::size_t>(len, 1))},
        what, hint);
}

// Symbols: the -D variables (evaluated as the deck evaluates them) and the term identifiers.
void define_inputs(parser::SymbolTable& symbols, const Report& r, const std::vector<double>& terms,
                   const std::map<std::string, std::string>& defines) {
    parser::Evaluator ev(symbols);
    for (const auto& [name, text] : defines) {
        SourceFile f("-D " + name, text);
        parser::Value v =
            ev.eval(parser::parse_statement(f.text, SourceLoc{&f, 0, 1}), parser::AstOrigin{&f, 0});
        symbols.define(name, parser::Variable{v.type, true, v});
    }
    for (std::size_t k = 0; k < r.terms.size(); ++k) {
        std::string id = r.expr.substr(r.terms[k].offset, r.terms[k].text.size());
        symbols.define(
            id, parser::Variable{parser::Type::real, true, parser::Value::of_real(terms[k])});
    }
}

}  // namespace

Report parse_report(const std::string& spec) {
    Report r;
    r.spec = spec;
    // NAME=EXPR (not NAME==...)
    std::size_t i = 0;
    while (i < spec.size() && spec[i] == ' ') ++i;
    std::size_t nb = i;
    if (i < spec.size() && name_start(spec[i])) {
        while (i < spec.size() && name_char(spec[i])) ++i;
        std::size_t ne = i;
        while (i < spec.size() && spec[i] == ' ') ++i;
        if (i < spec.size() && spec[i] == '=' && (i + 1 >= spec.size() || spec[i + 1] != '=')) {
            r.name = spec.substr(nb, ne - nb);
            r.expr = spec.substr(i + 1);
        }
    }
    if (r.name.empty()) {
        r.expr = spec;
        for (char c : spec)
            if (c != ' ') r.name += c;
    }
    bool blank = true;
    for (char c : r.expr) blank = blank && std::isspace(static_cast<unsigned char>(c));
    if (blank)
        fail_at(r, 0, 1, "empty --report expression",
                "write e.g. --report 'x_end=final(node 2, x)'");

    // Find the terms AGG(KIND LABEL, FIELD) and replace each by an identifier of the same length.
    const std::string& e = r.expr;
    std::string out = e;
    for (std::size_t p = 0; p < e.size();) {
        if (!name_start(e[p]) || (p > 0 && name_char(e[p - 1]))) {
            ++p;
            continue;
        }
        std::size_t q = p;
        while (q < e.size() && (name_char(e[q]) || e[q] == ':')) ++q;
        std::string word = e.substr(p, q - p);
        int agg = find_name(kAggNames, word);
        std::size_t k = q;
        while (k < e.size() && e[k] == ' ') ++k;
        if (agg < 0 || k >= e.size() || e[k] != '(') {
            p = q;
            continue;
        }
        auto skip = [&] {
            while (k < e.size() && e[k] == ' ') ++k;
        };
        auto bad = [&](const std::string& what) {
            std::size_t close = e.find(')', k);
            fail_at(r, p, (close == std::string::npos ? e.size() : close + 1) - p, what,
                    "a run-data term is AGG(node LABEL, FIELD), AGG(joint LABEL, FIELD) or "
                    "AGG(KIND LABEL, \"DATUM\")");
        };
        ++k;
        skip();
        std::size_t kb = k;
        while (k < e.size() && name_char(e[k])) ++k;
        std::string kind = e.substr(kb, k - kb);
        ReportTerm t;
        if (kind.empty())
            bad(word + "(...): expected 'node' or an element category ('joint', 'body', ...)");
        t.kind = kind == "node" ? ReportTerm::Kind::node : ReportTerm::Kind::element;
        if (t.kind == ReportTerm::Kind::element) t.category = kind;
        skip();
        std::size_t lb = k;
        while (k < e.size() && std::isdigit(static_cast<unsigned char>(e[k]))) ++k;
        if (k == lb || k - lb > 9) bad(word + "(" + kind + " ...): expected a label (an integer)");
        t.label = std::stol(e.substr(lb, k - lb));
        skip();
        if (k >= e.size() || e[k] != ',')
            bad(word + "(" + kind + " LABEL, FIELD): expected ',' after the label");
        ++k;
        skip();
        std::size_t fb = k;
        if (k < e.size() && e[k] == '"') {
            std::size_t close = e.find('"', k + 1);
            if (close == std::string::npos)
                bad(word + "(...): the private-data name has no closing '\"'");
            t.datum = e.substr(k + 1, close - k - 1);
            if (t.datum.empty()) bad(word + "(...): empty private-data name");
            k = close + 1;
        } else {
            while (k < e.size() && name_char(e[k])) ++k;
            std::string field = e.substr(fb, k - fb);
            bool node = t.kind == ReportTerm::Kind::node;
            if (!node && kind != "joint")
                fail_at(
                    r, fb, std::max<std::size_t>(field.size(), 1),
                    kind + " has no built-in fields: name a private datum in quotes, e.g. \"E\"");
            t.field = node ? find_name(kNodeFields, field) : find_name(kJointFields, field);
            if (t.field < 0)
                fail_at(r, fb, std::max<std::size_t>(field.size(), 1),
                        "unknown " + kind + " field '" + field + "'",
                        "fields: " + (node ? join(kNodeFields) : join(kJointFields)) +
                            "; or a private-data name in quotes");
        }
        skip();
        if (k >= e.size() || e[k] != ')') bad(word + "(...): expected ')' after the field");
        ++k;
        t.agg = static_cast<ReportTerm::Agg>(agg);
        t.text = e.substr(p, k - p);
        t.offset = p;
        std::string id = "rpt" + std::to_string(r.terms.size()) + "_";
        id.resize(k - p, '_');  // a term is at least 14 characters long: the id fits
        out.replace(p, k - p, id);
        r.terms.push_back(t);
        p = k;
    }
    r.expr = out;
    return r;
}

double evaluate_report(const Report& r, const std::vector<double>& terms,
                       const std::map<std::string, std::string>& defines) {
    parser::SymbolTable symbols;
    define_inputs(symbols, r, terms, defines);
    ReportSource src(r);
    parser::Evaluator ev(symbols);
    ast::Stmt stmt =
        parser::parse_statement(r.expr, SourceLoc{&src.file, src.shift, src.shift + 1});
    if (!boost::get<ast::Expression>(&stmt))
        fail_at(r, 0, r.expr.size(),
                "a --report is an expression, not a declaration or an assignment");
    parser::Value v = ev.eval(stmt, parser::AstOrigin{&src.file, src.shift});
    if (v.type == parser::Type::string)
        fail_at(r, 0, r.expr.size(), "a --report expression must be a number");
    return v.as_real();
}

namespace {

std::string owner(const ReportTerm& t) {
    return (t.kind == ReportTerm::Kind::node ? std::string("structural node") : t.category) + " " +
           std::to_string(t.label);
}

}  // namespace

void check_report(const Report& r, const Model& model,
                  const std::map<std::string, std::string>& defines) {
    for (const auto& t : r.terms) {
        bool found = t.kind == ReportTerm::Kind::node
                         ? model.find_node("structural", t.label) != nullptr
                         : model.find_element(t.category, t.label) != nullptr;
        if (!found) fail_at(r, t.offset, t.text.size(), "the deck has no " + owner(t));
    }
    evaluate_report(r, std::vector<double>(r.terms.size(), 1.0), defines);
}

ReportSink::ReportSink(const std::vector<Report>& reports, const Engine& engine)
    : reports_(&reports), engine_(&engine) {
    for (const auto& r : reports)
        for (const auto& t : r.terms) {
            int index = -1, datum = -1;
            std::string why;
            if (t.kind == ReportTerm::Kind::node) {
                const auto& nodes = engine.nodes();
                for (std::size_t i = 0; i < nodes.size(); ++i)
                    if (nodes[i].label() == t.label) index = static_cast<int>(i);
                if (index >= 0 && !t.datum.empty())
                    datum = nodes::struct_node_private_index(nodes[static_cast<std::size_t>(index)],
                                                             t.datum, why);
            } else {
                const auto& els = engine.elements();
                for (std::size_t i = 0; i < els.size(); ++i)
                    if (els[i]->label() == t.label && els[i]->desc().category == t.category)
                        index = static_cast<int>(i);
                if (index >= 0 && !t.datum.empty()) {
                    const Element& el = *els[static_cast<std::size_t>(index)];
                    datum = el.private_data_index(t.datum);
                    if (datum < 0) {
                        why = owner(t) + " has no private datum '" + t.datum + "'";
                        std::string names;
                        for (int k = 0; k < el.private_data_count(); ++k)
                            names += (k ? ", " : "") + std::string(el.private_data_name(k));
                        why += names.empty() ? " (it has none)" : " (it has: " + names + ")";
                    }
                }
            }
            if (index < 0)
                fail_at(r, t.offset, t.text.size(), "the model has no run-time " + owner(t));
            if (!t.datum.empty() && datum < 0) fail_at(r, t.offset, t.text.size(), why);
            acc_.push_back(Acc{&t, index, datum});
        }
}

// One sample of a term: a component or a norm of the node's kinematics or the joint's reaction.
void ReportSink::sample(const StepView& view, Acc& a) {
    double v = 0.0;
    int f = a.term->field;
    if (a.term->kind == ReportTerm::Kind::node) {
        const StructNode& n = view.nodes[static_cast<std::size_t>(a.index)];
        if (a.datum >= 0)
            v = nodes::struct_node_private_data(n, a.datum);
        else if (f < 3)
            v = n.x(f);
        else if (f < 6)
            v = n.xdot(f - 3);
        else if (f < 9)
            v = n.w(f - 6);
        else if (f == 9)
            v = n.xdot.norm();
        else
            v = n.w.norm();
    } else {
        const Element& el = *view.elements[static_cast<std::size_t>(a.index)];
        if (a.datum >= 0) {
            v = el.private_data(a.datum, engine_->state());
        } else {
            Vec3 fl, ml, F, M;
            if (!el.reaction(fl, ml, F, M)) return;
            if (f < 3)
                v = F(f);
            else if (f < 6)
                v = M(f - 3);
            else if (f < 9)
                v = fl(f - 6);
            else if (f < 12)
                v = ml(f - 9);
            else if (f == 12)
                v = F.norm();
            else
                v = M.norm();
        }
    }
    if (a.n == 0) a.first = a.max = a.min = v;
    a.last = v;
    a.max = std::max(a.max, v);
    a.min = std::min(a.min, v);
    a.maxabs = std::max(a.maxabs, std::abs(v));
    a.sum += v;
    a.sum2 += v * v;
    ++a.n;
}

// The sinks see the initial state (step 0, after the initial assembly) and every converged step.
void ReportSink::step(const StepView& v, const StepInfo& s) {
    steps_ = s.step;
    time_ = s.time;
    for (auto& a : acc_) sample(v, a);
}

std::vector<double> ReportSink::values(const std::map<std::string, std::string>& defines) const {
    std::vector<double> out;
    std::size_t k = 0;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const auto& r : *reports_) {
        std::vector<double> terms;
        for (std::size_t j = 0; j < r.terms.size(); ++j, ++k) {
            const Acc& a = acc_[k];
            if (a.n == 0) {
                terms.push_back(nan);
                continue;
            }
            switch (a.term->agg) {
                case ReportTerm::Agg::final_:
                    terms.push_back(a.last);
                    break;
                case ReportTerm::Agg::initial:
                    terms.push_back(a.first);
                    break;
                case ReportTerm::Agg::maximum:
                    terms.push_back(a.max);
                    break;
                case ReportTerm::Agg::minimum:
                    terms.push_back(a.min);
                    break;
                case ReportTerm::Agg::maxabs:
                    terms.push_back(a.maxabs);
                    break;
                case ReportTerm::Agg::mean:
                    terms.push_back(a.sum / static_cast<double>(a.n));
                    break;
                case ReportTerm::Agg::rms:
                    terms.push_back(std::sqrt(a.sum2 / static_cast<double>(a.n)));
                    break;
            }
        }
        out.push_back(evaluate_report(r, terms, defines));
    }
    return out;
}

// key=value lines; "end=1" last, so a file cut short by a kill is recognised as incomplete.
void write_run_result(const std::string& path, const RunResult& r) {
    std::string tmp = path + ".tmp";
    {
        std::ofstream o(tmp, std::ios::trunc);
        if (!o) throw std::invalid_argument("cannot write the report file '" + path + "'");
        char b[64];
        o << "status=" << r.status << "\n";
        o << "steps=" << r.steps << "\n";
        std::snprintf(b, sizeof b, "%.17g", r.final_time);
        o << "final_time=" << b << "\n";
        for (double v : r.reports) {
            std::snprintf(b, sizeof b, "%.17g", v);
            o << "report=" << b << "\n";
        }
        std::string err = r.error;
        for (char& c : err)
            if (c == '\n' || c == '\r') c = ' ';
        o << "error=" << err << "\nend=1\n";
        if (!o.flush()) throw std::invalid_argument("cannot write the report file '" + path + "'");
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0)
        throw std::invalid_argument("cannot write the report file '" + path + "'");
}

bool read_run_result(const std::string& path, RunResult& r) {
    std::ifstream in(path);
    if (!in) return false;
    r = RunResult{};
    bool end = false;
    for (std::string line; std::getline(in, line);) {
        auto eq = line.find('=');
        if (eq == std::string::npos) continue;
        std::string k = line.substr(0, eq), v = line.substr(eq + 1);
        if (k == "status")
            r.status = v;
        else if (k == "steps")
            r.steps = std::stol(v);
        else if (k == "final_time")
            r.final_time = std::strtod(v.c_str(), nullptr);
        else if (k == "report")
            r.reports.push_back(std::strtod(v.c_str(), nullptr));
        else if (k == "error")
            r.error = v;
        else if (k == "end")
            end = true;
    }
    return end;
}

RunReports::RunReports(const std::vector<std::string>& specs, std::string report_file,
                       std::map<std::string, std::string> defines, const Engine& engine)
    : file_(std::move(report_file)), defines_(std::move(defines)) {
    for (const auto& s : specs) {
        reports_.push_back(parse_report(s));
        evaluate_report(reports_.back(), std::vector<double>(reports_.back().terms.size(), 1.0),
                        defines_);
    }
    sink_ = std::make_unique<ReportSink>(reports_, engine);
}

void RunReports::finish(const std::string& status, const std::string& error, bool quiet) {
    RunResult r;
    r.status = status;
    r.error = error;
    r.steps = sink_->steps();
    r.final_time = sink_->final_time();
    r.reports = sink_->values(defines_);
    if (!quiet)
        for (std::size_t k = 0; k < reports_.size(); ++k)
            std::printf("report: %s = %.17g\n", reports_[k].name.c_str(), r.reports[k]);
    if (!file_.empty()) write_run_result(file_, r);
}

}  // namespace mbs::sweep
