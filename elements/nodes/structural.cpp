// Readers of node cards (docs/deck-language.md 4): structural (static, dynamic, modal,
// displacement-only, dummy) and the scalar nodes (abstract, electric, hydraulic, thermal,
// parameter). Every structural node stores its resolved absolute "position", "orientation",
// "velocity" and "angular velocity"; displacement-only nodes have the identity orientation and zero
// angular velocity.
#include "core/registry.hpp"
#include "core/tree_edge.hpp"
#include "elements/misc/card_helpers.hpp"

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

// abstract: L, [algebraic|differential], [value, x0 [, derivative, xp0]];  (also electric, thermal)
void read_scalar(Reader& r, EntityDesc& e) {
    if (e.category == "abstract") {
        if (r.accept("algebraic"))
            e.props.set("kind", std::string("algebraic"));
        else {
            r.accept("differential");
            e.props.set("kind", std::string("differential"));
        }
    }
    double x0 = 0.0, xp0 = 0.0;
    if (r.accept("value")) {
        x0 = r.real("initial value");
        if (e.category != "hydraulic" && r.accept("derivative")) xp0 = r.real("initial derivative");
    }
    e.props.set("value", x0);
    if (e.category != "hydraulic") e.props.set("derivative", xp0);
}

// parameter: L, {[value,] x0 | element | sample and hold, <NodeDof>, T | beam strain gage, y, z};
// (`element`: the value comes from a `bind` card; `sample and hold`: the value of the dof,
// sampled every T seconds; `beam strain gage`: the axial strain at (y, z) of the section of the
// beam bound to it; elements/nodes/scalar_nodes.cpp)
void read_parameter(Reader& r, EntityDesc& e) {
    if (r.accept("element")) {
        e.props.set("element", true);
        return;
    }
    if (r.accept("sample and hold") || r.accept("sample'n'hold")) {
        cards::read_node_dof(r, e, "", "sample and hold parameter node", false);
        SourceLoc at = r.loc();
        const double T = r.real("sample period");
        if (!(T > 0.0))
            r.error_at(at, "the sample period must be positive, got " + std::to_string(T));
        e.props.set("sample and hold", true);
        e.props.set("period", T);
        return;
    }
    if (r.accept("beam strain gage") || r.accept("strain gage")) {
        e.props.set("element", true);
        e.props.set("strain gage y", r.real("strain gage y"));
        e.props.set("strain gage z", r.real("strain gage z"));
        return;
    }
    r.accept("value");
    e.props.set("value", r.real("parameter value"));
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

MBS_REGISTER_NODE("structural", "static", read_rigid);
MBS_REGISTER_NODE("structural", "dynamic", read_rigid);
MBS_REGISTER_NODE("structural", "modal", read_rigid);
MBS_REGISTER_NODE("structural", "static displacement", read_displacement);
MBS_REGISTER_NODE("structural", "dynamic displacement", read_displacement);
MBS_REGISTER_NODE("structural", "dummy", read_dummy);
MBS_REGISTER_NODE("abstract", "", read_scalar);
MBS_REGISTER_NODE("electric", "", read_scalar);
MBS_REGISTER_NODE("thermal", "", read_scalar);
MBS_REGISTER_NODE("hydraulic", "", read_scalar);
MBS_REGISTER_NODE("parameter", "", read_parameter);

MBS_REGISTER_TREE_NODE("structural", "static", tree_node);
MBS_REGISTER_TREE_NODE("structural", "dynamic", tree_node);
MBS_REGISTER_TREE_NODE("structural", "*", unsupported_tree_node);
}  // namespace mbs
