// Card readers for `joint: L, rod` and the deprecated `rod with offset`
// (docs/deck-language.md 5.2).
//   rod, n1 [, position, off1], n2 [, position, off2], {l0 | from nodes}, <1D CL>
//   rod, n1, n2, l0, offset, off1, off2, <1D CL>                       (legacy)
//   rod with offset, n1, [position,] off1, n2, [position,] off2, {l0 | from nodes}, <1D CL>
// The law's input is the strain (l - l0)/l0 and its output the axial force. Without offsets,
// displacement-only nodes are allowed.
// Typed spec: RodSpec (below): the two ends (offsets only when given), l0 (reference length;
// with `from nodes`, the current length), the law.
// Relative-coordinate path: a link force (linear laws only).
//
// Runtime rod (docs/deck-language.md 5.2; reader: above): a 1D constitutive law along the line
// between two points, with or without offsets, on rigid or displacement-only nodes.
//
// Kinematics (global frame; end k: node x_k, R_k, offset f_k, arm a_k = R_k f_k, zero for
// displacement-only nodes):
//   p_k = x_k + a_k,  d = p_2 - p_1,  l = |d|,  n = d / l
//   ddot = xdot_2 + w_2 x a_2 - xdot_1 - w_1 x a_1
//   eps = (l - l0) / l0,  epsdot = n . ddot / l0          (MBDyn's Rod)
// Force: T = law(eps, epsdot) (tension positive); F = T n acts on node 1 at p_1 and -F on node 2
// at p_2:  node 1: (F, a_1 x F),  node 2: (-F, -a_2 x F).
//
// Jacobian. With s_1 = -1, s_2 = +1 (d = sum s_k p_k) and virtual rotations (da_k = -[a_k] dth_k):
//   dd    = s_k (dx_k - [a_k] dth_k)
//   dddot = s_k (dxdot_k - [a_k] dw_k - [w_k][a_k] dth_k)
//   deps = n^T dd / l0,   depsdot = (ddot^T P dd / l + n^T dddot) / l0,   P = I - n n^T
//   dT = K deps + C depsdot,   dF = n dT + T P dd / l
//   force rows of node k:  -s_k dF
//   moment rows of node k: -s_k ([a_k] dF + [F][a_k] dth_k)       (the last term: own theta only)
// The blocks of node k's rows x node j's columns go through node j's chain rule (dCoef, G).
//
// Output (.jnt, MBDyn's Rod): label, T 0 0, 0 0 0, F(3), 0 0 0, l, n(3), ldot.
#include <array>
#include <string>

#include "core/constitutive_law.hpp"
#include "core/registry.hpp"
#include "core/tree_edge.hpp"
#include "elements/joints/joint_ends.hpp"
#include "elements/misc/card_helpers.hpp"
#include "elements/misc/element_util.hpp"

