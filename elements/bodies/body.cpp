// Card reader for `body` (docs/deck-language.md 5.1): rigid bodies, condensed bodies and point
// masses.
//   body: L, node, [condense, n,] [allow negative mass,]
//         m, <Vec3 rel c.o.m.>, <Mat3x3 rel inertia about the c.o.m.>
//         [, {orientation | inertial}, {node | <OrMat rel>}]  ... (n times with condense);
//   body: L, node, m;                        (displacement-only node: point mass)
// Props: "node"; per mass "mass", "center of mass" (node frame), "inertia" (about the mass's
// own c.o.m., node frame); with condense the per-mass data get a suffix " 1", " 2", ... and
// "mass", "center of mass", "inertia" hold the combined body (inertia about the combined c.o.m.).
#include <Eigen/Eigenvalues>
#include <cmath>
#include <string>
#include <vector>

#include "core/registry.hpp"
#include "core/tree_edge.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

struct MassData {
    double m = 0.0;
    Vec3 xc = Vec3::Zero();
    Mat3 J = Mat3::Zero();
};

// A physical inertia tensor is symmetric positive semi-definite (a point mass has J = 0).
// Non-symmetric input only warns (as in MBDyn); negative principal moments are an error.
void check_inertia(Reader& r, const SourceLoc& at, const Mat3& J, bool allow_negative) {
    double scale = J.cwiseAbs().maxCoeff();
    if (scale == 0.0) return;
    if ((J - J.transpose()).cwiseAbs().maxCoeff() > 1e-9 * scale)
        r.warn_at(at,
                  "inertia matrix is not symmetric; its symmetric part is what matters physically");
    if (allow_negative) return;
    Mat3 Js = 0.5 * (J + J.transpose());
    Eigen::SelfAdjointEigenSolver<Mat3> es(Js, Eigen::EigenvaluesOnly);
    Vec3 ev = es.eigenvalues();
    if (ev.minCoeff() < -1e-12 * scale)
        r.error_at(
            at,
            "inertia matrix is not positive semi-definite (principal moments " +
                std::to_string(ev[0]) + ", " + std::to_string(ev[1]) + ", " +
                std::to_string(ev[2]) + ")",
            "give the inertia about the centre of mass; off-diagonal terms are entered without the "
            "NASTRAN minus sign");
    // Principal moments of a real body obey the triangle inequality J1 + J2 >= J3.
    if (ev[0] + ev[1] < ev[2] * (1.0 - 1e-9))
        r.warn_at(
            at,
            "principal moments of inertia violate J1 + J2 >= J3: no real body has this inertia");
}

MassData read_mass(Reader& r, const EntityDesc& node, bool rotations, bool allow_negative) {
    MassData d;
    SourceLoc at_m = r.loc();
    d.m = r.real("mass");
    if (!allow_negative && d.m < 0.0)
        r.error_at(at_m, "negative mass " + std::to_string(d.m) + " is not allowed",
                   "write 'allow negative mass' before the masses if this is intended");
    if (!rotations) return d;
    d.xc = r.position_rel(node, "centre of mass offset");
    SourceLoc at_J = r.loc();
    d.J = r.mat3_rel(node, "inertia matrix");
    // `inertial` (deprecated) and `orientation` give the frame the inertia is written in:
    // J <- R J R^T. `inertial, node` means the node frame (no change).
    bool inertial = r.peek("inertial");
    if (inertial || r.peek("orientation")) {
        if (inertial) r.warn("keyword 'inertial' is deprecated; use 'orientation'");
        r.skip();
        if (!(inertial && r.accept("node"))) {
            Mat3 R = r.orientation_rel(node, "inertia orientation");
            d.J = R * d.J * R.transpose();
        }
    }
    check_inertia(r, at_J, d.J, allow_negative);
    return d;
}

