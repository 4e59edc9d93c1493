// Card readers for `joint: L, spherical hinge` and `spherical pin` (docs/deck-language.md 5.2).
//   spherical hinge, n1, [position,] off1 [, orientation, R1], n2, [position,] off2
//                    [, orientation, R2] [, orientation description, od]
//   spherical pin, node, [position,] off [, orientation, R (ignored)],
//                  [position,] <abs pin> [, orientation, <abs R> (ignored)]
// The hinge orientations only affect output.
// Typed specs (below): HingeSpec (hinges), PinSpec (pins).
// Relative-coordinate path: three rotations (a ball); as a cut, 3 rows.
//
// Card readers for the revolute family (docs/deck-language.md 5.2): `revolute hinge`, `revolute
// pin` (and the deprecated `plane hinge`, `plane pin`: MBDyn reads no `orientation description`
// for a `plane hinge`, neither do we: refused at its keyword; `revolute rotation` is in
// cardano_joints.cpp, `axial rotation` in total_joint_element.cpp, next to their runtimes).
//   revolute hinge, n1, [position,] off1 [, orientation, R1h], n2, [position,] off2
//       [, orientation, R2h] [, orientation description, od] [, output, ...]
//       [, initial theta, th] [, friction, ...]
//   revolute pin, node, [position,] off [, orientation, Rh], [position,] <abs x>
//       [, orientation, <abs R>] [, output, ...] [, initial theta, th]
// Rotation is allowed about axis 3 of the hinge frames. `initial theta` and `friction` come
// after `output` (MBDyn source order), so these readers read `output` themselves.
// Spherical and revolute hinges and pins read into the typed HingeSpec and PinSpec (below).
// Relative-coordinate path (core/tree_edge.hpp): one rotation about axis 3 of the hinge frames,
// as a cut the 5 rows of a hinge (cards::revolute_tree_edge).
//
// Spherical and revolute hinges and pins (docs/deck-language.md 5.2) on the joint kit.
//
// spherical: p1 = p2 (3 multipliers: the force F on end 1, global).
// revolute:  p1 = p2 and axis 3 of end 2's hinge frame orthogonal to axes 1 and 2 of end 1's
//            (2 more multipliers: moments about e1 x e3' and e2 x e3'); rotation is free about
//            the common axis 3.
// Pins use the ground as end 2 (so F is the force on the node).
//
// Reported reaction (MBDyn's, docs/reactions.md): MBDyn's node 1 (the pin's node) receives -F
// (SphericalHingeJoint, PinJoint: spherj.cc; PlaneHingeJoint, PlanePinJoint: planej.cc), so the
// reaction written is minus ours: the force and couple on end 2 (hinges) or the ones the node
// applies to the ground (pins). Local columns: spherical hinge in end 1's hinge frame R1 R1h
// (R1Tmp^T F), spherical pin global (F), revolute hinge in end 2's hinge frame R2 R2h
// (R2Tmp^T F, and MBDyn's M = R2Tmp^T of the couple), revolute pin in the node's hinge frame.
#include <cmath>
#include <memory>
#include <optional>
#include <string>

#include "core/log_line.hpp"
#include "core/registry.hpp"
#include "core/rotations.hpp"
#include "core/tree_edge.hpp"
#include "elements/drives/driven_hints.hpp"
#include "elements/joints/joint_ends.hpp"
#include "elements/joints/joint_kit.hpp"
#include "elements/joints/joint_orientation.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

// A spherical, revolute (or plane) hinge: its two ends, offsets and hinge orientations in the
// node frames.
struct HingeSpec final : ElementSpec {
    cards::EndSpec end[2];
    bool revolute = false;                // else spherical
    std::string orientation_description;  // "" when not given
    std::optional<double> initial_theta;  // revolute only, rad
    long own_unknowns() const override { return revolute ? 5 : 3; }
    void describe(Props& p) const override {
        cards::describe_end(p, end[0], "1", true, true);
        cards::describe_end(p, end[1], "2", true, true);
        if (!orientation_description.empty())
            p.set("orientation description", orientation_description);
        if (initial_theta) p.set("initial theta", *initial_theta);
    }
};

// A spherical or revolute (plane) pin: the node's end (offset and hinge orientation in the node
// frame) against the ground's frame (global). A spherical pin has no hinge frames.
struct PinSpec final : ElementSpec {
    cards::EndSpec node;
    Vec3 position = Vec3::Zero();
    Mat3 orientation = Mat3::Identity();
    bool revolute = false;
    std::optional<double> initial_theta;  // rad
    long own_unknowns() const override { return revolute ? 5 : 3; }
    void describe(Props& p) const override {
        p.set("node", node.node);
        p.set("offset", node.offset);
        if (revolute) p.set("hinge orientation", node.R);
        p.set("position", position);
        if (revolute) p.set("orientation", orientation);
        if (initial_theta) p.set("initial theta", *initial_theta);
    }
};

