// Model dump format: one block per entity, properties in card order, numbers with 10
// significant digits and round-off below 1e-12 printed as 0 (stable across platforms).
#include "parser/dump.hpp"

#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "core/file_driver.hpp"

namespace mbs::parser {

namespace {

std::string num(double v) {
    if (std::fabs(v) < 1e-12) v = 0.0;
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

std::string drive_text(const DriveSpec& d);
std::string tpl_text(const TplDriveSpec& t);
std::string law_text(const LawSpec& l);

struct ValueText {
    std::string operator()(bool b) const { return b ? "yes" : "no"; }
    std::string operator()(long v) const { return std::to_string(v); }
    std::string operator()(double v) const { return num(v); }
    std::string operator()(const std::string& s) const { return "\"" + s + "\""; }
    std::string operator()(const Vec3& v) const {
        return "[" + num(v[0]) + " " + num(v[1]) + " " + num(v[2]) + "]";
    }
    std::string operator()(const Mat3& m) const {
        std::string s = "[";
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) s += num(m(i, j)) + (j < 2 ? " " : "");
            s += i < 2 ? "; " : "]";
        }
        return s;
    }
    std::string operator()(const Vec6& v) const {
        std::string s = "[";
        for (int i = 0; i < 6; ++i) s += num(v[i]) + (i < 5 ? " " : "]");
        return s;
    }
    std::string operator()(const Mat6& m) const {
        std::string s = "[";
        for (int i = 0; i < 6; ++i) {
            for (int j = 0; j < 6; ++j) s += num(m(i, j)) + (j < 5 ? " " : "");
            s += i < 5 ? "; " : "]";
        }
        return s;
    }
    std::string operator()(const VecN& v) const {
        std::string s = "(";
        for (std::size_t i = 0; i < v.size(); ++i) s += num(v[i]) + (i + 1 < v.size() ? " " : "");
        return s + ")";
    }
    std::string operator()(const EntityRef& r) const {
        return r.category + " " + std::to_string(r.label);
    }
    std::string operator()(const std::shared_ptr<const DriveSpec>& d) const {
        return d ? drive_text(*d) : "none";
    }
    std::string operator()(const std::shared_ptr<const TplDriveSpec>& t) const {
        return t ? tpl_text(*t) : "none";
    }
    std::string operator()(const std::shared_ptr<const LawSpec>& l) const {
        return l ? law_text(*l) : "none";
    }
};

std::string props_inline(const Props& p) {
    std::string s;
    for (const auto& [k, v] : p.items())
        s += (s.empty() ? "" : ", ") + k + "=" + std::visit(ValueText{}, v);
    return s;
}

std::string drive_text(const DriveSpec& d) {
    const Props args = d.view();
    std::string s = d.type + "(" + props_inline(args);
    if (!d.source_text.empty())
        s += (args.empty() ? "" : ", ") + std::string("\"") + d.source_text + "\"";
    for (const auto& c : d.children)
        s += (s.back() == '(' ? "" : ", ") + (c ? drive_text(*c) : std::string("none"));
    return s + ")";
}

std::string tpl_text(const TplDriveSpec& t) {
    std::string s = t.type + "<" +
                    (t.dim == 9    ? std::string("3x3")
                     : t.dim == 36 ? std::string("6x6")
                                   : std::to_string(t.dim)) +
                    ">(";
    if (t.type == "single") s += ValueText{}(t.entity) + ", " + drive_text(*t.drive);
    if (t.type == "component")
        for (std::size_t k = 0; k < t.components.size(); ++k)
            s += (k ? ", " : "") +
                 (t.components[k] ? drive_text(*t.components[k]) : std::string("inactive"));
    if (t.type == "array")
        for (std::size_t k = 0; k < t.children.size(); ++k)
            s += (k ? ", " : "") + tpl_text(*t.children[k]);
    return s + ")";
}

std::string law_text(const LawSpec& l) {
    // The kind leads, then the kind's arguments.
    const Props args = l.view();
    std::string s = l.type + "<" + std::to_string(l.dim) + ">(kind=\"" + law_response_name(l.kind) +
                    "\"" + (args.empty() ? "" : ", ") + props_inline(args);
    for (const auto& c : l.children) s += (s.back() == '(' ? "" : ", ") + law_text(*c);
    if (!l.prestress.empty()) s += ", prestress=" + ValueText{}(l.prestress);
    if (l.prestrain) s += ", prestrain=" + tpl_text(*l.prestrain);
    return s + ")";
}

void entity_block(std::ostream& os, const char* kind, const EntityDesc& e) {
    os << kind << " " << e.category << " " << e.label;
    if (!e.type.empty()) os << " " << e.type;
    if (!e.name.empty()) os << " name=\"" << e.name << "\"";
    os << (e.output ? "" : " output=no") << "\n";
    const Props view = e.view();
    for (const auto& [k, v] : view.items())
        os << "  " << k << " = " << std::visit(ValueText{}, v) << "\n";
}

}  // namespace

