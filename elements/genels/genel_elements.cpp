// Card readers for scalar genels (docs/deck-language.md 5.5): elements acting on single degrees of
// freedom written as NodeDof = node_label, node_type [, dof_index] [, {algebraic|differential}].
//   genel: L, clamp, <NodeDof>, <DriveCaller>             (imposes the dof value or derivative)
//   genel: L, distance, <NodeDof 1>, <NodeDof 2>, <DriveCaller>
//   genel: L, spring, <NodeDof 1>, <NodeDof 2>, <1D CL>   (elastic laws only)
//   genel: L, spring support, <NodeDof>, <1D CL> [, position, {from node | x0}]
//   genel: L, cross spring support, <NodeDof row>, <NodeDof col>, <1D CL>
//   genel: L, mass, <NodeDof>, <DriveCaller mass>
// The order keyword picks the value (`algebraic`, the default) or its derivative
// (`differential`); MBDyn requires it for differential dofs, we default to the value.
// Spring supports act on the value of a differential dof; masses need a differential dof.
// ScalarGenelSpec (below): the dofs, then the drive, law or mass, and the spring support's
// reference value; its generic view has "node", "dof", "order" (suffixes 1 and 2 for two dofs),
// then "drive" | "law" | "mass", "position".
//
// Card readers for `force: L, abstract` and `abstract internal` (docs/deck-language.md 5.4): a
// scalar generalized force on one degree of freedom (or equal and opposite on two).
//   force: L, abstract, <NodeDof>, <DriveCaller>
//   force: L, abstract internal, <NodeDof 1>, <NodeDof 2>, <DriveCaller>
// NodeDof = node_label, node_type [, dof_index (structural nodes)].
// ScalarGenelSpec too: "node", "dof", "drive"; internal: "node1", "dof1", "node2", "dof2", "drive".
//
// Runtime genels on scalar dofs and abstract forces (docs/deck-language.md 5.4, 5.5; readers
// above). A dof is the unknown of an abstract node or a position component of a structural node
// (scalar_dof.hpp): q = its value x (order 0) or derivative x' (order 1), with dq/dy' = s (dCoef
// for a differential value, else 1).
//
// genel clamp, <dof>, <f>: one multiplier lambda (algebraic):
//   dof row:  + lambda                          own row:  (f(t) - q) / s
//   J(dof row, lambda) = 1,  J(own row, dof) = -1    (the row is scaled like position
//   constraints, so its Jacobian row carries no dCoef; docs/formulation.md 3).
// genel spring support, <dof>, <1D law> [, position, x0]: F = law(x - x0, x') on the value of a
// differential dof (tension positive, so it pulls x back to x0):
//   dof row:  - F          J(dof, dof) = -(K dCoef + C)
// genel mass, <dof>, <m(t)>: one differential unknown v, the dof's rate:
//   dof row:  - m v'       (inertia)         own row:  x' - v
//   J(dof, v) = -m,  J(own, dof) = 1,  J(own, v) = -dCoef;  v(0) = x'(0).
//   (The m'(t) v term of d(m v)/dt is left out: the mass drive scales the inertia only.)
// genel distance, <dof 1>, <dof 2>, <f>: one multiplier lambda, q2 - q1 = f (MBDyn's sign):
//   dof 1 row: + lambda,  dof 2 row: - lambda,  own row: (f(t) - q2 + q1) / s, s = dCoef when
//   both are differential values, else 1 (MBDyn's GenelDistance; mixed orders take s = 1).
//   J(dof 1, lambda) = 1, J(dof 2, lambda) = -1, J(own, dof k) = -+ (dq_k/dy'_k) / s.
// genel spring, <dof 1>, <dof 2>, <1D elastic law>: F = law(q2 - q1) (tension positive):
//   dof 1 row: + F,  dof 2 row: - F;  dF/dy'_k = -+ K dq_k/dy'_k.
// genel cross spring support, <dof row>, <dof col>, <1D law>: F = law(x_col, x_col'):
//   row dof: - F;  J(row, col) = -(K dCoef + C).
// force, abstract, <dof>, <f>:               dof row: + f(t)
// force, abstract internal, <dof 1>, <dof 2>, <f>: dof 1 row + f, dof 2 row - f.
// None takes part in the initial assembly (their rows are frozen there).
// Output (MBDyn's .gen, genel_.cc): clamp and distance write `L dRct`, MBDyn's reaction: the
// clamp's -lambda (the load the other elements put on the dof), the distance's +lambda (the
// load on dof 1); the other genels write nothing, as MBDyn's. NetCDF/HDF5: genel_schema().
// Abstract forces write MBDyn's .frc line `L node f` (internal: `L node1 f node2 -f`).
#include <optional>
#include <string>

