// Allocation check of the time loop (docs/style.md rule 1: nothing allocates inside the loop).
// Replaces the global operator new/delete and, on glibc, malloc/calloc/realloc with counting
// versions; builds a Simulation on a chain deck, runs the derivatives phase and a few warm-up
// steps, then counts the allocations made by N further Simulation::step calls (and, reported
// separately, by the text output sink fed those steps). Each allocating call site is printed
// once, with a count and a backtrace (-rdynamic gives names; addr2line -C -f -e step_alloc_test
// gives lines).
//
//   step_alloc_test [--links N] [--deck PATH] [--solver klu|umfpack] [--steps N] [--output PREFIX]
//                   [--strict-malloc]
// Exit status 0 if Simulation::step (and, with --output, TextOutput::step) made no operator-new
// allocation (and, with --strict-malloc, no C allocation either: the linear solver libraries
// allocate with malloc).
#include <dlfcn.h>
#include <execinfo.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <new>
#include <sstream>
#include <string>

#include "output/text_output.hpp"
#include "parser/builder.hpp"
#include "solvers/dae/simulation.hpp"

// ---------------------------------------------------------------------------------------------
// Counting allocator. Counting is armed only around the measured calls; while armed, each
// allocation is attributed to a call site -- the functions (dladdr) of its first two callers --
// in a fixed table, which keeps one backtrace per site (no allocation while recording).
namespace alloc_count {

constexpr int max_sites = 32;
constexpr int max_depth = 24;
constexpr int key_depth = 2;
struct Site {
    const char* kind;
    void* key[key_depth];
    long count;
    std::size_t bytes;
    int depth;
    void* frames[max_depth];
};

bool armed = false;
bool in_hook = false;
long cxx_news = 0, cxx_deletes = 0, c_allocs = 0, c_frees = 0, unsorted = 0;
Site sites[max_sites];
int nsites = 0;

void record(const char* kind, std::size_t bytes) {
    if (!armed || in_hook) return;
    in_hook = true;
    void* f[max_depth];
    int depth = backtrace(f, max_depth);
    void* key[key_depth] = {};
    for (int i = 0; i < key_depth && i + 2 < depth; ++i) {
        Dl_info info;
        key[i] = dladdr(f[i + 2], &info) && info.dli_saddr ? info.dli_saddr : f[i + 2];
    }
    int k = 0;
    for (; k < nsites; ++k) {
        bool same = sites[k].kind == kind;
        for (int i = 0; same && i < key_depth; ++i) same = sites[k].key[i] == key[i];
        if (same) break;
    }
    if (k == nsites && nsites < max_sites) {
        Site& s = sites[nsites++];
        s = Site{kind, {}, 0, 0, depth, {}};
        for (int i = 0; i < key_depth; ++i) s.key[i] = key[i];
        for (int i = 0; i < depth; ++i) s.frames[i] = f[i];
    }
    if (k < nsites) {
        ++sites[k].count;
        sites[k].bytes += bytes;
    } else {
        ++unsorted;
    }
    in_hook = false;
}

void on_new(std::size_t n) {
    if (armed && !in_hook) ++cxx_news;
    record("operator new", n);
}
void on_delete() {
    if (armed && !in_hook) ++cxx_deletes;
}

void reset() {
    cxx_news = cxx_deletes = c_allocs = c_frees = unsorted = 0;
    nsites = 0;
}

void print_sites(const char* phase) {
    for (int i = 0; i < nsites; ++i) {
        std::fprintf(stderr, "--- %s: call site %d: %ld x %s, %zu bytes in all; backtrace:\n",
                     phase, i + 1, sites[i].count, sites[i].kind, sites[i].bytes);
        std::fflush(stderr);
        // backtrace_symbols_fd writes directly to the descriptor, without malloc.
        backtrace_symbols_fd(sites[i].frames + 1, sites[i].depth - 1, STDERR_FILENO);
    }
    if (unsorted)
        std::fprintf(stderr, "--- %s: %ld allocations at further call sites\n", phase, unsorted);
}

}  // namespace alloc_count

// The underlying allocator, bypassing the counting malloc below (so operator new is counted once).
#if defined(__GLIBC__)
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void __libc_free(void*);
}
static void* raw_malloc(std::size_t n) { return __libc_malloc(n); }
static void* raw_aligned(std::size_t al, std::size_t n) { return __libc_memalign(al, n); }
static void raw_free(void* p) { __libc_free(p); }
#else
static void* raw_malloc(std::size_t n) { return std::malloc(n); }
static void* raw_aligned(std::size_t al, std::size_t n) {
    return std::aligned_alloc(al, (n + al - 1) / al * al);
}
static void raw_free(void* p) { std::free(p); }
#endif

