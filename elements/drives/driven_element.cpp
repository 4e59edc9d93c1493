// Runtime of `driven` elements (MBDyn's DrivenElem; card read by Builder::driven_card,
// parser/builder_entities.cpp, into a DrivenSpec, core/driven_spec.hpp):
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
// they switch on, use velocity-level ones, e.g. an `angular velocity` joint locks a hinge, or
// hints).
//
// Hints (`hint, "offset{1}", ...` after the drive; elements/drives/driven_hints.hpp): at each
// switch-on (the first residual or Jacobian evaluation of a step whose time makes the drive
// non-zero after it was zero: the step's predicted configuration, as MBDyn's
// DrivenElem::AfterPredict) the element re-defines its offsets/frames from the nodes' current
// configuration. Not at the run's first evaluation (MBDyn: hints only on a switch-on during the
// run). A step retried after a failure re-applies them with its own prediction if the drive was
// zero at the retried time in between, else keeps the first ones (MBDyn alike).
#include <cctype>
#include <optional>

#include "core/driven_spec.hpp"
#include "core/element.hpp"
#include "core/registry.hpp"
#include "core/source.hpp"
#include "elements/drives/driven_hints.hpp"

namespace mbs {

namespace el {

std::optional<Hint> parse_hint(std::string_view text) {
    static const struct {
        const char* name;
        Hint h;
    } table[] = {{"offset{1}", Hint::offset1},
                 {"offset{2}", Hint::offset2},
                 {"hinge{1}", Hint::hinge1},
                 {"hinge{2}", Hint::hinge2},
                 {"position-hinge{1}", Hint::position_hinge1},
                 {"position-hinge{2}", Hint::position_hinge2},
                 {"orientation-hinge{1}", Hint::orientation_hinge1},
                 {"orientation-hinge{2}", Hint::orientation_hinge2}};
    for (const auto& e : table) {
        const std::string_view n(e.name);
        if (n.size() != text.size()) continue;
        bool same = true;
        for (std::size_t i = 0; i < n.size() && same; ++i)
            same = std::tolower(static_cast<unsigned char>(text[i])) == n[i];
        if (same) return e.h;
    }
    return std::nullopt;
}

const char* hint_name(Hint h) {
    static const char* names[] = {"offset{1}",
                                  "offset{2}",
                                  "hinge{1}",
                                  "hinge{2}",
                                  "position-hinge{1}",
                                  "position-hinge{2}",
                                  "orientation-hinge{1}",
                                  "orientation-hinge{2}"};
    return names[static_cast<int>(h)];
}

}  // namespace el

namespace {

class Driven final : public Element {
  public:
    Driven(std::unique_ptr<Element> inner, DrivePtr drive, std::vector<el::Hint> hints,
           el::Hintable* target)
        : Element(inner->desc()),
          in_(std::move(inner)),
          drive_(std::move(drive)),
          hints_(std::move(hints)),
          target_(target) {}

    bool active(double t) const { return drive_->value(t) != 0.0; }

    // Whether the element is on at t; applies the hints at a switch-on (see the header).
    bool sync(double t) const {
        const bool on = active(t);
        if (on && state_ == State::off)
            for (el::Hint h : hints_) target_->apply_hint(h, t);
        state_ = on ? State::on : State::off;
        return on;
    }

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
        if (sync(c.time)) return in_->residual(c, s, r);
        for (int i = 0; i < own_dofs(); ++i) r[first_dof() + i] += s.yp[first_dof() + i];
    }
    void jacobian(const StepContext& c, const StateView& s, Jacobian& J) const override {
        if (sync(c.time)) return in_->jacobian(c, s, J);
        for (int i = 0; i < own_dofs(); ++i) J.add_to_diagonal(first_dof() + i, 1.0);
    }
    bool constraint_rate(const StepContext& c, const StateView& s, double* r) const override {
        return sync(c.time) && in_->constraint_rate(c, s, r);
    }
    void after_step(const StepContext& c, const StateView& s) override {
        drive_->after_step();
        in_->after_step(c, s);
    }

    const char* output_file() const override { return in_->output_file(); }
    int output_values(double* v) const override { return in_->output_values(v); }
    std::string log_line() const override { return in_->log_line(); }
    // The wrapped element's NetCDF/HDF5 schema. Its evaluation points (output_points()) are not
    // forwarded: a driven beam's X_I, R_I are NaN, as they were before the schema moved here.
    bool output_schema(OutputSchema& s) const override { return in_->output_schema(s); }
    bool reaction(Vec3& f, Vec3& m, Vec3& F, Vec3& M) const override {
        return in_->reaction(f, m, F, M);
    }
    int private_data_count() const override { return in_->private_data_count(); }
    const char* private_data_name(int i) const override { return in_->private_data_name(i); }
    double private_data(int i, const StateView& s) const override {
        return in_->private_data(i, s);
    }

  private:
    enum class State : unsigned char { unknown, off, on };
    std::unique_ptr<Element> in_;
    DrivePtr drive_;
    std::vector<el::Hint> hints_;
    el::Hintable* target_;  // in_ as Hintable (null without hints)
    mutable State state_ = State::unknown;
};

std::unique_ptr<Element> make_driven(const EntityDesc& d, BuildContext& ctx) {
    const auto& spec = d.spec_as<DrivenSpec>();
    const EntityRef& ref = spec.element;
    std::unique_ptr<Element> inner = ctx.take_element(ref);
    if (!inner)
        ctx.error(d, ref.category + " " + std::to_string(ref.label) +
                         " has no run-time element to drive");
    DrivePtr drive = make_drive(*spec.drive, ctx.drive_env());
    // The hints, kept by the builder with their text and location.
    std::vector<el::Hint> hints;
    auto* target = dynamic_cast<el::Hintable*>(inner.get());
    const std::string what = inner->desc().type + " " + std::to_string(inner->desc().label);
    for (const DrivenSpec::Hint& rec : spec.hints) {
        const std::optional<el::Hint> h = el::parse_hint(rec.text);
        if (!h) throw InputError(rec.loc, "unknown driven element hint \"" + rec.text + "\"");
        if (!target || !target->takes_hint(*h))
            throw InputError(rec.loc, what + " does not take the hint \"" + rec.text + "\"",
                             "hints are taken by revolute/spherical hinges and pins (offset{1|2}, "
                             "hinge{1|2}), total (pin) joints (offset{1|2}, position-hinge{1}, "
                             "orientation-hinge{1|2}), drive hinges (hinge{1|2}) and drive "
                             "displacement joints (offset{1|2})");
        hints.push_back(*h);
    }
    if (hints.empty()) target = nullptr;
    return std::make_unique<Driven>(std::move(inner), std::move(drive), std::move(hints), target);
}

}  // namespace

MBS_REGISTER_ELEMENT_KIND("driven", "",
                          {.no_read = "read by Builder::driven_card() (parser/builder.cpp): the "
                                      "card holds another element's card",
                           .make = make_driven});

}  // namespace mbs
