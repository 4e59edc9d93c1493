// Card readers for the cardano (universal) family (docs/deck-language.md 5.2).
//   cardano hinge, n1, [position,] off1 [, orientation, R1], n2, [position,] off2
//       [, orientation, R2]
//   cardano rotation: same, offsets only with `position` and ignored,
//       [, orientation description, od]
//   cardano pin, node, [position,] off [, orientation, Rh], [position,] <abs x>
//       [, orientation, <abs R>]
// Positions are constrained (not for the rotation form); axis 3 of the node-1 hinge frame is
// kept orthogonal to axis 2 of the node-2 hinge frame. `universal hinge|rotation|pin` are
// deprecated aliases.
//   revolute rotation: as revolute hinge (hinge_joints.cpp), offsets only with `position` and
//       ignored, [, orientation description, od]
// Typed specs (below): CardanoSpec (two nodes; the offsets only for the cardano hinge),
// CardanoPinSpec (the node's end against the ground's frame).
// Relative-coordinate path (cardano hinge): two rotations, about axis 3 of frame 1 and the
// turned axis 2; as a cut, 4 rows.
//
// Cardano (universal) joints and the revolute rotation (docs/deck-language.md 5.2) on the joint
// kit.
//
// With ea = axes of end 1's hinge frame R1 R1h and eb = axes of end 2's R2 R2h:
//   cardano hinge:     p1 = p2 (3 rows, multiplier F = force on end 1) and e3a . e2b = 0
//                      (1 row, couple mu e3a x e2b on end 1): rotation is free about e3a and e2b.
//   cardano rotation:  e3a . e2b = 0 only (offsets are read and ignored, as in MBDyn).
//   cardano pin:       the node is end 1, the ground (absolute point x0 and frame R0) end 2; the
//                      node's point stays at x0, and the ground's axis 3 stays orthogonal to the
//                      node's hinge axis 2 (MBDyn's pin: e3 of R0 . e2 of R Rh = 0).
//   revolute rotation: e1a . e3b = e2a . e3b = 0 (the rotation rows of the revolute hinge): only
//                      the relative rotation about the common axis 3 is free.
// Residual and Jacobian terms: point_* and ortho_* in joint_kit.hpp.
//
// Reported reaction (MBDyn's, docs/reactions.md):
//   cardano hinge, rotation (UniversalHingeJoint, UniversalRotationJoint, univj.cc: node 1
//     receives -F and -mu e2b x e3a): the force and couple on end 2, minus ours; local force in
//     end 1's hinge frame (R1Tmp^T F), local moment (mu, 0, 0) with mu the couple's multiplier
//     (couple on end 2 = mu e2b x e3a), as MBDyn writes it;
//   cardano pin (UniversalPinJoint: the node receives +F and +mu e2 x e3): the reaction on the
//     node, ours; local force in the node's hinge frame, local moment (mu, 0, 0);
//   revolute rotation (PlaneRotationJoint, planej.cc: node 1 receives -M): the couple on end 2,
//     in end 2's hinge frame.
// Then the extra columns:
//   cardano hinge, pin: Euler 123 angles of Rb^T Ra in degrees (MBDyn's order);
//   cardano rotation: Rb^T Ra in the orientation description (UniversalRotationJoint::Output);
//   revolute rotation: Ra^T Rb in the orientation description and Rb^T (w2 - w1), as the revolute
//   hinge. The hinge and the pin take no orientation description, as in MBDyn.
#include <memory>
#include <string>

#include "core/log_line.hpp"
#include "core/registry.hpp"
#include "core/rotations.hpp"
#include "core/tree_edge.hpp"
#include "elements/joints/joint_ends.hpp"
#include "elements/joints/joint_kit.hpp"
#include "elements/joints/joint_orientation.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

// Two ends, offsets and hinge orientations in the node frames (the offsets are read and
// ignored by the rotation forms: `offsets` false, not described).
struct CardanoSpec final : ElementSpec {
    cards::EndSpec end[2];
    bool offsets = true;
    std::string orientation_description;  // "" when not given
    long equations = 4;                   // hinge 4, rotation 1, revolute rotation 2
    long own_unknowns() const override { return equations; }
    void describe(Props& p) const override {
        cards::describe_end(p, end[0], "1", offsets, true);
        cards::describe_end(p, end[1], "2", offsets, true);
        if (!orientation_description.empty())
            p.set("orientation description", orientation_description);
    }
};