#include "core/constitutive_law.hpp"
#include "core/registry.hpp"
#include "elements/genels/scalar_dof.hpp"
#include "elements/misc/card_helpers.hpp"
#include "elements/nodes/scalar_node_spec.hpp"

namespace mbs {
namespace {

// What a scalar genel or abstract force card says: one or two dofs ("node", "dof", "order";
// suffixes 1 and 2 for two), then its drive ("drive" or "mass") or law, and the spring support's
// reference value ("position").
struct ScalarGenelSpec final : ElementSpec {
    cards::NodeDofSpec q1;
    std::optional<cards::NodeDofSpec> q2;
    std::shared_ptr<const DriveSpec> drive;
    const char* drive_key = "drive";
    std::shared_ptr<const LawSpec> law;
    std::optional<double> position;
    long equations = 0;  // clamp, distance: the multiplier; mass: the rate
    long own_unknowns() const override { return equations; }
    void describe(Props& out) const override {
        q1.describe(out, q2 ? "1" : "");
        if (q2) q2->describe(out, "2");
        if (drive) out.set(drive_key, drive);
        if (law) out.set("law", law);
        if (position) out.set("position", *position);
    }
};

cards::NodeDof dof(Reader& r, EntityDesc& e) { return cards::read_node_dof(r, "genel " + e.type); }

void read_clamp(Reader& r, EntityDesc& e) {
    auto s = std::make_shared<ScalarGenelSpec>();
    s->q1 = dof(r, e).spec();
    s->drive = r.drive("imposed value");
    s->equations = 1;
    e.spec = std::move(s);
}

void read_distance(Reader& r, EntityDesc& e) {
    auto s = std::make_shared<ScalarGenelSpec>();
    s->q1 = dof(r, e).spec();
    s->q2 = dof(r, e).spec();
    s->drive = r.drive("imposed difference");
    s->equations = 1;
    e.spec = std::move(s);
}

void read_spring(Reader& r, EntityDesc& e) {
    auto s = std::make_shared<ScalarGenelSpec>();
    s->q1 = dof(r, e).spec();
    s->q2 = dof(r, e).spec();
    SourceLoc at = r.loc();
    auto law = r.law(1, "spring constitutive law");
    if (cards::law_kind(*law) != cards::LawKind::elastic)
        r.error_at(at,
                   "genel spring accepts elastic constitutive laws only, got '" + law->type + "'",
                   "use 'spring support' or a rod for viscous laws");
    s->law = std::move(law);
    e.spec = std::move(s);
}

// The value (order 0) of a differential dof.
void require_value_of_differential(Reader& r, const SourceLoc& at, const cards::NodeDof& d) {
    if (d.order != 0 || is_algebraic_abstract_node(*d.node))
        r.error_at(at,
                   "genel " + std::string(d.order != 0
                                              ? "needs the value ('algebraic') of the dof, not its "
                                                "derivative"
                                              : "needs a differential dof"));
}

void read_spring_support(Reader& r, EntityDesc& e) {
    auto s = std::make_shared<ScalarGenelSpec>();
    SourceLoc at = r.loc();
    auto d = dof(r, e);
    require_value_of_differential(r, at, d);
    s->q1 = d.spec();
    s->law = r.law(1, "spring support constitutive law");
    if (r.accept("position")) {
        double x0 = 0.0;
        if (r.accept("from node")) {
            if (const auto* n = dynamic_cast<const ScalarNodeSpec*>(d.node->spec.get()))
                x0 = n->value;
            if (d.node->category == "structural") {
                Vec3 x = cards::node_position(*d.node);
                x0 = d.index <= 3 ? x[d.index - 1] : 0.0;
            }
        } else {
            x0 = r.real("reference value");
        }
        s->position = x0;
    }
    e.spec = std::move(s);
}

void read_cross_spring_support(Reader& r, EntityDesc& e) {
    auto s = std::make_shared<ScalarGenelSpec>();
    s->q1 = dof(r, e).spec();
    SourceLoc at = r.loc();
    auto d = dof(r, e);
    require_value_of_differential(r, at, d);
    s->q2 = d.spec();
    s->law = r.law(1, "cross spring support constitutive law");
    e.spec = std::move(s);
}

void read_mass(Reader& r, EntityDesc& e) {
    auto s = std::make_shared<ScalarGenelSpec>();
    SourceLoc at = r.loc();
    auto d = dof(r, e);
    if (is_algebraic_abstract_node(*d.node)) r.error_at(at, "genel mass needs a differential dof");
    s->q1 = d.spec();
    s->drive = r.drive("mass");
    s->drive_key = "mass";
    s->equations = 1;
    e.spec = std::move(s);
}

void read_abstract(Reader& r, EntityDesc& e) {
    auto s = std::make_shared<ScalarGenelSpec>();
    s->q1 = cards::read_node_dof(r, "abstract force", false).spec();
    s->drive = r.drive("force value");
    e.spec = std::move(s);
}

void read_abstract_internal(Reader& r, EntityDesc& e) {
    auto s = std::make_shared<ScalarGenelSpec>();
    s->q1 = cards::read_node_dof(r, "abstract internal force", false).spec();
    s->q2 = cards::read_node_dof(r, "abstract internal force", false).spec();
    s->drive = r.drive("force value");
    e.spec = std::move(s);
}

using genels::ScalarDof;
using M11 = Eigen::Matrix<double, 1, 1>;

// NetCDF/HDF5 output of the genels that write a .gen line (clamp, distance; MBDyn writes none
// for the others): HDF5 group `genels`, NetCDF elem.genel.<L>.F (MBDyn writes genels to text
// only; the names follow its elem.<kind>.<L> scheme), the .gen value.
bool genel_schema(OutputSchema& s) {
    s.group = "genels";
    s.nc_prefix = "elem.genel";
    s.order = 120;
    s.quantities.push_back({.name = "F",
                            .ncomp = 1,
                            .units = "deck units",
                            .description = "generalized reaction on the dof (MBDyn's .gen value)",
                            .column = 0});
    return true;
}

class Clamp final : public Element {
  public:
    Clamp(const EntityDesc& d, ScalarDof q, int order, DrivePtr f)
        : Element(d), q_(std::move(q)), order_(order), f_(std::move(f)) {}
    int own_dofs() const override { return 1; }
    std::string own_dof_name(int) const override {
        return order_ ? "imposed derivative" : "imposed value";
    }
    void declare(PatternBuilder& p) override {
        b_[0] = p.block(q_.index(), 1, first_dof(), 1);
        b_[1] = p.block(first_dof(), 1, q_.index(), 1);
    }
    void residual(const StepContext& c, const StateView& s, double* r) const override {
        const double lam = s.yp[first_dof()];
        r[q_.index()] += lam;
        const double q = order_ ? q_.derivative(s) : q_.value(s);
        const double sc = order_ ? 1.0 : q_.dvalue(c);
        r[first_dof()] += (f_->value(c.time) - q) / sc;
    }
    void jacobian(const StepContext&, const StateView&, Jacobian& J) const override {
        J.add(b_[0], M11::Constant(1.0));
        J.add(b_[1], M11::Constant(-1.0));
    }
    void after_step(const StepContext&, const StateView& s) override {
        f_->after_step();
        lambda_ = s.yp[first_dof()];
    }
    // MBDyn's .gen line of a genel clamp: the load the other elements put on the dof (its
    // residual holds -dRct where ours holds +lambda: dRct = -lambda).
    const char* output_file() const override { return "gen"; }
    int output_values(double* v) const override {
        v[0] = -lambda_;
        return 1;
    }
    bool output_schema(OutputSchema& s) const override { return genel_schema(s); }