void* operator new(std::size_t n) {
    alloc_count::on_new(n);
    if (void* p = raw_malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
    alloc_count::on_new(n);
    return raw_malloc(n ? n : 1);
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void* operator new(std::size_t n, std::align_val_t a) {
    alloc_count::on_new(n);
    std::size_t al = static_cast<std::size_t>(a);
    if (void* p = raw_aligned(al, n ? n : 1)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t a) { return operator new(n, a); }
void operator delete(void* p) noexcept {
    if (p) alloc_count::on_delete();
    raw_free(p);
}
void operator delete[](void* p) noexcept { operator delete(p); }
void operator delete(void* p, std::size_t) noexcept { operator delete(p); }
void operator delete[](void* p, std::size_t) noexcept { operator delete(p); }
void operator delete(void* p, std::align_val_t) noexcept { operator delete(p); }
void operator delete[](void* p, std::align_val_t) noexcept { operator delete(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { operator delete(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { operator delete(p); }

// glibc: interpose the C allocator too (KLU, UMFPACK and stdio allocate with malloc). Only
// direct C allocations land here: operator new above calls __libc_malloc itself.
#if defined(__GLIBC__)
extern "C" {
static bool c_counting() { return alloc_count::armed && !alloc_count::in_hook; }
void* malloc(std::size_t n) {
    if (c_counting()) {
        ++alloc_count::c_allocs;
        alloc_count::record("malloc", n);
    }
    return __libc_malloc(n);
}
void* calloc(std::size_t k, std::size_t n) {
    if (c_counting()) {
        ++alloc_count::c_allocs;
        alloc_count::record("calloc", k * n);
    }
    return __libc_calloc(k, n);
}
void* realloc(void* p, std::size_t n) {
    if (c_counting()) {
        ++alloc_count::c_allocs;
        alloc_count::record("realloc", n);
    }
    return __libc_realloc(p, n);
}
void free(void* p) {
    if (p && c_counting()) ++alloc_count::c_frees;
    __libc_free(p);
}
}
#endif

// ---------------------------------------------------------------------------------------------
namespace {

// The planar chain of ../shared/bench/gen_chain.py (N rods at 45 degrees, revolute hinges).
std::string chain_deck(int n, const std::string& solver) {
    std::ostringstream d;
    d << "set: const integer NL = " << n
      << ";\nset: const real LL = 1./NL;\nset: const real ML = 1./NL;\n"
      << "set: const real RR = 0.002;\nset: const real TH0 = 45.*deg2rad;\n"
      << "set: const real SX = sin(TH0);\nset: const real SY = -cos(TH0);\n"
      << "begin: data; problem: initial value; end: data;\n"
      << "begin: initial value; initial time: 0.; final time: 2.; time step: 1.e-3; method: ms, "
         "0.6;\n"
      << "  tolerance: 1.e-6; max iterations: 20; linear solver: " << solver
      << "; end: initial value;\n"
      << "begin: control data; structural nodes: " << n + 1 << "; rigid bodies: " << n
      << "; joints: " << n + 1 << "; gravity; end: control data;\n"
      << "begin: nodes;\n  structural: 1000, static, null, eye, null, null;\n";
    for (int i = 1; i <= n; ++i)
        d << "  structural: " << 1000 + i << ", dynamic, (" << i << "-0.5)*LL*SX, (" << i
          << "-0.5)*LL*SY, 0., 3, 0., 0., 1., 1, SX, SY, 0., null, null;\n";
    d << "end: nodes;\nbegin: elements;\n  joint: 1000, clamp, 1000, node, node;\n";
    for (int i = 1; i <= n; ++i) {
        std::ostringstream p;
        p << "(" << i << "-1)*LL*SX, (" << i << "-1)*LL*SY, 0.";
        d << "  joint: " << 1000 + i << ", revolute hinge, " << 999 + i
          << ", position, reference, global, " << p.str()
          << ", orientation, reference, global, eye, " << 1000 + i
          << ", position, reference, global, " << p.str()
          << ", orientation, reference, global, eye;\n";
    }
    for (int i = 1; i <= n; ++i)
        d << "  body: " << 1000 + i << ", " << 1000 + i
          << ", ML, null, diag, 0.5*ML*RR^2, ML*LL^2/12., ML*LL^2/12.;\n";
    d << "  gravity: uniform, 0., -1., 0., const, 9.81;\nend: elements;\n";
    return d.str();
}

}  // namespace

int main(int argc, char** argv) {
    int links = 10, steps = 200;
    std::string deck, solver, output;
    bool strict_malloc = false;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "missing value after %s\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--links")
            links = std::stoi(next());
        else if (a == "--deck")
            deck = next();
        else if (a == "--solver")
            solver = next();
        else if (a == "--steps")
            steps = std::stoi(next());
        else if (a == "--output")
            output = next();
        else if (a == "--strict-malloc")
            strict_malloc = true;
        else {
            std::fprintf(stderr, "unknown argument %s\n", a.c_str());
            return 2;
        }
    }
    mbs::parser::BuildOptions bo;
    bo.echo_warnings = false;
    mbs::Model model;
    mbs::SolverSettings settings;
    std::unique_ptr<mbs::Simulation> sim_ptr;
    try {
        model = deck.empty()
                    ? mbs::parser::build_model_from_text(
                          "chain.mbd", chain_deck(links, solver.empty() ? "klu" : solver), bo)
                    : mbs::parser::build_model(deck, bo);
        settings = mbs::SolverSettings::from_model(model);
        if (!solver.empty()) settings.linear_solver = solver;
        sim_ptr = std::make_unique<mbs::Simulation>(model, settings);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cannot set up the run: %s\n", e.what());
        return 2;
    }
    mbs::Simulation& sim = *sim_ptr;
    std::unique_ptr<mbs::TextOutput> text;
    if (!output.empty()) {
        text = std::make_unique<mbs::TextOutput>(model, output);
        text->begin(sim.engine().view());
    }

    // Warm-up: derivatives phase, the first (Crank-Nicolson) step and a few two-step ones; one
    // backtrace() call loads libgcc's unwinder before counting is armed.
    void* frames[4];
    backtrace(frames, 4);
    sim.derivatives();
    const double h = settings.dt;
    mbs::StepInfo info;
    for (int k = 0; k < 5; ++k) {
        if (!sim.step(h, info)) {
            std::fprintf(stderr, "warm-up step %d did not converge\n", k + 1);
            return 2;
        }
        if (text) text->step(sim.engine().view(), info);
    }

    long iters = 0;
    long step_news = 0, step_deletes = 0, step_c = 0, out_news = 0, out_c = 0;
    alloc_count::reset();
    for (int k = 0; k < steps; ++k) {
        alloc_count::armed = true;
        bool ok = sim.step(h, info);
        alloc_count::armed = false;
        if (!ok) {
            std::fprintf(stderr, "step %d did not converge\n", k + 1);
            return 2;
        }
        iters += info.iterations;
    }
    step_news = alloc_count::cxx_news;
    step_deletes = alloc_count::cxx_deletes;
    step_c = alloc_count::c_allocs;
    std::printf(
        "Simulation::step x %d (%ld Newton iterations, %s, %d unknowns): %ld operator new, %ld "
        "operator "
        "delete, %ld C allocations (malloc/calloc/realloc), %ld free\n",
        steps, iters, settings.linear_solver.c_str(), sim.engine().size(), step_news, step_deletes,
        step_c, alloc_count::c_frees);
    std::fflush(stdout);
    alloc_count::print_sites("Simulation::step");

    if (text) {
        alloc_count::reset();
        for (int k = 0; k < steps; ++k) {
            if (!sim.step(h, info)) return 2;
            alloc_count::armed = true;
            text->step(sim.engine().view(), info);
            alloc_count::armed = false;
        }
        out_news = alloc_count::cxx_news;
        out_c = alloc_count::c_allocs;
        std::printf("TextOutput::step x %d: %ld operator new, %ld C allocations\n", steps, out_news,
                    out_c);
        std::fflush(stdout);
        alloc_count::print_sites("TextOutput::step");
        text->end(sim.engine().view(), "");
    }

    bool ok = step_news == 0 && out_news == 0 && (!strict_malloc || (step_c == 0 && out_c == 0));
    std::printf("%s\n",
                ok ? "PASS: the step loop does not allocate" : "FAIL: the step loop allocates");
    return ok ? 0 : 1;
}
