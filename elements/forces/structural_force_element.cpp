// Card readers for structural forces and couples (docs/deck-language.md 5.4).
//   force:  L, {absolute|follower}, node, position, <Vec3 rel arm>, <TplDC Vec3>
//   force:  L, absolute displacement, node, <TplDC Vec3>
//   force:  L, {absolute|follower} internal, n1, position, arm1, n2, position, arm2, <TplDC Vec3>
//   force:  L, absolute internal displacement, n1, n2, <TplDC Vec3>
//   couple: L, {absolute|follower}, node [, position, arm (unused)], <TplDC Vec3>
//   couple: L, {absolute|follower} internal, n1 [, position, a1], n2 [, position, a2], <TplDC>
// `conservative [internal]` is a deprecated alias of `absolute [internal]`. Absolute vectors are
// global (GetVecAbs: `reference, node` means the node frame); follower vectors are in the node
// frame (GetVecRel). Only `single, reference, <frame>, v, <dc>` takes a frame. Follower forces
// accept `output relative` after the drive. The legacy force form without `position`
// (`node, <dir>, <arm>, <DriveCaller>`) is accepted with a warning.
// Typed spec: LoadCardSpec (below). Its generic view: "node", "offset" (arm, node frame; forces
// only), "force" | "moment" (template drive), "output relative"; internal: "node1", "offset1",
// "node2", "offset2", ...
//
// Card readers for `force: L, total` and `total internal` (docs/deck-language.md 5.4): a force and
// a couple applied in frames attached to the node(s).
//   force: L, total [internal], node [, position, arm] [, force orientation, Rf]
//          [, moment orientation, Rm] [, node2 [, position, arm2] [, force orientation, ...]
//          [, moment orientation, ...]] [, force, {null | <TplDC Vec3>}]
//          [, moment, {null | <TplDC Vec3>}]
// (node2 only for `total internal`). A missing force or moment is null.
// Typed spec: LoadCardSpec. Its generic view: "node", "offset", "force orientation", "moment
// orientation" (node frame) or, for the internal form, the same with suffixes 1 and 2; "force",
// "moment" (template drives, absent = null).
//
// Runtime structural forces and couples (docs/deck-language.md 5.4): absolute, follower, their
// internal forms, absolute displacement [internal], couples, and total [internal] forces. The card
// readers above fill the spec that the runtime below turns into one element.
//
// One formulation serves every card. The load has a force F and a couple C, each from a template
// drive v(t), w(t) and resolved either in the global frame (absolute) or in node 1's frame with a
// fixed relative orientation (follower, total):
//   F = v              or  F = R1 Rf v            C = w   or   C = R1 Rm w
// It acts on node k (k = 1, and k = 2 for internal loads, with s_1 = +1, s_2 = -1) at the point
//   P_k = x_o + b_k,  b_k = R_o a_k   (o: the node carrying the point; o = k but for total
//                                      internal forces)
// so node k receives, with the lever c_k = P_k - x_k,
//   force rows:  s_k F                  moment rows:  s_k (C + c_k x F)
// (displacement-only nodes have no moment rows and no arm).
//
// Jacobian (virtual rotations: dR = skew(dtheta) R, so d(R u) = -skew(R u) dtheta):
//   dF   = -skew(F) dtheta_1     (follower force; 0 if absolute)
//   dC   = -skew(C) dtheta_1     (follower couple)
//   dc_k = dx_o - skew(b_k) dtheta_o - dx_k
//   d(s_k F)                = s_k dF
//   d(s_k (C + c_k x F))    = s_k (dC + skew(c_k) dF - skew(F) dc_k)
// i.e. moment rows of node k get  s_k skew(F) skew(b_k)  in node o's theta columns, -s_k skew(F) in
// x_o and +s_k skew(F) in x_k (the two cancel when o = k). Everything is position-level, so
// chain_pos() scales by dCoef. The drives depend on time only (drive-dependent feedback adds
// nothing to the Jacobian, as in MBDyn).
//
// Total internal force (MBDyn's TotalForce): F and C are resolved in node 1's force and moment
// orientations and act on both nodes at node 2's point P = x2 + R2 a2 (node 1's arm and node 2's
// orientations are read but unused, as in MBDyn). The single-node `total` form (which MBDyn does
// not build) is the same with node 1's own arm.
//
// Output (.frc, MBDyn's columns; "point" is the global point of application x + R a):
//   force:           label node F(3) point(3)
//   internal force:  label n1 F(3) point1(3) n2 -F(3) point2(3)
//   couple:          label node C(3)
//   internal couple: label n1 C(3) n2 -C(3)
//   total [internal]: label f(3) m(3) (the drive values, in the force/moment frames, as MBDyn)
// Follower forms with `output relative` write the force/couple in the node-1 frame.
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/log_line.hpp"
#include "core/registry.hpp"
#include "core/tree_edge.hpp"
#include "elements/misc/card_helpers.hpp"
#include "elements/misc/element_util.hpp"