// The node's end (offset, hinge orientation, node frame) against the ground's frame (global).
struct CardanoPinSpec final : ElementSpec {
    cards::PinGround g;
    long own_unknowns() const override { return 4; }
    void describe(Props& p) const override {
        p.set("node", g.node.node);
        p.set("offset", g.node.offset);
        p.set("hinge orientation", g.node.R);
        p.set("position", g.position);
        p.set("orientation", g.orientation);
    }
};

// Offsets mandatory (`position` optional before them) or after `position` only.
std::shared_ptr<CardanoSpec> read_pair(Reader& r, std::string_view element, bool offsets) {
    cards::EndOptions opt;
    opt.offset = offsets ? cards::Offset::mandatory : cards::Offset::keyword;
    auto end1 = cards::read_end1(r, element, opt);
    auto end2 = cards::read_end2(r, end1, element, opt);
    auto s = std::make_shared<CardanoSpec>();
    s->end[0] = cards::end_spec(end1);
    s->end[1] = cards::end_spec(end2);
    s->offsets = offsets;
    return s;
}

void read_cardano_hinge(Reader& r, EntityDesc& e) { e.spec = read_pair(r, "cardano hinge", true); }

void read_cardano_rotation(Reader& r, EntityDesc& e) {
    auto s = read_pair(r, "cardano rotation", false);
    s->equations = 1;
    s->orientation_description = cards::read_orientation_description(r);
    e.spec = std::move(s);
}

void read_cardano_pin(Reader& r, EntityDesc& e) {
    auto s = std::make_shared<CardanoPinSpec>();
    s->g = cards::read_pin_ground(r, "cardano pin");
    e.spec = std::move(s);
}

void read_revolute_rotation(Reader& r, EntityDesc& e) {
    auto s = read_pair(r, "revolute rotation", false);
    s->equations = 2;
    s->orientation_description = cards::read_orientation_description(r);
    e.spec = std::move(s);
}

void warn_universal(Reader& r, const char* replacement) {
    r.warn(std::string("'universal' joints are deprecated; use '") + replacement + "'");
}
void read_universal_hinge(Reader& r, EntityDesc& e) {
    warn_universal(r, "cardano hinge");
    read_cardano_hinge(r, e);
}
void read_universal_rotation(Reader& r, EntityDesc& e) {
    warn_universal(r, "cardano rotation");
    read_cardano_rotation(r, e);
}
void read_universal_pin(Reader& r, EntityDesc& e) {
    warn_universal(r, "cardano pin");
    read_cardano_pin(r, e);
}

// R_rel = Rz(a) Ry(b): about axis 3 of frame 1, then about the turned axis 2 (axis 3 of frame 1
// stays normal to axis 2 of frame 2; the two axes are always orthogonal).
tree::EdgePart cardano_hinge_edge(const EntityDesc& d, const tree::Context&) {
    tree::Edge e;
    const auto& s = d.spec_as<CardanoSpec>();
    e.a = cards::tree_end(s.end[0], "node1");
    e.b = cards::tree_end(s.end[1], "node2");
    e.cut_cost = 4;
    e.tree_capable = true;
    e.grow = [](tree::Growth& g, const tree::Context&) {
        g.steps.push_back(tree::rotation(2, std::atan2(-g.Rrel(0, 1), g.Rrel(1, 1))));
        g.steps.push_back(tree::rotation(1, std::atan2(-g.Rrel(2, 0), g.Rrel(2, 2))));
    };
    e.cut = [](tree::CutEquations& c, bool, const tree::Context&) {
        c.kind = tree::CutKind::cardano, c.rows = 4;
    };
    return e;
}

using el::End;

enum class Kind : std::uint8_t { cardano_hinge, cardano_rotation, cardano_pin, revolute_rotation };

class CardanoJoint final : public Element {
  public:
    CardanoJoint(const EntityDesc& d, End e1, End e2, Kind k, el::Od od)
        : Element(d), kind_(k), od_(od) {
        e_[0] = e1;
        e_[1] = e2;
        point_ = k == Kind::cardano_hinge || k == Kind::cardano_pin;
        nrot_ = k == Kind::revolute_rotation ? 2 : 1;
    }
    int own_dofs() const override { return (point_ ? 3 : 0) + nrot_; }

