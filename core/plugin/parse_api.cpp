// The C parse API modules read their cards through (mbs_parse_api), the element declaration
// API, and the card readers of module-defined elements, drives and laws. Every parse call
// forwards to the Reader the built-in cards use, so values, expressions, frames and errors
// (file:line:col at the argument) behave the same; exceptions stop here and are rethrown after
// the module's callback has returned.
#include <cstring>

#include "core/plugin/plugin_internal.hpp"

void mbs_parser::check(bool failed, const std::string& fallback) const {
    if (error) throw *error;
    if (failed) throw mbs::InputError(card, fallback);
}

namespace mbs::plugin {
namespace {

using Ctx = mbs_parser::Context;

Reader& reader(mbs_parser* p, const char* what) {
    if (!p->r)
        throw InputError(p->card, std::string("missing ") + (what ? what : "argument"),
                         "a module loaded with --module gets no arguments");
    return *p->r;
}

// Runs `f` (which reads through p->r) with the argument's location kept and every exception
// turned into the parser's recorded error.
template <class F>
int guarded(mbs_parser* p, F f) {
    if (!p || p->error) return MBS_ERROR;
    try {
        if (p->r) p->last = p->r->loc();
        f();
        return MBS_OK;
    } catch (const InputError& e) {
        p->error = e;
    } catch (const std::exception& e) {
        p->error = InputError(p->last.valid() ? p->last : p->card, e.what());
    }
    return MBS_ERROR;
}

std::string str(const char* s) { return s ? s : "argument"; }

void rows(const Mat3& m, double* out) {
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) out[3 * i + j] = m(i, j);
}

const EntityDesc& connected(mbs_parser* p, int index) {
    if (p->context != Ctx::element)
        throw InputError(p->last, "node-relative data can only be read by element cards");
    if (index < 0 || index >= static_cast<int>(p->nodes.size()))
        throw InputError(p->last, "module error: node connection " + std::to_string(index) +
                                      " does not exist (the card has read " +
                                      std::to_string(p->nodes.size()) + " nodes)");
    return *p->nodes[index];
}

int at_end(const mbs_parser* p) { return !p || !p->r || p->error || p->r->at_end() ? 1 : 0; }

int accept(mbs_parser* p, const char* kw) {
    if (!p || !p->r || p->error || !kw) return 0;
    int got = 0;
    guarded(p, [&] { got = p->r->accept(kw) ? 1 : 0; });
    return got;
}

int keyword(mbs_parser* p, const char* const* choices, int n, const char* what, int* index) {
    return guarded(p, [&] {
        Reader& r = reader(p, what);
        std::string list;
        std::vector<std::string> names;
        for (int i = 0; i < n; ++i) {
            if (r.accept(choices[i])) {
                *index = i;
                return;
            }
            list += (i ? ", " : "") + std::string(choices[i]);
            names.emplace_back(choices[i]);
        }
        const std::string w = r.peek_word();
        const std::string near = w.empty() ? std::string{} : closest_match(w, names);
        const std::string hint = near.empty() ? std::string{} : "did you mean '" + near + "'?";
        if (n == 1) r.error("expected '" + list + "'", hint);
        r.error("expected " + str(what) + ": one of " + list, hint);
    });
}

int real(mbs_parser* p, const char* what, double* out) {
    return guarded(p, [&] { *out = reader(p, what).real(str(what)); });
}
int integer(mbs_parser* p, const char* what, long* out) {
    return guarded(p, [&] { *out = reader(p, what).integer(str(what)); });
}
int boolean(mbs_parser* p, const char* what, int* out) {
    return guarded(p, [&] { *out = reader(p, what).boolean(str(what)) ? 1 : 0; });
}
int string(mbs_parser* p, const char* what, const char** out) {
    return guarded(p, [&] {
        p->strings.push_back(reader(p, what).string(str(what)));
        *out = p->strings.back().c_str();
    });
}
int vec3(mbs_parser* p, const char* what, double out[3]) {
    return guarded(p, [&] {
        Vec3 v = reader(p, what).vec3(str(what));
        for (int i = 0; i < 3; ++i) out[i] = v[i];
    });
}
int mat3x3(mbs_parser* p, const char* what, double out[9]) {
    return guarded(p, [&] { rows(reader(p, what).mat3(str(what)), out); });
}
int orientation(mbs_parser* p, const char* what, double out[9]) {
    return guarded(p, [&] { rows(reader(p, what).orientation_abs(str(what)), out); });
}
int position(mbs_parser* p, const char* what, double out[3]) {
    return guarded(p, [&] {
        Vec3 v = reader(p, what).position_abs(str(what));
        for (int i = 0; i < 3; ++i) out[i] = v[i];
    });
}
int struct_node(mbs_parser* p, const char* what, int* index, long* label) {
    return guarded(p, [&] {
        Reader& r = reader(p, what);
        if (p->context != Ctx::element) r.error("only element cards can connect to nodes");
        const EntityDesc& n = r.node("structural", str(what));
        p->nodes.push_back(&n);
        if (index) *index = static_cast<int>(p->nodes.size() - 1);
        if (label) *label = n.label;
    });
}
int position_rel(mbs_parser* p, int index, const char* what, double out[3]) {
    return guarded(p, [&] {
        Vec3 v = reader(p, what).position_rel(connected(p, index), str(what));
        for (int i = 0; i < 3; ++i) out[i] = v[i];
    });
}
int direction_rel(mbs_parser* p, int index, const char* what, double out[3]) {
    return guarded(p, [&] {
        Vec3 v = reader(p, what).direction_rel(connected(p, index), str(what));
        for (int i = 0; i < 3; ++i) out[i] = v[i];
    });
}
int orientation_rel(mbs_parser* p, int index, const char* what, double out[9]) {
    return guarded(
        p, [&] { rows(reader(p, what).orientation_rel(connected(p, index), str(what)), out); });
}
int drive(mbs_parser* p, const char* what, int* index) {
    return guarded(p, [&] {
        Reader& r = reader(p, what);
        if (p->context == Ctx::law || p->context == Ctx::module)
            r.error("a module's " +
                    std::string(p->context == Ctx::law ? "law" : "module load card") +
                    " cannot read drive callers");
        p->drives.push_back(r.drive(str(what)));
        *index = static_cast<int>(p->drives.size() - 1);
    });
}
int law(mbs_parser* p, int dim, const char* what, int* index) {
    return guarded(p, [&] {
        Reader& r = reader(p, what);
        if (p->context != Ctx::element) r.error("only element cards can read constitutive laws");
        if (dim != 1 && dim != 3 && dim != 6)
            r.error("module error: constitutive law dimension " + std::to_string(dim) +
                    " (1, 3 or 6)");
        p->laws.push_back(r.law(dim, str(what)));
        *index = static_cast<int>(p->laws.size() - 1);
    });
}
int error(mbs_parser* p, const char* message) {
    if (!p) return MBS_ERROR;
    if (!p->error) p->error = InputError(p->last.valid() ? p->last : p->card, str(message));
    return MBS_ERROR;
}
int failed(const mbs_parser* p) { return !p || p->error ? 1 : 0; }

constexpr int max_own = 32;

int own_unknowns(mbs_element_decl* d, int n, const int* differential) {
    if (!d || d->p->error) return MBS_ERROR;
    if (n < 0 || n > max_own)
        return error(d->p, ("module error: " + std::to_string(n) + " own unknowns (0 to " +
                            std::to_string(max_own) + ")")
                               .c_str());
    d->rec->n_own = n;
    d->rec->differential.assign(n, 1);
    if (differential)
        for (int i = 0; i < n; ++i) d->rec->differential[i] = differential[i] ? 1 : 0;
    return MBS_OK;
}

int couple(mbs_element_decl* d, int row_group, int col_group) {
    if (!d || d->p->error) return MBS_ERROR;
    d->rec->couple.emplace_back(row_group, col_group);
    return MBS_OK;
}

std::string module_of(const mbs_host* h) { return h && h->module_name ? h->module_name : "?"; }

}  // namespace

