// The output of named drive callers (docs/deck-language.md 1.5; MBDyn's DriveCaller::Output and
// ::Trace, mbdyn/base/drive.cc): a `drive caller: L, <drive>, output, <flags>` card writes
// `L [value] [derivative]` to PREFIX.drv at every output step, `output trace, <flags>` the same
// to PREFIX.trc at every time step (output/text_output.cpp), as MBDyn. The flags are read by
// Builder::drive_caller_card into DriveSpec::output / trace (DriveOutput bits).
//
// Engine::build_elements makes one output-only element per flagged card and file, after the
// deck's elements (kinds "drive caller" "output" / "trace", never read from a deck): it owns its
// own runtime of the drive (make_drive), evaluated at the converged step's time, and moves its
// state on after every step (after_step), as every user of the drive does. NetCDF/HDF5: the
// .drv values, group `drive_callers`, NetCDF drive.<L>.value, .derivative (MBDyn writes drive
// callers to text only); the trace is text only (it is written at every step, not at the
// output steps, where its values are the .drv's).
#include <memory>
#include <string>

#include "core/drive.hpp"
#include "core/element.hpp"
#include "core/registry.hpp"

namespace mbs {
namespace {

class DriveCallerOutput final : public Element {
  public:
    DriveCallerOutput(const EntityDesc& d, DrivePtr f, double t0, bool trace, bool value,
                      bool derivative, std::string type)
        : Element(d),
          f_(std::move(f)),
          t_(t0),
          trace_(trace),
          value_(value),
          derivative_(derivative),
          type_(std::move(type)) {}
    void declare(PatternBuilder&) override {}
    void residual(const StepContext&, const StateView&, double*) const override {}
    void jacobian(const StepContext&, const StateView&, Jacobian&) const override {}
    void after_step(const StepContext& c, const StateView&) override {
        f_->after_step();
        t_ = c.time;
    }
    const char* output_file() const override { return trace_ ? "trc" : "drv"; }
    int output_values(double* v) const override {
        int n = 0;
        if (value_) v[n++] = f_->value(t_);
        if (derivative_) v[n++] = f_->deriv(t_);
        return n;
    }
    bool output_schema(OutputSchema& s) const override {
        if (trace_) return false;
        s.group = "drive_callers";
        s.nc_prefix = "drive";
        s.order = 130;
        s.nc_type = type_;
        for (int k = 0; k < 2; ++k) {
            OutputQuantity q;
            q.name = k ? "derivative" : "value";
            q.ncomp = 1;
            q.units = k ? "deck units/s" : "deck units";
            q.description = k ? "time derivative of the drive caller (.drv)"
                              : "value of the drive caller (.drv)";
            q.column = k ? (derivative_ ? (value_ ? 1 : 0) : -1) : (value_ ? 0 : -1);
            s.quantities.push_back(std::move(q));
        }
        return true;
    }

  private:
    DrivePtr f_;
    double t_;
    bool trace_, value_, derivative_;
    std::string type_;
};

std::unique_ptr<Element> make_drive_output(const EntityDesc& d, BuildContext& ctx) {
    const DriveSpec& spec = *ctx.model().drive_callers.at(d.label);
    const bool trace = d.type == "trace";
    const unsigned char f = trace ? spec.trace : spec.output;
    DrivePtr drive = make_drive(spec, ctx.drive_env());
    if ((f & DriveOutput::derivative) && !drive->differentiable())
        ctx.error(d,
                  "drive caller " + std::to_string(d.label) + " has no derivative to write ('" +
                      (trace ? "output trace" : "output") + ", derivative, yes')",
                  "ask for its value only ('value, yes')");
    const bool derivative = (f & DriveOutput::derivative) ||
                            ((f & DriveOutput::derivative_if_any) && drive->differentiable());
    const double t0 = ctx.drive_env().clock ? ctx.drive_env().clock->time : 0.0;
    return std::make_unique<DriveCallerOutput>(
        d, std::move(drive), t0, trace, (f & DriveOutput::value) != 0, derivative, spec.type);
}

constexpr const char* no_read =
    "made by Engine::build_elements() for a drive caller card with output flags";

}  // namespace

MBS_REGISTER_ELEMENT_KIND("drive caller", "output",
                          {.no_read = no_read, .make = make_drive_output});
MBS_REGISTER_ELEMENT_KIND("drive caller", "trace", {.no_read = no_read, .make = make_drive_output});

}  // namespace mbs