    // MBDyn's .log line (struct/joint.cc): "cardanohinge: L n1 f1 R1 n2 f2 R2" (the rotations
    // with zero offsets); the pin: "cardanopin: L n d Rh n R^T (X0 - x) R0 R^T", (x, R) the
    // node's deck pose and (X0, R0) the ground's frame.
    std::string log_line() const override {
        if (kind_ == Kind::cardano_pin) {
            const cards::PinGround& g = desc().spec_as<CardanoPinSpec>().g;
            const long n = g.node.node.label;
            const Vec3 x = cards::node_position(e_[0].node->desc());
            const Mat3 R = cards::node_orientation(e_[0].node->desc());
            LogLine l;
            l.word("cardanopin:").label(label()).label(n).vec(g.node.offset).mat(g.node.R);
            l.label(n).vec(R.transpose() * (g.position - x));
            return l.mat(g.orientation * R.transpose()).s;
        }
        const auto& s = desc().spec_as<CardanoSpec>();
        const char* name = kind_ == Kind::cardano_hinge      ? "cardanohinge"
                           : kind_ == Kind::cardano_rotation ? "cardanorotation"
                                                             : "revoluterotation";
        return cards::log_two_ends(name, label(), s.end, kind_ == Kind::cardano_hinge, true);
    }
    std::string own_dof_name(int i) const override {
        static const char* pos[] = {"position x", "position y", "position z"};
        if (point_ && i < 3) return pos[i];
        if (kind_ == Kind::revolute_rotation)
            return i == 0 ? "axis 1 orthogonality" : "axis 2 orthogonality";
        return "cardano axes orthogonality";
    }
    bool in_assembly() const override { return true; }

    void declare(PatternBuilder& p) override {
        if (point_) {
            b_.nn_mask = "..|.F";
            b_.nl_mask = "I.|FF";
            b_.ln_mask = "IF|.F";
        } else {
            b_.nn_mask = "..|.F";
            b_.nl_mask = ".|F";
            b_.ln_mask = ".F";
        }
        b_.declare(p, e_, 2, first_dof(), own_dofs());
    }

    void residual(const StepContext& c, const StateView& s, double* r) const override {
        const double* lam = s.yp + first_dof();
        double* rc = r + first_dof();
        int k = 0;
        if (point_) {
            el::point_residual(e_, Vec3(lam[0], lam[1], lam[2]), c.dCoef, r, rc);
            k = 3;
        }
        Vec3 u[2], v[2];
        axes(u, v);
        for (int i = 0; i < nrot_; ++i)
            el::ortho_residual(e_, u[i], v[i], lam[k + i], c.dCoef, r, rc + k + i);
    }

    void jacobian(const StepContext& c, const StateView& s, Jacobian& J) const override {
        const double* lam = s.yp + first_dof();
        el::JointJac jj;
        int k = 0;
        if (point_) {
            el::point_jacobian(e_, Vec3(lam[0], lam[1], lam[2]), 0, 0, jj);
            k = 3;
        }
        Vec3 u[2], v[2];
        axes(u, v);
        for (int i = 0; i < nrot_; ++i)
            el::ortho_jacobian(e_, u[i], v[i], lam[k + i], k + i, k + i, jj);
        jj.flush(e_, b_, c, J);
    }

    void after_step(const StepContext&, const StateView& s) override {
        const double* lam = s.yp + first_dof();
        int k = point_ ? 3 : 0;
        F_ = point_ ? Vec3(lam[0], lam[1], lam[2]) : Vec3(Vec3::Zero());
        Vec3 u[2], v[2];
        axes(u, v);
        M_.setZero();
        for (int i = 0; i < nrot_; ++i) M_ += lam[k + i] * u[i].cross(v[i]);
        mu_ = lam[k];
    }
    const char* output_file() const override { return "jnt"; }
    // NetCDF: MBDyn's E, Phi or R (as od_) and, revolute rotation, Omega.
    bool output_schema(OutputSchema& s) const override {
        if (!el::reaction_schema(*this, s)) return false;
        el::joint_orientation(s, od_, 12);
        if (kind_ == Kind::revolute_rotation) el::joint_omega(s, 12 + el::od_columns(od_));
        return true;
    }
    bool reaction(Vec3& f, Vec3& m, Vec3& F, Vec3& M) const override {
        if (kind_ == Kind::revolute_rotation) {
            const Mat3 Rb = e_[1].frame();
            return el::reported_reaction(el::Reported::on_end2, F_, M_, Rb, Rb, f, m, F, M);
        }
        const auto who = kind_ == Kind::cardano_pin ? el::Reported::on_end1 : el::Reported::on_end2;
        el::reported_reaction(who, F_, M_, e_[0].frame(), e_[0].frame(), f, m, F, M);
        m = Vec3(mu_, 0.0, 0.0);
        return true;
    }
    int output_values(double* v) const override {
        el::put_reaction(*this, v);
        if (kind_ == Kind::revolute_rotation) return el::put_relative_rotation(e_, od_, v);
        const Mat3 Ra = e_[0].frame(), Rb = e_[1].frame();
        return 12 + el::put_orientation(od_, Rb.transpose() * Ra, v + 12);
    }

