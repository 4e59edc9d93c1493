// Card reader for `joint: L, in line` (docs/deck-language.md 5.2): a point of node 2 stays on a
// line fixed to node 1.
//   in line, n1, [position,] <rel point>, [orientation,] <rel R (axis 3 = line)>, n2
//       [, offset, <rel off2>] [, friction, ...]
// Typed spec: PointOnSpec, end 1 the line's point (offset) and frame (axis 3 = line
// direction), end 2 the point of node 2 (offset only with `offset`; `reference, other ...`
// frames allowed).
// Relative-coordinate path: a translation along the line and a ball; as a cut, 2 rows.
//
// Card reader for `joint: L, in plane` (docs/deck-language.md 5.2): a point of node 2 stays on a
// plane fixed to node 1.
//   in plane, n1, [position,] <rel point>, <Vec3 rel normal>, n2 [, offset, <rel off2>]
// Typed spec: PointOnSpec, end 1 a point of the plane, the unit normal (node-1 frame), end 2 the
// point of node 2 (offset only with `offset`).
// Relative-coordinate path: two translations in the plane and a ball; as a cut, 1 row.
//
// Card reader for `joint: L, prismatic` (docs/deck-language.md 5.2): constrains the relative
// orientation only.
//   prismatic, n1 [, orientation, R1h], n2 [, orientation, R2h]
// Typed spec: PrismaticSpec, the two hinge orientations (node frames).
// Relative-coordinate path: three translations; as a cut, the 3 orientation rows.
//
// In-line, in-plane and prismatic joints (docs/deck-language.md 5.2) on the joint kit.
//
// in line:   a point p2 = x2 + R2 f2 of node 2 (f2 = 0 without `offset`) stays on the line through
//            p1 = x1 + R1 f1 along axis 3 of the frame R1 Rh:  u_i . (p1 - p2) = 0 for
//            u_i = R1 Rh e_i, i = 1, 2 (2 multipliers: the force components along u_1, u_2).
// in plane:  p2 stays on the plane through p1 with normal n = R1 n0:  n . (p1 - p2) = 0
//            (1 multiplier: the force along n).
// prismatic: the hinge frames keep their relative orientation, three orthogonality conditions
//            e2a . e3b = e3a . e1b = e1a . e2b = 0 (ea = axes of R1 R1h, eb = axes of R2 R2h);
//            3 multipliers, the couples about e2a x e3b, e3a x e1b, e1a x e2b.
// The residual and Jacobian terms are derived in joint_kit.hpp (project_*, ortho_*).
//
// .jnt output (MBDyn's columns 2-13; these joints have no extra columns), the reaction MBDyn
// reports (docs/reactions.md):
//   in line:   the force on node 1 (InLineJoint, inline.cc: node 1 receives +F), (F1, F2, 0) in
//              the line frame R1 Rh, and F1 u_1 + F2 u_2 global;
//   in plane:  the force on node 1 (InPlaneJoint, inplanej.cc), (F, 0, 0) as MBDyn writes it,
//              and F n global;
//   prismatic: the couple on node 2, minus ours (PrismaticJoint, prismj.cc: node 1 receives
//              -M), in the frame R1 R1h and global.
#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>

#include "core/log_line.hpp"
#include "core/registry.hpp"
#include "core/rotations.hpp"
#include "core/tree_edge.hpp"
#include "elements/joints/joint_ends.hpp"
#include "elements/joints/joint_kit.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

// An in line (normal empty) or in plane joint: end 1 the line's or plane's point and frame, end
// 2 the point of node 2.
struct PointOnSpec final : ElementSpec {
    cards::EndSpec end[2];
    std::optional<Vec3> normal;  // in plane: unit, node-1 frame
    bool offset2 = false;        // end 2's `offset` given
    long own_unknowns() const override { return normal ? 1 : 2; }
    void describe(Props& p) const override {
        p.set("node1", end[0].node);
        p.set("offset1", end[0].offset);
        if (normal)
            p.set("normal", *normal);
        else
            p.set("orientation1", end[0].R);
        p.set("node2", end[1].node);
        if (offset2) p.set("offset2", end[1].offset);
    }
};