namespace mbs {
namespace {

struct Kind {
    bool couple = false;
    bool follower = false;
    bool internal = false;
    bool displacement = false;
};

using TplSpecPtr = std::shared_ptr<const TplDriveSpec>;

// What a force or couple card read: one node (two for the internal forms) with its arm and, for
// `total` forces, its force and moment orientations (node frames); the template drives.
struct LoadCardSpec final : ElementSpec {
    struct Side {
        EntityRef node;
        SourceLoc node_loc;
        bool has_offset = false;  // an arm was read (forces; every `total` side)
        Vec3 offset = Vec3::Zero();
        Mat3 Rf = Mat3::Identity(), Rm = Mat3::Identity();  // `total` only
    };
    bool internal = false;  // two sides; the view's keys get the suffixes 1 and 2
    bool total = false;     // `total [internal]`: the view has the orientations
    Side side[2];
    TplSpecPtr force, moment;  // absent = null
    bool output_relative = false;

    void describe(Props& p) const override {
        for (int k = 0; k < (internal ? 2 : 1); ++k) {
            const std::string s = internal ? std::to_string(k + 1) : "";
            const Side& d = side[k];
            p.set("node" + s, d.node);
            if (d.has_offset) p.set("offset" + s, d.offset);
            if (total) {
                p.set("force orientation" + s, d.Rf);
                p.set("moment orientation" + s, d.Rm);
            }
        }
        if (force) p.set("force", force);
        if (moment) p.set("moment", moment);
        if (output_relative) p.set("output relative", true);
    }
};

const char* card_name(const Kind& k) { return k.couple ? "couple" : "force"; }

void read_structural(Reader& r, EntityDesc& e, const Kind& k) {
    auto spec = std::make_shared<LoadCardSpec>();
    spec->internal = k.internal;
    LoadCardSpec::Side& side1 = spec->side[0];
    std::string what = std::string(k.follower ? "follower " : "absolute ") +
                       (k.internal ? "internal " : "") + card_name(k);
    side1.node_loc = r.loc();
    const EntityDesc& n1 =
        cards::read_structural_node(r, k.internal ? "node 1" : "node", what, !k.displacement);
    side1.node = cards::node_ref(n1);
    // The frame the vector is resolved to: global for absolute, the node-1 frame for follower.
    Mat3 R1 = cards::node_orientation(n1);
    const Mat3* R_frame = k.follower ? &R1 : nullptr;

    Vec3 arm1 = Vec3::Zero();
    bool legacy = false;
    Vec3 legacy_dir = Vec3::Zero();
    SourceLoc at_dir;
    if (!k.displacement) {
        if (r.accept("position")) {
            arm1 = r.position_rel(n1, "arm");
            if (!k.couple) side1.has_offset = true, side1.offset = arm1;
        } else if (!k.couple) {
            r.warn(
                "'position' expected before the force arm; reading the deprecated form "
                "'<direction>, <arm>, <drive>'");
            legacy = true;
            at_dir = r.loc();
            legacy_dir = k.follower ? r.direction_rel(n1, "force direction")
                                    : r.direction_abs(&n1, "force direction");
            if (!(legacy_dir.norm() > 0.0))
                r.error_at(at_dir, "the force direction is a null vector");
            legacy_dir.normalize();
            arm1 = r.position_rel(n1, "arm");
            side1.has_offset = true, side1.offset = arm1;
        }
    }

    if (k.internal) {
        SourceLoc at2 = r.loc();
        const EntityDesc& n2 = cards::read_structural_node(r, "node 2", what, !k.displacement);
        if (n2.label == n1.label)
            r.error_at(at2, "internal " + std::string(card_name(k)) + " between node " +
                                std::to_string(n1.label) + " and itself");
        LoadCardSpec::Side& side2 = spec->side[1];
        side2.node = cards::node_ref(n2);
        side2.node_loc = at2;
        if (!k.displacement) {
            bool pos = r.accept("position");
            if (pos || legacy) {
                Vec3 arm2 = r.position_rel_other(n2, n1, arm1, "arm of node 2");
                if (!k.couple) side2.has_offset = true, side2.offset = arm2;
            } else if (!k.couple) {
                r.error("missing 'position, <arm>' of node 2");
            }
        }
    }

    const char* key = k.couple ? "moment" : "force";
    TplSpecPtr& value = k.couple ? spec->moment : spec->force;
    if (legacy) {
        SourceLoc at = r.loc();
        value = cards::make_single_tpl_vec3(legacy_dir, r.drive("force magnitude"), at);
    } else {
        value = cards::read_tpl_vec3(r, key, &n1, R_frame);
    }
    if (k.follower && r.accept("output relative")) spec->output_relative = true;
    e.spec = std::move(spec);
}

template <bool couple, bool follower, bool internal, bool displacement, bool deprecated = false>
void read_kind(Reader& r, EntityDesc& e) {
    if (deprecated) r.warn("'conservative' is deprecated; use 'absolute'");
    read_structural(r, e, Kind{couple, follower, internal, displacement});
}

// Relative-coordinate path: absolute and follower forces and couples on one node.
template <bool couple, bool follower>
tree::LoadPart tree_load(const EntityDesc& d, const tree::Context&) {
    const auto& spec = d.spec_as<LoadCardSpec>();
    tree::Load ld;
    ld.node.node = spec.side[0].node;
    ld.node.key = "node";
    ld.node.o = spec.side[0].offset;  // zero without an arm
    ld.couple = couple;
    ld.follower = follower;
    ld.value = couple ? spec.moment : spec.force;
    return ld;
}

tree::LoadPart unsupported_load(const EntityDesc& d, const tree::Context&) {
    tree::unsupported(d, "only absolute and follower forces and couples on one node");
}

void read_side(Reader& r, LoadCardSpec::Side& side, const EntityDesc& n, const SourceLoc& at) {
    side.node = cards::node_ref(n);
    side.node_loc = at;
    side.has_offset = true;
    side.offset = r.accept("position") ? r.position_rel(n, "arm") : Vec3::Zero();
    side.Rf = r.accept("force orientation") ? r.orientation_rel(n, "force orientation")
                                            : Mat3::Identity();
    side.Rm = r.accept("moment orientation") ? r.orientation_rel(n, "moment orientation")
                                             : Mat3::Identity();
}

void read_drives(Reader& r, LoadCardSpec& spec) {
    for (const char* key : {"force", "moment"}) {
        if (!r.accept(key)) continue;
        if (r.accept("null")) continue;
        TplSpecPtr& slot = std::string_view(key) == "force" ? spec.force : spec.moment;
        slot = r.tpl_drive(3, key);
    }
}

void read_total(Reader& r, EntityDesc& e) {
    auto spec = std::make_shared<LoadCardSpec>();
    spec->total = true;
    SourceLoc at = r.loc();
    const EntityDesc& n = cards::read_structural_node(r, "node", "total force");
    read_side(r, spec->side[0], n, at);
    read_drives(r, *spec);
    e.spec = std::move(spec);
}

void read_total_internal(Reader& r, EntityDesc& e) {
    auto spec = std::make_shared<LoadCardSpec>();
    spec->total = spec->internal = true;
    SourceLoc at1 = r.loc();
    const EntityDesc& n1 = cards::read_structural_node(r, "node 1", "total internal force");
    read_side(r, spec->side[0], n1, at1);
    SourceLoc at2 = r.loc();
    const EntityDesc& n2 = cards::read_structural_node(r, "node 2", "total internal force");
    cards::check_distinct_nodes(r, at2, n1, n2, "total internal force");
    read_side(r, spec->side[1], n2, at2);
    read_drives(r, *spec);
    e.spec = std::move(spec);
}

enum class OutputForm { force, couple, total };

// How a card's load is built: which vectors follow node 1, and the output layout.
struct LoadSpec {
    bool follower_force = false;
    bool follower_couple = false;
    bool internal = false;
    OutputForm output = OutputForm::force;
};

class StructuralLoad final : public Element {
  public:
    struct Side {
        StructNode* node = nullptr;
        StructNode* point_node = nullptr;  // node o carrying the point of application
        Vec3 arm = Vec3::Zero();           // a_k, in point_node's frame
        double sign = 1.0;
    };