  private:
    ScalarDof q_;
    int order_;
    DrivePtr f_;
    BlockId b_[2] = {-1, -1};
    double lambda_ = 0.0;
};

class SpringSupport final : public Element {
  public:
    SpringSupport(const EntityDesc& d, ScalarDof q, double x0, LawPtr<1> law)
        : Element(d), q_(std::move(q)), x0_(x0), law_(std::move(law)) {}
    void declare(PatternBuilder& p) override { b_ = p.block(q_.index(), 1, q_.index(), 1); }
    void residual(const StepContext& c, const StateView& s, double* r) const override {
        M11 F, K, C;
        eval(c.time, s, F, K, C);
        r[q_.index()] -= F[0];
    }
    void jacobian(const StepContext& c, const StateView& s, Jacobian& J) const override {
        M11 F, K, C;
        eval(c.time, s, F, K, C);
        const double dx = q_.dvalue(c);
        J.add(b_, M11::Constant(-(K(0, 0) * dx + (c.phase == Phase::assembly ? 0.0 : C(0, 0)))));
    }
    void after_step(const StepContext& c, const StateView& s) override {
        law_->after_step(M11::Constant(q_.value(s) - x0_), M11::Constant(q_.derivative(s)), c.time);
    }

  private:
    void eval(double t, const StateView& s, M11& F, M11& K, M11& C) const {
        law_->eval(M11::Constant(q_.value(s) - x0_), M11::Constant(q_.derivative(s)), t, F, K, C);
    }
    ScalarDof q_;
    double x0_;
    LawPtr<1> law_;
    BlockId b_ = -1;
};

class Mass final : public Element {
  public:
    Mass(const EntityDesc& d, ScalarDof q, DrivePtr m)
        : Element(d), q_(std::move(q)), m_(std::move(m)) {}
    int own_dofs() const override { return 1; }
    DofOrder own_dof_order(int) const override { return DofOrder::differential; }
    std::string own_dof_name(int) const override { return "rate"; }
    void initialize(double* y, double* yp) const override { y[first_dof()] = yp[q_.index()]; }
    void declare(PatternBuilder& p) override {
        b_[0] = p.block(q_.index(), 1, first_dof(), 1);
        b_[1] = p.block(first_dof(), 1, q_.index(), 1);
        b_[2] = p.block(first_dof(), 1, first_dof(), 1);
    }
    void residual(const StepContext& c, const StateView& s, double* r) const override {
        const int v = first_dof();
        r[q_.index()] -= m_->value(c.time) * s.yp[v];
        r[v] += q_.derivative(s) - s.y[v];
    }
    void jacobian(const StepContext& c, const StateView&, Jacobian& J) const override {
        J.add(b_[0], M11::Constant(-m_->value(c.time)));
        J.add(b_[1], M11::Constant(1.0));
        J.add(b_[2], M11::Constant(-c.dCoef));
    }
    void after_step(const StepContext&, const StateView&) override { m_->after_step(); }

