// CSC pattern construction (once) and slot look-up (set-up time).
#include "core/sparse_matrix.hpp"

#include <algorithm>
#include <stdexcept>

namespace mbs {

CscMatrix::CscMatrix(int n, std::vector<std::pair<int, int>> entries) : n_(n) {
    for (const auto& [r, c] : entries)
        if (r < 0 || r >= n || c < 0 || c >= n)
            throw std::out_of_range("CSC entry outside the matrix");
    // Sort by (col, row) and drop duplicates.
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second < b.second : a.first < b.first;
    });
    entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
    col_start_.assign(n + 1, 0);
    row_index_.reserve(entries.size());
    for (const auto& [r, c] : entries) {
        ++col_start_[c + 1];
        row_index_.push_back(r);
    }
    for (int c = 0; c < n; ++c) col_start_[c + 1] += col_start_[c];
    values_.assign(row_index_.size(), 0.0);
}

int CscMatrix::slot(int row, int col) const {
    if (col < 0 || col >= n_) return -1;
    auto b = row_index_.begin() + col_start_[col], e = row_index_.begin() + col_start_[col + 1];
    auto it = std::lower_bound(b, e, row);
    return it != e && *it == row ? static_cast<int>(it - row_index_.begin()) : -1;
}

void CscMatrix::set_zero() { std::fill(values_.begin(), values_.end(), 0.0); }

void CscMatrix::multiply(const double* x, double* y) const {
    std::fill(y, y + n_, 0.0);
    for (int c = 0; c < n_; ++c)
        for (int k = col_start_[c]; k < col_start_[c + 1]; ++k)
            y[row_index_[k]] += values_[k] * x[c];
}

}  // namespace mbs
