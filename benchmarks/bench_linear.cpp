// Where a Newton iteration's time goes, on a real iteration matrix: engine update / residual /
// Jacobian assembly, and the sparse factorization with the KLU and UMFPACK options mbsolve could
// use (ordering, BTF, row scaling, refactor vs factor, rcond check), with fill, flops and the
// relative residual of a solve. Runs the derivatives phase and a few steps first, so the matrix
// is the one of the last Newton iteration (chain decks: ../shared/bench/gen_chain.py N 45).
//
//   bench_linear DECK [--steps K] [--reps R]
#include <klu.h>
#include <umfpack.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "parser/builder.hpp"
#include "solvers/dae/simulation.hpp"

namespace {

using Clock = std::chrono::steady_clock;

// Minimum over 3 batches of `reps` calls, in microseconds per call.
double time_us(int reps, const std::function<void()>& f) {
    double best = 1e300;
    for (int b = 0; b < 3; ++b) {
        auto t0 = Clock::now();
        for (int i = 0; i < reps; ++i) f();
        best = std::min(
            best, std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / reps);
    }
    return best;
}

struct Csc {
    int n = 0;
    std::vector<int> p, i;
    std::vector<double> x;
};

// ||A x - b|| / ||b||
double rel_residual(const Csc& a, const std::vector<double>& x, const std::vector<double>& b) {
    std::vector<double> r(b);
    for (int c = 0; c < a.n; ++c)
        for (int k = a.p[c]; k < a.p[c + 1]; ++k) r[a.i[k]] -= a.x[k] * x[c];
    double nr = 0, nb = 0;
    for (int k = 0; k < a.n; ++k) nr += r[k] * r[k], nb += b[k] * b[k];
    return std::sqrt(nr / nb);
}

// Pivots KLU took off the diagonal of its ordering (partial pivoting on zero or small diagonals).
int count_offdiag_pivots(const klu_symbolic* s, const klu_numeric* num) {
    int k = 0;
    for (int i = 0; i < s->n; ++i) k += num->Pnum[i] != s->P[i];
    return k;
}

// KLU with the given options; `pq` (row and column permutations) replaces KLU's own ordering.
void bench_klu(const char* name, Csc& a, const std::vector<double>& b, int reps, int ordering,
               int btf, int scale, int refactor_scale, bool with_rcond,
               std::vector<int>* pq = nullptr, double tol = 0.001) {
    klu_common c;
    klu_defaults(&c);
    c.tol = tol;
    c.ordering = ordering;
    c.btf = btf;
    c.scale = scale;
    klu_symbolic* s =
        pq ? klu_analyze_given(a.n, a.p.data(), a.i.data(), pq[0].data(), pq[1].data(), &c)
           : klu_analyze(a.n, a.p.data(), a.i.data(), &c);
    if (!s) {
        std::printf("  %-34s analyze failed (status %d)\n", name, c.status);
        return;
    }
    klu_numeric* num = klu_factor(a.p.data(), a.i.data(), a.x.data(), s, &c);
    if (!num) {
        std::printf("  %-34s factor failed (status %d)\n", name, c.status);
        klu_free_symbolic(&s, &c);
        return;
    }
    klu_flops(s, num, &c);
    double flops = c.flops;
    if (s->lnz > 0)
        std::printf("  %-34s (ordering estimate: L+U %.0f, flops %.0f; off-diagonal pivots %d)\n",
                    name, s->lnz + s->unz, s->est_flops, count_offdiag_pivots(s, num));
    double t_factor = time_us(std::max(1, reps / 10), [&] {
        klu_numeric* f = klu_factor(a.p.data(), a.i.data(), a.x.data(), s, &c);
        klu_free_numeric(&f, &c);
    });
    c.scale = refactor_scale;
    double t_refactor = time_us(reps, [&] {
        klu_refactor(a.p.data(), a.i.data(), a.x.data(), s, num, &c);
        if (with_rcond) klu_rcond(s, num, &c);
    });
    std::vector<double> x(b);
    double t_solve = time_us(reps, [&] {
        std::copy(b.begin(), b.end(), x.begin());
        klu_solve(s, num, a.n, 1, x.data(), &c);
    });
    klu_rcond(s, num, &c);
    std::printf(
        "  %-34s blocks %5d  L+U %8d  nzoff %6d  flops %9.0f  factor %8.1f  refactor%s %8.1f  "
        "solve %7.1f"
        "  rcond %.1e  resid %.1e\n",
        name, num->nblocks, num->lnz + num->unz, num->nzoff, flops, t_factor,
        with_rcond ? "+rcond" : "      ", t_refactor, t_solve, c.rcond, rel_residual(a, x, b));
    klu_free_numeric(&num, &c);
    klu_free_symbolic(&s, &c);
}

void bench_umfpack(const char* name, Csc& a, const std::vector<double>& b, int reps, int strategy,
                   int ordering, int scale, double alloc_init = 0.0) {
    double control[UMFPACK_CONTROL], info[UMFPACK_INFO];
    umfpack_di_defaults(control);
    if (alloc_init != 0.0) control[UMFPACK_ALLOC_INIT] = alloc_init;
    control[UMFPACK_IRSTEP] = 0;
    control[UMFPACK_STRATEGY] = strategy;
    control[UMFPACK_ORDERING] = ordering;
    control[UMFPACK_SCALE] = scale;
    void *sym = nullptr, *num = nullptr;
    if (umfpack_di_symbolic(a.n, a.n, a.p.data(), a.i.data(), a.x.data(), &sym, control, info) !=
        UMFPACK_OK) {
        std::printf("  %-34s symbolic failed\n", name);
        return;
    }
    double t_numeric = time_us(reps, [&] {
        if (num) umfpack_di_free_numeric(&num);
        umfpack_di_numeric(a.p.data(), a.i.data(), a.x.data(), sym, &num, control, info);
    });
    double lu = info[UMFPACK_LNZ] + info[UMFPACK_UNZ], flops = info[UMFPACK_FLOPS];
    std::vector<double> x(a.n);
    std::vector<int> wi(a.n);
    std::vector<double> w(5 * a.n);
    double t_solve = time_us(reps, [&] {
        umfpack_di_solve(UMFPACK_A, a.p.data(), a.i.data(), a.x.data(), x.data(), b.data(), num,
                         control, info);
    });
    double t_wsolve = time_us(reps, [&] {
        umfpack_di_wsolve(UMFPACK_A, a.p.data(), a.i.data(), a.x.data(), x.data(), b.data(), num,
                          control, info, wi.data(), w.data());
    });
    std::printf(
        "  %-34s L+U %8.0f  flops %9.0f  numeric %8.1f  solve %7.1f  wsolve %7.1f  resid %.1e\n",
        name, lu, flops, t_numeric, t_solve, t_wsolve, rel_residual(a, x, b));
    umfpack_di_free_numeric(&num);
    umfpack_di_free_symbolic(&sym);
}

// UMFPACK's row and column pivot orders (P [k] = row of A that is the k-th pivot row; Q likewise
// for columns), from one symbolic + numeric factorization.
bool umfpack_order(const Csc& a, std::vector<int>* pq) {
    double control[UMFPACK_CONTROL], info[UMFPACK_INFO];
    umfpack_di_defaults(control);
    void *sym = nullptr, *num = nullptr;
    bool ok = umfpack_di_symbolic(a.n, a.n, a.p.data(), a.i.data(), a.x.data(), &sym, control,
                                  info) == UMFPACK_OK &&
              umfpack_di_numeric(a.p.data(), a.i.data(), a.x.data(), sym, &num, control, info) ==
                  UMFPACK_OK;
    pq[0].resize(a.n);
    pq[1].resize(a.n);
    int do_recip = 0;
    ok = ok &&
         umfpack_di_get_numeric(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, pq[0].data(),
                                pq[1].data(), nullptr, &do_recip, nullptr, num) == UMFPACK_OK;
    if (num) umfpack_di_free_numeric(&num);
    if (sym) umfpack_di_free_symbolic(&sym);
    return ok;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_linear DECK [--steps K] [--reps R]\n");
        return 2;
    }
    std::string deck = argv[1];
    int steps = 20, reps = 200;
    for (int k = 2; k + 1 < argc; k += 2) {
        std::string a = argv[k];
        if (a == "--steps")
            steps = std::stoi(argv[k + 1]);
        else if (a == "--reps")
            reps = std::stoi(argv[k + 1]);
    }
    mbs::parser::BuildOptions bo;
    bo.echo_warnings = false;
    mbs::Model model = mbs::parser::build_model(deck, bo);
    mbs::SolverSettings settings = mbs::SolverSettings::from_model(model);
    settings.linear_solver = "klu";
    mbs::Simulation sim(model, settings);
    sim.derivatives();
    mbs::StepInfo info;
    for (int k = 0; k < steps; ++k)
        if (!sim.step(settings.dt, info)) return 3;
    mbs::Engine& e = sim.engine();
    const mbs::CscMatrix& m = e.jac().matrix();
    Csc a;
    a.n = m.size();
    a.p.assign(m.col_start(), m.col_start() + a.n + 1);
    a.i.assign(m.row_index(), m.row_index() + m.nonzeros());
    a.x.assign(m.values(), m.values() + m.nonzeros());
    std::vector<double> b(a.n);
    for (int k = 0; k < a.n; ++k) b[k] = std::sin(1.0 + k);

