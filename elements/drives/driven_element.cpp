// Runtime of `driven` elements (MBDyn's DrivenElem; card read by parser/builder.cpp):
//   driven: L, <drive>, {existing: <type>, L | <element card, label L>};
// The element is active while the drive is non-zero at the current time. The wrapper takes the
// element over from the engine (BuildContext::take_element) and answers for it under the
// element's own description, so its output, reactions and private data stay where they were.
//
// Active: the element's residual and Jacobian. Inactive: the element adds nothing to the nodes,
// and each of its own equations is replaced by
//   r_i = y'_i,  J_ii = 1
// i.e. its multipliers (algebraic: the value sits in y') are zero, and an own differential
// unknown is frozen (zero rate). On activation the multipliers start from zero and a
// position-level constraint closes its gap within the step (keep constraints satisfied when
// they switch on, or use velocity-level ones: e.g. an `angular velocity` joint locks a hinge).
#include "core/element.hpp"
#include "core/registry.hpp"
#include "core/source.hpp"

namespace mbs {
namespace {

class Driven final : public Element {
  public:
    Driven(std::unique_ptr<Element> inner, DrivePtr drive)
        : Element(inner->desc()), in_(std::move(inner)), drive_(std::move(drive)) {}

    bool active(double t) const { return drive_->value(t) != 0.0; }

    int own_dofs() const override { return in_->own_dofs(); }
    DofOrder own_dof_order(int i) const override { return in_->own_dof_order(i); }
    std::string own_dof_name(int i) const override { return in_->own_dof_name(i); }
    void initialize(double* y, double* yp) const override { in_->initialize(y, yp); }
    bool in_assembly() const override { return in_->in_assembly(); }

    void declare(PatternBuilder& p) override {
        in_->set_first_dof(first_dof());
        in_->declare(p);
    }
    void residual(const StepContext& c, const StateView& s, double* r) const override {
        if (active(c.time)) return in_->residual(c, s, r);
        for (int i = 0; i < own_dofs(); ++i) r[first_dof() + i] += s.yp[first_dof() + i];
    }
    void jacobian(const StepContext& c, const StateView& s, Jacobian& J) const override {
        if (active(c.time)) return in_->jacobian(c, s, J);
        for (int i = 0; i < own_dofs(); ++i) J.add_to_diagonal(first_dof() + i, 1.0);
    }
    void after_step(const StepContext& c, const StateView& s) override {
        drive_->after_step();
        in_->after_step(c, s);
    }

    const char* output_file() const override { return in_->output_file(); }
    int output_values(double* v) const override { return in_->output_values(v); }
    bool reaction(Vec3& f, Vec3& m, Vec3& F, Vec3& M) const override {
        return in_->reaction(f, m, F, M);
    }
    int private_data_count() const override { return in_->private_data_count(); }
    const char* private_data_name(int i) const override { return in_->private_data_name(i); }
    double private_data(int i, const StateView& s) const override {
        return in_->private_data(i, s);
    }

  private:
    std::unique_ptr<Element> in_;
    DrivePtr drive_;
};

std::unique_ptr<Element> make_driven(const EntityDesc& d, BuildContext& ctx) {
    const auto ref = d.props.get<EntityRef>("element");
    std::unique_ptr<Element> inner = ctx.take_element(ref);
    if (!inner)
        ctx.error(d, ref.category + " " + std::to_string(ref.label) +
                         " has no run-time element to drive");
    DrivePtr drive =
        make_drive(*d.props.get<std::shared_ptr<const DriveSpec>>("drive"), ctx.drive_env());
    return std::make_unique<Driven>(std::move(inner), std::move(drive));
}

}  // namespace

MBS_REGISTER_ELEMENT_RUNTIME("driven", "", make_driven);

}  // namespace mbs
