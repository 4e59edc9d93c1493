// The NetCDF and HDF5 sinks allocate nothing in step() on the solver's thread (docs/style.md rule
// 1): rows go into blocks preallocated in begin(), and a full block is swapped with the written one
// and handed to the writer thread (whose library calls may allocate: not counted). Counted with
// a replaced global operator new, armed only on the calling thread around the sinks' step().
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <new>
#include <string>

#include "output/hdf5_output.hpp"
#include "output/netcdf_output.hpp"
#include "parser/builder.hpp"
#include "solvers/dae/simulation.hpp"

namespace {
thread_local bool armed = false;
long allocations = 0;
}  // namespace

void* operator new(std::size_t n) {
    if (armed) ++allocations;
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace {

using namespace mbs;

// Forwards to the sinks under test, counting the allocations of their step().
struct Counting final : OutputSink {
    std::vector<OutputSink*> inner;
    long steps = 0;
    void begin(const StepView& e) override {
        for (auto* s : inner) s->begin(e);
    }
    void step(const StepView& e, const StepInfo& s) override {
        armed = true;
        for (auto* k : inner) k->step(e, s);
        armed = false;
        ++steps;
    }
    void end(const StepView& e, const std::string& status) override {
        for (auto* s : inner) s->end(e, status);
    }
};

TEST(SinkAlloc, StepDoesNotAllocate) {
    // The counter counts (a test that cannot fail proves nothing).
    armed = true;
    ::operator delete(::operator new(16));
    armed = false;
    ASSERT_EQ(allocations, 1);
    allocations = 0;
    parser::BuildOptions bo;
    bo.defines["TF"] = "0.05";
    bo.echo_warnings = false;
    Model model = parser::build_model(std::string(MBS_EXAMPLES_DIR) + "/output_formats.mbd", bo);
    auto dir =
        std::filesystem::temp_directory_path() / ("mbs_sink_alloc_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    SolverSettings s = SolverSettings::from_model(model);
    Simulation sim(model, s);
    output::SinkOptions o;
    o.flush_every = 7;  // 51 output steps: 7 hand-offs to the writer thread
    o.settings = s.run_settings();
    auto nc = output::make_netcdf_output(model, (dir / "a.nc").string(), o);
    auto h5 = output::make_hdf5_output(model, (dir / "a.h5").string(), o, 1);
    Counting c;
    c.inner = {nc.get(), h5.get()};
    sim.add_sink(&c);
    sim.run();
    EXPECT_EQ(c.steps, 51);
    EXPECT_EQ(allocations, 0) << "operator new calls in NetcdfOutput/Hdf5Output::step";
    std::filesystem::remove_all(dir);
}

}  // namespace