// end 1 up to (not including) its orientation or normal, then node 2 and its optional offset.
void read_point_on_ends(Reader& r, PointOnSpec& s, const EntityDesc& n1, const char* element) {
    s.end[1].node_loc = r.loc();
    const EntityDesc& n2 = cards::read_structural_node(r, "node 2", element);
    cards::check_distinct_nodes(r, s.end[1].node_loc, n1, n2, element);
    s.end[0].node = cards::node_ref(n1);
    s.end[1].node = cards::node_ref(n2);
    s.end[1].offset_loc = s.end[1].orientation_loc = s.end[1].node_loc;
    if (r.accept("offset")) {
        s.end[1].offset_loc = r.loc();
        s.end[1].offset = r.position_rel_other(n2, n1, s.end[0].offset, "offset of node 2");
        s.offset2 = true;
    }
}

void read_in_line(Reader& r, EntityDesc& e) {
    auto s = std::make_shared<PointOnSpec>();
    s->end[0].node_loc = r.loc();
    const EntityDesc& n1 = cards::read_structural_node(r, "node 1", "in line joint");
    r.accept("position");
    s->end[0].offset_loc = r.loc();
    s->end[0].offset = r.position_rel(n1, "point of the line");
    r.accept("orientation");
    s->end[0].orientation_loc = r.loc();
    s->end[0].R = r.orientation_rel(n1, "line orientation");
    read_point_on_ends(r, *s, n1, "in line joint");
    if (r.peek("friction"))
        r.error("in line joint friction is not supported yet", "remove the friction block");
    e.spec = std::move(s);
}

// The point of node 2 moves along axis 3 of the line frame and turns freely.
tree::EdgePart in_line_edge(const EntityDesc& d, const tree::Context&) {
    const auto& s = d.spec_as<PointOnSpec>();
    tree::Edge e;
    e.a = cards::tree_end(s.end[0], "node1");
    e.b = cards::tree_end(s.end[1], "node2");
    e.cut_cost = 2;
    e.tree_capable = true;
    e.grow = [](tree::Growth& g, const tree::Context&) { tree::slide_and_ball(g, 2, 1); };
    e.cut = [](tree::CutEquations& c, bool, const tree::Context&) {
        c.kind = tree::CutKind::in_line, c.rows = 2;
    };
    return e;
}

void read_in_plane(Reader& r, EntityDesc& e) {
    auto s = std::make_shared<PointOnSpec>();
    s->end[0].node_loc = r.loc();
    const EntityDesc& n1 = cards::read_structural_node(r, "node 1", "in plane joint");
    r.accept("position");
    s->end[0].offset_loc = r.loc();
    s->end[0].offset = r.position_rel(n1, "point of the plane");
    SourceLoc at_v = r.loc();
    s->end[0].orientation_loc = at_v;
    Vec3 v = r.direction_rel(n1, "plane normal");
    if (!(v.norm() > 0.0)) r.error_at(at_v, "the plane normal is a null vector");
    s->normal = v.normalized();
    read_point_on_ends(r, *s, n1, "in plane joint");
    e.spec = std::move(s);
}

// The point of node 2 moves along axes 1 and 2 of a frame whose axis 3 is the normal, and turns
// freely.
tree::EdgePart in_plane_edge(const EntityDesc& d, const tree::Context&) {
    const auto& s = d.spec_as<PointOnSpec>();
    tree::Edge e;
    e.a = cards::tree_end(s.end[0], "node1");
    e.a.R = Mat3::Identity();
    Vec3 n = s.normal->normalized();
    Vec3 t1 = std::abs(n.x()) < 0.9 ? Vec3(n.cross(Vec3::UnitX()).normalized())
                                    : Vec3(n.cross(Vec3::UnitY()).normalized());
    e.a.R.col(0) = t1;
    e.a.R.col(1) = n.cross(t1);
    e.a.R.col(2) = n;
    e.b = cards::tree_end(s.end[1], "node2");
    e.cut_cost = 1;
    e.tree_capable = true;
    e.grow = [](tree::Growth& g, const tree::Context&) { tree::slide_and_ball(g, 0, 2); };
    e.cut = [](tree::CutEquations& c, bool, const tree::Context&) {
        c.kind = tree::CutKind::in_plane, c.rows = 1;
    };
    return e;
}

