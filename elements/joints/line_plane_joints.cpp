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
#include "core/rotations.hpp"
#include "elements/joints/joint_kit.hpp"

namespace mbs {
namespace {

using el::End;

End end_of(BuildContext& ctx, const EntityDesc& d, const char* node, const char* offset,
           const char* frame) {
    End e;
    e.node = &ctx.struct_node(d.props.get<EntityRef>(node), d);
    if (offset) e.f = el::vec3_or_zero(d, offset);
    if (frame) e.Rh = el::mat3_or_identity(d, frame);
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
    End e1 = end_of(ctx, d, "node1", "offset1", "orientation1");
    End e2 = end_of(ctx, d, "node2", "offset2", nullptr);
    if (!e1.node->has_rotation())
        ctx.error(d, "the line of an in line joint needs node 1 with rotations");
    if (d.props.has("offset2") && !e2.node->has_rotation())
        ctx.error(d, "an in line joint with offset needs node 2 with rotations");
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
    End e1 = end_of(ctx, d, "node1", "offset1", nullptr);
    e1.Rh = frame_with_axis3(d.props.get<Vec3>("normal").normalized());
    End e2 = end_of(ctx, d, "node2", "offset2", nullptr);
    if (!e1.node->has_rotation())
        ctx.error(d, "the plane of an in plane joint needs node 1 with rotations");
    if (d.props.has("offset2") && !e2.node->has_rotation())
        ctx.error(d, "an in plane joint with offset needs node 2 with rotations");
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
    End e1 = end_of(ctx, d, "node1", nullptr, "orientation1");
    End e2 = end_of(ctx, d, "node2", nullptr, "orientation2");
    if (!e1.node->has_rotation() || !e2.node->has_rotation())
        ctx.error(d, "a prismatic joint needs nodes with rotations");
    return std::make_unique<PrismaticJoint>(d, e1, e2);
}

}  // namespace

MBS_REGISTER_ELEMENT_RUNTIME("joint", "in line", make_in_line);
MBS_REGISTER_ELEMENT_RUNTIME("joint", "in plane", make_in_plane);
MBS_REGISTER_ELEMENT_RUNTIME("joint", "prismatic", make_prismatic);

}  // namespace mbs