  private:
    ScalarDof q_;
    DrivePtr m_;
    BlockId b_[3] = {-1, -1, -1};
};

// d(q)/d(y') of a dof read at `order` (0 value, 1 derivative).
double dq(const ScalarDof& q, int order, const StepContext& c) { return order ? 1.0 : q.dvalue(c); }
double qv(const ScalarDof& q, int order, const StateView& s) {
    return order ? q.derivative(s) : q.value(s);
}

class Distance final : public Element {
  public:
    Distance(const EntityDesc& d, ScalarDof q1, int o1, ScalarDof q2, int o2, DrivePtr f)
        : Element(d), q_{std::move(q1), std::move(q2)}, o_{o1, o2}, f_(std::move(f)) {}
    int own_dofs() const override { return 1; }
    std::string own_dof_name(int) const override { return "imposed difference"; }
    void declare(PatternBuilder& p) override {
        for (int k = 0; k < 2; ++k) {
            nl_[k] = p.block(q_[k].index(), 1, first_dof(), 1);
            ln_[k] = p.block(first_dof(), 1, q_[k].index(), 1);
        }
    }
    void residual(const StepContext& c, const StateView& s, double* r) const override {
        const double lam = s.yp[first_dof()];
        r[q_[0].index()] += lam;
        r[q_[1].index()] -= lam;
        r[first_dof()] +=
            (f_->value(c.time) - qv(q_[1], o_[1], s) + qv(q_[0], o_[0], s)) / scale(c);
    }
    void jacobian(const StepContext& c, const StateView&, Jacobian& J) const override {
        J.add(nl_[0], M11::Constant(1.0));
        J.add(nl_[1], M11::Constant(-1.0));
        J.add(ln_[0], M11::Constant(dq(q_[0], o_[0], c) / scale(c)));
        J.add(ln_[1], M11::Constant(-dq(q_[1], o_[1], c) / scale(c)));
    }
    void after_step(const StepContext&, const StateView& s) override {
        f_->after_step();
        lambda_ = s.yp[first_dof()];
    }
    // MBDyn's .gen line of a genel distance: its dRct, the load on dof 1 (+lambda there, as
    // MBDyn's residual has +dRct on dof 1 and -dRct on dof 2).
    const char* output_file() const override { return "gen"; }
    int output_values(double* v) const override {
        v[0] = lambda_;
        return 1;
    }
    bool output_schema(OutputSchema& s) const override { return genel_schema(s); }