// The two hinge orientations (no offsets).
struct PrismaticSpec final : ElementSpec {
    cards::EndSpec end[2];
    long own_unknowns() const override { return 3; }
    void describe(Props& p) const override {
        cards::describe_end(p, end[0], "1", false, true);
        cards::describe_end(p, end[1], "2", false, true);
    }
};

void read_prismatic(Reader& r, EntityDesc& e) {
    cards::EndOptions opt;
    opt.offset = cards::Offset::none;
    auto end1 = cards::read_end1(r, "prismatic joint", opt);
    auto end2 = cards::read_end2(r, end1, "prismatic joint", opt);
    auto s = std::make_shared<PrismaticSpec>();
    s->end[0] = cards::end_spec(end1);
    s->end[1] = cards::end_spec(end2);
    e.spec = std::move(s);
}

// Three translations along the axes of frame 1 (the frames sit at the nodes: no position
// constraint); the relative orientation is fixed.
tree::EdgePart prismatic_edge(const EntityDesc& d, const tree::Context&) {
    const auto& s = d.spec_as<PrismaticSpec>();
    tree::Edge e;
    e.a = cards::tree_end(s.end[0], "node1");
    e.b = cards::tree_end(s.end[1], "node2");
    e.a.o.setZero();
    e.b.o.setZero();
    e.cut_cost = 3;
    e.tree_capable = true;
    e.grow = [](tree::Growth& g, const tree::Context&) {
        for (int j = 0; j < 3; ++j) g.steps.push_back(tree::translation(j, g.d0[j]));
    };
    e.cut = [](tree::CutEquations& c, bool, const tree::Context&) {
        c.kind = tree::CutKind::prismatic, c.rows = 3;
    };
    return e;
}

using el::End;

// A node without rotations where the joint needs them is refused at the node's field.
End end_of(BuildContext& ctx, const EntityDesc& d, const cards::EndSpec& s, bool need_rotation,
           const char* why) {
    End e;
    e.node = &ctx.struct_node(s.node, d);
    if (need_rotation && !e.node->has_rotation())
        throw InputError(s.node_loc, why,
                         "node " + std::to_string(s.node.label) + " is displacement-only");
    e.f = s.offset;
    e.Rh = s.R;
    return e;
}

// --- in line and in plane: rows along fixed directions of end 1's frame (columns 1, 2 of Rh for
// the line; the normal as column 3 of Rh for the plane).
class PointOnJoint final : public Element {
  public:
    // rows = 2: in line (directions Rh e1, Rh e2); rows = 1: in plane (direction Rh e3 = normal).
    PointOnJoint(const EntityDesc& d, End e1, End e2, int rows) : Element(d), rows_(rows) {
        e_[0] = e1;
        e_[1] = e2;
    }
    int own_dofs() const override { return rows_; }

    // MBDyn's .log line: "inline: L n1 f1 R1 n2 f2 I"; "inplane: L n1 f1 R n2 f2 I" with R =
    // R1^T Rot(e3 x v asin|e3 x v|) (R1 node 1's deck orientation, v the normal), as MBDyn's
    // reader prints it.
    std::string log_line() const override {
        const auto& s = desc().spec_as<PointOnSpec>();
        LogLine l;
        l.word(s.normal ? "inplane:" : "inline:").label(label()).label(s.end[0].node.label);
        l.vec(s.end[0].offset);
        if (s.normal) {
            Vec3 rel = Vec3::UnitZ().cross(*s.normal);
            rel *= std::asin(std::min(1.0, rel.norm()));
            const double a = rel.norm();
            const Mat3 Rr =
                a > 0 ? Mat3(Eigen::AngleAxisd(a, rel / a).toRotationMatrix()) : Mat3::Identity();
            l.mat(cards::node_orientation(e_[0].node->desc()).transpose() * Rr);
        } else {
            l.mat(s.end[0].R);
        }
        l.label(s.end[1].node.label).vec(s.offset2 ? s.end[1].offset : Vec3(Vec3::Zero()));
        return l.mat(Mat3::Identity()).s;
    }
    std::string own_dof_name(int i) const override {
        if (rows_ == 1) return "distance from the plane";
        return i == 0 ? "line offset 1" : "line offset 2";
    }
    bool in_assembly() const override { return true; }

