// Structural node kinds (docs/deck-language.md 4): the readers of static, dynamic, modal,
// displacement-only and dummy nodes, and the runtime element of a dynamic node (the automatic
// structural element, below); the node itself is a StructNode built by Engine::build_nodes(). Every
// structural node stores its resolved absolute "position", "orientation", "velocity" and "angular
// velocity"; displacement-only nodes have the identity orientation and zero angular velocity.
#include "core/registry.hpp"
#include "core/tree_edge.hpp"
#include "elements/misc/card_helpers.hpp"
#include "elements/misc/element_util.hpp"

namespace mbs {

namespace {

void read_orientation_description(Reader& r, EntityDesc& e) {
    if (r.accept("orientation description"))
        e.props.set("orientation description",
                    r.keyword({"euler123", "euler313", "euler321", "orientation vector",
                               "orientation matrix"},
                              "orientation description"));
}

// Optional tail shared by structural nodes, in any order.
void read_tail(Reader& r, EntityDesc& e, bool rotational, bool dynamic) {
    while (!r.at_end()) {
        SourceLoc at = r.loc();
        if (rotational && r.accept("prediction node")) {
            r.error_at(at, "'prediction node' is not supported yet", "remove it");
        } else if (r.accept("assembly")) {
            e.props.set("assembly position stiffness",
                        r.nonnegative("assembly position stiffness"));
            e.props.set("assembly velocity stiffness",
                        r.nonnegative("assembly velocity stiffness"));
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
            e.props.set("accelerations", r.boolean("accelerations flag"));
        } else if (dynamic && r.accept("output inertia")) {
            e.props.set("output inertia", r.boolean("output inertia flag"));
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
    r.accept("position");
    Vec3 x = r.position_abs("node position");
    r.accept("orientation");
    Mat3 R = r.orientation_abs("node orientation");
    e.props.set("position", x);
    e.props.set("orientation", R);
    read_orientation_description(r, e);
    r.accept("velocity");
    e.props.set("velocity", r.velocity_abs(x, "node velocity"));
    r.accept("angular velocity");
    e.props.set("angular velocity", r.angular_velocity_abs("node angular velocity"));
    read_tail(r, e, true, e.type != "static");
}

// structural: L, {static|dynamic} displacement, [position,] X, [velocity,] V [, tail...];
void read_displacement(Reader& r, EntityDesc& e) {
    r.accept("position");
    Vec3 x = r.position_abs("node position");
    e.props.set("position", x);
    e.props.set("orientation", Mat3(Mat3::Identity()));
    r.accept("velocity");
    e.props.set("velocity", r.velocity_abs(x, "node velocity"));
    e.props.set("angular velocity", Vec3(Vec3::Zero()));
    read_tail(r, e, false, e.type == "dynamic displacement");
}

// structural: L, dummy, base, offset, f, R [, orientation description, od];
//   x = xb + Rb f, R = Rb Rf, v = vb + wb x (Rb f), w = wb.
// structural: L, dummy, base, relative frame, ref [, position, f] [, orientation, R [, od]]
//             [, pivot node, p [, position, f] [, orientation, R]];
void read_dummy(Reader& r, EntityDesc& e) {
    const EntityDesc& base = r.node("structural", "base node of the dummy node");
    if (base.type == "dummy")
        r.error_at(e.loc, "a dummy node cannot be based on another dummy node");
    e.props.set("base node", EntityRef{"structural", base.label});
    const Vec3& xb = base.props.get<Vec3>("position");
    const Mat3& Rb = base.props.get<Mat3>("orientation");
    const Vec3& vb = base.props.get<Vec3>("velocity");
    const Vec3& wb = base.props.get<Vec3>("angular velocity");
    std::string kind = r.keyword({"offset", "relative frame"}, "dummy node type");
    e.props.set("dummy type", kind);
    if (kind == "offset") {
        Vec3 f = r.position_rel(base, "dummy node offset");
        Mat3 Rf = r.orientation_rel(base, "dummy node orientation");
        e.props.set("offset", f);
        e.props.set("relative orientation", Rf);
        e.props.set("position", Vec3(xb + Rb * f));
        e.props.set("orientation", Mat3(Rb * Rf));
        e.props.set("velocity", Vec3(vb + wb.cross(Rb * f)));
        e.props.set("angular velocity", wb);
        read_orientation_description(r, e);
        return;
    }
    const EntityDesc& ref = r.node("structural", "reference node of the relative frame");
    e.props.set("reference node", EntityRef{"structural", ref.label});
    if (r.accept("position")) e.props.set("offset", r.position_rel(ref, "relative frame offset"));
    if (r.accept("orientation")) {
        e.props.set("relative orientation", r.orientation_rel(ref, "relative frame orientation"));
        read_orientation_description(r, e);
    }
    if (r.accept("pivot node")) {
        const EntityDesc& piv = r.node("structural", "pivot node");
        e.props.set("pivot node", EntityRef{"structural", piv.label});
        if (r.accept("position")) e.props.set("pivot offset", r.position_rel(piv, "pivot offset"));
        if (r.accept("orientation"))
            e.props.set("pivot orientation", r.orientation_rel(piv, "pivot orientation"));
    }
    // Absolute data of a relative-frame node are those of its base node (it reports relative
    // values).
    e.props.set("position", xb);
    e.props.set("orientation", Rb);
    e.props.set("velocity", vb);
    e.props.set("angular velocity", wb);
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
    s.x = n.props.get_or<Vec3>("position", Vec3::Zero());
    s.v = n.props.get_or<Vec3>("velocity", Vec3::Zero());
    s.w = n.props.get_or<Vec3>("angular velocity", Vec3::Zero());
    s.R = n.props.get_or<Mat3>("orientation", Mat3::Identity());
    s.orientation_description = n.props.get_or<std::string>("orientation description", "");
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