namespace mbs {
namespace {

double current_length(const cards::JointEnd& a, const cards::JointEnd& b) {
    Vec3 d = cards::node_position(*b.node) + cards::node_orientation(*b.node) * b.offset -
             cards::node_position(*a.node) - cards::node_orientation(*a.node) * a.offset;
    return d.norm();
}

// Two ends (offsets only when given), the reference length and the 1D law.
struct RodSpec final : ElementSpec {
    cards::EndSpec end[2];
    bool offsets = false;
    double l0 = 0.0;
    std::shared_ptr<const LawSpec> law;
    void describe(Props& p) const override {
        cards::describe_end(p, end[0], "1", offsets, false);
        cards::describe_end(p, end[1], "2", offsets, false);
        p.set("l0", l0);
        p.set("law", law);
    }
};

void read_rod_common(Reader& r, EntityDesc& e, cards::Offset offset, bool legacy_offsets) {
    cards::EndOptions opt;
    opt.offset = offset;
    opt.orientation = false;
    opt.need_rotations = false;
    auto end1 = cards::read_end1(r, "rod", opt);
    auto end2 = cards::read_end2(r, end1, "rod", opt);

    SourceLoc at_l0 = r.loc();
    bool from_nodes = r.accept("from nodes");
    double l0 = from_nodes ? 0.0 : r.real("reference length l0");

    // Legacy: `l0, offset, off1, off2` after the length.
    if (legacy_offsets && r.peek("offset")) {
        r.warn(
            "keyword 'offset' after the rod length is deprecated; use 'position' after each node");
        if (end1.has_offset || end2.has_offset) r.error("rod offsets are already defined");
        r.skip();
        end1.offset_loc = end2.offset_loc = r.loc();
        if (!cards::has_rotations(*end1.node) || !cards::has_rotations(*end2.node))
            r.error("rod offsets need nodes with rotations");
        end1.offset = r.position_rel(*end1.node, "offset of node 1");
        end2.offset = r.position_rel_other(*end2.node, *end1.node, end1.offset, "offset of node 2");
        end1.has_offset = end2.has_offset = true;
    }
    bool offsets = end1.has_offset || end2.has_offset;
    if (offsets && !(cards::has_rotations(*end1.node) && cards::has_rotations(*end2.node)))
        r.error_at(end2.node_loc, "a rod with offsets needs nodes with rotations");

    double l = current_length(end1, end2);
    if (from_nodes) l0 = l;
    if (!(l0 > 0.0))
        r.error_at(at_l0,
                   from_nodes
                       ? "the rod ends coincide: the length from the nodes is zero"
                       : "the rod reference length l0 must be positive, got " + std::to_string(l0),
                   "the law's input is the strain (l - l0)/l0");

    auto s = std::make_shared<RodSpec>();
    s->end[0] = cards::end_spec(end1);
    s->end[1] = cards::end_spec(end2);
    s->offsets = offsets;
    s->l0 = l0;
    s->law = r.law(1, "rod constitutive law");
    e.spec = std::move(s);
}

void read_rod(Reader& r, EntityDesc& e) { read_rod_common(r, e, cards::Offset::keyword, true); }

void read_rod_with_offset(Reader& r, EntityDesc& e) {
    r.warn("'rod with offset' is deprecated; use 'rod' with 'position' offsets");
    read_rod_common(r, e, cards::Offset::mandatory, false);
}

// A link force along the line of the two points.
tree::LoadPart rod_force(const EntityDesc& d, const tree::Context&) {
    const auto& s = d.spec_as<RodSpec>();
    tree::LinkForce f;
    cards::tree_linear_law(d, *s.law, f);
    f.a = cards::tree_end(s.end[0], "node1");
    f.b = cards::tree_end(s.end[1], "node2");
    f.l0 = s.l0;
    return f;
}

using el::Mat63;
using M11 = Eigen::Matrix<double, 1, 1>;
using M13 = Eigen::Matrix<double, 1, 3>;

class Rod final : public Element {
  public:
    Rod(const EntityDesc& d, std::array<StructNode*, 2> nodes, std::array<Vec3, 2> offsets,
        double l0, LawPtr<1> law)
        : Element(d), n_(nodes), f_(offsets), l0_(l0), law_(std::move(law)) {}

    // MBDyn's .log line: "rod: L n1 f1 n2 f2" (offsets zero without `with offset`).
    std::string log_line() const override {
        const auto& s = desc().spec_as<RodSpec>();
        return cards::log_two_ends("rod", label(), s.end, s.offsets, false);
    }

    // Initial assembly (docs/formulation.md 4.1): always, as MBDyn, where rods are joints and
    // joints take part by default (base/elman.cc, ElemData[Elem::JOINT].ToBeUsedInAssembly):
    // Rod::InitialAssRes/InitialAssJac (struct/rodj.cc) put the law's force, at the current
    // positions, on the position rows; ViscoElasticRod and RodWithOffset include the viscous
    // part, epsdot from the current velocities. MBDyn solves positions and velocities together,
    // the velocities held to the input ones by the velocity springs; here the position part
    // keeps the input velocities, so the same residual and its position Jacobian (chain() in
    // Phase::assembly drops the velocity columns) do. MBDyn's RodWithOffset::InitialAssJac uses
    // the reference orientations (the input ones) for the arms: its Newton iteration converges
    // only to about 1e-3 when the node turns; the residual, and so the solution, is the same.
    bool in_assembly() const override { return true; }