    void declare(PatternBuilder& p) override { b_.declare(p, e_, 2, first_dof(), rows_); }

    void residual(const StepContext& c, const StateView& s, double* r) const override {
        const double* lam = s.yp + first_dof();
        double* rc = r + first_dof();
        Mat3 Ra = e_[0].frame();
        for (int i = 0; i < rows_; ++i)
            el::project_residual(e_, direction(Ra, i), lam[i], c.dCoef, r, rc + i);
    }

    void jacobian(const StepContext& c, const StateView& s, Jacobian& J) const override {
        const double* lam = s.yp + first_dof();
        Mat3 Ra = e_[0].frame();
        el::JointJac jj;
        for (int i = 0; i < rows_; ++i)
            el::project_jacobian(e_, direction(Ra, i), lam[i], i, i, jj);
        jj.flush(e_, b_, c, J);
    }

    void after_step(const StepContext&, const StateView& s) override {
        const double* lam = s.yp + first_dof();
        for (int i = 0; i < rows_; ++i) lam_[i] = lam[i];
    }
    const char* output_file() const override { return "jnt"; }
    bool output_schema(OutputSchema& s) const override { return el::reaction_schema(*this, s); }
    bool reaction(Vec3& f, Vec3& m, Vec3& F, Vec3& M) const override {
        Mat3 Ra = e_[0].frame();
        F.setZero();
        for (int i = 0; i < rows_; ++i) F += lam_[i] * direction(Ra, i);
        f = rows_ == 2 ? Vec3(lam_[0], lam_[1], 0.0) : Vec3(lam_[0], 0.0, 0.0);
        m.setZero();
        M.setZero();
        return true;
    }
    int output_values(double* v) const override { return el::put_reaction(*this, v); }

  private:
    Vec3 direction(const Mat3& Ra, int i) const {
        return rows_ == 2 ? Vec3(Ra.col(i)) : Vec3(Ra.col(2));
    }

    End e_[2];
    int rows_;
    el::JointBlocks b_;
    double lam_[2] = {0.0, 0.0};
};

std::unique_ptr<Element> make_in_line(const EntityDesc& d, BuildContext& ctx) {
    const auto& s = d.spec_as<PointOnSpec>();
    End e1 =
        end_of(ctx, d, s.end[0], true, "the line of an in line joint needs node 1 with rotations");
    End e2 = end_of(ctx, d, s.end[1], s.offset2,
                    "an in line joint with offset needs node 2 with rotations");
    e2.Rh = Mat3::Identity();
    return std::make_unique<PointOnJoint>(d, e1, e2, 2);
}

// Any frame whose axis 3 is the normal will do: the plane row only uses that axis.
Mat3 frame_with_axis3(const Vec3& n) {
    Vec3 t = std::fabs(n[0]) < 0.9 ? Vec3(1.0, 0.0, 0.0) : Vec3(0.0, 1.0, 0.0);
    Vec3 a1 = t.cross(n).normalized();
    Mat3 R;
    R.col(0) = a1;
    R.col(1) = n.cross(a1);
    R.col(2) = n;
    return R;
}

std::unique_ptr<Element> make_in_plane(const EntityDesc& d, BuildContext& ctx) {
    const auto& s = d.spec_as<PointOnSpec>();
    End e1 = end_of(ctx, d, s.end[0], true,
                    "the plane of an in plane joint needs node 1 with rotations");
    e1.Rh = frame_with_axis3(s.normal->normalized());
    End e2 = end_of(ctx, d, s.end[1], s.offset2,
                    "an in plane joint with offset needs node 2 with rotations");
    e2.Rh = Mat3::Identity();
    return std::make_unique<PointOnJoint>(d, e1, e2, 1);
}