// The two ends of a hinge (offsets mandatory, `position` optional before them).
std::shared_ptr<HingeSpec> read_hinge_ends(Reader& r, std::string_view element) {
    cards::EndOptions opt;
    auto end1 = cards::read_end1(r, element, opt);
    auto end2 = cards::read_end2(r, end1, element, opt);
    auto s = std::make_shared<HingeSpec>();
    s->end[0] = cards::end_spec(end1);
    s->end[1] = cards::end_spec(end2);
    return s;
}

void read_spherical_hinge(Reader& r, EntityDesc& e) {
    auto s = read_hinge_ends(r, "spherical hinge");
    s->orientation_description = cards::read_orientation_description(r);
    e.spec = std::move(s);
}

void read_spherical_pin(Reader& r, EntityDesc& e) {
    auto s = std::make_shared<PinSpec>();
    s->node.node_loc = r.loc();
    const EntityDesc& n = cards::read_structural_node(r, "node", "spherical pin");
    s->node.node = cards::node_ref(n);
    r.accept("position");
    s->node.offset_loc = r.loc();
    s->node.offset = r.position_rel(n, "offset");
    s->node.orientation_loc = s->node.node_loc;
    if (r.accept("orientation")) r.orientation_rel(n, "orientation (unused)");
    r.accept("position");
    s->position = r.position_abs("pin position", &n);
    if (r.accept("orientation")) r.orientation_abs("pin orientation (unused)", &n);
    e.spec = std::move(s);
}

tree::Edge ball_edge(tree::End a, tree::End b) {
    tree::Edge e;
    e.a = std::move(a);
    e.b = std::move(b);
    e.cut_cost = 3;
    e.tree_capable = true;
    e.grow = [](tree::Growth& g, const tree::Context&) { tree::ball(g.steps, g.Rrel); };
    e.cut = [](tree::CutEquations& c, bool, const tree::Context&) {
        c.kind = tree::CutKind::ball, c.rows = 3;
    };
    return e;
}

tree::EdgePart spherical_hinge_edge(const EntityDesc& d, const tree::Context&) {
    const auto& s = d.spec_as<HingeSpec>();
    return ball_edge(cards::tree_end(s.end[0], "node1"), cards::tree_end(s.end[1], "node2"));
}

tree::EdgePart spherical_pin_edge(const EntityDesc& d, const tree::Context&) {
    const auto& s = d.spec_as<PinSpec>();
    tree::End ground;
    ground.o = s.position;
    return ball_edge(cards::tree_end(s.node, "node"), ground);
}

std::optional<double> read_optional_initial_theta(Reader& r) {
    if (r.accept("initial theta")) return r.real("initial theta");
    return std::nullopt;
}

void read_revolute_ends(Reader& r, EntityDesc& e, std::shared_ptr<HingeSpec> s) {
    s->revolute = true;
    cards::read_optional_output(r, e);
    s->initial_theta = read_optional_initial_theta(r);
    cards::reject_friction(r);
    e.spec = std::move(s);
}

void read_revolute_hinge(Reader& r, EntityDesc& e) {
    auto s = read_hinge_ends(r, "revolute hinge");
    s->orientation_description = cards::read_orientation_description(r);
    read_revolute_ends(r, e, std::move(s));
}

void read_plane_hinge(Reader& r, EntityDesc& e) {
    r.warn("'plane hinge' is deprecated; use 'revolute hinge'");
    auto s = read_hinge_ends(r, "plane hinge");
    if (r.peek("orientation description"))
        r.error("'plane hinge' takes no orientation description (MBDyn reads none for it)",
                "write 'revolute hinge', the current name of this joint, to choose one");
    read_revolute_ends(r, e, std::move(s));
}

void read_revolute_pin(Reader& r, EntityDesc& e) {
    auto s = std::make_shared<PinSpec>();
    s->revolute = true;
    cards::PinGround g = cards::read_pin_ground(r, "revolute pin");
    s->node = g.node;
    s->position = g.position;
    s->orientation = g.orientation;
    cards::read_optional_output(r, e);
    s->initial_theta = read_optional_initial_theta(r);
    e.spec = std::move(s);
}