const mbs_parse_api* parse_api() {
    static const mbs_parse_api api = {at_end,       accept,        keyword,         real,
                                      integer,      boolean,       string,          vec3,
                                      mat3x3,       orientation,   position,        struct_node,
                                      position_rel, direction_rel, orientation_rel, drive,
                                      law,          error,         failed};
    return &api;
}

const mbs_element_decl_api* decl_api() {
    static const mbs_element_decl_api api = {own_unknowns, couple};
    return &api;
}

void read_user_defined(Reader& r, EntityDesc& e) {
    const auto* t = find_type<mbs_element_type>(e.type);
    if (!t) r.error("unknown user defined element type '" + e.type + "'");
    mbs_parser p;
    p.context = Ctx::element;
    p.r = &r;
    p.card = r.card_loc();
    p.last = r.loc();
    ElementRecord rec;
    rec.type = t->type;
    mbs_element_decl d{&rec, &p};
    void* data = t->type->read(t->host, &p, &d);
    if (p.error || !data) {
        if (data && t->type->free_data) t->type->free_data(data);
        p.check(true, "module " + module_of(t->host) + ": element type '" + e.type +
                          "' could not read its card (and gave no reason)");
    }
    rec.data = data;
    rec.n_nodes = static_cast<int>(p.nodes.size());
    for (auto [a, b] : rec.couple)
        if (a < -1 || a >= rec.n_nodes || b < -1 || b >= rec.n_nodes ||
            (a == -1 && rec.n_own == 0) || (b == -1 && rec.n_own == 0)) {
            if (t->type->free_data) t->type->free_data(data);
            throw InputError(p.card, "module " + module_of(t->host) + ": element type '" + e.type +
                                         "' declared a coupling of groups " + std::to_string(a) +
                                         ", " + std::to_string(b) + " that do not exist");
        }
    const int n_own = rec.n_own;
    long id = add_record(std::move(rec));
    auto spec = std::make_shared<PluginElementSpec>();
    spec->module = module_of(t->host);
    spec->record = id;
    spec->n_own = n_own;
    for (const auto* n : p.nodes) spec->nodes.push_back(EntityRef{"structural", n->label});
    spec->drives = p.drives;
    spec->laws = p.laws;
    e.spec = std::move(spec);
}

