// Terminal progress line and end-of-run summary.
#include "output/progress.hpp"

#include <algorithm>
#include <cmath>

namespace mbs::output {

Progress::Progress(std::FILE* out, double t0, double tf, bool forever)
    : out_(out), t0_(t0), tf_(tf), forever_(forever || !(tf > t0)) {}

void Progress::begin(const StepView&) {
    start_ = std::chrono::steady_clock::now();
    last_ = start_;
}

void Progress::step(const StepView&, const StepInfo& s) {
    t_ = s.time;
    if (s.step > 0) {
        ++steps_;
        iterations_ += s.iterations;
    }
    auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    draw();
}

void Progress::draw() {
    double elapsed = std::chrono::duration<double>(last_ - start_).count();
    char line[256];
    int n = std::snprintf(line, sizeof line, "t = %.6g", t_);
    if (!forever_) {
        double frac = std::clamp((t_ - t0_) / (tf_ - t0_), 0.0, 1.0);
        n += std::snprintf(line + n, sizeof line - n, " / %.6g s  %5.1f%%", tf_, 100.0 * frac);
    } else {
        n += std::snprintf(line + n, sizeof line - n, " s");
    }
    double mean_it =
        steps_ > 0 ? static_cast<double>(iterations_) / static_cast<double>(steps_) : 0.0;
    n += std::snprintf(line + n, sizeof line - n, "  %ld steps  %.2f it/step  %s", steps_, mean_it,
                       format_duration(elapsed).c_str());
    if (!forever_ && t_ > t0_) {
        double left = elapsed * (tf_ - t_) / (t_ - t0_);
        n += std::snprintf(line + n, sizeof line - n, "  ETA %s", format_duration(left).c_str());
    }
    // Pad over the previous line, return to column 0.
    std::fprintf(out_, "\r%s%*s", line, width_ > n ? width_ - n : 0, "");
    std::fflush(out_);
    width_ = n;
}

void Progress::end(const StepView&, const std::string&) {
    if (width_ > 0) {
        std::fprintf(out_, "\r%*s\r", width_, "");
        std::fflush(out_);
    }
    width_ = 0;
}

std::string format_duration(double s) {
    char b[64];
    if (!std::isfinite(s) || s < 0) return "?";
    if (s < 60.0) {
        std::snprintf(b, sizeof b, "%.1f s", s);
        return b;
    }
    long t = std::lround(s);
    if (t < 3600)
        std::snprintf(b, sizeof b, "%ld:%02ld", t / 60, t % 60);
    else
        std::snprintf(b, sizeof b, "%ld:%02ld:%02ld", t / 3600, (t / 60) % 60, t % 60);
    return b;
}

void print_summary(std::FILE* out, const RunStats& st, double wall,
                   const std::vector<std::string>& files, const std::string& stopped) {
    if (!stopped.empty()) std::fprintf(out, "mbsolve: %s\n", stopped.c_str());
    // The first line keeps its format: benchmarks/run_bench.py reads it.
    std::fprintf(out,
                 "mbsolve: %ld steps, %ld rejected, %ld iterations, %ld factorizations, %.6g s\n",
                 st.steps, st.rejected, st.iterations, st.factorizations, wall);
    const double n = st.steps > 0 ? static_cast<double>(st.steps) : 1.0;
    std::fprintf(out,
                 "mbsolve: %.2f iterations and %.2f factorizations per step, %.4g ms per step\n",
                 static_cast<double>(st.iterations) / n, static_cast<double>(st.factorizations) / n,
                 1e3 * wall / n);
    if (!files.empty()) {
        std::fprintf(out, "mbsolve: output files:");
        for (const auto& f : files) std::fprintf(out, " %s", f.c_str());
        std::fprintf(out, "\n");
    }
}

}  // namespace mbs::output
