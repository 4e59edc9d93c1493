// Drive callers fed by model data instead of time: dof, node, element (docs/deck-language.md
// section 7). The value is func(datum); the datum's time derivative feeds func's Var_dot.
//
// Arguments (DriveSpec::args; the keys of describe() in quotes, in card order; the function
// drive is children[0]):
//   dof      DofArgs: node "node" (EntityRef), [index "index" (1..6, structural nodes only)],
//            [order "order" (0 algebraic, 1 differential, 2 second derivative)]
//   node     NodeArgs: node "node" (EntityRef), datum: [{name "string" | index "index" (>= 1)}]
//   element  ElementArgs: element "element" (EntityRef), datum: [{name "string" | index "index"}]
// The node or element must be defined earlier; whether it has the named datum is checked by
// the engine. Without `string` or `index` the entity must have exactly one datum.
//
// As in MBDyn, `string` right after the entity type selects a datum name, so a `string`
// function drive needs the datum given first: node, 1, abstract, string, "x", string, "2*Var".
//
// Runtime of the drive callers fed by model data instead of time (docs/deck-language.md 7; readers
// above):
//   dof      f(y_i) with y_i a node's unknown (order 0) or its derivative (order 1)
//   node     f(d) with d a node's private datum (structural: node_private_data.hpp; abstract
//            and parameter nodes: "x" [, "xP"], elements/nodes/scalar_nodes.cpp)
//   element  f(d) with d an element's private datum (Element::private_data)
// The datum is read at the current Newton iterate: the engine updates the node kinematics
// before each residual, and the drive reads the engine's unknown vectors (DriveEnv::data). Names
// are resolved to indices when the drive is built, so evaluation does no lookup.
//
// Derivative: as in MBDyn (PrivDriveCaller, DofDriveCaller have no dGetP), these drives are not
// differentiable; deriv() returns 0 and differentiable() false. The Jacobians of the elements
// using them do not see the dependence of f on the state (the Newton matrix is inexact there),
// as in MBDyn.
#include <optional>
#include <string>

#include "core/element.hpp"
#include "core/registry.hpp"
#include "core/source.hpp"
#include "elements/drives/drive_util.hpp"
#include "elements/drives/runtime_util.hpp"
#include "elements/genels/scalar_dof.hpp"
#include "elements/nodes/node_private_data.hpp"