    StructuralLoad(const EntityDesc& d, const LoadSpec& spec, Side s1, Side s2,
                   const TplDrive<3>* force, const TplDrive<3>* couple, const Mat3& Rf,
                   const Mat3& Rm, bool output_relative)
        : Element(d),
          spec_(spec),
          nsides_(spec.internal ? 2 : 1),
          Rf_(Rf),
          Rm_(Rm),
          output_relative_(output_relative) {
        side_[0] = s1;
        side_[1] = s2;
        if (force && !force->is_null()) has_force_ = true, force_ = *force;
        if (couple && !couple->is_null()) has_couple_ = true, couple_ = *couple;
        // A load that does not depend on the state (absolute couple; absolute force without
        // lever) writes no Jacobian and declares no blocks.
        state_dependent_ =
            (has_couple_ && spec.follower_couple) || (has_force_ && spec.follower_force);
        for (int k = 0; k < nsides_; ++k) {
            const Side& s = side_[k];
            bool lever =
                s.point_node != s.node || (s.node->has_rotation() && s.arm.squaredNorm() > 0.0);
            state_dependent_ = state_dependent_ || (has_force_ && lever);
        }
    }

    // MBDyn's .log line (struct/strforce.cc, ReadStructuralForce): "structural [internal]
    // {follower|absolute [displacement]} {force|couple}: L n1 arm1 [n2 arm2] [output_relative]";
    // a total force has none in MBDyn (the default line is written).
    std::string log_line() const override {
        const auto& s = desc().spec_as<LoadCardSpec>();
        if (s.total) return {};
        const std::string& t = desc().type;
        const bool follower = t.rfind("follower", 0) == 0;
        std::string head = s.internal ? "structural internal" : "structural";
        head += follower ? " follower" : " absolute";
        if (!follower && t.find("displacement") != std::string::npos) head += " displacement";
        head += desc().category == "couple" ? " couple:" : " force:";
        LogLine l;
        l.word(head).label(label());
        for (int k = 0; k < (s.internal ? 2 : 1); ++k)
            l.label(s.side[k].node.label)
                .vec(s.side[k].has_offset ? s.side[k].offset : Vec3::Zero());
        if (follower && s.output_relative) l.word("output_relative");
        return l.s;
    }

