// The `eigenanalysis` card during a run: when each requested time is reached, the analysis of
// eigenanalysis.cpp and its Octave file PREFIX_<k>.m (docs/output.md 6).
#include <cmath>
#include <cstdio>
#include <memory>

#include "core/model.hpp"
#include "solvers/dae/eigenanalysis.hpp"

namespace mbs {

EigenanalysisSink::EigenanalysisSink(Engine& e, const Model& m, std::string prefix)
    : engine_(e), model_(m), prefix_(std::move(prefix)) {}

void EigenanalysisSink::step(const StepView&, const StepInfo& s) {
    const EigenanalysisSettings& set = model_.solver.eigenanalysis;
    // A requested time is reached by the first step ending at or after it (MBDyn's rule), up to
    // the rounding of t0 + k h.
    while (next_ < set.times.size() &&
           s.time >= set.times[next_] - 1e-9 * std::max(1.0, std::fabs(s.dt))) {
        const double h = set.parameter > 0.0 ? set.parameter : s.dt;
        const EigenResult r =
            eigenanalysis(engine_, s.time, s.dt, h / 2.0, set.output_eigenvectors, set.loc);
        write(r, next_);
        char buf[200];
        const int free = 2 * r.reduced - r.infinite;
        if (r.reduced == 0)
            std::snprintf(buf, sizeof buf,
                          "eigenanalysis at t = %.9g: no free degree of freedom (every position "
                          "coordinate is constrained): no eigenvalues",
                          s.time);
        else if (free == 0)
            std::snprintf(buf, sizeof buf,
                          "eigenanalysis at t = %.9g: no inertia on the %d free coordinates: "
                          "every eigenvalue is infinite, none written",
                          s.time, r.reduced);
        if ((r.reduced == 0 || free == 0) && on_note) on_note(buf);
        ++next_;
    }
}

void EigenanalysisSink::end(const StepView&, const std::string&) {}

std::vector<double> EigenanalysisSink::missed() const {
    const auto& t = model_.solver.eigenanalysis.times;
    return {t.begin() + static_cast<std::ptrdiff_t>(next_), t.end()};
}

void EigenanalysisSink::write(const EigenResult& r, std::size_t k) {
    const EigenanalysisSettings& set = model_.solver.eigenanalysis;
    int width = set.suffix_width;
    if (width < 0) {  // `compute`: the digits of the largest index
        width = 1;
        for (std::size_t m = set.times.size() - 1; m >= 10; m /= 10) ++width;
    }
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, "_%0*zu.m", width, k);
    const std::string path = prefix_ + suffix;
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "w"), &std::fclose);
    if (!f) throw std::invalid_argument("cannot write '" + path + "'");
    std::FILE* o = f.get();
    const int p = set.results_precision > 0 ? set.results_precision : 16;
    std::fprintf(o, "%% mbsolve eigenanalysis %zu of %s (docs/output.md 6)\n", k,
                 model_.deck_path.c_str());
    std::fprintf(o, "%% time: %.*g\ndTime = %.*g;\n%% coefficient\ndCoef = %.*g;\n", p, r.time, p,
                 r.time, p, r.dcoef);
    std::fprintf(o,
                 "%% %d unknowns: %d momenta and %d multipliers eliminated (%d redundant "
                 "constraint(s) dropped),\n%% %d independent coordinates: %d eigenvalues, %d "
                 "infinite ones removed (directions without inertia)\n",
                 r.unknowns, r.momenta, r.constraints, r.redundant, r.reduced, 2 * r.reduced,
                 r.infinite);
    std::vector<std::size_t> keep;
    for (std::size_t i = 0; i < r.eigenvalues.size(); ++i) {
        const double f_Hz = std::fabs(r.eigenvalues[i].imag()) / (2 * M_PI);
        if (f_Hz < set.lower_frequency_Hz) continue;
        if (set.upper_frequency_Hz > 0 && f_Hz > set.upper_frequency_Hz) continue;
        keep.push_back(i);
    }
    std::fprintf(o,
                 "%% %zu eigenvalues written (frequency limits on the damped frequency)\n"
                 "%% lambda: real [1/s], imag [1/s], frequency [Hz] = |lambda|/(2 pi), damping "
                 "ratio = -real/|lambda|,\n%%   damped frequency [Hz] = |imag|/(2 pi); sorted by "
                 "|lambda|\nlambda = [\n",
                 keep.size());
    for (std::size_t i : keep) {
        const std::complex<double> l = r.eigenvalues[i];
        const double m = std::abs(l);
        std::fprintf(o, "%.*g %.*g %.*g %.*g %.*g;\n", p, l.real(), p, l.imag(), p, m / (2 * M_PI),
                     p, m > 0 ? -l.real() / m : 0.0, p, std::fabs(l.imag()) / (2 * M_PI));
    }
    std::fprintf(o,
                 "];\n%% alphar, alphai, beta: MBDyn's eigenvalues, z = (1 + dCoef lambda) / (1 - "
                 "dCoef lambda)\nalpha = [\n");
    for (std::size_t i : keep) {
        const std::complex<double> l = r.eigenvalues[i];
        const std::complex<double> z = (1.0 + r.dcoef * l) / (1.0 - r.dcoef * l);
        std::fprintf(o, "%.*g %.*g 1;\n", p, z.real(), p, z.imag());
    }
    std::fprintf(o, "];\n");
    if (set.output_geometry) {
        std::fprintf(o, "%% output geometry: node labels and positions, X0(:, i) of nodes(i)\n");
        std::fprintf(o, "nodes = [");
        for (long l : r.nodes) std::fprintf(o, " %ld", l);
        std::fprintf(o, " ];\nX0 = [\n");
        for (int j = 0; j < 3; ++j) {
            for (const Eigen::Vector3d& x : r.position) std::fprintf(o, " %.*g", p, x(j));
            std::fprintf(o, ";\n");
        }
        std::fprintf(o, "];\n");
    }
    if (set.output_eigenvectors) {
        std::fprintf(o,
                     "%% eigenvectors: VR(6 (i - 1) + (1:6), j): node i's displacement x y z and "
                     "rotation vector x y z\n%% in mode j (global frame, the largest component "
                     "1); nodes in the order of 'nodes'\n");
        if (!set.output_geometry) {
            std::fprintf(o, "nodes = [");
            for (long l : r.nodes) std::fprintf(o, " %ld", l);
            std::fprintf(o, " ];\n");
        }
        std::fprintf(o, "%% largest relative residual of a mode: %.3g\nVR = [\n", r.max_residual);
        for (Eigen::Index i = 0; i < r.shapes.rows(); ++i) {
            for (std::size_t j : keep) {
                const std::complex<double> v = r.shapes(i, static_cast<Eigen::Index>(j));
                std::fprintf(o, " %.*g%+.*gi", p, v.real(), p, v.imag());
            }
            std::fprintf(o, ";\n");
        }
        std::fprintf(o, "];\n");
    }
    files_.push_back(path);
}

}  // namespace mbs