    // Without arms (no offsets, or displacement-only nodes) only force rows x position
    // columns are written.
    void declare(PatternBuilder& p) override {
        bool arms = false;
        for (int k = 0; k < 2; ++k)
            arms = arms || (n_[k]->has_rotation() && f_[k].squaredNorm() > 0.0);
        const char* mask = arms ? nullptr : "F.|..";
        for (int k = 0; k < 2; ++k)
            for (int j = 0; j < 2; ++j)
                blocks_[k][j] = p.block(n_[k]->first_dof(), n_[k]->pos_cols(), n_[j]->first_dof(),
                                        n_[j]->pos_cols(), mask);
    }

    void residual(const StepContext& c, const StateView&, double* r) const override {
        const Kin k = kinematics();
        Law1 L = law(k, c.time);
        const Vec3 F = L.F[0] * k.n;
        el::add_wrench(r, *n_[0], F, k.a[0].cross(F));
        el::add_wrench(r, *n_[1], -F, -k.a[1].cross(F));
    }

    // See the file comment for the derivation.
    void jacobian(const StepContext& c, const StateView&, Jacobian& J) const override {
        const Kin k = kinematics();
        const Law1 L = law(k, c.time);
        const double T = L.F[0];
        const Vec3 F = T * k.n;
        const Mat3 P = Mat3::Identity() - k.n * k.n.transpose();
        const M13 deps_dd = k.n.transpose() / l0_;
        const M13 depsdot_dd = k.ddot.transpose() * P / (k.l * l0_);
        const M13 depsdot_dddot = k.n.transpose() / l0_;
        // dF for the four kinematic variables (x, theta, xdot, w) of each node j.
        for (int j = 0; j < 2; ++j) {
            const double sj = j == 0 ? -1.0 : 1.0;
            const Mat3 Aj = skew(k.a[j]);
            const Mat3 dd[4] = {sj * Mat3::Identity(), -sj * Aj, Mat3::Zero(), Mat3::Zero()};
            const Mat3 dddot[4] = {Mat3::Zero(), -sj * skew(n_[j]->w) * Aj, sj * Mat3::Identity(),
                                   -sj * Aj};
            Mat3 dF[4];
            for (int v = 0; v < 4; ++v) {
                const M13 dT = L.K(0, 0) * deps_dd * dd[v] +
                               L.C(0, 0) * (depsdot_dd * dd[v] + depsdot_dddot * dddot[v]);
                dF[v] = k.n * dT + (T / k.l) * P * dd[v];
            }
            for (int i = 0; i < 2; ++i) {
                const double si = i == 0 ? -1.0 : 1.0;
                const Mat3 Ai = skew(k.a[i]);
                Mat63 D[4];
                for (int v = 0; v < 4; ++v) {
                    D[v].topRows<3>() = -si * dF[v];
                    D[v].bottomRows<3>() = -si * Ai * dF[v];
                }
                if (i == j) D[1].bottomRows<3>() += -si * skew(F) * Ai;
                J.add(blocks_[i][j], el::node_chain<6>(*n_[j], D[0], D[1], D[2], D[3], c));
            }
        }
    }

    // The output shows the force of the converged step (a bistop law switches inside Newton, at
    // its evaluations; after_step only passes the step on to the law's drives).
    void after_step(const StepContext& c, const StateView&) override {
        const Kin k = kinematics();
        const Law1 L = law(k, c.time);
        T_ = L.F[0], l_ = k.l, dir_ = k.n, ldot_ = k.epsdot * l0_;
        law_->after_step(M11::Constant(k.eps), M11::Constant(k.epsdot), c.time);
    }

