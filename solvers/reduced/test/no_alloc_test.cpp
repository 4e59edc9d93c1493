// The recursive algorithms allocate nothing per call (docs/style.md rule 1): global operator new is
// replaced by a counting one (malloc too, on glibc: Eigen allocates with it), and forward
// kinematics, Newton-Euler inverse dynamics, the CRBA mass matrix and the loop constraints are
// called on preallocated workspaces.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include "solvers/reduced/dynamics.hpp"
#include "solvers/reduced/test/chain.hpp"

namespace {
std::atomic<long> g_news{0};
std::atomic<long> g_mallocs{0};
}  // namespace

void* operator new(std::size_t n) {
    ++g_news;
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
    ++g_news;
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

// Eigen's dynamic matrices allocate with malloc: count it too (glibc).
#if defined(__GLIBC__)
extern "C" {
void* __libc_malloc(std::size_t);
void* malloc(std::size_t n) {
    ++g_mallocs;
    return __libc_malloc(n);
}
}
#endif

using namespace mbs::reduced;

TEST(ReducedNoAlloc, RecursiveAlgorithmsDoNotAllocate) {
    ReducedModel m = make_chain(12);
    // Two cuts closing the chain on itself and on the ground.
    Cut c;
    c.kind = CutKind::ball;
    c.link_a = 2;
    c.link_b = 9;
    c.rows = 3;
    m.cuts.push_back(c);
    c.kind = CutKind::revolute;
    c.link_a = -1;
    c.link_b = 11;
    c.first_row = 3;
    c.rows = 5;
    m.cuts.push_back(c);
    m.n_constraints = 8;
    Workspace ws = make_workspace(m);
    VecX q = VecX::LinSpaced(m.nq(), 0.1, 1.2), qd = VecX::LinSpaced(m.nq(), -1.0, 1.0);
    VecX qdd = VecX::LinSpaced(m.nq(), 0.5, -0.5);
    const long before = g_news.load(), mallocs = g_mallocs.load();
    for (int k = 0; k < 10; ++k) {
        forward_kinematics(m, ws, q, qd, qdd);
        compute_loads(m, ws, 0.1 * k);
        inverse_dynamics(m, ws);
        mass_matrix(m, ws);
        forward_kinematics(m, ws, q, qd, ws.zero);
        constraints(m, ws);
        evaluate(m, ws, q, qd, 0.0);
    }
    EXPECT_EQ(g_news.load() - before, 0);
#if defined(__GLIBC__)
    EXPECT_EQ(g_mallocs.load() - mallocs, 0);
    const long m2 = g_mallocs.load();
    VecX probe_eigen = q * 2.0;
    EXPECT_GT(g_mallocs.load() - m2, 0);
    EXPECT_EQ(probe_eigen.size(), q.size());
#endif
    // The counter works: an allocation through operator new is seen (Eigen's dynamic matrices
    // use malloc directly, so a std::vector is the probe).
    const long b2 = g_news.load();
    std::vector<double> probe(static_cast<std::size_t>(m.nq()), 1.0);
    EXPECT_GT(g_news.load() - b2, 0);
    EXPECT_EQ(probe.size(), static_cast<std::size_t>(m.nq()));
}