    // Block (k, j): node k's rows (force, moment) x node j's columns (x, theta), masked by 3 x 3
    // sub-blocks as derived above; blocks with nothing in them are not declared.
    void declare(PatternBuilder& p) override {
        if (!state_dependent_) return;
        const bool follows =
            (has_force_ && spec_.follower_force) || (has_couple_ && spec_.follower_couple);
        for (int k = 0; k < nsides_; ++k) {
            const Side& s = side_[k];
            const int o = index_of(s.point_node);
            const bool arm = s.point_node->has_rotation() && s.arm.squaredNorm() > 0.0;
            for (int j = 0; j < nsides_; ++j) {
                const bool f_th = has_force_ && spec_.follower_force && j == 0;
                const bool m_x = has_force_ && o != k && (j == o || j == k);
                const bool m_th = (j == 0 && follows) || (has_force_ && j == o && arm);
                if (!f_th && !m_x && !m_th) continue;
                const char mask[] = {'.', f_th ? 'F' : '.', '|', m_x ? 'F' : '.', m_th ? 'F' : '.',
                                     '\0'};
                const StructNode* a = side_[k].node;
                const StructNode* b = side_[j].node;
                blocks_[k][j] =
                    p.block(a->first_dof(), a->pos_cols(), b->first_dof(), b->pos_cols(), mask);
            }
        }
    }

    // `use: forces in assembly;`: the load also acts in the initial assembly (as in the run).
    bool in_assembly() const override { return in_assembly_; }
    void set_in_assembly(bool on) { in_assembly_ = on; }

