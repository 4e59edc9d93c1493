// Card reader for `joint: L, viscous body` (docs/deck-language.md 5.2): a viscous law between a
// node and the ground.
//   viscous body, node, [position,] off [, {orientation|hinge}, R], <6D viscous CL>
//       [, orientation description, od]
// Only viscous laws are accepted. The orientation description is read (as MBDyn) with a warning:
// the output has no rotation to describe.
// Typed spec: ViscousBodySpec (the node's end: offset and frame in the node frame; the law; the
// orientation description).
//
// Runtime viscous body (docs/deck-language.md 5.2; reader: above): a 6D viscous law
// between a node and the ground, on the absolute velocity of a point of the node in a frame
// attached to it (MBDyn's vb.cc).
//
// Node x, R, offset f, frame Rh; a = R f, Ra = R Rh, v_p = xdot + w x a.
//   epsdot = [Ra^T v_p; Ra^T w]      (the strain itself is 0: the law must be viscous)
// The law gives the local force f and moment m; F = Ra f, M = Ra m resist the motion:
//   node: (-F, -a x F - M)
// Jacobian (virtual rotation dth; da = -[a] dth):
//   dv_p = dxdot - [a] dw - [w][a] dth
//   d(Ra^T v) = Ra^T dv + Ra^T [v] dth          (v = v_p or w)
//   d(f, m) = C d(epsdot);  dF = Ra df - [F] dth,  dM = Ra dm - [M] dth
//   force rows: -dF;  moment rows: -[a] dF - [F][a] dth - dM
// Output (.jnt): label, f, m (local), F, M (global), epsdot(6).
#include <memory>
#include <string>

#include "core/constitutive_law.hpp"
#include "core/log_line.hpp"
#include "core/registry.hpp"
#include "elements/joints/joint_kit.hpp"
#include "elements/misc/card_helpers.hpp"
#include "elements/misc/element_util.hpp"

namespace mbs {
namespace {

struct ViscousBodySpec final : ElementSpec {
    EntityRef node;
    SourceLoc node_loc;
    Vec3 offset = Vec3::Zero();  // node frame
    Mat3 R = Mat3::Identity();   // node frame
    std::shared_ptr<const LawSpec> law;
    std::string orientation_description;  // "" when not given
    void describe(Props& p) const override {
        p.set("node", node);
        p.set("offset", offset);
        p.set("hinge orientation", R);
        p.set("law", law);
        if (!orientation_description.empty())
            p.set("orientation description", orientation_description);
    }
};

void read_viscous_body(Reader& r, EntityDesc& e) {
    auto s = std::make_shared<ViscousBodySpec>();
    s->node_loc = r.loc();
    const EntityDesc& n = cards::read_structural_node(r, "node", "viscous body");
    s->node = cards::node_ref(n);
    r.accept("position");
    s->offset = r.position_rel(n, "offset");
    if (cards::accept_orientation_keyword(r)) s->R = r.orientation_rel(n, "orientation");
    SourceLoc at = r.loc();
    s->law = r.law(6, "viscous body constitutive law");
    if (cards::law_kind(*s->law) != cards::LawKind::viscous)
        r.error_at(at, "viscous body needs a viscous constitutive law, got '" + s->law->type + "'",
                   "e.g. 'linear viscous generic, diag, ...'");
    // MBDyn reads it and writes no rotation (ViscousBody::Output): it changes nothing.
    if (r.peek("orientation description"))
        r.warn(
            "'orientation description' has no effect on a viscous body: its output has no "
            "rotation (MBDyn ignores it too)");
    s->orientation_description = cards::read_orientation_description(r);
    e.spec = std::move(s);
}

using el::Mat63;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Vec6 = Eigen::Matrix<double, 6, 1>;

class ViscousBody final : public Element {
  public:
    ViscousBody(const EntityDesc& d, StructNode* n, const Vec3& f, const Mat3& Rh, LawPtr<6> law)
        : Element(d), n_(n), f_(f), Rh_(Rh), law_(std::move(law)) {}

    // MBDyn's .log line: "viscousbody: L n f Rh".
    std::string log_line() const override {
        const auto& s = desc().spec_as<ViscousBodySpec>();
        return LogLine()
            .word("viscousbody:")
            .label(label())
            .label(s.node.label)
            .vec(s.offset)
            .mat(s.R)
            .s;
    }

    void declare(PatternBuilder& p) override {
        block_ = p.block(n_->first_dof(), 6, n_->first_dof(), 6);
    }

