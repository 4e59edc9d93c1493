// `file, L [, column] [, amplitude, a]`: channel `column` (default 1) of file driver L of the
// drivers block (core/file_driver.hpp, docs/deck-language.md "File drivers"), times `a`.
//
// Typed arguments (FileArgs, described in card order under the names in quotes): label
// "drive label" (long), column "column" (long >= 1, default 1), amplitude "amplitude" (default 1).
// As in MBDyn, any value right after the label is the column, and the driver must be defined
// before the card (the drivers block comes before the elements): both are checked here.
//
// Runtime: the driver's value at the current time, as MBDyn's FileDriveCaller, which returns the
// value its driver holds for the step under way whatever its input: the input x when the drive is
// fed the time, else the time of the evaluation (the clock's). No derivative (MBDyn's file drive
// caller has none): differentiable() is false. Evaluation is a few flops (fixed step) or a moving
// index into the sample times (variable step, binary search after a jump); nothing allocates.
#include <atomic>
#include <cmath>
#include <string>

#include "core/file_driver.hpp"
#include "core/registry.hpp"
#include "elements/drives/drive_util.hpp"
#include "elements/drives/runtime_util.hpp"

namespace mbs::drives {
namespace {

struct FileArgs final : KindArgs {
    long label = 0, column = 1;
    double amplitude = 1.0;
    void describe(Props& out) const override {
        out.set("drive label", label);
        out.set("column", column);
        out.set("amplitude", amplitude);
    }
};

void read_file(Reader& r, DriveSpec& d) {
    auto& a = emplace_args<FileArgs>(d);
    SourceLoc at = r.loc();
    a.label = r.label("file driver label");
    const auto& drivers = r.model().file_drivers;
    auto it = drivers.find(a.label);
    if (it == drivers.end())
        r.error_at(at, "file driver " + std::to_string(a.label) + " is not defined",
                   "define it in the drivers block ('begin: drivers; file: " +
                       std::to_string(a.label) + ", ...; end: drivers;'), before the elements");
    if (!r.peek("amplitude") && next_is_value(r)) {
        SourceLoc c = r.loc();
        a.column = count_at_least(r, "column", 1);
        if (a.column > it->second->channels)
            r.error_at(c,
                       "column " + std::to_string(a.column) + " of file driver " +
                           std::to_string(a.label) + ", which has " +
                           std::to_string(it->second->channels) + " channel(s)",
                       "columns are numbered from 1 (a variable-step file's time column is "
                       "not one of them)");
    }
    if (r.accept("amplitude")) a.amplitude = r.real("amplitude");
}

class FileDrive final : public Drive {
  public:
    FileDrive(std::shared_ptr<const FileDriver> fd, long column, double amplitude,
              const SimClock& clock, bool time_input)
        : fd_(std::move(fd)),
          column_(column),
          amplitude_(amplitude),
          clock_(&clock),
          time_input_(time_input) {}
    double value(double x) const override {
        double t = x;
        if (!time_input_) t = std::isnan(rt::eval_time) ? clock_->time : rt::eval_time;
        long h = hint_.load(std::memory_order_relaxed);
        const double v = fd_->value(column_, t, h);
        hint_.store(h, std::memory_order_relaxed);
        return amplitude_ * v;
    }
    double deriv(double) const override { return 0.0; }
    bool differentiable() const override { return false; }

  private:
    std::shared_ptr<const FileDriver> fd_;
    long column_;
    double amplitude_;
    const SimClock* clock_;
    bool time_input_;
    mutable std::atomic<long> hint_{0};  // variable step: the sample at or before the last t
};

DrivePtr make_file(const DriveSpec& d, const DriveEnv& env) {
    const auto& a = d.args_as<FileArgs>();
    if (!env.model) throw std::logic_error("file drive caller needs DriveEnv::model");
    auto it = env.model->file_drivers.find(a.label);
    if (it == env.model->file_drivers.end())
        throw InputError(d.loc, "file driver " + std::to_string(a.label) + " is not defined");
    return rt::make<FileDrive>(it->second, a.column, a.amplitude, rt::clock(d, env),
                               env.time_input);
}

}  // namespace

MBS_REGISTER_DRIVE_KIND("file", {.read = read_file, .make = make_file});

}  // namespace mbs::drives