void read_plane_pin(Reader& r, EntityDesc& e) {
    r.warn("'plane pin' is deprecated; use 'revolute pin'");
    read_revolute_pin(r, e);
}

tree::EdgePart revolute_hinge_edge(const EntityDesc& d, const tree::Context&) {
    const auto& s = d.spec_as<HingeSpec>();
    return cards::revolute_tree_edge(cards::tree_end(s.end[0], "node1"),
                                     cards::tree_end(s.end[1], "node2"));
}

tree::EdgePart revolute_pin_edge(const EntityDesc& d, const tree::Context&) {
    const auto& s = d.spec_as<PinSpec>();
    tree::End ground;
    ground.o = s.position;
    ground.R = s.orientation;
    return cards::revolute_tree_edge(cards::tree_end(s.node, "node"), ground);
}

using el::End;

class HingeJoint final : public Element, public el::Hintable {
  public:
    HingeJoint(const EntityDesc& d, End e1, End e2, bool revolute, el::Od od)
        : Element(d), revolute_(revolute), od_(od) {
        e_[0] = e1;
        e_[1] = e2;
    }
    int own_dofs() const override { return revolute_ ? 5 : 3; }
    std::string own_dof_name(int i) const override {
        static const char* nm[] = {"position x", "position y", "position z", "axis 1 orthogonality",
                                   "axis 2 orthogonality"};
        return nm[i];
    }
    bool in_assembly() const override { return true; }

    // Force rows depend only on the multipliers; moment rows on rotations and multipliers;
    // position rows on positions and rotations, orthogonality rows on rotations only.
    void declare(PatternBuilder& p) override {
        b_.nn_mask = "..|.F";
        b_.nl_mask = revolute_ ? "I.|FF" : "I|F";
        b_.ln_mask = revolute_ ? "IF|.F" : "IF";
        b_.declare(p, e_, 2, first_dof(), own_dofs());
    }

    // residual(), jacobian() and after_step() are flattened: with the reader, tree adapters and
    // .log line in this file GCC kept out-of-line copies of End::frame() and Eigen's 3x3 product
    // and called them here (callgrind, chain_200 for 0.2 s: 3% more instructions than a2198d0).
    [[gnu::flatten]] void residual(const StepContext& c, const StateView& s,
                                   double* r) const override {
        const double* lam = s.yp + first_dof();
        double* rc = r + first_dof();
        el::point_residual(e_, Vec3(lam[0], lam[1], lam[2]), c.dCoef, r, rc);
        if (!revolute_) return;
        Mat3 Ra = e_[0].frame(), Rb = e_[1].frame();
        el::ortho_residual(e_, Ra.col(0), Rb.col(2), lam[3], c.dCoef, r, rc + 3);
        el::ortho_residual(e_, Ra.col(1), Rb.col(2), lam[4], c.dCoef, r, rc + 4);
    }

    [[gnu::flatten]] void jacobian(const StepContext& c, const StateView& s,
                                   Jacobian& J) const override {
        const double* lam = s.yp + first_dof();
        el::JointJac jj;
        el::point_jacobian(e_, Vec3(lam[0], lam[1], lam[2]), 0, 0, jj);
        if (revolute_) {
            Mat3 Ra = e_[0].frame(), Rb = e_[1].frame();
            el::ortho_jacobian(e_, Ra.col(0), Rb.col(2), lam[3], 3, 3, jj);
            el::ortho_jacobian(e_, Ra.col(1), Rb.col(2), lam[4], 4, 4, jj);
        }
        jj.flush(e_, b_, c, J);
    }

