// Block-buffered sink with a writer thread (see block_sink.hpp).
#include "output/block_sink.hpp"

#include <thread>
#include <utility>

namespace mbs::output {

// One lock for all library calls of all sinks (HDF5 is built without thread safety).
std::mutex& BlockSink::library_lock() {
    static std::mutex m;
    return m;
}

BlockSink::BlockSink(const Model& m, std::string path, const SinkOptions& o, std::size_t block_bytes)
    : model_(&m), path_(std::move(path)), opt_(o), block_bytes_(block_bytes) {}

BlockSink::~BlockSink() { shutdown(); }

void BlockSink::shutdown() { writer_.stop(); }

// The second block's rows are allocated by the writer (their pages are touched there, not on the
// solver's thread: 32 MB for NetCDF on chain_200, about 15 ms).
void BlockSink::begin(const Engine& e) {
    fill_.init(*model_, e, opt_.flush_every, block_bytes_);
    write_.init(*model_, e, opt_.flush_every, block_bytes_, false);
    {
        std::lock_guard<std::mutex> lib(library_lock());
        create();
    }
    early_ = Worker::threads() && std::thread::hardware_concurrency() > 1;
    writer_.start();
    writer_.post([this] {
        write_.allocate();
        std::lock_guard<std::mutex> lib(library_lock());
        define(write_);
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
// a core of its own, also when it is exactly half full and the writer is idle (blocks have an
// even number of rows and the files' chunks are half a block: every write but the last is whole
// chunks). What the writer has not written when the solver ends is written after the last step,
// on the run's wall time: the early hand-offs make that less than a block. NetCDF on chain_200
// (680-row blocks, 2001 output steps): 0.105 s from the last step to the closed file with full
// blocks only; 0.06-0.075 s with hand-offs at half a block (6 writes instead of 3, 0.29 s of
// writer CPU instead of 0.23); a quarter gave 0.055-0.08 s for 11 writes and 0.35 s.
void BlockSink::step(const Engine& e, const StepInfo& s) {
    if (!s.output) return;
    fill_.record(e, s);
    if (fill_.flush_due(opt_) || (early_ && 2 * fill_.rows() == fill_.capacity() && writer_.idle()))
        hand_off();
}

void BlockSink::end(const Engine&, const std::string& status) {
    if (!writer_.running()) return;
    if (fill_.rows() > 0) hand_off();
    status_ = status;
    writer_.post([this] {
        std::lock_guard<std::mutex> lib(library_lock());
        finish(status_);
    });
    writer_.wait_idle();
}

}  // namespace mbs::output