    void residual(const StepContext& c, const StateView&, double* r) const override {
        Vec3 v, w;
        drive_values(c.time, v, w);
        Vec3 F = force(v), C = couple(w);
        for (int k = 0; k < nsides_; ++k) {
            const Side& s = side_[k];
            el::add_wrench(r, *s.node, s.sign * F, s.sign * (C + lever(k).cross(F)));
        }
    }

    void jacobian(const StepContext& c, const StateView&, Jacobian& J) const override {
        if (!state_dependent_) return;
        Vec3 v, w;
        drive_values(c.time, v, w);
        Vec3 F = force(v), C = couple(w);
        const Mat3 sF = skew(F);
        // Derivatives of F and C with respect to theta_1 (zero when absolute).
        Mat3 dF_dth1 = spec_.follower_force ? Mat3(-sF) : Mat3(Mat3::Zero());
        Mat3 dC_dth1 = spec_.follower_couple ? Mat3(-skew(C)) : Mat3(Mat3::Zero());
        for (int k = 0; k < nsides_; ++k) {
            const Side& s = side_[k];
            const double sk = s.sign;
            // Columns of each node j: [d/dx_j, d/dtheta_j] of node k's 6 rows (force, moment).
            el::Mat63 Dx[2], Dth[2];
            for (int j = 0; j < nsides_; ++j) Dx[j].setZero(), Dth[j].setZero();
            Dth[0].topRows<3>() += sk * dF_dth1;
            Dth[0].bottomRows<3>() += sk * (dC_dth1 + skew(lever(k)) * dF_dth1);
            int o = index_of(s.point_node);
            Dx[o].bottomRows<3>() -= sk * sF;
            Dx[k].bottomRows<3>() += sk * sF;
            if (s.point_node->has_rotation())
                Dth[o].bottomRows<3>() += sk * sF * skew(Vec3(s.point_node->R * s.arm));
            for (int j = 0; j < nsides_; ++j)
                if (blocks_[k][j] >= 0)
                    J.add(blocks_[k][j], side_[j].node->chain_pos<6>(Dx[j], Dth[j], c));
        }
    }

    void after_step(const StepContext& c, const StateView&) override {
        if (has_force_) force_.after_step();
        if (has_couple_) couple_.after_step();
        drive_values(c.time, v_out_, w_out_);
    }

    const char* output_file() const override { return "frc"; }

    // NetCDF/HDF5 (docs/deck-language.md 8): the .frc columns below, without the node labels.
    bool output_schema(OutputSchema& s) const override {
        const bool internal = nsides_ == 2;
        switch (spec_.output) {
            case OutputForm::total:
                s = {"total_forces", "elem.force", 80};
                s.quantities = {{"f", 3, "N", "local",
                                 "force (drive value) in the force orientation of node 1", 0},
                                {"m", 3, "Nm", "local",
                                 "couple (drive value) in the moment orientation of node 1", 3}};
                break;
            case OutputForm::force:
                if (internal) {
                    s = {"internal_forces", "elem.force", 50};
                    s.quantities = {
                        {"F1", 3, "N", "global", "global force on node 1", 1},
                        {"Arm1", 3, "m", "global", "global application point on node 1", 4},
                        {"F2", 3, "N", "global", "global force on node 2", 8},
                        {"Arm2", 3, "m", "global", "global application point on node 2", 11}};
                } else {
                    s = {"forces", "elem.force", 40};
                    s.quantities = {
                        {"F", 3, "N", "global", "global force (F_X, F_Y, F_Z)", 1},
                        {"Arm", 3, "m", "global", "global application point of the force", 4}};
                }
                break;
            case OutputForm::couple:
                if (internal) {
                    s = {"internal_couples", "elem.couple", 70};
                    s.quantities = {{"M1", 3, "Nm", "global", "global couple on node 1", 1},
                                    {"M2", 3, "Nm", "global", "global couple on node 2", 5}};
                } else {
                    s = {"couples", "elem.couple", 60};
                    s.quantities = {{"M", 3, "Nm", "global", "global couple (M_X, M_Y, M_Z)", 1}};
                }
                break;
        }
        return true;
    }

