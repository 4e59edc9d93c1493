// Structural node kinds (docs/deck-language.md 4): the readers of static, dynamic, modal,
// displacement-only and dummy nodes, and the runtime element of a dynamic node (the automatic
// structural element, below); the node itself is a StructNode built by Engine::build_nodes(). Every
// reader returns a StructuralNodeSpec (core/struct_node_spec.hpp) with the resolved absolute
// position, orientation, velocity and angular velocity; displacement-only nodes have the identity
// orientation and zero angular velocity.
#include "core/registry.hpp"
#include "core/struct_node_spec.hpp"
#include "core/tree_edge.hpp"
#include "elements/misc/card_helpers.hpp"
#include "elements/misc/element_util.hpp"

namespace mbs {

namespace {

void read_orientation_description(Reader& r, StructuralNodeSpec& s) {
    if (r.accept("orientation description"))
        s.orientation_description = r.keyword(
            {"euler123", "euler313", "euler321", "orientation vector", "orientation matrix"},
            "orientation description");
}

// Optional tail shared by structural nodes, in any order.
void read_tail(Reader& r, EntityDesc& e, StructuralNodeSpec& s, bool rotational, bool dynamic) {
    using Tail = StructuralNodeSpec::Tail;
    while (!r.at_end()) {
        SourceLoc at = r.loc();
        if (rotational && r.accept("prediction node")) {
            r.error_at(at, "'prediction node' is not supported yet", "remove it");
        } else if (r.accept("assembly")) {
            s.assembly_position_stiffness = r.nonnegative("assembly position stiffness");
            s.assembly_velocity_stiffness = r.nonnegative("assembly velocity stiffness");
            s.note(Tail::assembly);
            SourceLoc a = r.loc();
            if (rotational && !r.at_end() && !r.peek("output") && !r.peek("scale") &&
                !r.peek("accelerations")) {
                r.boolean("omega rotates");
                r.error_at(
                    a,
                    "the node's 'omega rotates' flag of the initial assembly is not supported yet",
                    "end the assembly item after the two stiffnesses");
            }
        } else if (r.accept("scale")) {
            // Scales the node's equations in a scaled residual test, which mbsolve refuses.
            if (!r.accept("default")) r.positive("scale");
            r.warn_at(at,
                      "'scale' is ignored: it scales only scaled residual tests, which mbsolve "
                      "does not run");
        } else if (r.accept("output")) {
            e.output = r.boolean("output flag");
        } else if (dynamic && r.accept("accelerations")) {
            s.set_accelerations(r.boolean("accelerations flag"));
        } else if (dynamic && r.accept("output inertia")) {
            s.output_inertia = r.boolean("output inertia flag");
            s.note(Tail::output_inertia);
        } else {
            std::string w = r.peek_word();
            r.error("unexpected argument" + (w.empty() ? std::string{} : " '" + w + "'") +
                        " in a structural node",
                    "the optional items are: prediction node, assembly, scale, output, "
                    "accelerations, output inertia");
        }
    }
}

// structural: L, {static|dynamic|modal}, [position,] X, [orientation,] R [, orientation
// description, od],
//             [velocity,] V, [angular velocity,] W [, tail...];
void read_rigid(Reader& r, EntityDesc& e) {
    auto s = std::make_shared<StructuralNodeSpec>();
    r.accept("position");
    s->x = r.position_abs("node position");
    r.accept("orientation");
    s->R = r.orientation_abs("node orientation");
    read_orientation_description(r, *s);
    r.accept("velocity");
    s->v = r.velocity_abs(s->x, "node velocity");
    r.accept("angular velocity");
    s->w = r.angular_velocity_abs("node angular velocity");
    read_tail(r, e, *s, true, e.type != "static");
    e.spec = std::move(s);
}

// structural: L, {static|dynamic} displacement, [position,] X, [velocity,] V [, tail...];
void read_displacement(Reader& r, EntityDesc& e) {
    auto s = std::make_shared<StructuralNodeSpec>();
    r.accept("position");
    s->x = r.position_abs("node position");
    r.accept("velocity");
    s->v = r.velocity_abs(s->x, "node velocity");
    read_tail(r, e, *s, false, e.type == "dynamic displacement");
    e.spec = std::move(s);
}

// structural: L, dummy, base, offset, f, R [, orientation description, od];
//   x = xb + Rb f, R = Rb Rf, v = vb + wb x (Rb f), w = wb.
// structural: L, dummy, base, relative frame, ref [, position, f] [, orientation, R [, od]]
//             [, pivot node, p [, position, f] [, orientation, R]];
void read_dummy(Reader& r, EntityDesc& e) {
    auto s = std::make_shared<StructuralNodeSpec>();
    s->dummy = true;
    const EntityDesc& base = r.node("structural", "base node of the dummy node");
    if (base.type == "dummy")
        r.error_at(e.loc, "a dummy node cannot be based on another dummy node");
    s->base = EntityRef{"structural", base.label};
    const auto& b = base.spec_as<StructuralNodeSpec>();
    s->dummy_type = r.keyword({"offset", "relative frame"}, "dummy node type");
    if (s->dummy_type == "offset") {
        const Vec3 f = r.position_rel(base, "dummy node offset");
        const Mat3 Rf = r.orientation_rel(base, "dummy node orientation");
        s->offset = f;
        s->relative_orientation = Rf;
        s->x = b.x + b.R * f;
        s->R = b.R * Rf;
        s->v = b.v + b.w.cross(b.R * f);
        s->w = b.w;
        read_orientation_description(r, *s);
        e.spec = std::move(s);
        return;
    }
    const EntityDesc& ref = r.node("structural", "reference node of the relative frame");
    s->reference = EntityRef{"structural", ref.label};
    if (r.accept("position")) s->offset = r.position_rel(ref, "relative frame offset");
    if (r.accept("orientation")) {
        s->relative_orientation = r.orientation_rel(ref, "relative frame orientation");
        read_orientation_description(r, *s);
    }
    if (r.accept("pivot node")) {
        const EntityDesc& piv = r.node("structural", "pivot node");
        s->pivot = EntityRef{"structural", piv.label};
        if (r.accept("position")) s->pivot_offset = r.position_rel(piv, "pivot offset");
        if (r.accept("orientation"))
            s->pivot_orientation = r.orientation_rel(piv, "pivot orientation");
    }
    // Absolute data of a relative-frame node are those of its base node (it reports relative
    // values).
    s->x = b.x;
    s->R = b.R;
    s->v = b.v;
    s->w = b.w;
    e.spec = std::move(s);
}

// ----------------------------------------------------------------------------------------------
// The "automatic structural" element of a dynamic node: the node's own terms of Newton-Euler
// in first-order form (docs/formulation.md 2). Bodies add the momentum definitions' other side.
//
// Rows (rigid node):  force     r_F     = ... - beta'
//                     moment    r_M     = ... - gamma' - xdot x beta
//                     momentum  r_beta  = ... - beta
//                     ang. mom. r_gamma = ... - gamma
// Jacobian (J = dr/dy' + dCoef dr/dy):
//   r_F / beta: -I;  r_M / gamma: -I;  r_M / beta: -dCoef skew(xdot);  r_M / x: skew(beta)
//   (from d(-xdot x beta)/dxdot = skew(beta));  r_beta / beta: -dCoef I;  r_gamma / gamma: -dCoef
//   I.
// Displacement-only nodes have only the force and momentum rows.
class AutomaticStructural final : public Element {
  public:
    AutomaticStructural(const EntityDesc& d, StructNode& n) : Element(d), n_(&n) {}

