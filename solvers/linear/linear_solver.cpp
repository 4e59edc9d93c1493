// KLU (also for `naive`), UMFPACK and dense LU behind the LinearSolver interface.
#include "solvers/linear/linear_solver.hpp"

#include <klu.h>
#include <umfpack.h>

#include <Eigen/Dense>
#include <stdexcept>
#include <vector>

namespace mbs {

namespace {

// KLU: klu_analyze once; klu_factor the first time, klu_refactor afterwards (same pivot order),
// and a fresh klu_factor when the refactored pivots have degraded (rcond estimate). `naive` is
// this solver too, under its own name: MBDyn's naive solver is a sparse LU with threshold
// partial pivoting (and COLAMD columns with its `colamd` option), not a dense one.
class KluSolver final : public LinearSolver {
  public:
    explicit KluSolver(const char* name) : name_(name) {
        klu_defaults(&common_);
        // COLAMD on A rather than AMD on A + A^T: the multiplier rows have zero diagonals, so
        // partial pivoting departs from a symmetric ordering (chain_200: 386k instead of 539k
        // flops per factorization, rcond 1e-6 instead of 2e-8).
        common_.ordering = 1;
    }
    ~KluSolver() override {
        if (numeric_) klu_free_numeric(&numeric_, &common_);
        if (symbolic_) klu_free_symbolic(&symbolic_, &common_);
    }
    void analyze(const CscMatrix& a) override {
        n_ = a.size();
        symbolic_ = klu_analyze(n_, const_cast<int*>(a.col_start()),
                                const_cast<int*>(a.row_index()), &common_);
        if (!symbolic_) throw std::runtime_error("KLU analysis failed");
    }
    bool factor(const CscMatrix& a) override {
        auto* ap = const_cast<int*>(a.col_start());
        auto* ai = const_cast<int*>(a.row_index());
        auto* ax = const_cast<double*>(a.values());
        if (numeric_) {
            // Row scaling only steers klu_factor's pivot choice: with the pivots fixed, the
            // unscaled factors are the scaled ones up to a diagonal similarity, and refactoring
            // skips klu_scale's pass over A (10% of a chain_200 run).
            common_.scale = -1;
            bool ok = klu_refactor(ap, ai, ax, symbolic_, numeric_, &common_) &&
                      klu_rcond(symbolic_, numeric_, &common_) && common_.rcond > 1e-12;
            common_.scale = 2;
            if (ok) return true;
            klu_free_numeric(&numeric_, &common_);
        }
        numeric_ = klu_factor(ap, ai, ax, symbolic_, &common_);
        if (!numeric_ || common_.status == KLU_SINGULAR) return false;
        klu_rcond(symbolic_, numeric_, &common_);
        return true;
    }
    void solve(double* b) override { klu_solve(symbolic_, numeric_, n_, 1, b, &common_); }
    double rcond() const override { return common_.rcond; }
    const char* name() const override { return name_; }
    int singular_index() const override {
        return common_.status == KLU_SINGULAR ? static_cast<int>(common_.singular_col) : -1;
    }

  private:
    const char* name_;
    klu_common common_{};
    klu_symbolic* symbolic_ = nullptr;
    klu_numeric* numeric_ = nullptr;
    int n_ = 0;
};

class UmfpackSolver final : public LinearSolver {
  public:
    ~UmfpackSolver() override {
        if (numeric_) umfpack_di_free_numeric(&numeric_);
        if (symbolic_) umfpack_di_free_symbolic(&symbolic_);
    }
    void analyze(const CscMatrix& a) override {
        n_ = a.size();
        x_.resize(n_);
        wi_.resize(n_);
        w_.resize(5 * static_cast<std::size_t>(n_));  // 5n: enough with iterative refinement too
        umfpack_di_defaults(control_);
        control_[UMFPACK_IRSTEP] =
            0;  // Newton corrects the solution anyway: no iterative refinement
        // The symbolic step needs values only for pivoting heuristics; the pattern is what matters.
        if (umfpack_di_symbolic(n_, n_, a.col_start(), a.row_index(), a.values(), &symbolic_,
                                control_, info_) != UMFPACK_OK)
            throw std::runtime_error("UMFPACK symbolic analysis failed");
    }
    bool factor(const CscMatrix& a) override {
        if (numeric_) umfpack_di_free_numeric(&numeric_);
        int st = umfpack_di_numeric(a.col_start(), a.row_index(), a.values(), symbolic_, &numeric_,
                                    control_, info_);
        a_ = &a;
        return st == UMFPACK_OK;
    }
    void solve(double* b) override {
        // wsolve: the workspace is ours, so solving does not allocate.
        umfpack_di_wsolve(UMFPACK_A, a_->col_start(), a_->row_index(), a_->values(), x_.data(), b,
                          numeric_, control_, info_, wi_.data(), w_.data());
        std::copy(x_.begin(), x_.end(), b);
    }
    double rcond() const override { return info_[UMFPACK_RCOND]; }
    const char* name() const override { return "umfpack"; }

  private:
    void* symbolic_ = nullptr;
    void* numeric_ = nullptr;
    double control_[UMFPACK_CONTROL]{};
    double info_[UMFPACK_INFO]{};
    std::vector<double> x_, w_;
    std::vector<int> wi_;
    const CscMatrix* a_ = nullptr;
    int n_ = 0;
};

// Dense LU with full pivoting (`make_linear_solver("dense")`): the oracle in tests; no deck
// names it.
class DenseSolver final : public LinearSolver {
  public:
    void analyze(const CscMatrix& a) override { dense_.setZero(a.size(), a.size()); }
    bool factor(const CscMatrix& a) override {
        dense_.setZero();
        for (int c = 0; c < a.size(); ++c)
            for (int k = a.col_start()[c]; k < a.col_start()[c + 1]; ++k)
                dense_(a.row_index()[k], c) = a.values()[k];
        lu_.compute(dense_);
        return lu_.isInvertible();
    }
    void solve(double* b) override {
        Eigen::Map<Eigen::VectorXd> v(b, dense_.rows());
        v = lu_.solve(Eigen::VectorXd(v));
    }
    double rcond() const override { return lu_.rcond(); }
    const char* name() const override { return "dense"; }

  private:
    Eigen::MatrixXd dense_;
    Eigen::FullPivLU<Eigen::MatrixXd> lu_;
};

}  // namespace

std::unique_ptr<LinearSolver> make_linear_solver(const std::string& name) {
    if (name == "klu") return std::make_unique<KluSolver>("klu");
    if (name == "umfpack") return std::make_unique<UmfpackSolver>();
    if (name == "naive") return std::make_unique<KluSolver>("naive (sparse LU: KLU, COLAMD order)");
    if (name == "dense") return std::make_unique<DenseSolver>();
    throw std::invalid_argument("unknown linear solver '" + name + "'");
}

}  // namespace mbs
