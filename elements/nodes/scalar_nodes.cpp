// Scalar node kinds (docs/deck-language.md 4.2): readers of abstract, electric, hydraulic,
// thermal and parameter nodes; the runtime of abstract and parameter nodes, built by the engine
// as elements that own their unknowns:
//   abstract: L, [algebraic|differential], [value, x0 [, derivative, xp0]];
//     one unknown x (differential: x in y, x' in y'; algebraic: x in the y' slot). The node adds
//     nothing to its equation: the genels and abstract forces connected to it do. Output (.abs,
//     as MBDyn's abstract nodes): label, x, x' (algebraic: label, x). Private data "x" and
//     (differential) "xP".
//   parameter: L, {[value,] x0 | element | sample and hold, <NodeDof>, T | beam strain gage, y, z};
//     no unknown; its value "x" is the constant x0, or the element private datum bound to it by
//     `bind: elem_label, elem_type, node_label, {string, "name" | index, i};` (MBDyn's bind),
//     read at the current iterate, or the sampled dof (below), or (strain gage, MBDyn's
//     StrainGageParam) the axial strain at the point (y, z) of the section of the beam bound with
//     `bind: beam, beam, L, index, i` (i: evaluation point, 1 or 2 for beam3, 1 for beam2):
//     x = ex + z ky - y kz from the beam's private data (pI./pII. prefixed for beam3).
//     The `node` drive caller reads it. Output (.prm, as MBDyn's ParameterNode): label, x.
#include <optional>
#include <string>
#include <type_traits>

#include "core/registry.hpp"
#include "core/source.hpp"
#include "elements/drives/drive_util.hpp"
#include "elements/genels/scalar_dof.hpp"
#include "elements/misc/card_helpers.hpp"
#include "elements/nodes/scalar_node_spec.hpp"

namespace mbs {
namespace {

// abstract: L, [algebraic|differential], [value, x0 [, derivative, xp0]];  (also electric, thermal)
void read_scalar(Reader& r, EntityDesc& e) {
    auto s = std::make_shared<ScalarNodeSpec>();
    if (e.category == "abstract") {
        s->abstract = true;
        if (r.accept("algebraic"))
            s->algebraic = true;
        else
            r.accept("differential");
    }
    double xp0 = 0.0;
    if (r.accept("value")) {
        s->value = r.real("initial value");
        if (e.category != "hydraulic" && r.accept("derivative")) xp0 = r.real("initial derivative");
    }
    if (e.category != "hydraulic") s->derivative = xp0;
    e.spec = std::move(s);
}

// parameter: L, {[value,] x0 | element | sample and hold, <NodeDof>, T | beam strain gage, y, z};
// (`element`: the value comes from a `bind` card; `sample and hold`: the value of the dof,
// sampled every T seconds; `beam strain gage`: the axial strain at (y, z) of the section of the
// beam bound to it; elements/nodes/scalar_nodes.cpp)
void read_parameter(Reader& r, EntityDesc& e) {
    auto s = std::make_shared<ParameterNodeSpec>();
    if (r.accept("element")) {
        s->element = true;
    } else if (r.accept("sample and hold") || r.accept("sample'n'hold")) {
        s->sampled = cards::read_node_dof(r, "sample and hold parameter node", false).spec();
        SourceLoc at = r.loc();
        const double T = r.real("sample period");
        if (!(T > 0.0))
            r.error_at(at, "the sample period must be positive, got " + std::to_string(T));
        s->period = T;
    } else if (r.accept("beam strain gage") || r.accept("strain gage")) {
        s->element = true;
        s->gage_y = r.real("strain gage y");
        s->gage_z = r.real("strain gage z");
    } else {
        r.accept("value");
        s->value = r.real("parameter value");
    }
    e.spec = std::move(s);
}

class AbstractNode final : public Element {
  public:
    explicit AbstractNode(const EntityDesc& d) : Element(d) {
        const auto& s = d.spec_as<ScalarNodeSpec>();
        algebraic_ = s.algebraic;
        x_ = s.value;
        xp_ = algebraic_ ? 0.0 : s.derivative.value_or(0.0);
    }
    int own_dofs() const override { return 1; }
    DofOrder own_dof_order(int) const override {
        return algebraic_ ? DofOrder::algebraic : DofOrder::differential;
    }
    std::string own_dof_name(int) const override { return "value"; }
    void initialize(double* y, double* yp) const override {
        if (algebraic_) {
            yp[first_dof()] = x_;
        } else {
            y[first_dof()] = x_;
            yp[first_dof()] = xp_;
        }
    }
    void declare(PatternBuilder&) override {}
    void residual(const StepContext&, const StateView&, double*) const override {}
    void jacobian(const StepContext&, const StateView&, Jacobian&) const override {}
    void after_step(const StepContext&, const StateView& s) override {
        x_ = algebraic_ ? s.yp[first_dof()] : s.y[first_dof()];
        xp_ = algebraic_ ? 0.0 : s.yp[first_dof()];
    }
    // MBDyn's .abs line: `L x x'` (differential), `L x` (algebraic: ScalarAlgebraicNode).
    const char* output_file() const override { return "abs"; }
    int output_values(double* v) const override {
        v[0] = x_, v[1] = xp_;
        return algebraic_ ? 1 : 2;
    }
    // NetCDF/HDF5: group `abstract_nodes`, NetCDF node.abstract.<L>.X, .XP (MBDyn writes abstract
    // nodes to text only; the names follow its node.struct.<L>.X); XP not for algebraic nodes.
    bool output_schema(OutputSchema& s) const override {
        s.group = "abstract_nodes";
        s.nc_prefix = "node.abstract";
        s.order = 10;
        s.nc_type = algebraic_ ? "algebraic" : "differential";
        for (int k = 0; k < 2; ++k) {
            OutputQuantity q;
            q.name = k ? "XP" : "X";
            q.ncomp = 1;
            q.units = k ? "deck units/s" : "deck units";
            q.description = k ? "derivative of the value (.abs column 2)" : "value (.abs column 1)";
            q.column = k && algebraic_ ? -1 : k;
            s.quantities.push_back(std::move(q));
        }
        return true;
    }
    int private_data_count() const override { return algebraic_ ? 1 : 2; }
    const char* private_data_name(int i) const override { return i == 0 ? "x" : "xP"; }
    double private_data(int i, const StateView& s) const override {
        if (i == 1) return s.yp[first_dof()];
        return algebraic_ ? s.yp[first_dof()] : s.y[first_dof()];
    }