  private:
    // Both differential values: divide by dCoef (position-level constraint scaling).
    double scale(const StepContext& c) const {
        const bool pos = o_[0] == 0 && o_[1] == 0 && !q_[0].algebraic && !q_[1].algebraic;
        return pos && c.phase != Phase::assembly ? c.dCoef : 1.0;
    }
    ScalarDof q_[2];
    int o_[2];
    DrivePtr f_;
    BlockId nl_[2] = {-1, -1}, ln_[2] = {-1, -1};
    double lambda_ = 0.0;
};

class Spring final : public Element {
  public:
    Spring(const EntityDesc& d, ScalarDof q1, int o1, ScalarDof q2, int o2, LawPtr<1> law)
        : Element(d), q_{std::move(q1), std::move(q2)}, o_{o1, o2}, law_(std::move(law)) {}
    void declare(PatternBuilder& p) override {
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j) b_[i][j] = p.block(q_[i].index(), 1, q_[j].index(), 1);
    }
    void residual(const StepContext& c, const StateView& s, double* r) const override {
        M11 F, K, C;
        eval(c.time, s, F, K, C);
        r[q_[0].index()] += F[0];
        r[q_[1].index()] -= F[0];
    }
    void jacobian(const StepContext& c, const StateView& s, Jacobian& J) const override {
        M11 F, K, C;
        eval(c.time, s, F, K, C);
        for (int j = 0; j < 2; ++j) {
            const double dF = (j == 0 ? -1.0 : 1.0) * K(0, 0) * dq(q_[j], o_[j], c);
            J.add(b_[0][j], M11::Constant(dF));
            J.add(b_[1][j], M11::Constant(-dF));
        }
    }
    void after_step(const StepContext& c, const StateView& s) override {
        law_->after_step(M11::Constant(strain(s)), M11::Zero(), c.time);
    }

  private:
    double strain(const StateView& s) const { return qv(q_[1], o_[1], s) - qv(q_[0], o_[0], s); }
    void eval(double t, const StateView& s, M11& F, M11& K, M11& C) const {
        law_->eval(M11::Constant(strain(s)), M11::Zero(), t, F, K, C);
    }
    ScalarDof q_[2];
    int o_[2];
    LawPtr<1> law_;
    BlockId b_[2][2] = {{-1, -1}, {-1, -1}};
};

class CrossSpringSupport final : public Element {
  public:
    CrossSpringSupport(const EntityDesc& d, ScalarDof row, ScalarDof col, LawPtr<1> law)
        : Element(d), row_(std::move(row)), col_(std::move(col)), law_(std::move(law)) {}
    void declare(PatternBuilder& p) override { b_ = p.block(row_.index(), 1, col_.index(), 1); }
    void residual(const StepContext& c, const StateView& s, double* r) const override {
        M11 F, K, C;
        law_->eval(M11::Constant(col_.value(s)), M11::Constant(col_.derivative(s)), c.time, F, K,
                   C);
        r[row_.index()] -= F[0];
    }
    void jacobian(const StepContext& c, const StateView& s, Jacobian& J) const override {
        M11 F, K, C;
        law_->eval(M11::Constant(col_.value(s)), M11::Constant(col_.derivative(s)), c.time, F, K,
                   C);
        J.add(b_, M11::Constant(
                      -(K(0, 0) * col_.dvalue(c) + (c.phase == Phase::assembly ? 0.0 : C(0, 0)))));
    }
    void after_step(const StepContext& c, const StateView& s) override {
        law_->after_step(M11::Constant(col_.value(s)), M11::Constant(col_.derivative(s)), c.time);
    }