  private:
    // The pairs of axes kept orthogonal: u[i] of end 1, v[i] of end 2.
    void axes(Vec3* u, Vec3* v) const {
        Mat3 Ra = e_[0].frame(), Rb = e_[1].frame();
        switch (kind_) {
            case Kind::cardano_hinge:
            case Kind::cardano_rotation:
                u[0] = Ra.col(2), v[0] = Rb.col(1);
                break;
            case Kind::cardano_pin:  // node (end 1) axis 2, ground (end 2) axis 3
                u[0] = Ra.col(1), v[0] = Rb.col(2);
                break;
            case Kind::revolute_rotation:
                u[0] = Ra.col(0), v[0] = Rb.col(2);
                u[1] = Ra.col(1), v[1] = Rb.col(2);
                break;
        }
    }

    End e_[2];
    Kind kind_;
    el::Od od_;  // the relative rotation's output (cardano hinge, pin: Euler 123)
    bool point_ = false;
    int nrot_ = 1;
    el::JointBlocks b_;
    Vec3 F_ = Vec3::Zero(), M_ = Vec3::Zero();
    double mu_ = 0.0;  // the first couple multiplier (cardano joints: MBDyn's dM)
};

// A node without rotations is refused at the node's field; the offset is taken only by the
// forms that constrain the points (`offset`).
End node_end(BuildContext& ctx, const EntityDesc& d, const cards::EndSpec& s, bool offset,
             const char* need, const char* hint) {
    End e;
    e.node = &ctx.struct_node(s.node, d);
    if (!e.node->has_rotation()) throw InputError(s.node_loc, need, hint);
    if (offset) e.f = s.offset;
    e.Rh = s.R;
    return e;
}

template <Kind K>
std::unique_ptr<Element> make_pair(const EntityDesc& d, BuildContext& ctx) {
    const auto& s = d.spec_as<CardanoSpec>();
    const bool offsets = K == Kind::cardano_hinge;
    const char* need = "this joint constrains rotations: it needs nodes with rotations";
    const char* hint = "use static or dynamic (not displacement) nodes";
    End e1 = node_end(ctx, d, s.end[0], offsets, need, hint),
        e2 = node_end(ctx, d, s.end[1], offsets, need, hint);
    const el::Od od = el::joint_od(s.orientation_description, ctx.model().control.orientation());
    return std::make_unique<CardanoJoint>(d, e1, e2, K,
                                          K == Kind::cardano_hinge ? el::Od::euler123 : od);
}

std::unique_ptr<Element> make_cardano_pin(const EntityDesc& d, BuildContext& ctx) {
    const auto& s = d.spec_as<CardanoPinSpec>();
    End n = node_end(ctx, d, s.g.node, true, "a cardano pin needs a node with rotations",
                     "use a static or dynamic node");
    End g;
    g.f = s.g.position;
    g.Rh = s.g.orientation;
    return std::make_unique<CardanoJoint>(d, n, g, Kind::cardano_pin, el::Od::euler123);
}

}  // namespace

MBS_REGISTER_ELEMENT_KIND("joint", "cardano hinge",
                          {.read = read_cardano_hinge,
                           .make = make_pair<Kind::cardano_hinge>,
                           .reduced = {.edge = cardano_hinge_edge}});
MBS_REGISTER_ELEMENT_KIND("joint", "universal hinge",
                          {.read = read_universal_hinge,
                           .make = make_pair<Kind::cardano_hinge>,
                           .reduced = {.edge = cardano_hinge_edge}});
MBS_REGISTER_ELEMENT_KIND("joint", "cardano rotation",
                          {.read = read_cardano_rotation,
                           .make = make_pair<Kind::cardano_rotation>});
MBS_REGISTER_ELEMENT_KIND("joint", "universal rotation",
                          {.read = read_universal_rotation,
                           .make = make_pair<Kind::cardano_rotation>});
MBS_REGISTER_ELEMENT_KIND("joint", "cardano pin",
                          {.read = read_cardano_pin, .make = make_cardano_pin});
MBS_REGISTER_ELEMENT_KIND("joint", "universal pin",
                          {.read = read_universal_pin, .make = make_cardano_pin});
MBS_REGISTER_ELEMENT_KIND("joint", "revolute rotation",
                          {.read = read_revolute_rotation,
                           .make = make_pair<Kind::revolute_rotation>});

}  // namespace mbs