  private:
    bool algebraic_;
    double x_, xp_;
};

// Sample and hold (MBDyn's SampleAndHold parameter node): the value of a scalar dof sampled at
// the converged step at t0 and then at the first converged step at or after each further period
// T (t_next = t_sample + T, advanced by T while t_next <= t; instants within 1e-9 T count as
// reached), held in between. Before the step at t0 has converged, the value is the dof's.
class ParameterNode final : public Element {
  public:
    ParameterNode(const EntityDesc& d, const genels::ScalarDof* dof)
        : Element(d), spec_(&d.spec_as<ParameterNodeSpec>()) {
        value_ = spec_->value.value_or(0.0);
        if (dof) {
            dof_ = *dof;
            sample_ = true;
            period_ = spec_->period;
        }
    }
    void after_step(const StepContext& c, const StateView& s) override {
        state_ = s;
        if (!sample_) return;
        const double eps = 1e-9 * period_;
        if (sampled_ && c.time < next_ - eps) return;
        held_ = dof_.value(s);
        next_ = sampled_ ? next_ : c.time;
        sampled_ = true;
        while (next_ <= c.time + eps) next_ += period_;
    }
    bool bound_form() const { return spec_->element; }
    bool strain_gage() const { return spec_->gage_y.has_value(); }
    void bind(const Element& e, int i) { src_ = &e, idx_ = i; }
    // Strain gage: the beam's ex, ky, kz data of one evaluation point.
    void bind_gage(const Element& e, const int idx[3]) {
        src_ = &e;
        for (int k = 0; k < 3; ++k) gage_[k] = idx[k];
        gy_ = *spec_->gage_y;
        gz_ = *spec_->gage_z;
    }
    bool is_bound() const { return src_ != nullptr; }
    // Called once all elements (and binds) are built.
    void declare(PatternBuilder&) override {
        if (bound_form() && !src_)
            throw InputError(desc().loc, "parameter node " + std::to_string(label()) +
                                             " is declared 'element' but no 'bind' card binds it");
    }
    void residual(const StepContext&, const StateView&, double*) const override {}
    void jacobian(const StepContext&, const StateView&, Jacobian&) const override {}
    // MBDyn's .prm line: `L x`, the value at the converged step. The engine commits the elements
    // in order (this node before the element it may be bound to) and writes the output after
    // the last, so the value is read at output time from the state kept by after_step().
    const char* output_file() const override { return "prm"; }
    int output_values(double* v) const override {
        v[0] = state_.y ? private_data(0, state_) : value_;
        return 1;
    }
    // NetCDF/HDF5: group `parameter_nodes`, NetCDF node.parameter.<L>.X (MBDyn: text only).
    bool output_schema(OutputSchema& s) const override {
        s.group = "parameter_nodes";
        s.nc_prefix = "node.parameter";
        s.order = 20;
        // The card's form (NetCDF `type`, HDF5 `types`).
        s.nc_type = spec_->sampled   ? "sample and hold"
                    : strain_gage()  ? "beam strain gage"
                    : spec_->element ? "element"
                                     : "value";
        s.quantities.push_back({.name = "X",
                                .ncomp = 1,
                                .units = "deck units",
                                .description = "value (.prm column 1)",
                                .column = 0});
        return true;
    }
    int private_data_count() const override { return 1; }
    const char* private_data_name(int) const override { return "x"; }
    double private_data(int, const StateView& s) const override {
        if (sample_) return sampled_ ? held_ : dof_.value(s);
        if (src_ && gage_[0] >= 0)
            return src_->private_data(gage_[0], s) + gz_ * src_->private_data(gage_[1], s) -
                   gy_ * src_->private_data(gage_[2], s);
        return src_ ? src_->private_data(idx_, s) : value_;
    }