    long zeros = std::count(a.x.begin(), a.x.end(), 0.0);
    std::printf(
        "%s: %d unknowns, %d nonzeros in the pattern (%ld of them exactly 0 now), %zu elements, "
        "after %d steps\n",
        deck.c_str(), a.n, m.nonzeros(), zeros, e.elements().size(), steps);
    // Engine phases at the converged state (the values of y do not change: same work per call).
    mbs::StepContext c{0.0, settings.dt, 0.3 * settings.dt, mbs::Phase::dynamic};
    std::vector<double> r(a.n);
    double t_update = time_us(reps, [&] { e.update(c.time, c.dt); });
    double t_residual = time_us(reps, [&] { e.residual(c, r.data()); });
    double t_jacobian = time_us(reps, [&] { e.jacobian(c); });
    std::printf(
        "engine (us per call): update %.1f  residual %.1f  jacobian %.1f (set_zero + element "
        "blocks)\n",
        t_update, t_residual, t_jacobian);

    std::printf(
        "KLU (us per call; refactor is what each Newton iteration pays, factor only after rcond < "
        "1e-12):\n");
    bench_klu("AMD, BTF, scale max [current]", a, b, reps, 0, 1, 2, 2, true);
    bench_klu("AMD, BTF, scale max, no rcond", a, b, reps, 0, 1, 2, 2, false);
    bench_klu("AMD, BTF, scaled factor, refactor -1", a, b, reps, 0, 1, 2, -1, true);
    bench_klu("AMD, BTF, no scaling", a, b, reps, 0, 1, -1, -1, true);
    bench_klu("AMD, no BTF, scale max", a, b, reps, 0, 0, 2, 2, true);
    bench_klu("COLAMD, BTF, scale max", a, b, reps, 1, 1, 2, 2, true);
    bench_klu("COLAMD, BTF, scaled factor, refactor -1", a, b, reps, 1, 1, 2, -1, true);
    // (Natural order, also with each dynamic node's momentum rows first, fills L+U to ~2.1M on
    // chain_200 -- 30x AMD's -- because KLU pivots off the tiny rotary-inertia diagonals.)
    std::vector<int> pq[2];
    if (umfpack_order(a, pq))
        bench_klu("UMFPACK's P,Q, no BTF, scale max", a, b, reps, 2, 0, 2, 2, true, pq);
    std::printf("UMFPACK (no iterative refinement; numeric = free + umfpack_di_numeric):\n");
    bench_umfpack("auto, AMD, scale sum [current]", a, b, reps, UMFPACK_STRATEGY_AUTO,
                  UMFPACK_ORDERING_AMD, UMFPACK_SCALE_SUM);
    bench_umfpack("symmetric, AMD, scale sum", a, b, reps, UMFPACK_STRATEGY_SYMMETRIC,
                  UMFPACK_ORDERING_AMD, UMFPACK_SCALE_SUM);
    bench_umfpack("unsymmetric, AMD, scale sum", a, b, reps, UMFPACK_STRATEGY_UNSYMMETRIC,
                  UMFPACK_ORDERING_AMD, UMFPACK_SCALE_SUM);
    bench_umfpack("auto, METIS, scale sum", a, b, reps, UMFPACK_STRATEGY_AUTO,
                  UMFPACK_ORDERING_METIS, UMFPACK_SCALE_SUM);
    bench_umfpack("auto, AMD, scale sum, alloc init 2", a, b, reps, UMFPACK_STRATEGY_AUTO,
                  UMFPACK_ORDERING_AMD, UMFPACK_SCALE_SUM, 2.0);
    bench_umfpack("symmetric, AMD, no scaling", a, b, reps, UMFPACK_STRATEGY_SYMMETRIC,
                  UMFPACK_ORDERING_AMD, UMFPACK_SCALE_NONE);
    return 0;
}