namespace mbs::drives {
namespace {

// `string, "name"` or `index, i` (1-based) of a node or element drive: the datum chosen on the
// card, or neither (the entity must have exactly one datum).
struct DatumChoice {
    std::optional<std::string> name;  // "string"
    std::optional<long> index;        // "index", >= 1
    void describe(Props& out) const {
        if (name) out.set("string", *name);
        if (index) out.set("index", *index);
    }
};

struct NodeArgs final : KindArgs {
    EntityRef node;
    DatumChoice datum;
    void describe(Props& out) const override {
        out.set("node", node);
        datum.describe(out);
    }
};

struct ElementArgs final : KindArgs {
    EntityRef element;
    DatumChoice datum;
    void describe(Props& out) const override {
        out.set("element", element);
        datum.describe(out);
    }
};

// index: 1..6, structural nodes only; order: 0 algebraic, 1 differential, 2 second derivative
// (0 when not given).
struct DofArgs final : KindArgs {
    EntityRef node;
    std::optional<long> index, order;
    void describe(Props& out) const override {
        out.set("node", node);
        if (index) out.set("index", *index);
        if (order) out.set("order", *order);
    }
};

EntityRef read_node_ref(Reader& r) {
    SourceLoc at = r.loc();
    long label = r.label("node label");
    std::string type = r.keyword(
        {"structural", "abstract", "electric", "hydraulic", "parameter", "thermal"}, "node type");
    if (!r.model().find_node(type, label))
        r.error_at(at, type + " node " + std::to_string(label) + " is not defined",
                   "nodes must be defined before drive callers that read them");
    return EntityRef{type, label};
}

void read_private_datum(Reader& r, DriveSpec& d, DatumChoice& datum, const std::string& entity) {
    if (r.accept("string")) {
        SourceLoc at = r.loc();
        std::string name = r.string("private data name");
        if (name.empty()) r.error_at(at, "empty private data name for " + entity);
        datum.name = std::move(name);
    } else if (r.accept("index")) {
        SourceLoc at = r.loc();
        long i = r.integer("private data index");
        if (i < 1) r.error_at(at, "private data indices start at 1, got " + std::to_string(i));
        datum.index = i;
    }
    d.children.push_back(r.drive("function of the private datum"));
}

// dof, <label>, <type> [, <index>] [, {algebraic | differential | order, n}], <func>
// Structural nodes have 6 dofs, so the index is required; scalar nodes have one.
void read_dof(Reader& r, DriveSpec& d) {
    auto& a = emplace_args<DofArgs>(d);
    a.node = read_node_ref(r);
    if (a.node.category == "structural") {
        SourceLoc at = r.loc();
        long i = r.integer("dof index");
        if (i < 1 || i > 6)
            r.error_at(at, "structural nodes have dofs 1 to 6, got " + std::to_string(i));
        a.index = i;
    }
    if (r.accept("algebraic")) {
        a.order = 0L;
    } else if (r.accept("differential")) {
        a.order = 1L;
    } else if (r.accept("order")) {
        SourceLoc at = r.loc();
        long o = r.integer("dof order");
        if (o < 0 || o > 2) r.error_at(at, "dof order must be 0, 1 or 2, got " + std::to_string(o));
        a.order = o;
    }
    d.children.push_back(r.drive("function of the dof"));
}

void read_node(Reader& r, DriveSpec& d) {
    auto& a = emplace_args<NodeArgs>(d);
    a.node = read_node_ref(r);
    read_private_datum(r, d, a.datum, a.node.category + " node " + std::to_string(a.node.label));
}

// element, <label>, <type>, ...: the type is an element card name ("joint", "body", ...).
void read_element(Reader& r, DriveSpec& d) {
    auto& a = emplace_args<ElementArgs>(d);
    const EntityDesc& e =
        read_element_ref(r, "elements must be defined before drive callers that read them");
    a.element = EntityRef{e.category, e.label};
    read_private_datum(r, d, a.datum, e.category + " " + std::to_string(e.label));
}

const ModelData& data(const DriveSpec& d, const DriveEnv& env) {
    if (!env.data.elements || !env.data.nodes || !env.data.y)
        throw_unsupported_drive(d, "it reads node or element data, which exist only in a run");
    return env.data;
}

const StructNode& struct_node(const DriveSpec& d, const ModelData& m, const EntityRef& ref) {
    if (ref.category != "structural")
        throw InputError(d.loc, "drive caller '" + d.type + "' on " + ref.category +
                                    " nodes is not supported at run time yet");
    for (const StructNode& n : *m.nodes)
        if (n.label() == ref.label) return n;
    throw InputError(d.loc, "structural node " + std::to_string(ref.label) + " does not exist");
}

// f(datum): the base of the three drives; Datum is a callable returning the datum.
template <class Datum>
class DatumDrive final : public Drive {
  public:
    DatumDrive(Datum datum, DrivePtr f, bool time_input)
        : datum_(std::move(datum)), f_(std::move(f)), time_input_(time_input) {}
    // The function sees the datum; a Time it reads is this drive's input when that is the time.
    double value(double x) const override {
        if (!time_input_) return f_->value(datum_());
        const rt::TimeScope at(x);
        return f_->value(datum_());
    }
    double deriv(double) const override { return 0.0; }
    bool differentiable() const override { return false; }
    void after_step() const override { f_->after_step(); }

