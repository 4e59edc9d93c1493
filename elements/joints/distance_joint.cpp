// Card readers for `joint: L, distance` and the deprecated `distance with offset`
// (docs/deck-language.md 5.2).
//   distance, n1 [, position, off1], n2 [, position, off2], {from nodes | <DriveCaller length>}
//   distance with offset, n1, [position,] off1, n2, [position,] off2, {from nodes | <dc>}
// Without offsets, displacement-only nodes are allowed.
// Typed spec: DistanceSpec (two ends, offsets only when given, then the length `from nodes`
// or the imposed distance's drive).
// Relative-coordinate path: a loop cut only (one row).
//
// Distance joint (docs/deck-language.md 5.2): |p2 - p1| = L(t), with p_k = x_k + R_k f_k (f_k = 0
// without offsets; then displacement-only nodes are allowed). L is the constant distance of the
// nodes as read (`from nodes`) or a drive.
// One multiplier F, the force F e on node 1 and -F e on node 2, e = (p2 - p1)/|p2 - p1|: F > 0 is
// a tension (MBDyn's alpha, with a unit direction). Residual and Jacobian: distance_* in
// joint_kit.hpp. When the two points coincide the direction is undefined: the residual is then
// not finite and the engine stops with its non-finite-residual diagnostic (MBDyn stops too).
//
// .jnt output: (F, 0, 0) and F e (the reaction on node 1, as MBDyn writes it), no moments, then
// MBDyn's extra columns: the unit direction e (3) and the imposed distance L(t).
#include <memory>
#include <optional>
#include <string>

#include "core/registry.hpp"
#include "core/tree_edge.hpp"
#include "elements/joints/joint_ends.hpp"
#include "elements/joints/joint_kit.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

struct DistanceSpec final : ElementSpec {
    cards::EndSpec end[2];
    bool offsets = false;
    std::optional<double> length;            // `from nodes`: the distance as read
    std::shared_ptr<const DriveSpec> drive;  // else the imposed distance
    long own_unknowns() const override { return 1; }
    void describe(Props& p) const override {
        cards::describe_end(p, end[0], "1", offsets, false);
        cards::describe_end(p, end[1], "2", offsets, false);
        if (length) p.set("length", *length);
        if (drive) p.set("drive", drive);
    }
};

void read_distance_common(Reader& r, EntityDesc& e, std::string_view element,
                          cards::Offset offset) {
    auto s = std::make_shared<DistanceSpec>();
    cards::EndOptions opt;
    opt.offset = offset;
    opt.orientation = false;
    opt.need_rotations = false;
    auto end1 = cards::read_end1(r, element, opt);
    auto end2 = cards::read_end2(r, end1, element, opt);
    bool offsets = end1.has_offset || end2.has_offset;
    if (offsets && !(cards::has_rotations(*end1.node) && cards::has_rotations(*end2.node)))
        r.error_at(end2.node_loc,
                   std::string(element) + " with offsets needs nodes with rotations");
    s->end[0] = cards::end_spec(end1);
    s->end[1] = cards::end_spec(end2);
    s->offsets = offsets;
    Vec3 d = cards::node_position(*end2.node) + cards::node_orientation(*end2.node) * end2.offset -
             cards::node_position(*end1.node) - cards::node_orientation(*end1.node) * end1.offset;
    SourceLoc at = r.loc();
    if (r.accept("from nodes")) {
        if (!(d.norm() > 0.0))
            r.error_at(at,
                       "the two points coincide: a distance joint of zero length has no direction",
                       "use a spherical hinge to join two points");
        s->length = d.norm();
    } else {
        s->drive = r.drive("imposed distance");
    }
    e.spec = std::move(s);
}

void read_distance(Reader& r, EntityDesc& e) {
    read_distance_common(r, e, "distance joint", cards::Offset::keyword);
}

void read_distance_with_offset(Reader& r, EntityDesc& e) {
    r.warn("'distance with offset' is deprecated; use 'distance' with 'position' offsets");
    read_distance_common(r, e, "distance joint", cards::Offset::mandatory);
}

