// Base of the NetCDF and HDF5 sinks: output steps are recorded into a block of preallocated rows
// (Results); a full block (or `sync`, or flush_seconds of wall time) is handed to a writer thread,
// which writes it to the file while the solver goes on filling the other block (two blocks,
// swapped: no allocation per step). The writer threads of all sinks share one lock around their
// library calls: the HDF5 library (also under NetCDF-4) is not thread-safe.
#pragma once

#include <mutex>
#include <string>

#include "output/results.hpp"
#include "output/worker.hpp"

namespace mbs::output {

class BlockSink : public OutputSink {
  public:
    // block_bytes: memory of one block at most (there are two); fewer rows than flush_every if
    // needed.
    BlockSink(const Model& m, std::string path, const SinkOptions& o, std::size_t block_bytes);
    ~BlockSink() override;
    BlockSink(const BlockSink&) = delete;
    BlockSink& operator=(const BlockSink&) = delete;

    void begin(const StepView& view) final;
    void step(const StepView& view, const StepInfo& s) final;
    void end(const StepView& view, const std::string& status) final;

  protected:
    // Called on the main thread by begin(): create the file at file_path() (errors show at once).
    virtual void create() = 0;
    // Called on the writer thread, in this order: define() once (r has no rows yet), write()
    // per block (rows r.first_row() .. + r.rows()), finish() once with the run status ("" for
    // a completed run), which also closes the file. Throw std::runtime_error on failure.
    // Until define() has returned, the file is at `path().part`: a file under the final name is
    // never one whose definitions are half written (a run killed that early leaves no file).
    virtual void define(const Results& r) = 0;
    virtual void write(const Results& r) = 0;
    virtual void finish(const std::string& status) = 0;

    // Stops the writer thread (after its current job). Derived destructors call it before they
    // close their files, holding library_lock().
    void shutdown();
    // Held around every NetCDF/HDF5 call, on any thread.
    static std::mutex& library_lock();

    const Model& model() const { return *model_; }
    // The file's name, and where it is now (path() once defined, see define()).
    const std::string& path() const { return path_; }
    const std::string& file_path() const { return defined_ ? path_ : staging_; }
    // Whether the solver waits at its first output step for define() to end, so that the file
    // can be read (with every later block written) as soon as the run has output anything. HDF5
    // yes (a few ms, done during the initial assembly); NetCDF no (0.16 s for chain_200's 1611
    // variables, and without SWMR a killed run's file is not guaranteed readable anyway).
    virtual bool defined_before_first_step() const { return false; }
    const SinkOptions& options() const { return opt_; }

  private:
    void hand_off();  // swaps the blocks and posts the full one

    const Model* model_;
    std::string path_, staging_;
    bool defined_ = false;  // written by the writer thread before the first hand_off() (wait_idle)
    bool waited_ = false;   // the solver has waited for define() (defined_before_first_step())
    SinkOptions opt_;
    std::size_t block_bytes_;
    Results fill_, write_;  // the block being filled, the block being written
    std::string status_;
    bool early_ = false;  // hand off partial blocks when the writer is idle (see step())
    Worker writer_;
};

}  // namespace mbs::output