void read_plugin_drive(Reader& r, DriveSpec& spec) {
    const auto* t = find_type<mbs_drive_type>(spec.type);
    if (!t) r.error("unknown module drive caller '" + spec.type + "'");
    mbs_parser p;
    p.context = Ctx::drive;
    p.r = &r;
    p.card = spec.loc;
    p.last = r.loc();
    void* data = t->type->read(t->host, &p);
    if (p.error || !data) {
        if (data && t->type->free_data) t->type->free_data(data);
        p.check(true, "module " + module_of(t->host) + ": drive caller '" +
                          std::string(t->type->name) +
                          "' could not read its arguments (and gave no reason)");
    }
    auto& args = emplace_args<PluginDriveArgs>(spec);
    args.module = module_of(t->host);
    args.record = add_record(DriveRecord{t->type, data});
    for (auto& c : p.drives) spec.children.push_back(c);
}

void read_plugin_law(Reader& r, LawSpec& spec) {
    const auto* t = find_type<mbs_law_type>(spec.type);
    if (!t) r.error("unknown module constitutive law '" + spec.type + "'");
    const int bit = spec.dim == 1 ? MBS_LAW_1D : spec.dim == 3 ? MBS_LAW_3D : MBS_LAW_6D;
    if (!(t->type->dimensions & bit))
        throw InputError(spec.loc, "constitutive law '" + std::string(t->type->name) +
                                       "' (module " + module_of(t->host) + ") has no " +
                                       std::to_string(spec.dim) + "D form");
    mbs_parser p;
    p.context = Ctx::law;
    p.r = &r;
    p.card = spec.loc;
    p.last = r.loc();
    int kind = MBS_LAW_ELASTIC;
    void* data = t->type->read(t->host, &p, spec.dim, &kind);
    if (p.error || !data) {
        if (data && t->type->free_data) t->type->free_data(data);
        p.check(true, "module " + module_of(t->host) + ": constitutive law '" +
                          std::string(t->type->name) +
                          "' could not read its arguments (and gave no reason)");
    }
    const bool el = kind & MBS_LAW_ELASTIC, vi = kind & MBS_LAW_VISCOUS;
    spec.kind = el && vi ? LawResponse::viscoelastic
                : vi     ? LawResponse::viscous
                         : LawResponse::elastic;
    auto& a = emplace_args<PluginLawArgs>(spec);
    a.module = module_of(t->host);
    a.record = add_record(LawRecord{t->type, data});
}

}  // namespace mbs::plugin