  private:
    const ParameterNodeSpec* spec_;
    double value_;
    genels::ScalarDof dof_;
    bool sample_ = false, sampled_ = false;
    double period_ = 0.0, next_ = 0.0, held_ = 0.0;
    int gage_[3] = {-1, -1, -1};
    double gy_ = 0.0, gz_ = 0.0;
    const Element* src_ = nullptr;
    int idx_ = 0;
    StateView state_;  // the converged state of the last after_step() (output_values())
};

std::unique_ptr<Element> make_abstract(const EntityDesc& d, BuildContext&) {
    return std::make_unique<AbstractNode>(d);
}
std::unique_ptr<Element> make_parameter(const EntityDesc& d, BuildContext& ctx) {
    const auto& s = d.spec_as<ParameterNodeSpec>();
    if (!s.sampled) return std::make_unique<ParameterNode>(d, nullptr);
    const genels::ScalarDof dof = genels::resolve_dof(ctx, d, *s.sampled);
    return std::make_unique<ParameterNode>(d, &dof);
}

// Card reader of `bind` (docs/deck-language.md 5; MBDyn's parameter-node binding):
//   bind: <element label>, <element type>, <parameter node label>,
//         {string | name}, "<datum name>" | index, <i>;
// The element and the parameter node (declared `parameter: L, element;`) must be defined
// before; bind cards are not counted in control data. BindSpec: the element (category as on the
// element's card), the parameter node, the datum's name ("string") or index. Whether the element
// has the datum is checked by the runtime (make_bind(), below).
struct BindSpec final : ElementSpec {
    EntityRef element, node;
    std::optional<std::string> name;
    std::optional<long> index;
    void describe(Props& out) const override {
        out.set("element", element);
        out.set("node", node);
        if (name) out.set("string", *name);
        if (index) out.set("index", *index);
    }
};

void read_bind(Reader& r, EntityDesc& e) {
    auto b = std::make_shared<BindSpec>();
    const EntityDesc& el = drives::read_element_ref(r, "bind the element after its card");
    b->element = EntityRef{el.category, el.label};
    SourceLoc node_at = r.loc();
    long node = r.label("parameter node label");
    const EntityDesc* n = r.model().find_node("parameter", node);
    if (!n) r.error_at(node_at, "parameter node " + std::to_string(node) + " is not defined");
    if (!n->spec_as<ParameterNodeSpec>().element)
        r.error_at(node_at, "parameter node " + std::to_string(node) + " has a value of its own",
                   "declare it as 'parameter: " + std::to_string(node) + ", element;'");
    b->node = EntityRef{"parameter", node};
    e.label = node;
    if (r.accept("string") || r.accept("name")) {
        SourceLoc s = r.loc();
        std::string name = r.string("private data name");
        if (name.empty()) r.error_at(s, "empty private data name");
        b->name = std::move(name);
    } else if (r.accept("index")) {
        SourceLoc s = r.loc();
        long i = r.integer("private data index");
        if (i < 1) r.error_at(s, "private data indices start at 1, got " + std::to_string(i));
        b->index = i;
    } else {
        r.error("expected 'string, \"name\"' or 'index, i' (the element's private datum)");
    }
    e.spec = std::move(b);
}

// bind: the element's datum (resolved by name or index now) becomes the node's value. Adds no
// element of its own.
std::unique_ptr<Element> make_bind(const EntityDesc& d, BuildContext& ctx) {
    const ModelData& m = ctx.drive_env().data;
    const auto& b = d.spec_as<BindSpec>();
    const EntityRef eref = b.element, nref = b.node;
    const std::string owner = eref.category + " " + std::to_string(eref.label);
    const Element* el = nullptr;
    ParameterNode* node = nullptr;
    for (const auto& e : *m.elements) {
        if (e->label() == eref.label && e->desc().category == eref.category) el = e.get();
        if (e->label() == nref.label && e->desc().category == "parameter")
            node = dynamic_cast<ParameterNode*>(e.get());
    }
    if (!el) ctx.error(d, owner + " has no run-time element to bind");
    if (!node) ctx.error(d, "parameter node " + std::to_string(nref.label) + " does not exist");
    if (!node->bound_form())
        ctx.error(d, "parameter node " + std::to_string(nref.label) + " has a value of its own",
                  "declare it as 'parameter: " + std::to_string(nref.label) + ", element;'");
    if (node->is_bound())
        ctx.error(d, "parameter node " + std::to_string(nref.label) + " is already bound");
    if (node->strain_gage()) {
        // The evaluation point's ex, ky, kz (beam3: "pI." / "pII." prefixes; beam2: none).
        if (!b.index)
            ctx.error(d, "a beam strain gage is bound with 'index, i' (the evaluation point)");
        const long point = *b.index;
        const bool three = el->private_data_index("pI.ex") >= 0;
        if (el->private_data_index(three ? "pI.ex" : "ex") < 0)
            ctx.error(d, "a beam strain gage must be bound to a beam; " + owner + " is not one");
        if (point > (three ? 2 : 1))
            ctx.error(d, owner + " has " +
                             std::string(three ? "2 evaluation points" : "1 evaluation point") +
                             ", index " + std::to_string(point) + " is out of range");
        const std::string pre = three ? (point == 1 ? "pI." : "pII.") : "";
        const int idx[3] = {el->private_data_index(pre + "ex"), el->private_data_index(pre + "ky"),
                            el->private_data_index(pre + "kz")};
        node->bind_gage(*el, idx);
        return nullptr;
    }
    int i = -1;
    if (b.name) {
        i = el->private_data_index(*b.name);
        if (i < 0) ctx.error(d, owner + " has no private datum \"" + *b.name + "\"");
    } else {
        long k = *b.index;
        if (k > el->private_data_count())
            ctx.error(d, owner + " has " + std::to_string(el->private_data_count()) +
                             " private data, index " + std::to_string(k) + " is out of range");
        i = static_cast<int>(k - 1);
    }
    node->bind(*el, i);
    return nullptr;
}

std::shared_ptr<const NodeSpec> with_accelerations(const auto& spec) {
    auto copy = std::make_shared<std::remove_cvref_t<decltype(spec)>>(spec);
    copy->accelerations = true;
    return copy;
}

// Read (an input error is located at the card), then refused by Engine::build_nodes().
constexpr const char* no_scalar_runtime = "refused by Engine::build_nodes(): no runtime yet";

}  // namespace

// The generic view, in the order the readers used to store the props.
void ScalarNodeSpec::describe(Props& out) const {
    if (abstract) out.set("kind", std::string(algebraic ? "algebraic" : "differential"));
    out.set("value", value);
    if (derivative) out.set("derivative", *derivative);
    if (accelerations) out.set("accelerations", *accelerations);
}
std::shared_ptr<const NodeSpec> ScalarNodeSpec::with_output_accelerations() const {
    return with_accelerations(*this);
}

void ParameterNodeSpec::describe(Props& out) const {
    if (element) out.set("element", true);
    if (sampled) {
        sampled->describe(out, "");
        out.set("sample and hold", true);
        out.set("period", period);
    }
    if (gage_y) out.set("strain gage y", *gage_y);
    if (gage_z) out.set("strain gage z", *gage_z);
    if (value) out.set("value", *value);
    if (accelerations) out.set("accelerations", *accelerations);
}
std::shared_ptr<const NodeSpec> ParameterNodeSpec::with_output_accelerations() const {
    return with_accelerations(*this);
}

MBS_REGISTER_NODE_KIND("abstract", "", {.read = read_scalar, .make = make_abstract});
MBS_REGISTER_NODE_KIND("electric", "", {.read = read_scalar, .no_make = no_scalar_runtime});
MBS_REGISTER_NODE_KIND("thermal", "", {.read = read_scalar, .no_make = no_scalar_runtime});
MBS_REGISTER_NODE_KIND("hydraulic", "", {.read = read_scalar, .no_make = no_scalar_runtime});
MBS_REGISTER_NODE_KIND("parameter", "", {.read = read_parameter, .make = make_parameter});
MBS_REGISTER_ELEMENT_CARD("bind", {"", "bind", false, false});
MBS_REGISTER_ELEMENT_KIND("bind", "", {.read = read_bind, .make = make_bind});

}  // namespace mbs