  private:
    ScalarDof row_, col_;
    LawPtr<1> law_;
    BlockId b_ = -1;
};

long dof_node_label(const ScalarDof& q) { return q.owner ? q.owner->label() : q.node->label(); }

class AbstractForce final : public Element {
  public:
    AbstractForce(const EntityDesc& d, ScalarDof q1, const ScalarDof* q2, DrivePtr f, double t0)
        : Element(d), q1_(std::move(q1)), internal_(q2 != nullptr), f_(std::move(f)), t_(t0) {
        if (q2) q2_ = *q2;
    }
    void declare(PatternBuilder&) override {}
    void residual(const StepContext& c, const StateView&, double* r) const override {
        const double f = f_->value(c.time);
        r[q1_.index()] += f;
        if (internal_) r[q2_.index()] -= f;
    }
    void jacobian(const StepContext&, const StateView&, Jacobian&) const override {}
    void after_step(const StepContext& c, const StateView&) override {
        f_->after_step();
        t_ = c.time;
    }
    // MBDyn's .frc line (base/force.cc AbstractForce::Output): `L node f`; internal:
    // `L node1 f node2 -f`; f at the converged step.
    const char* output_file() const override { return "frc"; }
    int output_values(double* v) const override {
        const double f = f_->value(t_);
        v[0] = static_cast<double>(dof_node_label(q1_)), v[1] = f;
        if (!internal_) return 2;
        v[2] = static_cast<double>(dof_node_label(q2_)), v[3] = -f;
        return 4;
    }
    // NetCDF/HDF5 (MBDyn: text only): group `abstract_forces`, NetCDF elem.force.<L>.F (the value
    // on the first dof) and, internal forces, .F2 (on the second).
    bool output_schema(OutputSchema& s) const override {
        s.group = "abstract_forces";
        s.nc_prefix = "elem.force";
        s.order = 45;
        for (int k = 0; k < 2; ++k) {
            OutputQuantity q;
            q.name = k ? "F2" : "F";
            q.ncomp = 1;
            q.units = "deck units";
            q.description = k ? "generalized force on the second dof (.frc column 4)"
                              : "generalized force on the (first) dof (.frc column 2)";
            q.column = k ? (internal_ ? 3 : -1) : 1;
            s.quantities.push_back(std::move(q));
        }
        return true;
    }