    int output_values(double* out) const override {
        int n = 0;
        auto put = [&](const Vec3& a) {
            for (int i = 0; i < 3; ++i) out[n++] = a[i];
        };
        if (spec_.output == OutputForm::total) {
            put(v_out_);
            put(w_out_);
            return n;
        }
        const bool couple_card = spec_.output == OutputForm::couple;
        Vec3 V = couple_card ? couple(w_out_) : force(v_out_);
        if (output_relative_) V = side_[0].node->R.transpose() * V;
        for (int k = 0; k < nsides_; ++k) {
            const Side& s = side_[k];
            out[n++] = static_cast<double>(s.node->label());
            put(s.sign * V);
            if (!couple_card) put(point(k));
        }
        return n;
    }

  private:
    void drive_values(double t, Vec3& v, Vec3& w) const {
        v = has_force_ ? force_.value(t) : Vec3(Vec3::Zero());
        w = has_couple_ ? couple_.value(t) : Vec3(Vec3::Zero());
    }
    Vec3 force(const Vec3& v) const {
        return spec_.follower_force ? Vec3(side_[0].node->R * (Rf_ * v)) : v;
    }
    Vec3 couple(const Vec3& w) const {
        return spec_.follower_couple ? Vec3(side_[0].node->R * (Rm_ * w)) : w;
    }
    Vec3 point(int k) const {
        const StructNode& o = *side_[k].point_node;
        return o.has_rotation() ? Vec3(o.x + o.R * side_[k].arm) : o.x;
    }
    Vec3 lever(int k) const { return point(k) - side_[k].node->x; }
    int index_of(const StructNode* n) const { return n == side_[0].node ? 0 : 1; }