    const char* output_file() const override { return "jnt"; }
    // NetCDF: MBDyn's Rod::OutputPrepare l, lP, v (the .jnt columns 14, 18, 15-17).
    bool output_schema(OutputSchema& s) const override {
        if (!el::reaction_schema(*this, s)) return false;
        s.nc_type = "rod";
        el::joint_quantity(s, "l", 1, "m", "", "length of the element", 12);
        el::joint_quantity(s, "lP", 1, "m/s", "", "lengthening velocity of the element", 16);
        el::joint_quantity(s, "v", 3, "-", "global", "direction unit vector", 13);
        return true;
    }
    bool reaction(Vec3& f, Vec3& m, Vec3& F, Vec3& M) const override {
        f = Vec3(T_, 0.0, 0.0);
        m.setZero();
        F = T_ * dir_;
        M.setZero();
        return true;
    }
    int output_values(double* v) const override {
        int n = el::put_reaction(*this, v);
        v[n++] = l_;
        for (int i = 0; i < 3; ++i) v[n++] = dir_[i];
        v[n++] = ldot_;
        return n;
    }

    // Private data (MBDyn's Rod): F the axial force (tension positive), L the length, LPrime
    // the length rate, at the current iterate (the law at the clock's time).
    int private_data_count() const override { return 3; }
    const char* private_data_name(int i) const override {
        static const char* nm[] = {"F", "L", "LPrime"};
        return nm[i];
    }
    double private_data(int i, const StateView&) const override {
        const Kin k = kinematics();
        if (i == 1) return k.l;
        if (i == 2) return k.epsdot * l0_;
        return law(k, clock_ ? clock_->time : 0.0).F[0];
    }
    void set_clock(const SimClock* c) { clock_ = c; }

  private:
    const SimClock* clock_ = nullptr;
    struct Kin {
        Vec3 a[2], d, ddot, n;
        double l, eps, epsdot;
    };
    struct Law1 {
        Eigen::Matrix<double, 1, 1> F, K, C;
    };

    Kin kinematics() const {
        Kin k;
        Vec3 p[2], v[2];
        for (int i = 0; i < 2; ++i) {
            const StructNode& nd = *n_[i];
            k.a[i] = nd.has_rotation() ? Vec3(nd.R * f_[i]) : Vec3(Vec3::Zero());
            p[i] = nd.x + k.a[i];
            v[i] = nd.xdot + nd.w.cross(k.a[i]);
        }
        k.d = p[1] - p[0];
        k.ddot = v[1] - v[0];
        k.l = std::max(k.d.norm(), 1e-300);
        k.n = k.d / k.l;
        k.eps = (k.l - l0_) / l0_;
        k.epsdot = k.n.dot(k.ddot) / l0_;
        return k;
    }
    Law1 law(const Kin& k, double t) const {
        Law1 L;
        law_->eval(M11::Constant(k.eps), M11::Constant(k.epsdot), t, L.F, L.K, L.C);
        return L;
    }

    std::array<StructNode*, 2> n_;
    std::array<Vec3, 2> f_;
    double l0_;
    LawPtr<1> law_;
    BlockId blocks_[2][2] = {{-1, -1}, {-1, -1}};
    double T_ = 0.0, l_ = 0.0, ldot_ = 0.0;
    Vec3 dir_ = Vec3::Zero();
};

std::unique_ptr<Element> make_rod(const EntityDesc& d, BuildContext& ctx) {
    const auto& s = d.spec_as<RodSpec>();
    std::array<StructNode*, 2> nodes{&ctx.struct_node(s.end[0].node, d),
                                     &ctx.struct_node(s.end[1].node, d)};
    std::array<Vec3, 2> offsets{s.end[0].offset, s.end[1].offset};
    LawEnv env{ctx.drive_env()};
    auto law = make_law<1>(*s.law, env);
    auto rod = std::make_unique<Rod>(d, nodes, offsets, s.l0, std::move(law));
    rod->set_clock(ctx.drive_env().clock);
    return rod;
}

}  // namespace

MBS_REGISTER_ELEMENT_KIND("joint", "rod",
                          {.read = read_rod, .make = make_rod, .reduced = {.load = rod_force}});
MBS_REGISTER_ELEMENT_KIND("joint", "rod with offset",
                          {.read = read_rod_with_offset, .make = make_rod});

}  // namespace mbs
