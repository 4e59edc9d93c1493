// Compressed-sparse-column matrix with a pattern fixed once (docs/formulation.md 5): elements
// declare the (row, col) entries they touch, the pattern is built and sorted once, each element
// caches the value slots it writes, and assembly inside the Newton loop is a plain indexed add.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace mbs {

class CscMatrix {
  public:
    // Builds the pattern of an n x n matrix from (row, col) pairs (duplicates allowed).
    CscMatrix(int n, std::vector<std::pair<int, int>> entries);

    int size() const { return n_; }
    int nonzeros() const { return static_cast<int>(row_index_.size()); }
    // Value slot of (row, col); -1 if the entry is not in the pattern. Set-up time only.
    int slot(int row, int col) const;

    void set_zero();
    void add(int slot, double v) { values_[slot] += v; }
    double* values() { return values_.data(); }
    const double* values() const { return values_.data(); }
    const int* col_start() const { return col_start_.data(); }
    const int* row_index() const { return row_index_.data(); }
    // y = A x (tests and residual checks).
    void multiply(const double* x, double* y) const;

  private:
    int n_;
    std::vector<int> col_start_;
    std::vector<int> row_index_;
    std::vector<double> values_;
};

}  // namespace mbs
