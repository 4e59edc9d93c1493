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
// With `blocks` (core/value_block.hpp), the view the sinks see also carries them; their values
// change at every step (written in place, as an analysis does).
struct Counting final : OutputSink {
    std::vector<OutputSink*> inner;
    std::vector<ValueBlock>* blocks = nullptr;
    long steps = 0;
    StepView with_blocks(const StepView& e) const {
        StepView v = e;
        if (blocks) v.blocks = *blocks;
        return v;
    }
    void begin(const StepView& e) override {
        for (auto* s : inner) s->begin(with_blocks(e));
    }
    void step(const StepView& e, const StepInfo& s) override {
        armed = true;
        if (blocks)
            for (ValueBlock& b : *blocks)
                for (double& x : b.values) x = s.time + x;
        const StepView v = with_blocks(e);
        for (auto* k : inner) k->step(v, s);
        armed = false;
        ++steps;
    }
    void end(const StepView& e, const std::string& status) override {
        for (auto* s : inner) s->end(with_blocks(e), status);
    }
};

// Runs input-examples/output_formats.mbd to TF = 0.05 (51 output steps) into NetCDF and HDF5
// sinks (flush every 7 steps: 7 hand-offs to the writer thread; HDF5 output on `h5_threads`
// threads) whose step() is counted, the view carrying `blocks` when given. Returns the output
// steps seen; `allocations` holds the operator new calls of those step()s.
int run_counted(const char* tag, int h5_threads, std::vector<ValueBlock>* blocks) {
    allocations = 0;
    parser::BuildOptions bo;
    bo.defines["TF"] = "0.05";
    bo.echo_warnings = false;
    Model model = parser::build_model(std::string(MBS_EXAMPLES_DIR) + "/output_formats.mbd", bo);
    auto dir = std::filesystem::temp_directory_path() /
               (std::string("mbs_sink_") + tag + "_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    SolverSettings s = SolverSettings::from_model(model);
    Simulation sim(model, s);
    output::SinkOptions o;
    o.flush_every = 7;
    o.settings = s.run_settings();
    auto nc = output::make_netcdf_output(model, (dir / "a.nc").string(), o);
    auto h5 = output::make_hdf5_output(model, (dir / "a.h5").string(), o, h5_threads);
    Counting c;
    c.inner = {nc.get(), h5.get()};
    c.blocks = blocks;
    sim.add_sink(&c);
    sim.run();
    std::filesystem::remove_all(dir);
    return c.steps;
}

TEST(SinkAlloc, StepDoesNotAllocate) {
    // The counter counts (a test that cannot fail proves nothing).
    armed = true;
    ::operator delete(::operator new(16));
    armed = false;
    ASSERT_EQ(allocations, 1);
    EXPECT_EQ(run_counted("alloc", 1, nullptr), 51);
    EXPECT_EQ(allocations, 0) << "operator new calls in NetcdfOutput/Hdf5Output::step";
}

// The same with two value blocks (a row of 5 values and one of 1, as a revolute and a distance
// cut's multipliers; a block of two quantities): their groups are recorded without allocation.
TEST(SinkAlloc, ValueBlocksDoNotAllocate) {
    std::vector<ValueBlock> blocks(2);
    blocks[0].group = "loop_multipliers";
    blocks[0].nc_prefix = "test.cut";
    blocks[0].dimension = "cut";
    blocks[0].quantities = {{"lambda", 5, "N", "multipliers"}};
    blocks[0].rows = {{1, 7, "cut 1", "revolute hinge", "", "", 5},
                      {2, 8, "cut 2", "distance", "", "", 1}};
    blocks[1].group = "pairs";
    blocks[1].nc_prefix = "test.pair";
    blocks[1].quantities = {{"a", 1, "m", "first"}, {"b", 2, "s", "second"}};
    blocks[1].rows = {{3, 0, "pair", "pair", "", "", 3}};
    for (ValueBlock& b : blocks) b.finish();
    EXPECT_EQ(run_counted("blocks", 0, &blocks), 51);
    EXPECT_EQ(allocations, 0) << "operator new calls in step() with value blocks";
}

}  // namespace
