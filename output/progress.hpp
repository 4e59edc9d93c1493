// Terminal progress line and end-of-run summary.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "core/step_view.hpp"

namespace mbs::output {

// One line, rewritten in place at most 10 times per second: simulated time / final time,
// percentage, steps, mean Newton iterations per step, elapsed wall time and the estimated time
// left. Meant for a terminal: main() adds it only when stdout is one and --quiet is not given.
class Progress final : public OutputSink {
  public:
    // tf < t0 or forever: no percentage and no ETA.
    Progress(std::FILE* out, double t0, double tf, bool forever);
    void begin(const StepView& view) override;
    void step(const StepView& view, const StepInfo& s) override;
    void end(const StepView& view, const std::string& status) override;

  private:
    void draw();

    std::FILE* out_;
    double t0_, tf_;
    bool forever_;
    double t_ = 0.0;
    long steps_ = 0, iterations_ = 0;
    int width_ = 0;  // characters of the last line drawn
    std::chrono::steady_clock::time_point start_, last_;
};

// "1:02:03", "2:03" or "4.2 s".
std::string format_duration(double seconds);

// The end-of-run summary (stdout unless --quiet).
void print_summary(std::FILE* out, const RunStats& st, double wall_seconds,
                   const std::vector<std::string>& files, const std::string& stopped);

}  // namespace mbs::output