    void declare(PatternBuilder& p) override {
        // rows force, moment, momentum, angular momentum x cols x, g, beta, gamma (see above)
        const char* mask = n_->has_rotation() ? "..I.|F.FI|..I.|...I" : ".I|.I";
        block_ = p.block(n_->first_dof(), n_->ndofs(), n_->first_dof(), n_->ndofs(), mask);
    }

    void residual(const StepContext&, const StateView&, double* r) const override {
        double* p = r + n_->first_dof();
        const int m = n_->pos_cols();
        for (int i = 0; i < 3; ++i) {
            p[i] -= n_->beta_dot[i];
            p[m + i] -= n_->beta[i];
        }
        if (n_->has_rotation()) {
            Vec3 tm = n_->gamma_dot + n_->xdot.cross(n_->beta);
            for (int i = 0; i < 3; ++i) {
                p[3 + i] -= tm[i];
                p[9 + i] -= n_->gamma[i];
            }
        }
    }

    void jacobian(const StepContext& c, const StateView&, Jacobian& J) const override {
        Eigen::Matrix<double, 12, 12> a = Eigen::Matrix<double, 12, 12>::Zero();
        const int m = n_->pos_cols();
        a.block<3, 3>(0, m) = -Mat3::Identity();
        a.block<3, 3>(m, m) = -c.dCoef * Mat3::Identity();
        if (n_->has_rotation()) {
            a.block<3, 3>(3, 9) = -Mat3::Identity();
            a.block<3, 3>(3, 6) = -c.dCoef * skew(n_->xdot);
            a.block<3, 3>(3, 0) = skew(n_->beta);
            a.block<3, 3>(9, 9) = -c.dCoef * Mat3::Identity();
        }
        J.add(block_, a);
    }

  private:
    StructNode* n_;
    BlockId block_ = -1;
};

std::unique_ptr<Element> make_automatic_structural(const EntityDesc& d, BuildContext& ctx) {
    StructNode& n = ctx.struct_node(EntityRef{"structural", d.label}, d);
    return std::make_unique<AutomaticStructural>(d, n);
}

// Relative-coordinate path: the initial state of a static or dynamic node.
tree::Node tree_node(const EntityDesc& n) {
    tree::Node s;
    const auto& spec = n.spec_as<StructuralNodeSpec>();
    s.x = spec.x;
    s.v = spec.v;
    s.w = spec.w;
    s.R = spec.R;
    s.orientation_description = spec.orientation_description;
    return s;
}

tree::Node unsupported_tree_node(const EntityDesc& n) {
    tree::unsupported(n, "the tree is made of static and dynamic structural nodes");
}

}  // namespace

MBS_REGISTER_NODE_KIND("structural", "static",
                       {.read = read_rigid, .no_make = "its unknowns are the node's own"});
MBS_REGISTER_NODE_KIND("structural", "dynamic",
                       {.read = read_rigid, .make = make_automatic_structural});
MBS_REGISTER_NODE_KIND("structural", "modal",
                       {.read = read_rigid, .no_make = "refused by Engine::build_nodes()"});
MBS_REGISTER_NODE_KIND("structural", "static displacement",
                       {.read = read_displacement, .no_make = "its unknowns are the node's own"});
MBS_REGISTER_NODE_KIND("structural", "dynamic displacement",
                       {.read = read_displacement, .make = make_automatic_structural});
MBS_REGISTER_NODE_KIND("structural", "dummy",
                       {.read = read_dummy, .no_make = "no unknowns: it follows its base node"});

MBS_REGISTER_TREE_NODE("structural", "static", tree_node);
MBS_REGISTER_TREE_NODE("structural", "dynamic", tree_node);
MBS_REGISTER_TREE_NODE("structural", "*", unsupported_tree_node);
}  // namespace mbs