    LoadSpec spec_;
    int nsides_;
    Side side_[2];
    bool has_force_ = false, has_couple_ = false, state_dependent_ = false;
    TplDrive<3> force_, couple_;
    Mat3 Rf_, Rm_;
    bool output_relative_;
    bool in_assembly_ = false;
    BlockId blocks_[2][2] = {{-1, -1}, {-1, -1}};
    Vec3 v_out_ = Vec3::Zero(), w_out_ = Vec3::Zero();
};

TplDrive<3> tpl_drive(const TplSpecPtr& spec, BuildContext& ctx) {
    return TplDrive<3>::make(*spec, ctx.drive_env());
}

// force/couple: absolute | follower [internal], absolute [internal] displacement.
template <bool Couple, bool Follower, bool Internal>
std::unique_ptr<Element> make_structural(const EntityDesc& d, BuildContext& ctx) {
    const auto& card = d.spec_as<LoadCardSpec>();
    LoadSpec spec;
    spec.follower_force = Follower && !Couple;
    spec.follower_couple = Follower && Couple;
    spec.internal = Internal;
    spec.output = Couple ? OutputForm::couple : OutputForm::force;
    StructuralLoad::Side s[2];
    for (int k = 0; k < (Internal ? 2 : 1); ++k) {
        s[k].node = &ctx.struct_node(card.side[k].node, d);
        s[k].point_node = s[k].node;
        s[k].arm = card.side[k].offset;  // zero without an arm
        s[k].sign = k == 0 ? 1.0 : -1.0;
    }
    TplDrive<3> drive = tpl_drive(Couple ? card.moment : card.force, ctx);
    const bool relative = card.output_relative;
    auto e = std::make_unique<StructuralLoad>(d, spec, s[0], s[1], Couple ? nullptr : &drive,
                                              Couple ? &drive : nullptr, Mat3::Identity(),
                                              Mat3::Identity(), relative);
    e->set_in_assembly(el::used_in_assembly(ctx, "forces"));
    return e;
}

// force: total [internal]: follower force and couple in node 1's force/moment orientations.
template <bool Internal>
std::unique_ptr<Element> make_total(const EntityDesc& d, BuildContext& ctx) {
    LoadSpec spec;
    spec.follower_force = spec.follower_couple = true;
    spec.internal = Internal;
    spec.output = OutputForm::total;
    const auto& card = d.spec_as<LoadCardSpec>();
    StructuralLoad::Side s[2];
    s[0].node = &ctx.struct_node(card.side[0].node, d);
    if (!s[0].node->has_rotation())  // the reader refuses them already
        throw InputError(card.side[0].node_loc,
                         "a total force needs a structural node with rotations");
    s[0].point_node = s[0].node;
    s[0].arm = card.side[0].offset;
    if (Internal) {
        // MBDyn's TotalForce: both nodes are loaded at node 2's point.
        s[1].node = &ctx.struct_node(card.side[1].node, d);
        if (!s[1].node->has_rotation())
            throw InputError(card.side[1].node_loc,
                             "a total force needs a structural node with rotations");
        s[1].point_node = s[1].node;
        s[1].arm = card.side[1].offset;
        s[1].sign = -1.0;
        s[0].point_node = s[1].node;
        s[0].arm = s[1].arm;
    }
    std::optional<TplDrive<3>> f, m;
    if (card.force) f = tpl_drive(card.force, ctx);
    if (card.moment) m = tpl_drive(card.moment, ctx);
    const Mat3& Rf = card.side[0].Rf;
    const Mat3& Rm = card.side[0].Rm;
    auto e = std::make_unique<StructuralLoad>(d, spec, s[0], s[1], f ? &*f : nullptr,
                                              m ? &*m : nullptr, Rf, Rm, false);
    e->set_in_assembly(el::used_in_assembly(ctx, "forces"));
    return e;
}

}  // namespace

MBS_REGISTER_ELEMENT_KIND("force", "absolute",
                          {.read = read_kind<false, false, false, false>,
                           .make = make_structural<false, false, false>,
                           .reduced = {.load = tree_load<false, false>}});
MBS_REGISTER_ELEMENT_KIND("force", "conservative",
                          {.read = read_kind<false, false, false, false, true>,
                           .make = make_structural<false, false, false>});
MBS_REGISTER_ELEMENT_KIND("force", "follower",
                          {.read = read_kind<false, true, false, false>,
                           .make = make_structural<false, true, false>,
                           .reduced = {.load = tree_load<false, true>}});
MBS_REGISTER_ELEMENT_KIND("force", "absolute displacement",
                          {.read = read_kind<false, false, false, true>,
                           .make = make_structural<false, false, false>});
MBS_REGISTER_ELEMENT_KIND("force", "absolute internal",
                          {.read = read_kind<false, false, true, false>,
                           .make = make_structural<false, false, true>});
MBS_REGISTER_ELEMENT_KIND("force", "conservative internal",
                          {.read = read_kind<false, false, true, false, true>,
                           .make = make_structural<false, false, true>});
MBS_REGISTER_ELEMENT_KIND("force", "follower internal",
                          {.read = read_kind<false, true, true, false>,
                           .make = make_structural<false, true, true>});
MBS_REGISTER_ELEMENT_KIND("force", "absolute internal displacement",
                          {.read = read_kind<false, false, true, true>,
                           .make = make_structural<false, false, true>});
MBS_REGISTER_ELEMENT_KIND("force", "total", {.read = read_total, .make = make_total<false>});
MBS_REGISTER_ELEMENT_KIND("force", "total internal",
                          {.read = read_total_internal, .make = make_total<true>});

MBS_REGISTER_ELEMENT_KIND("couple", "absolute",
                          {.read = read_kind<true, false, false, false>,
                           .make = make_structural<true, false, false>,
                           .reduced = {.load = tree_load<true, false>}});
MBS_REGISTER_ELEMENT_KIND("couple", "conservative",
                          {.read = read_kind<true, false, false, false, true>,
                           .make = make_structural<true, false, false>});
MBS_REGISTER_ELEMENT_KIND("couple", "follower",
                          {.read = read_kind<true, true, false, false>,
                           .make = make_structural<true, true, false>,
                           .reduced = {.load = tree_load<true, true>}});
MBS_REGISTER_ELEMENT_KIND("couple", "absolute internal",
                          {.read = read_kind<true, false, true, false>,
                           .make = make_structural<true, false, true>});
MBS_REGISTER_ELEMENT_KIND("couple", "conservative internal",
                          {.read = read_kind<true, false, true, false, true>,
                           .make = make_structural<true, false, true>});
MBS_REGISTER_ELEMENT_KIND("couple", "follower internal",
                          {.read = read_kind<true, true, true, false>,
                           .make = make_structural<true, true, true>});

// The cards' fallbacks (say what the relative-coordinate path supports).
MBS_REGISTER_TREE_LOAD("force", "*", unsupported_load);
MBS_REGISTER_TREE_LOAD("couple", "*", unsupported_load);

}  // namespace mbs
