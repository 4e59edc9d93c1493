// Eigenanalysis of the linearized DAE (MBDyn's `eigenanalysis` card, docs/formulation.md 7):
// the iteration matrix at two coefficients gives dr/dy' and dr/dy, the momenta and the
// constraints are eliminated exactly, and the dense reduced pencil is solved with QZ.
#pragma once

#include <Eigen/Dense>
#include <complex>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/step_view.hpp"
#include "solvers/dae/engine.hpp"

namespace mbs {

struct EigenResult {
    double time = 0.0, dcoef = 0.0;
    int unknowns = 0;     // of the DAE
    int constraints = 0;  // constraint equations kept (redundant ones excluded)
    int redundant = 0;    // constraint equations dropped as redundant (multiplier = 0)
    int momenta = 0;      // momentum unknowns eliminated (dynamic nodes)
    int reduced = 0;      // independent position coordinates k (the pencil has 2 k eigenvalues)
    int infinite = 0;     // eigenvalues removed as infinite (directions without inertia)
    // Finite eigenvalues [1/s], sorted by |lambda|, then by imaginary part.
    std::vector<std::complex<double>> eigenvalues;
    // Mode shapes, one column per eigenvalue: 6 rows per structural node of `nodes` (position
    // x, y, z, then rotation vector x, y, z; 3 rows, the position, for displacement nodes,
    // followed by 3 zeros), global frame, scaled so the largest modulus is 1 with phase 0.
    Eigen::MatrixXcd shapes;
    std::vector<long> nodes;                // labels of the structural nodes, engine order
    std::vector<Eigen::Vector3d> position;  // their positions at the analysis
    // The largest relative residual |(s^2 K2 + s K1 + K0) z| / (|s|^2 |K2| + |s| |K1| + |K0|) |z|
    // of a mode (scaled pencil; with `vectors`).
    double max_residual = 0.0;
};

// Linearizes the engine's DAE about its current state (a converged step at time t, step dt)
// and solves the eigenproblem densely; the mode shapes only when `vectors`. Throws InputError
// (at `where`) when an equation is not of a form the elimination handles, SolverFailure when QZ
// fails.
EigenResult eigenanalysis(Engine& e, double t, double dt, double dcoef, bool vectors,
                          const SourceLoc& where);

// The `eigenanalysis` card's analyses during a run: after the first emitted step at or after
// each requested time, writes PREFIX_<k>.m (docs/output.md).
class EigenanalysisSink final : public OutputSink {
  public:
    EigenanalysisSink(Engine& e, const Model& m, std::string prefix);
    void step(const StepView& v, const StepInfo& s) override;
    void end(const StepView& v, const std::string& status) override;
    const std::vector<std::string>& files() const { return files_; }
    // The requested times the run did not reach (warned about at the end).
    std::vector<double> missed() const;
    // Degenerate analyses (no free coordinate, no inertia): an empty table and this note.
    std::function<void(const std::string&)> on_note = [](const std::string& w) {
        std::fprintf(stderr, "mbsolve: note: %s\n", w.c_str());
    };

  private:
    void write(const EigenResult& r, std::size_t k);
    Engine& engine_;
    const Model& model_;
    std::string prefix_;
    std::size_t next_ = 0;
    double dt_ = 0.0;
    std::vector<std::string> files_;
};

}  // namespace mbs