// Only a cut: one row |pB - pA| = length (or the drive's value).
tree::EdgePart distance_edge(const EntityDesc& d, const tree::Context&) {
    const auto& s = d.spec_as<DistanceSpec>();
    tree::Edge e;
    e.a = cards::tree_end(s.end[0], "node1");
    e.b = cards::tree_end(s.end[1], "node2");
    e.cut_cost = 1;
    e.cut = [&s](tree::CutEquations& c, bool, const tree::Context& ctx) {
        c.kind = tree::CutKind::rod;
        c.rows = 1;
        if (s.drive)
            c.length_drive = make_drive(*s.drive, ctx.env);
        else
            c.length = *s.length;
    };
    return e;
}

using el::End;

class DistanceJoint final : public Element {
  public:
    DistanceJoint(const EntityDesc& d, End e1, End e2, double length, DrivePtr drive)
        : Element(d), length_(length), drive_(std::move(drive)) {
        e_[0] = e1;
        e_[1] = e2;
    }
    int own_dofs() const override { return 1; }
    std::string own_dof_name(int) const override { return "distance"; }
    // MBDyn's .log line: "distance: L n1 f1 n2 f2" (offsets zero without `with offset`).
    std::string log_line() const override {
        const auto& s = desc().spec_as<DistanceSpec>();
        return cards::log_two_ends("distance", label(), s.end, s.offsets, false);
    }
    bool in_assembly() const override { return true; }

    void declare(PatternBuilder& p) override { b_.declare(p, e_, 2, first_dof(), 1); }

    void residual(const StepContext& c, const StateView& s, double* r) const override {
        el::distance_residual(e_, length(c.time), s.yp[first_dof()], c.dCoef, r, r + first_dof());
    }

    void jacobian(const StepContext& c, const StateView& s, Jacobian& J) const override {
        el::JointJac jj;
        el::distance_jacobian(e_, s.yp[first_dof()], 0, 0, jj);
        jj.flush(e_, b_, c, J);
    }

    void after_step(const StepContext& c, const StateView& s) override {
        if (drive_) drive_->after_step();
        time_ = c.time;
        F_ = s.yp[first_dof()];
    }
    const char* output_file() const override { return "jnt"; }
    bool output_schema(OutputSchema& s) const override { return el::reaction_schema(*this, s); }
    bool reaction(Vec3& f, Vec3& m, Vec3& F, Vec3& M) const override {
        f = Vec3(F_, 0.0, 0.0);
        F = F_ * direction();
        m.setZero();
        M.setZero();
        return true;
    }
    int output_values(double* v) const override {
        el::put_reaction(*this, v);
        Vec3 e = direction();
        for (int i = 0; i < 3; ++i) v[12 + i] = e[i];
        v[15] = length(time_);
        return 16;
    }

  private:
    double length(double t) const { return drive_ ? drive_->value(t) : length_; }
    Vec3 direction() const {
        Vec3 d = e_[1].point() - e_[0].point();
        double l = d.norm();
        return l > 0.0 ? Vec3(d / l) : Vec3(Vec3::Zero());
    }
    End e_[2];
    double length_;
    DrivePtr drive_;
    el::JointBlocks b_;
    double F_ = 0.0, time_ = 0.0;
};

std::unique_ptr<Element> make_distance(const EntityDesc& d, BuildContext& ctx) {
    const auto& s = d.spec_as<DistanceSpec>();
    End e[2];
    for (int k = 0; k < 2; ++k) {
        e[k].node = &ctx.struct_node(s.end[k].node, d);
        e[k].f = s.end[k].offset;
    }
    double length = s.length.value_or(0.0);
    DrivePtr drive;
    if (s.drive) drive = make_drive(*s.drive, ctx.drive_env());
    return std::make_unique<DistanceJoint>(d, e[0], e[1], length, std::move(drive));
}

}  // namespace

MBS_REGISTER_ELEMENT_KIND("joint", "distance",
                          {.read = read_distance,
                           .make = make_distance,
                           .reduced = {.edge = distance_edge}});
MBS_REGISTER_ELEMENT_KIND("joint", "distance with offset",
                          {.read = read_distance_with_offset, .make = make_distance});

}  // namespace mbs