void dump_model(const Model& m, std::ostream& os) {
    os << "# mbsolve model dump\n";
    os << "problem: " << m.problem << "\n";
    os << "solver\n";
    const Props solver = settings_view(m.solver);
    for (const auto& [k, v] : solver.items())
        os << "  " << k << " = " << std::visit(ValueText{}, v) << "\n";
    os << "control\n";
    for (const auto& [k, v] : m.declared_counts) os << "  " << k << " = " << v << "\n";
    const Props control = settings_view(m.control);
    for (const auto& [k, v] : control.items())
        os << "  " << k << " = " << std::visit(ValueText{}, v) << "\n";
    for (const auto& [l, f] : m.references) {
        os << "reference " << l << (f.name.empty() ? "" : " name=\"" + f.name + "\"") << "\n";
        os << "  position = " << ValueText{}(f.x) << "\n  orientation = " << ValueText{}(f.R)
           << "\n";
        os << "  velocity = " << ValueText{}(f.v) << "\n  angular velocity = " << ValueText{}(f.w)
           << "\n";
    }
    for (const auto& [l, d] : m.drive_callers)
        os << "drive caller " << l << " = " << drive_text(*d) << "\n";
    // File drivers as read: the data file, its samples and how they are interpolated.
    for (const auto& [l, f] : m.file_drivers) {
        os << "file driver " << l << " = " << (f->variable_step ? "variable step" : "fixed step")
           << ", file \"" << f->path << "\", channels " << f->channels << ", samples " << f->steps;
        if (!f->variable_step)
            os << ", initial time " << num(f->t0) << ", time step " << num(f->dt);
        os << ", interpolation " << (f->linear ? "linear" : "const") << ", pad zeros "
           << (f->pad_zeros ? "yes" : "no") << "\n";
    }
    for (const auto& [l, law] : m.laws)
        os << "constitutive law " << l << " = " << law_text(*law) << "\n";
    for (const auto& [n, d] : m.scalar_functions)
        os << "scalar function \"" << n << "\" = " << drive_text(*d) << "\n";
    for (const auto& n : m.nodes) entity_block(os, "node", n);
    for (const auto& e : m.elements) entity_block(os, "element", e);
}

long count_unknowns(const Model& m) {
    long n = 0;
    // `model: static` builds the dynamic nodes as static ones (Engine::build_nodes()).
    const long momentum = m.control.static_model.given() ? 1 : 2;
    for (const auto& node : m.nodes) {
        if (node.category == "structural") {
            if (node.type == "static")
                n += 6;
            else if (node.type == "dynamic" || node.type == "modal")
                n += 6 * momentum;
            else if (node.type == "static displacement")
                n += 3;
            else if (node.type == "dynamic displacement")
                n += 3 * momentum;
        } else if (node.category != "parameter") {
            n += 1;
        }
    }
    // What each element adds (a joint's multipliers): its spec says (ElementSpec::own_unknowns()).
    for (const auto& e : m.elements)
        if (e.spec) n += e.spec->own_unknowns();
    return n;
}

void print_summary(const Model& m, std::ostream& os) {
    os << "deck: " << m.deck_path << "\n";
    os << "problem: " << m.problem << "\n";
    std::map<std::string, long> nodes, elements;
    for (const auto& n : m.nodes) ++nodes[n.category + (n.type.empty() ? "" : " (" + n.type + ")")];
    for (const auto& e : m.elements)
        ++elements[e.category + (e.type.empty() ? "" : " (" + e.type + ")")];
    os << "nodes: " << m.nodes.size() << "\n";
    for (const auto& [k, v] : nodes) os << "  " << k << ": " << v << "\n";
    os << "elements: " << m.elements.size() << "\n";
    for (const auto& [k, v] : elements) os << "  " << k << ": " << v << "\n";
    if (!m.references.empty()) os << "reference frames: " << m.references.size() << "\n";
    if (!m.drive_callers.empty()) os << "drive callers: " << m.drive_callers.size() << "\n";
    if (!m.file_drivers.empty()) os << "file drivers: " << m.file_drivers.size() << "\n";
    if (!m.laws.empty()) os << "constitutive laws: " << m.laws.size() << "\n";
    os << "unknowns: " << count_unknowns(m) << "\n";
    os << "warnings: " << m.warnings.size() << "\n";
}

}  // namespace mbs::parser