    [[gnu::flatten]] void after_step(const StepContext&, const StateView& s) override {
        if (revolute_) theta_ = rz();
        const double* lam = s.yp + first_dof();
        F_ = Vec3(lam[0], lam[1], lam[2]);
        M_.setZero();
        if (revolute_) {
            Mat3 Ra = e_[0].frame(), Rb = e_[1].frame();
            M_ = lam[3] * Ra.col(0).cross(Rb.col(2)) + lam[4] * Ra.col(1).cross(Rb.col(2));
        }
    }
    const char* output_file() const override { return "jnt"; }
    // NetCDF: MBDyn's E, Phi or R (as od_) and, revolute, Omega (the .jnt extras).
    bool output_schema(OutputSchema& s) const override {
        if (!el::reaction_schema(*this, s)) return false;
        el::joint_orientation(s, od_, 12);
        if (revolute_) el::joint_omega(s, 12 + el::od_columns(od_));
        return true;
    }
    bool reaction(Vec3& f, Vec3& m, Vec3& F, Vec3& M) const override {
        const Mat3 R = local_frame();
        return el::reported_reaction(el::Reported::on_end2, F_, M_, R, R, f, m, F, M);
    }
    // After the 12 reaction columns: revolute hinges MBDyn's relative rotation (in od_) and
    // angular velocity; revolute pins (PlanePinJoint::Output) the Euler 123 angles (degrees) of
    // the node's hinge frame relative to the ground's, R0^T R Rh, and its angular velocity in that
    // frame; spherical hinges Ra^T Rb in od_ (SphericalHingeJoint::Output), spherical pins the
    // Euler 123 angles of the node's orientation R (PinJoint::Output). Pins have no
    // `orientation description` (od_ is Euler 123), as in MBDyn.
    int output_values(double* v) const override {
        el::put_reaction(*this, v);
        if (!revolute_) {
            const Mat3 Rr =
                e_[1].ground() ? e_[0].node->R : Mat3(e_[0].frame().transpose() * e_[1].frame());
            return 12 + el::put_orientation(od_, Rr, v + 12);
        }
        if (!e_[1].ground()) return el::put_relative_rotation(e_, od_, v);
        const Mat3 Rn = e_[0].frame();
        const Vec3 ang = matrix_to_euler123(e_[1].frame().transpose() * Rn) * (180.0 / M_PI);
        const Vec3 w = Rn.transpose() * e_[0].omega();
        for (int i = 0; i < 3; ++i) v[12 + i] = ang[i], v[15 + i] = w[i];
        return 18;
    }

    // Private data of revolute hinges and pins (MBDyn's plane hinge): rz, the relative rotation
    // about axis 3 accumulated over turns (atan2 of Ra^T Rb on the branch nearest the last
    // converged value, which starts at `initial theta`); wz = e3b . (w2 - w1); Fx..Fz the
    // reported force in the global frame (the .jnt columns 8-10) and Mx..Mz the reported couple
    // in the local frame (columns 5-7), as MBDyn's dGetPrivData (F, and its local M). Pins (end 2
    // is the ground) measure the node relative to the ground, as MBDyn's pins: rz of R0^T R Rh
    // and wz = e3 . w, i.e. the signs of rz and wz are flipped.
    int private_data_count() const override { return revolute_ ? 8 : 0; }
    const char* private_data_name(int i) const override {
        static const char* nm[] = {"rz", "wz", "Fx", "Fy", "Fz", "Mx", "My", "Mz"};
        return nm[i];
    }
    double private_data(int i, const StateView& s) const override {
        if (i == 0) return rz();
        Mat3 Ra = e_[0].frame(), Rb = e_[1].frame();
        if (i == 1) return pin_sign() * Rb.col(2).dot(e_[1].omega() - e_[0].omega());
        const double* lam = s.yp + first_dof();
        Vec3 F1(lam[0], lam[1], lam[2]);
        Vec3 M1 = lam[3] * Ra.col(0).cross(Rb.col(2)) + lam[4] * Ra.col(1).cross(Rb.col(2));
        Vec3 f, m, F, M;
        const Mat3 R = local_frame();
        el::reported_reaction(el::Reported::on_end2, F1, M1, R, R, f, m, F, M);
        return i < 5 ? F[i - 2] : m[i - 5];
    }
    void set_initial_theta(double th) { theta_ = th; }

    // MBDyn's .log line (struct/joint.cc): a hinge's two ends as the deck gave them; a pin's end
    // on its node, then the ground frame in the node's deck frame (x, R):
    // "revolutepin: L n d Rh n R^T (X0 - x) R0 R^T"; a spherical pin repeats the offset.
    std::string log_line() const override {
        if (const auto* h = dynamic_cast<const HingeSpec*>(desc().spec.get()))
            return cards::log_two_ends(revolute_ ? "revolutehinge" : "sphericalhinge", label(),
                                       h->end, true, true);
        const auto& p = desc().spec_as<PinSpec>();
        const long n = p.node.node.label;
        LogLine l;
        l.word(revolute_ ? "revolutepin:" : "sphericalpin:").label(label()).label(n);
        if (!revolute_)
            return l.vec(p.node.offset)
                .mat(Mat3::Identity())
                .label(n)
                .vec(p.node.offset)
                .mat(Mat3::Identity())
                .s;
        const Vec3 x = cards::node_position(e_[0].node->desc());
        const Mat3 R = cards::node_orientation(e_[0].node->desc());
        l.vec(p.node.offset).mat(p.node.R).label(n).vec(R.transpose() * (p.position - x));
        return l.mat(p.orientation * R.transpose()).s;
    }