    void residual(const StepContext& c, const StateView&, double* r) const override {
        const Kin k = kinematics();
        Vec6 fl;
        Mat6 K, C;
        law_->eval(Vec6::Zero(), k.ed, c.time, fl, K, C);
        const Vec3 F = k.Ra * fl.head<3>(), M = k.Ra * fl.tail<3>();
        el::add_wrench(r, *n_, -F, -k.a.cross(F) - M);
    }

    // See the file comment for the derivation.
    void jacobian(const StepContext& c, const StateView&, Jacobian& J) const override {
        const Kin k = kinematics();
        Vec6 fl;
        Mat6 K, C;
        law_->eval(Vec6::Zero(), k.ed, c.time, fl, K, C);
        const Vec3 F = k.Ra * fl.head<3>(), M = k.Ra * fl.tail<3>();
        const Mat3 RaT = k.Ra.transpose(), A = skew(k.a), W = skew(n_->w);
        Mat63 Ded[4];  // x, theta, xdot, w
        for (auto& m : Ded) m.setZero();
        Ded[1].topRows<3>() = RaT * (skew(k.vp) - W * A);
        Ded[1].bottomRows<3>() = RaT * W;
        Ded[2].topRows<3>() = RaT;
        Ded[3].topRows<3>() = -RaT * A;
        Ded[3].bottomRows<3>() = RaT;
        Mat63 D[4];
        for (int v = 0; v < 4; ++v) {
            const Mat63 Dfl = C * Ded[v];
            Mat3 DF = k.Ra * Dfl.topRows<3>(), DM = k.Ra * Dfl.bottomRows<3>();
            if (v == 1) DF -= skew(F), DM -= skew(M);
            D[v].topRows<3>() = -DF;
            D[v].bottomRows<3>() = -A * DF - DM;
        }
        D[1].bottomRows<3>() -= skew(F) * A;
        J.add(block_, n_->chain<6>(D[0], D[1], D[2], D[3], c));
    }

    void after_step(const StepContext& c, const StateView&) override {
        const Kin k = kinematics();
        Mat6 K, C;
        law_->eval(Vec6::Zero(), k.ed, c.time, fl_, K, C);
        Ra_ = k.Ra;
        ed_ = k.ed;
        law_->after_step(Vec6::Zero(), k.ed, c.time);
    }

    const char* output_file() const override { return "jnt"; }
    bool output_schema(OutputSchema& s) const override { return el::reaction_schema(*this, s); }
    bool reaction(Vec3& f, Vec3& m, Vec3& F, Vec3& M) const override {
        return el::law_reaction(fl_, Ra_, Ra_, f, m, F, M);
    }
    int output_values(double* v) const override {
        int n = el::put_reaction(*this, v);
        for (int i = 0; i < 6; ++i) v[n++] = ed_[i];
        return n;
    }

  private:
    struct Kin {
        Vec3 a, vp;
        Mat3 Ra;
        Vec6 ed;
    };
    Kin kinematics() const {
        Kin k;
        k.a = n_->R * f_;
        k.Ra = n_->R * Rh_;
        k.vp = n_->xdot + n_->w.cross(k.a);
        k.ed.head<3>() = k.Ra.transpose() * k.vp;
        k.ed.tail<3>() = k.Ra.transpose() * n_->w;
        return k;
    }

    StructNode* n_;
    Vec3 f_;
    Mat3 Rh_;
    LawPtr<6> law_;
    BlockId block_ = -1;
    Vec6 fl_ = Vec6::Zero(), ed_ = Vec6::Zero();
    Mat3 Ra_ = Mat3::Identity();
};

std::unique_ptr<Element> make_viscous_body(const EntityDesc& d, BuildContext& ctx) {
    const auto& s = d.spec_as<ViscousBodySpec>();
    StructNode* n = &ctx.struct_node(s.node, d);
    if (!n->has_rotation())
        throw InputError(s.node_loc, "a viscous body needs a node with rotations",
                         "node " + std::to_string(s.node.label) + " is displacement-only");
    LawEnv env{ctx.drive_env()};
    auto law = make_law<6>(*s.law, env);
    return std::make_unique<ViscousBody>(d, n, s.offset, s.R, std::move(law));
}

}  // namespace

MBS_REGISTER_ELEMENT_KIND("joint", "viscous body",
                          {.read = read_viscous_body, .make = make_viscous_body});

}  // namespace mbs