// --- prismatic
class PrismaticJoint final : public Element {
  public:
    PrismaticJoint(const EntityDesc& d, End e1, End e2) : Element(d) {
        e_[0] = e1;
        e_[1] = e2;
    }
    int own_dofs() const override { return 3; }
    // MBDyn's .log line: "prismatic: L n1 0 R1 n2 0 R2".
    std::string log_line() const override {
        return cards::log_two_ends("prismatic", label(), desc().spec_as<PrismaticSpec>().end, false,
                                   true);
    }
    std::string own_dof_name(int i) const override {
        static const char* nm[] = {"axes 2-3 orthogonality", "axes 3-1 orthogonality",
                                   "axes 1-2 orthogonality"};
        return nm[i];
    }
    bool in_assembly() const override { return true; }

    // Only rotations are involved: moment rows x theta columns, multipliers on moment rows.
    void declare(PatternBuilder& p) override {
        b_.nn_mask = "..|.F";
        b_.nl_mask = ".|F";
        b_.ln_mask = ".F";
        b_.declare(p, e_, 2, first_dof(), 3);
    }

    void residual(const StepContext& c, const StateView& s, double* r) const override {
        const double* lam = s.yp + first_dof();
        double* rc = r + first_dof();
        Mat3 Ra = e_[0].frame(), Rb = e_[1].frame();
        for (int i = 0; i < 3; ++i)
            el::ortho_residual(e_, Ra.col((i + 1) % 3), Rb.col((i + 2) % 3), lam[i], c.dCoef, r,
                               rc + i);
    }

    void jacobian(const StepContext& c, const StateView& s, Jacobian& J) const override {
        const double* lam = s.yp + first_dof();
        Mat3 Ra = e_[0].frame(), Rb = e_[1].frame();
        el::JointJac jj;
        for (int i = 0; i < 3; ++i)
            el::ortho_jacobian(e_, Ra.col((i + 1) % 3), Rb.col((i + 2) % 3), lam[i], i, i, jj);
        jj.flush(e_, b_, c, J);
    }

    void after_step(const StepContext&, const StateView& s) override {
        const double* lam = s.yp + first_dof();
        Mat3 Ra = e_[0].frame(), Rb = e_[1].frame();
        M_.setZero();
        for (int i = 0; i < 3; ++i) M_ += lam[i] * Ra.col((i + 1) % 3).cross(Rb.col((i + 2) % 3));
    }
    const char* output_file() const override { return "jnt"; }
    bool output_schema(OutputSchema& s) const override { return el::reaction_schema(*this, s); }
    bool reaction(Vec3& f, Vec3& m, Vec3& F, Vec3& M) const override {
        const Mat3 Ra = e_[0].frame();
        el::reported_reaction(el::Reported::on_end2, Vec3::Zero(), M_, Ra, Ra, f, m, F, M);
        F.setZero();
        f.setZero();
        return true;
    }
    int output_values(double* v) const override { return el::put_reaction(*this, v); }

  private:
    End e_[2];
    el::JointBlocks b_;
    Vec3 M_ = Vec3::Zero();
};

std::unique_ptr<Element> make_prismatic(const EntityDesc& d, BuildContext& ctx) {
    const auto& s = d.spec_as<PrismaticSpec>();
    End e1 = end_of(ctx, d, s.end[0], true, "a prismatic joint needs nodes with rotations");
    End e2 = end_of(ctx, d, s.end[1], true, "a prismatic joint needs nodes with rotations");
    e1.f = e2.f = Vec3::Zero();
    return std::make_unique<PrismaticJoint>(d, e1, e2);
}

}  // namespace

MBS_REGISTER_ELEMENT_KIND("joint", "in line",
                          {.read = read_in_line,
                           .make = make_in_line,
                           .reduced = {.edge = in_line_edge}});
MBS_REGISTER_ELEMENT_KIND("joint", "in plane",
                          {.read = read_in_plane,
                           .make = make_in_plane,
                           .reduced = {.edge = in_plane_edge}});
MBS_REGISTER_ELEMENT_KIND("joint", "prismatic",
                          {.read = read_prismatic,
                           .make = make_prismatic,
                           .reduced = {.edge = prismatic_edge}});

}  // namespace mbs
