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
#include "elements/joints/joint_kit.hpp"

namespace mbs {
namespace {

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
    End e[2];
    for (int k = 0; k < 2; ++k) {
        std::string s = std::to_string(k + 1);
        e[k].node = &ctx.struct_node(d.props.get<EntityRef>("node" + s), d);
        e[k].f = el::vec3_or_zero(d, ("offset" + s).c_str());
    }
    double length = 0.0;
    DrivePtr drive;
    if (d.props.has("drive"))
        drive =
            make_drive(*d.props.get<std::shared_ptr<const DriveSpec>>("drive"), ctx.drive_env());
    else
        length = d.props.get<double>("length");
    return std::make_unique<DistanceJoint>(d, e[0], e[1], length, std::move(drive));
}

}  // namespace

MBS_REGISTER_ELEMENT_RUNTIME("joint", "distance", make_distance);
MBS_REGISTER_ELEMENT_RUNTIME("joint", "distance with offset", make_distance);

}  // namespace mbs
