// Block-buffered sink with a writer thread (see block_sink.hpp).
#include "output/block_sink.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <thread>
#include <utility>

#include "output/output_error.hpp"

namespace mbs::output {

// One lock for all library calls of all sinks (HDF5 is built without thread safety).
std::mutex& BlockSink::library_lock() {
    static std::mutex m;
    return m;
}

BlockSink::BlockSink(const Model& m, std::string path, const SinkOptions& o,
                     std::size_t block_bytes)
    : model_(&m),
      path_(std::move(path)),
      staging_(path_ + ".part"),
      opt_(o),
      block_bytes_(block_bytes) {}

namespace {

// Removes the file `path` if there is one (a previous run's file must not pass for this run's).
void remove_old(const std::string& path) {
    if (::unlink(path.c_str()) != 0 && errno != ENOENT)
        throw OutputError("output '" + path + "': cannot replace it: " + std::strerror(errno));
}

}  // namespace

BlockSink::~BlockSink() { shutdown(); }

void BlockSink::shutdown() { writer_.stop(); }

// The rows of both blocks are made resident by the writer, their page faults taken there and
// not on the solver's thread (2 x 32 MB for NetCDF on chain_200, 0.02-0.05 s): those of the
// block being filled while the solver records its first rows (prefault() leaves what it wrote).
void BlockSink::begin(const StepView& view) {
    fill_.init(*model_, view, opt_.flush_every, block_bytes_);
    write_.init(*model_, view, opt_.flush_every, block_bytes_, false);
    defined_ = waited_ = false;
    remove_old(path_);
    remove_old(staging_);
    {
        std::lock_guard<std::mutex> lib(library_lock());
        create();
    }
    early_ = Worker::threads() && std::thread::hardware_concurrency() > 1;
    writer_.start();
    writer_.post([this, filling = fill_.pages()] {
        Results::prefault(filling);
        write_.allocate();
        Results::prefault(write_.pages());
        std::lock_guard<std::mutex> lib(library_lock());
        define(write_);
        if (std::rename(staging_.c_str(), path_.c_str()) != 0)
            throw OutputError("output '" + path_ + "': cannot rename " + staging_ +
                              " to it: " + std::strerror(errno));
        defined_ = true;
    });
}

void BlockSink::hand_off() {
    writer_.wait_idle();  // the writer owns write_ until it is idle
    std::swap(fill_, write_);
    fill_.continue_after(write_);
    writer_.post([this] {
        std::lock_guard<std::mutex> lib(library_lock());
        write(write_);
    });
    if (opt_.sync) writer_.wait_idle();
}

// A block is handed off when it is full (or due: sync, flush_seconds); with a writer thread on
// a core of its own, also at the end of each of its four parts (Results::part()) when the writer
// is idle. The files' chunks are a part, so these writes are whole chunks (a chunk written in
// pieces, as by the last write or one due to flush_seconds, is read back and rewritten by HDF5).
// What the writer has not written when the solver ends is written after the last step, on the run's
// wall time: the early hand-offs make that a part or less instead of up to a block. NetCDF on
// chain_200 (2001 output steps, idle machine): 0.105 s from the last step to the closed file with
// whole 680-row blocks only, 0.06-0.08 s with hand-offs of parts, of which 0.04 s is closing the
// 1604 datasets.
void BlockSink::step(const StepView& view, const StepInfo& s) {
    if (!s.output) return;
    if (!waited_) {
        waited_ = true;
        if (defined_before_first_step()) writer_.wait_idle();
    }
    fill_.record(view, s);
    if (fill_.flush_due(opt_) || (early_ && fill_.rows() % fill_.part() == 0 && writer_.idle()))
        hand_off();
}

void BlockSink::end(const StepView&, const std::string& status) {
    if (!writer_.running()) return;
    if (fill_.rows() > 0) hand_off();
    fill_.release();  // while the writer writes the last rows
    status_ = status;
    writer_.post([this] {
        std::lock_guard<std::mutex> lib(library_lock());
        finish(status_);
    });
    writer_.wait_idle();
}

}  // namespace mbs::output
