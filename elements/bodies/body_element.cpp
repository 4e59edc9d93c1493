// Card reader for `body` (docs/deck-language.md 5.1): rigid bodies, condensed bodies and point
// masses.
//   body: L, node, [condense, n,] [allow negative mass,]
//         m, <Vec3 rel c.o.m.>, <Mat3x3 rel inertia about the c.o.m.>
//         [, {orientation | inertial}, {node | <OrMat rel>}]  ... (n times with condense);
//   body: L, node, m;                        (displacement-only node: point mass)
// Typed spec: BodySpec (below): the node, the masses as read and the combined body. Its generic
// view: "node"; per mass "mass", "center of mass" (node frame), "inertia" (about the mass's own
// c.o.m., node frame); with condense ("condense" = n) the per-mass data get a suffix " 1",
// " 2", ... and "mass", "center of mass", "inertia" hold the combined body (inertia about the
// combined c.o.m.); "allow negative mass" when given. A point mass has no "center of mass" and
// "inertia".
//
// Rigid body on a structural node (docs/deck-language.md 5.1): mass m, centre of mass xc and
// inertia about it (node frame). With S = R (m xc) and J = R Jn R^T (Jn: inertia about the node, Jn
// = Jc + m (|xc|^2 I - xc xc^T)) the body adds to the node (docs/formulation.md 2):
//   momentum rows:  m xdot + w x S          angular momentum rows:  S x xdot + J w
//   force rows:     m g                     moment rows:            S x g        (gravity g)
// Derivatives (dS = dtheta x S, dJ = skew(dtheta) J - J skew(dtheta)):
//   d(w x S)    = -skew(S) dw - skew(w) skew(S) dtheta
//   d(S x xdot) =  skew(S) dxdot + skew(xdot) skew(S) dtheta
//   d(J w)      =  J dw + (J skew(w) - skew(J w)) dtheta
//   d(S x g)    =  skew(g) skew(S) dtheta
// On a displacement-only node the body is a point mass: m xdot and m g only. On a static node
// (static model) only the gravity load remains. With `use: rigid bodies in assembly;` the
// gravity load (force and moment rows) also acts in the initial assembly.
#include <Eigen/Eigenvalues>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/log_line.hpp"
#include "core/registry.hpp"
#include "core/tree_edge.hpp"
#include "elements/misc/card_helpers.hpp"
#include "elements/misc/element_util.hpp"

namespace mbs {
namespace {

struct MassData {
    double m = 0.0;
    Vec3 xc = Vec3::Zero();
    Mat3 J = Mat3::Zero();
};

struct BodySpec final : ElementSpec {
    EntityRef node;
    SourceLoc node_loc;
    bool rotations = true;         // the node has rotations (else a point mass: m only)
    long condense = 0;             // `condense, n` (0: not given)
    bool allow_negative = false;   // `allow negative mass`
    std::vector<MassData> masses;  // as read (described with condense only)
    MassData total;                // the combined body
    void describe(Props& p) const override {
        p.set("node", node);
        if (condense > 0) p.set("condense", condense);
        if (allow_negative) p.set("allow negative mass", true);
        if (condense > 0)
            for (std::size_t k = 0; k < masses.size(); ++k) {
                const std::string s = " " + std::to_string(k + 1);
                p.set("mass" + s, masses[k].m);
                if (rotations) {
                    p.set("center of mass" + s, masses[k].xc);
                    p.set("inertia" + s, masses[k].J);
                }
            }
        p.set("mass", total.m);
        if (rotations) {
            p.set("center of mass", total.xc);
            p.set("inertia", total.J);
        }
    }
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
    auto spec = std::make_shared<BodySpec>();
    SourceLoc at_node = r.loc();
    const EntityDesc& node = r.node("structural", "node");
    check_body_node(r, at_node, node);
    const bool rotations = cards::has_rotations(node);
    spec->node = cards::node_ref(node);
    spec->node_loc = at_node;
    spec->rotations = rotations;

    if (r.peek("variable mass"))
        r.error("'variable mass' bodies are not supported yet", "use a constant-mass body");

    long count = 1;
    if (r.accept("condense")) {
        SourceLoc at = r.loc();
        count = r.integer("number of masses to condense");
        if (count < 1)
            r.error_at(at, "'condense' needs at least one mass, got " + std::to_string(count));
        spec->condense = count;
    }
    const bool allow_negative = r.accept("allow negative mass");
    spec->allow_negative = allow_negative;

    // Combined body: m = sum m_i, xc = sum m_i xc_i / m,
    // J = sum [J_i + m_i (|d_i|^2 I - d_i d_i^T)] with d_i = xc_i - xc (parallel-axis theorem).
    std::vector<MassData>& masses = spec->masses;
    for (long k = 0; k < count; ++k)
        masses.push_back(read_mass(r, node, rotations, allow_negative));
    if (!rotations && !r.at_end() && !r.peek("output"))
        r.error("a point mass on the displacement-only node " + std::to_string(node.label) +
                    " takes only the mass",
                "remove the centre of mass and inertia, or use a node with rotations");
    MassData& total = spec->total;
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
    e.spec = std::move(spec);
}

// Relative-coordinate path: the body's mass on the link of its node.
tree::LoadPart tree_body(const EntityDesc& d, const tree::Context&) {
    const auto& spec = d.spec_as<BodySpec>();
    tree::Body b;
    b.node.node = spec.node;
    b.node.key = "node";
    b.mass = spec.total.m;
    b.com = spec.rotations ? spec.total.xc : Vec3(Vec3::Zero());
    b.inertia = spec.rotations ? spec.total.J : Mat3(Mat3::Zero());
    return b;
}

class Body final : public Element {
  public:
    Body(const EntityDesc& d, const MassData& total, StructNode& n, const Vec3* g, bool in_assembly)
        : Element(d), n_(&n), g_(g), in_assembly_(in_assembly) {
        m_ = total.m;
        if (n.has_rotation()) {
            const Vec3& xc = total.xc;
            s_ = m_ * xc;
            Jn_ = total.J + m_ * (xc.squaredNorm() * Mat3::Identity() - xc * xc.transpose());
        }
        // The node's lumped inertia (node accelerations for output, solvers/dae/accelerations).
        if (n.is_dynamic()) {
            n.inertia_m += m_;
            n.inertia_s += s_;
            n.inertia_J += Jn_;
        }
    }

