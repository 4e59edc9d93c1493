// Card reader for `joint: L, clamp` (docs/deck-language.md 5.2): fixes a node's position and
// orientation.
//   clamp, node, [position,] {node | <Vec3 abs>}, [orientation,] {node | <OrMat abs>}
// `node` keeps the node's current value; absolute data is read with the node as context, so
// `reference, node, null` also means the node's position.
// Typed spec: ClampSpec (the node, the clamp's position and orientation, global).
// Relative-coordinate path: the node becomes part of the ground.
//
// Clamp joint: fixes a node's position x0 and orientation R0 (absolute).
// Unknowns: reaction force F and moment M applied to the node (global frame).
//   node rows:        r_F += F,  r_M += M
//   constraint rows:  (x - x0)/dCoef,   e/dCoef  with  e = 1/2 ax(Q - Q^T), Q = R R0^T
// e = sin(theta) n vanishes with the orientation error; de = 1/2 (tr(Q) I - Q) dtheta
// (from skew(a) Q + Q^T skew(a) = skew((tr Q I - Q) a)).
// Reported reaction (MBDyn's ClampJoint, genj.cc, whose node receives -F): minus the
// multipliers, the force and moment the node applies to the ground, locally in the node's frame
// R (R^T F, R^T M), globally as they are.
#include "core/log_line.hpp"
#include "core/registry.hpp"
#include "core/tree_edge.hpp"
#include "elements/joints/joint_kit.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

struct ClampSpec final : ElementSpec {
    EntityRef node;
    Vec3 position = Vec3::Zero();                     // global
    Mat3 orientation = Mat3::Identity();              // global
    long own_unknowns() const override { return 6; }  // the reader asks for a node with rotations
    void describe(Props& p) const override {
        p.set("node", node);
        p.set("position", position);
        p.set("orientation", orientation);
    }
};

void read_clamp(Reader& r, EntityDesc& e) {
    auto s = std::make_shared<ClampSpec>();
    const EntityDesc& n = cards::read_structural_node(r, "node", "clamp");
    s->node = cards::node_ref(n);
    r.accept("position");
    s->position = r.accept("node") ? cards::node_position(n) : r.position_abs("clamp position", &n);
    r.accept("orientation");
    s->orientation =
        r.accept("node") ? cards::node_orientation(n) : r.orientation_abs("clamp orientation", &n);
    e.spec = std::move(s);
}

// The node is the ground, at the clamp's pose.
tree::EdgePart clamp_edge(const EntityDesc& d, const tree::Context&) {
    const auto& s = d.spec_as<ClampSpec>();
    tree::Clamp c;
    c.node.node = s.node;
    c.node.key = "node";
    c.position = s.position;
    c.orientation = s.orientation;
    return c;
}

class Clamp final : public Element {
  public:
    Clamp(const EntityDesc& d, StructNode& n) : Element(d), n_(&n) {
        x0_ = d.spec_as<ClampSpec>().position;
        R0_ = d.spec_as<ClampSpec>().orientation;
    }
    int own_dofs() const override { return n_->pos_cols(); }
    // MBDyn's .log line: "clamp: L n 0 I n 0 I" (the node's own frame on both sides).
    std::string log_line() const override {
        const Vec3 o = Vec3::Zero();
        const Mat3 I = Mat3::Identity();
        return LogLine()
            .word("clamp:")
            .label(label())
            .label(n_->label())
            .vec(o)
            .mat(I)
            .label(n_->label())
            .vec(o)
            .mat(I)
            .s;
    }
    std::string own_dof_name(int i) const override {
        static const char* nm[] = {"position x",    "position y",    "position z",
                                   "orientation x", "orientation y", "orientation z"};
        return nm[i];
    }
    bool in_assembly() const override { return true; }

    void declare(PatternBuilder& p) override {
        int m = own_dofs();
        nl_ = p.block(n_->first_dof(), m, first_dof(), m, "I.|.I");
        ln_ = p.block(first_dof(), m, n_->first_dof(), m, "I.|.F");
    }

    void residual(const StepContext& c, const StateView& s, double* r) const override {
        const int m = own_dofs();
        const double* lam = s.yp + first_dof();
        double* rn = r + n_->first_dof();
        double* rc = r + first_dof();
        for (int i = 0; i < m; ++i) rn[i] += lam[i];
        Vec3 dx = (n_->x - x0_) / c.dCoef;
        for (int i = 0; i < 3; ++i) rc[i] += dx[i];
        if (m == 6) {
            Vec3 e = axial(n_->R * R0_.transpose()) / c.dCoef;
            for (int i = 0; i < 3; ++i) rc[3 + i] += e[i];
        }
    }

    void jacobian(const StepContext&, const StateView&, Jacobian& J) const override {
        J.add_diag(nl_, 1.0);
        Eigen::Matrix<double, 6, 6> a = Eigen::Matrix<double, 6, 6>::Zero();
        a.block<3, 3>(0, 0).setIdentity();
        if (n_->has_rotation()) {
            Mat3 Q = n_->R * R0_.transpose();
            a.block<3, 3>(3, 3) = 0.5 * (Q.trace() * Mat3::Identity() - Q) * n_->G;
        }
        J.add(ln_, a);
    }

    const char* output_file() const override { return "jnt"; }
    bool output_schema(OutputSchema& s) const override { return el::reaction_schema(*this, s); }
    bool reaction(Vec3& f, Vec3& m, Vec3& F, Vec3& M) const override {
        return el::reported_reaction(el::Reported::on_end2, F_, M_, n_->R, n_->R, f, m, F, M);
    }
    int output_values(double* v) const override { return el::put_reaction(*this, v); }
    void after_step(const StepContext&, const StateView& s) override {
        const double* lam = s.yp + first_dof();
        F_ = Vec3(lam[0], lam[1], lam[2]);
        M_ = own_dofs() == 6 ? Vec3(lam[3], lam[4], lam[5]) : Vec3(Vec3::Zero());
    }

  private:
    StructNode* n_;
    Vec3 x0_;
    Mat3 R0_;
    BlockId nl_ = -1, ln_ = -1;
    Vec3 F_ = Vec3::Zero(), M_ = Vec3::Zero();
};

std::unique_ptr<Element> make(const EntityDesc& d, BuildContext& ctx) {
    return std::make_unique<Clamp>(d, ctx.struct_node(d.spec_as<ClampSpec>().node, d));
}

}  // namespace

MBS_REGISTER_ELEMENT_KIND("joint", "clamp",
                          {.read = read_clamp, .make = make, .reduced = {.edge = clamp_edge}});

}  // namespace mbs