  private:
    Datum datum_;
    DrivePtr f_;
    bool time_input_;
};

template <class Datum>
DrivePtr datum_drive(Datum datum, const DriveSpec& d, const DriveEnv& env) {
    DriveEnv f = env;
    f.time_input = false;  // the function sees the datum
    return rt::make<DatumDrive<Datum>>(std::move(datum), make_drive(*d.children.at(0), f),
                                       env.time_input);
}

// The datum named or numbered on the card among `count` data; `name(i)` gives names.
template <class Name>
int datum_index(const DriveSpec& d, const DatumChoice& datum, const std::string& owner, int count,
                Name name) {
    if (datum.name) {
        const std::string& want = *datum.name;
        for (int i = 0; i < count; ++i)
            if (want == name(i)) return i;
        std::string list;
        for (int i = 0; i < count && i < 12; ++i) list += std::string(i ? ", " : "") + name(i);
        if (count > 12) list += ", ...";
        throw InputError(d.loc, owner + " has no private datum \"" + want + "\"",
                         count ? "its data: " + list : "it has no private data");
    }
    if (datum.index) {
        const long i = *datum.index;
        if (i > count)
            throw InputError(d.loc, owner + " has " + std::to_string(count) +
                                        " private data, index " + std::to_string(i) +
                                        " is out of range");
        return static_cast<int>(i - 1);
    }
    if (count != 1)
        throw InputError(d.loc, owner + " has " + std::to_string(count) + " private data",
                         "name the datum with 'string, \"name\"' or 'index, i'");
    return 0;
}

DrivePtr make_element_datum(const DriveSpec& d, const DatumChoice& datum, const DriveEnv& env,
                            const Element* el, const std::string& owner);

DrivePtr make_element(const DriveSpec& d, const DriveEnv& env) {
    const ModelData& m = data(d, env);
    const auto& a = d.args_as<ElementArgs>();
    const EntityRef& ref = a.element;
    const Element* el = nullptr;
    for (const auto& e : *m.elements)
        if (e->label() == ref.label && e->desc().category == ref.category) el = e.get();
    const std::string owner = ref.category + " " + std::to_string(ref.label);
    if (!el)
        throw InputError(d.loc, owner + " has no run-time element to read private data from",
                         "it must be defined before the drive caller and take part in the run");
    return make_element_datum(d, a.datum, env, el, owner);
}

// Scalar nodes (abstract, parameter) are elements: their private data ("x", "xP").
const Element& scalar_node(const DriveSpec& d, const DriveEnv& env, const EntityRef& ref) {
    const Element* e = genels::find_scalar_node(env, ref);
    if (!e)
        throw InputError(d.loc, "drive caller '" + d.type + "' on " + ref.category +
                                    " nodes is not supported at run time yet");
    return *e;
}

DrivePtr make_element_datum(const DriveSpec& d, const DatumChoice& datum, const DriveEnv& env,
                            const Element* el, const std::string& owner) {
    const ModelData& m = data(d, env);
    const int i = datum_index(d, datum, owner, el->private_data_count(),
                              [el](int k) { return std::string(el->private_data_name(k)); });
    const std::vector<double>*y = m.y, *yp = m.yp;
    return datum_drive(
        [el, i, y, yp] {
            return el->private_data(i, {y->data(), yp->data()});
        },
        d, env);
}

DrivePtr make_node(const DriveSpec& d, const DriveEnv& env) {
    const ModelData& m = data(d, env);
    const auto& a = d.args_as<NodeArgs>();
    const EntityRef& ref = a.node;
    if (ref.category != "structural")
        return make_element_datum(d, a.datum, env, &scalar_node(d, env, ref),
                                  ref.category + " node " + std::to_string(ref.label));
    const StructNode& n = struct_node(d, m, ref);
    const std::string owner = "structural node " + std::to_string(n.label());
    int i = -1;
    if (a.datum.name) {
        std::string why;
        i = nodes::struct_node_private_index(n, *a.datum.name, why);
        if (i < 0) throw InputError(d.loc, why);
    } else {
        i = datum_index(d, a.datum, owner, nodes::struct_node_private_count,
                        [](int k) { return std::string(nodes::struct_node_private_name(k)); });
        std::string why;
        if (nodes::struct_node_private_index(n, nodes::struct_node_private_name(i), why) < 0)
            throw InputError(d.loc, why);
    }
    const StructNode* np = &n;
    return datum_drive([np, i] { return nodes::struct_node_private_data(*np, i); }, d, env);
}

// Structural nodes: index 1..6 = position x, y, z and rotation parameters (the incremental
// Cayley-Gibbs-Rodrigues parameters of the step, as MBDyn's dof values); order 0 the unknown,
// order 1 its derivative (velocity, g').
DrivePtr make_dof(const DriveSpec& d, const DriveEnv& env) {
    const ModelData& m = data(d, env);
    const auto& a = d.args_as<DofArgs>();
    const EntityRef& ref = a.node;
    const long order = a.order.value_or(0L);
    if (order == 2)
        throw InputError(d.loc, "dof drive callers of order 2 (accelerations) are not supported",
                         "accelerations are not unknowns of the time integrator");
    if (ref.category != "structural") {
        // Scalar node: its one unknown; an algebraic value sits in the y' slot.
        const Element& e = scalar_node(d, env, ref);
        if (e.own_dofs() != 1)
            throw InputError(d.loc, ref.category + " node " + std::to_string(ref.label) +
                                        " has no degrees of freedom");
        const bool alg = e.own_dof_order(0) == DofOrder::algebraic;
        if (alg && order == 1)
            throw InputError(d.loc, ref.category + " node " + std::to_string(ref.label) +
                                        " is algebraic: it has no derivative");
        const Element* ep = &e;
        const std::vector<double>* v = order == 0 && !alg ? m.y : m.yp;
        return datum_drive([ep, v] { return (*v)[ep->first_dof()]; }, d, env);
    }
    const StructNode& n = struct_node(d, m, ref);
    const long index = a.index.value();
    if (n.is_dummy())
        throw InputError(
            d.loc,
            "structural node " + std::to_string(n.label()) + " is a dummy node: it has no dofs",
            "use the node drive caller (private data X[i], Phi[i], ...)");
    if (index > n.pos_cols())
        throw InputError(d.loc, "structural node " + std::to_string(n.label()) + " has " +
                                    std::to_string(n.pos_cols()) + " dofs, index " +
                                    std::to_string(index) + " is out of range");
    const StructNode* np = &n;
    const int k = static_cast<int>(index - 1);
    const std::vector<double>* v = order == 0 ? m.y : m.yp;
    return datum_drive([np, k, v] { return (*v)[np->first_dof() + k]; }, d, env);
}

}  // namespace

MBS_REGISTER_DRIVE_KIND("dof", {.read = read_dof, .make = make_dof});
MBS_REGISTER_DRIVE_KIND("node", {.read = read_node, .make = make_node});
MBS_REGISTER_DRIVE_KIND("element", {.read = read_element, .make = make_element});

}  // namespace mbs::drives