    // MBDyn's .log line (struct/body.cc): "body: L n m xc J", the combined body (xc and J zero
    // for a point mass).
    std::string log_line() const override {
        const auto& s = desc().spec_as<BodySpec>();
        const bool r = s.rotations;
        return LogLine()
            .word("body:")
            .label(label())
            .label(s.node.label)
            .num(s.total.m)
            .vec(r ? s.total.xc : Vec3::Zero())
            .mat(r ? s.total.J : Mat3::Zero())
            .s;
    }

    void declare(PatternBuilder& p) override {
        // rows force, moment [, momentum, angular momentum] x cols x, g (see above)
        const char* mask =
            n_->has_rotation() ? (n_->is_dynamic() ? "..|.F|IF|FF" : "..|.F") : ".|I";
        block_ = p.block(n_->first_dof(), n_->ndofs(), n_->first_dof(), n_->pos_cols(), mask);
    }

    bool in_assembly() const override { return in_assembly_; }

    void residual(const StepContext& c, const StateView&, double* r) const override {
        double* p = r + n_->first_dof();
        const int mrow = n_->pos_cols();
        Vec3 S = n_->R * s_;
        if (g_) {
            Vec3 F = m_ * *g_;
            Vec3 M = S.cross(*g_);
            el::add_wrench(r, *n_, F, M);
        }
        if (!n_->is_dynamic() || c.phase == Phase::assembly) return;
        Vec3 b = m_ * n_->xdot + n_->w.cross(S);
        for (int i = 0; i < 3; ++i) p[mrow + i] += b[i];
        if (n_->has_rotation()) {
            Mat3 J = n_->R * Jn_ * n_->R.transpose();
            Vec3 h = S.cross(n_->xdot) + J * n_->w;
            for (int i = 0; i < 3; ++i) p[mrow + 3 + i] += h[i];
        }
    }

    void jacobian(const StepContext& c, const StateView&, Jacobian& J) const override {
        using M12 = Eigen::Matrix<double, 12, 3>;
        M12 Dx = M12::Zero(), Dth = M12::Zero(), Dxd = M12::Zero(), Dw = M12::Zero();
        const int mrow = n_->pos_cols();
        Vec3 S = n_->R * s_;
        if (g_ && n_->has_rotation()) Dth.block<3, 3>(3, 0) = skew(*g_) * skew(S);
        if (n_->is_dynamic() && c.phase != Phase::assembly) {
            Dxd.block<3, 3>(mrow, 0) = m_ * Mat3::Identity();
            if (n_->has_rotation()) {
                const Vec3& w = n_->w;
                Mat3 Jg = n_->R * Jn_ * n_->R.transpose();
                Dw.block<3, 3>(6, 0) = -skew(S);
                Dth.block<3, 3>(6, 0) = -skew(w) * skew(S);
                Dxd.block<3, 3>(9, 0) = skew(S);
                Dw.block<3, 3>(9, 0) = Jg;
                Dth.block<3, 3>(9, 0) = skew(n_->xdot) * skew(S) + Jg * skew(w) - skew(Jg * w);
            }
        }
        J.add(block_, n_->chain<12>(Dx, Dth, Dxd, Dw, c));
    }

    double kinetic_energy() const {
        Vec3 S = n_->R * s_;
        Mat3 Jg = n_->R * Jn_ * n_->R.transpose();
        return 0.5 * m_ * n_->xdot.squaredNorm() + n_->xdot.dot(n_->w.cross(S)) +
               0.5 * n_->w.dot(Jg * n_->w);
    }

    // Private data (MBDyn's Body): E kinetic energy, V potential energy of gravity
    // -g . (m x + S) (zero without gravity), m the mass.
    int private_data_count() const override { return 3; }
    const char* private_data_name(int i) const override {
        static const char* nm[] = {"E", "V", "m"};
        return nm[i];
    }
    double private_data(int i, const StateView&) const override {
        if (i == 0) return n_->is_dynamic() ? kinetic_energy() : 0.0;
        if (i == 2) return m_;
        return g_ ? -g_->dot(m_ * n_->x + n_->R * s_) : 0.0;
    }

  private:
    StructNode* n_;
    const Vec3* g_;
    double m_ = 0.0;
    Vec3 s_ = Vec3::Zero();
    Mat3 Jn_ = Mat3::Zero();
    BlockId block_ = -1;
    bool in_assembly_ = false;
};

std::unique_ptr<Element> make(const EntityDesc& d, BuildContext& ctx) {
    const auto& spec = d.spec_as<BodySpec>();
    StructNode& n = ctx.struct_node(spec.node, d);
    return std::make_unique<Body>(d, spec.total, n, ctx.gravity(),
                                  el::used_in_assembly(ctx, "rigid bodies"));
}

}  // namespace

MBS_REGISTER_ELEMENT_KIND("body", "",
                          {.read = read_body, .make = make, .reduced = {.load = tree_body}});

}  // namespace mbs