// A body may only sit on a dynamic node unless the model is static (docs/deck-language.md 4.1).
void check_body_node(Reader& r, const SourceLoc& at, const EntityDesc& node) {
    if (node.type == "dynamic" || node.type == "dynamic displacement" || node.type == "modal")
        return;
    bool static_model = r.model().control.static_model.given();
    if (static_model && (node.type == "static" || node.type == "static displacement")) return;
    r.error_at(
        at,
        "body needs a dynamic structural node, but node " + std::to_string(node.label) + " is '" +
            node.type + "'",
        static_model ? "" : "declare the node 'dynamic' (or set 'model: static;' in control data)");
}

void read_body(Reader& r, EntityDesc& e) {
    SourceLoc at_node = r.loc();
    const EntityDesc& node = r.node("structural", "node");
    check_body_node(r, at_node, node);
    bool rotations = cards::has_rotations(node);
    e.props.set("node", cards::node_ref(node));

    if (r.peek("variable mass"))
        r.error("'variable mass' bodies are not supported yet", "use a constant-mass body");

    long count = 1;
    bool condense = false;
    if (r.accept("condense")) {
        SourceLoc at = r.loc();
        count = r.integer("number of masses to condense");
        if (count < 1)
            r.error_at(at, "'condense' needs at least one mass, got " + std::to_string(count));
        condense = true;
        e.props.set("condense", count);
    }
    bool allow_negative = r.accept("allow negative mass");
    if (allow_negative) e.props.set("allow negative mass", true);

    // Combined body: m = sum m_i, xc = sum m_i xc_i / m,
    // J = sum [J_i + m_i (|d_i|^2 I - d_i d_i^T)] with d_i = xc_i - xc (parallel-axis theorem).
    std::vector<MassData> masses;
    for (long k = 0; k < count; ++k) {
        MassData d = read_mass(r, node, rotations, allow_negative);
        masses.push_back(d);
        if (condense) {
            std::string s = " " + std::to_string(k + 1);
            e.props.set("mass" + s, d.m);
            if (rotations) {
                e.props.set("center of mass" + s, d.xc);
                e.props.set("inertia" + s, d.J);
            }
        }
    }
    if (!rotations && !r.at_end() && !r.peek("output"))
        r.error("a point mass on the displacement-only node " + std::to_string(node.label) +
                    " takes only the mass",
                "remove the centre of mass and inertia, or use a node with rotations");
    MassData total;
    Vec3 S = Vec3::Zero();
    for (const auto& d : masses) {
        total.m += d.m;
        S += d.m * d.xc;
    }
    if (!allow_negative && total.m < 0.0)
        r.error_at(at_node, "the total mass of the body is negative");
    if (rotations) {
        if (masses.size() == 1) {
            total = masses.front();
        } else {
            if (std::fabs(total.m) < 1e-300)
                r.error_at(at_node,
                           "the condensed masses add up to zero: the centre of mass is undefined");
            total.xc = S / total.m;
            for (const auto& d : masses) {
                Vec3 dx = d.xc - total.xc;
                total.J += d.J + d.m * (dx.squaredNorm() * Mat3::Identity() - dx * dx.transpose());
            }
        }
    }
    e.props.set("mass", total.m);
    if (rotations) {
        e.props.set("center of mass", total.xc);
        e.props.set("inertia", total.J);
    }
}

// Relative-coordinate path: the body's mass on the link of its node.
tree::LoadPart tree_body(const EntityDesc& d, const tree::Context&) {
    tree::Body b;
    b.node.node = d.props.get<EntityRef>("node");
    b.node.key = "node";
    b.mass = d.props.get<double>("mass");
    b.com = d.props.get_or<Vec3>("center of mass", Vec3::Zero());
    b.inertia = d.props.get_or<Mat3>("inertia", Mat3::Zero());
    return b;
}

}  // namespace

MBS_REGISTER_ELEMENT("body", "", read_body);

MBS_REGISTER_TREE_LOAD("body", "", tree_body);
}  // namespace mbs
