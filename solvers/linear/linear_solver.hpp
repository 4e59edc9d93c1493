// Sparse direct solvers behind one interface: KLU (default: analyze once, refactor afterwards),
// UMFPACK (symbolic once, numeric per factorization), naive (KLU) and dense LU (test oracle).
#pragma once

#include <memory>
#include <string>

#include "core/sparse_matrix.hpp"

namespace mbs {

class LinearSolver {
  public:
    virtual ~LinearSolver() = default;
    // Symbolic analysis of the (fixed) pattern; called once.
    virtual void analyze(const CscMatrix& a) = 0;
    // Numeric factorization of the current values. Returns false if the matrix is singular.
    virtual bool factor(const CscMatrix& a) = 0;
    // Solves A x = b in place (b becomes x), with the last factorization.
    virtual void solve(double* b) = 0;
    // Reciprocal condition estimate of the last factorization (0 if unknown).
    virtual double rcond() const { return 0.0; }
    virtual const char* name() const = 0;
    // After a failed factor(): a column (unknown) found singular, or -1 if not known.
    virtual int singular_index() const { return -1; }
};

// "klu", "umfpack", "naive" (sparse: KLU) or "dense" (LU, full pivoting); else invalid_argument.
std::unique_ptr<LinearSolver> make_linear_solver(const std::string& name);

}  // namespace mbs
