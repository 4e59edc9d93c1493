// Block pattern and slot tables.
#include "core/element.hpp"

#include <map>
#include <stdexcept>

#include "core/source.hpp"

namespace mbs {

BlockId PatternBuilder::block(int r0, int nr, int c0, int nc, const char* mask) {
    if (r0 < 0 || c0 < 0 || nr < 0 || nc < 0 || r0 + nr > n_ || c0 + nc > n_)
        throw std::logic_error("Jacobian block outside the system");
    Block b{r0, nr, c0, nc, slots_, {}};
    if (mask) {
        b.keep.assign(static_cast<std::size_t>(nr) * nc, false);
        int gr = 0, gc = 0;
        for (const char* m = mask; *m; ++m) {
            if (*m == '|') {
                ++gr, gc = 0;
                continue;
            }
            if (*m != '.' && *m != 'I' && *m != 'F')
                throw std::logic_error("bad block mask character");
            for (int i = 3 * gr; i < std::min(3 * gr + 3, nr); ++i)
                for (int j = 3 * gc; j < std::min(3 * gc + 3, nc); ++j)
                    if (*m == 'F' || (*m == 'I' && i - 3 * gr == j - 3 * gc))
                        b.keep[j * nr + i] = true;
            ++gc;
        }
    }
    blocks_.push_back(std::move(b));
    slots_ += nr * nc;
    return static_cast<BlockId>(blocks_.size() - 1);
}

namespace {
std::vector<std::pair<int, int>> entries_of(const PatternBuilder& p) {
    std::vector<std::pair<int, int>> e;
    for (const auto& b : p.blocks())
        for (int j = 0; j < b.nc; ++j)
            for (int i = 0; i < b.nr; ++i)
                if (b.keep.empty() || b.keep[j * b.nr + i]) e.emplace_back(b.r0 + i, b.c0 + j);
    // Every diagonal entry is in the pattern, so a row or column with no entries shows up as a
    // zero pivot (with its equation named) rather than as a structurally singular pattern.
    for (int i = 0; i < p.size(); ++i) e.emplace_back(i, i);
    return e;
}
}  // namespace

Jacobian::Jacobian(const PatternBuilder& p) : blocks_(p.blocks()), m_(p.size(), entries_of(p)) {
    for (const auto& b : blocks_)
        for (int j = 0; j < b.nc; ++j)
            for (int i = 0; i < b.nr; ++i)
                slots_.push_back(
                    b.keep.empty() || b.keep[j * b.nr + i] ? m_.slot(b.r0 + i, b.c0 + j) : -1);
    for (int i = 0; i < p.size(); ++i) diag_slots_.push_back(m_.slot(i, i));
    for (const auto& b : blocks_) {
        entry_begin_.push_back(static_cast<int>(entries_.size()));
        const int* s = slots_.data() + b.slot0;
        for (int j = 0; j < b.nc; ++j)
            for (int i = 0; i < b.nr; ++i)
                if (s[j * b.nr + i] >= 0)
                    entries_.push_back({s[j * b.nr + i], static_cast<std::uint16_t>(i),
                                        static_cast<std::uint16_t>(j)});
    }
    entry_begin_.push_back(static_cast<int>(entries_.size()));
}

void Jacobian::add_diag(BlockId b, double v) {
    const auto& blk = blocks_[b];
    const int* s = slots_.data() + blk.slot0;
    double* val = m_.values();
    for (int i = 0; i < std::min(blk.nr, blk.nc); ++i)
        if (s[i * blk.nr + i] >= 0) val[s[i * blk.nr + i]] += v;
}

}  // namespace mbs