  private:
    ScalarDof q1_, q2_;
    bool internal_;
    DrivePtr f_;
    double t_;
};

double start_time(BuildContext& ctx) {
    return ctx.drive_env().clock ? ctx.drive_env().clock->time : 0.0;
}

DrivePtr drive(const ScalarGenelSpec& s, BuildContext& ctx) {
    return make_drive(*s.drive, ctx.drive_env());
}

LawPtr<1> law(const ScalarGenelSpec& s, BuildContext& ctx) {
    LawEnv env{ctx.drive_env()};
    return make_law<1>(*s.law, env);
}

std::unique_ptr<Element> make_clamp(const EntityDesc& d, BuildContext& ctx) {
    const auto& s = d.spec_as<ScalarGenelSpec>();
    ScalarDof q = genels::resolve_dof(ctx, d, s.q1);
    const int order = genels::dof_order(s.q1);
    if (order == 1 && q.algebraic)
        ctx.error(d, q.what + " is algebraic: it has no derivative to impose");
    return std::make_unique<Clamp>(d, std::move(q), order, drive(s, ctx));
}

std::unique_ptr<Element> make_spring_support(const EntityDesc& d, BuildContext& ctx) {
    const auto& s = d.spec_as<ScalarGenelSpec>();
    ScalarDof q = genels::resolve_dof(ctx, d, s.q1);
    if (q.algebraic)
        ctx.error(d, "genel spring support needs a differential dof; " + q.what + " is algebraic");
    return std::make_unique<SpringSupport>(d, std::move(q), s.position.value_or(0.0), law(s, ctx));
}

std::unique_ptr<Element> make_mass(const EntityDesc& d, BuildContext& ctx) {
    const auto& s = d.spec_as<ScalarGenelSpec>();
    ScalarDof q = genels::resolve_dof(ctx, d, s.q1);
    if (q.algebraic)
        ctx.error(d, "genel mass needs a differential dof; " + q.what + " is algebraic");
    return std::make_unique<Mass>(d, std::move(q), drive(s, ctx));
}

// The order of a dof; a derivative needs a differential dof.
int order_of(const EntityDesc& d, BuildContext& ctx, const ScalarDof& q,
             const cards::NodeDofSpec& spec) {
    const int o = genels::dof_order(spec);
    if (o == 1 && q.algebraic) ctx.error(d, q.what + " is algebraic: it has no derivative");
    return o;
}

std::unique_ptr<Element> make_distance(const EntityDesc& d, BuildContext& ctx) {
    const auto& s = d.spec_as<ScalarGenelSpec>();
    ScalarDof q1 = genels::resolve_dof(ctx, d, s.q1), q2 = genels::resolve_dof(ctx, d, *s.q2);
    const int o1 = order_of(d, ctx, q1, s.q1), o2 = order_of(d, ctx, q2, *s.q2);
    return std::make_unique<Distance>(d, std::move(q1), o1, std::move(q2), o2, drive(s, ctx));
}

std::unique_ptr<Element> make_spring(const EntityDesc& d, BuildContext& ctx) {
    const auto& s = d.spec_as<ScalarGenelSpec>();
    ScalarDof q1 = genels::resolve_dof(ctx, d, s.q1), q2 = genels::resolve_dof(ctx, d, *s.q2);
    const int o1 = order_of(d, ctx, q1, s.q1), o2 = order_of(d, ctx, q2, *s.q2);
    return std::make_unique<Spring>(d, std::move(q1), o1, std::move(q2), o2, law(s, ctx));
}

std::unique_ptr<Element> make_cross_spring_support(const EntityDesc& d, BuildContext& ctx) {
    const auto& s = d.spec_as<ScalarGenelSpec>();
    ScalarDof row = genels::resolve_dof(ctx, d, s.q1), col = genels::resolve_dof(ctx, d, *s.q2);
    if (col.algebraic)
        ctx.error(d, "genel cross spring support needs a differential column dof; " + col.what +
                         " is algebraic");
    return std::make_unique<CrossSpringSupport>(d, std::move(row), std::move(col), law(s, ctx));
}

std::unique_ptr<Element> make_abstract_force(const EntityDesc& d, BuildContext& ctx) {
    const auto& s = d.spec_as<ScalarGenelSpec>();
    ScalarDof q = genels::resolve_dof(ctx, d, s.q1);
    return std::make_unique<AbstractForce>(d, std::move(q), nullptr, drive(s, ctx),
                                           start_time(ctx));
}

std::unique_ptr<Element> make_abstract_internal(const EntityDesc& d, BuildContext& ctx) {
    const auto& s = d.spec_as<ScalarGenelSpec>();
    ScalarDof q1 = genels::resolve_dof(ctx, d, s.q1), q2 = genels::resolve_dof(ctx, d, *s.q2);
    return std::make_unique<AbstractForce>(d, std::move(q1), &q2, drive(s, ctx), start_time(ctx));
}

}  // namespace

MBS_REGISTER_ELEMENT_KIND("genel", "clamp", {.read = read_clamp, .make = make_clamp});
MBS_REGISTER_ELEMENT_KIND("genel", "distance", {.read = read_distance, .make = make_distance});
MBS_REGISTER_ELEMENT_KIND("genel", "spring", {.read = read_spring, .make = make_spring});
MBS_REGISTER_ELEMENT_KIND("genel", "spring support",
                          {.read = read_spring_support, .make = make_spring_support});
MBS_REGISTER_ELEMENT_KIND("genel", "cross spring support",
                          {.read = read_cross_spring_support, .make = make_cross_spring_support});
MBS_REGISTER_ELEMENT_KIND("genel", "mass", {.read = read_mass, .make = make_mass});
MBS_REGISTER_ELEMENT_KIND("force", "abstract",
                          {.read = read_abstract, .make = make_abstract_force});
MBS_REGISTER_ELEMENT_KIND("force", "abstract internal",
                          {.read = read_abstract_internal, .make = make_abstract_internal});

}  // namespace mbs