    // `driven` hints (MBDyn's PlaneHingeJoint/SphericalHingeJoint::SetValue): offset{1|2},
    // hinge{1|2} from the ends' current configuration (el::apply_end_pair_hint).
    bool takes_hint(el::Hint h) const override { return el::end_pair_takes(h); }
    void apply_hint(el::Hint h, double) override { el::apply_end_pair_hint(e_, h); }
    double pin_sign() const { return e_[1].ground() ? -1.0 : 1.0; }

  private:
    // Frame of the local reaction columns (see the file comment).
    Mat3 local_frame() const {
        if (revolute_) return e_[1].ground() ? e_[0].frame() : e_[1].frame();
        return e_[1].ground() ? Mat3(Mat3::Identity()) : e_[0].frame();
    }
    double rz() const {
        Mat3 Rr = e_[0].frame().transpose() * e_[1].frame();
        double a = pin_sign() * std::atan2(Rr(1, 0), Rr(0, 0));
        return a + 2.0 * M_PI * std::round((theta_ - a) / (2.0 * M_PI));
    }

    double theta_ = 0.0;  // rz at the last converged step
    End e_[2];
    bool revolute_;
    el::Od od_;  // the relative rotation's output (pins: Euler 123)
    el::JointBlocks b_;
    Vec3 F_ = Vec3::Zero(), M_ = Vec3::Zero();
};

// A revolute joint's node without rotations is refused at the node's field.
End node_end(BuildContext& ctx, const EntityDesc& d, const cards::EndSpec& s, bool revolute) {
    End e;
    e.node = &ctx.struct_node(s.node, d);
    if (revolute && !e.node->has_rotation())
        throw InputError(s.node_loc, "a revolute hinge needs nodes with rotations",
                         "node " + std::to_string(s.node.label) + " is displacement-only");
    e.f = s.offset;
    e.Rh = s.R;
    return e;
}

template <bool Revolute>
std::unique_ptr<Element> make_hinge(const EntityDesc& d, BuildContext& ctx) {
    const auto& s = d.spec_as<HingeSpec>();
    End e1 = node_end(ctx, d, s.end[0], Revolute), e2 = node_end(ctx, d, s.end[1], Revolute);
    const el::Od od = el::joint_od(s.orientation_description, ctx.model().control.orientation());
    auto j = std::make_unique<HingeJoint>(d, e1, e2, Revolute, od);
    j->set_initial_theta(s.initial_theta.value_or(0.0));
    return j;
}

template <bool Revolute>
std::unique_ptr<Element> make_pin(const EntityDesc& d, BuildContext& ctx) {
    const auto& s = d.spec_as<PinSpec>();
    End ground;
    ground.f = s.position;
    ground.Rh = s.orientation;
    auto j = std::make_unique<HingeJoint>(d, node_end(ctx, d, s.node, false), ground, Revolute,
                                          el::Od::euler123);
    j->set_initial_theta(s.initial_theta.value_or(0.0));
    return j;
}

}  // namespace

MBS_REGISTER_ELEMENT_KIND("joint", "spherical hinge",
                          {.read = read_spherical_hinge,
                           .make = make_hinge<false>,
                           .reduced = {.edge = spherical_hinge_edge}});
MBS_REGISTER_ELEMENT_KIND("joint", "spherical pin",
                          {.read = read_spherical_pin,
                           .make = make_pin<false>,
                           .reduced = {.edge = spherical_pin_edge}});
MBS_REGISTER_ELEMENT_KIND("joint", "pin",
                          {.read = read_spherical_pin,
                           .make = make_pin<false>,
                           .reduced = {.edge = spherical_pin_edge}});
MBS_REGISTER_ELEMENT_KIND("joint", "revolute hinge",
                          {.read = read_revolute_hinge,
                           .make = make_hinge<true>,
                           .reduced = {.edge = revolute_hinge_edge}});
MBS_REGISTER_ELEMENT_KIND("joint", "plane hinge",
                          {.read = read_plane_hinge,
                           .make = make_hinge<true>,
                           .reduced = {.edge = revolute_hinge_edge}});
MBS_REGISTER_ELEMENT_KIND("joint", "revolute pin",
                          {.read = read_revolute_pin,
                           .make = make_pin<true>,
                           .reduced = {.edge = revolute_pin_edge}});
MBS_REGISTER_ELEMENT_KIND("joint", "plane pin",
                          {.read = read_plane_pin,
                           .make = make_pin<true>,
                           .reduced = {.edge = revolute_pin_edge}});

}  // namespace mbs
