// Block-buffered sink with a writer thread (see block_sink.hpp).
#include "output/block_sink.hpp"

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

void BlockSink::begin(const Engine& e) {
    fill_.init(*model_, e, opt_.flush_every, block_bytes_);
    write_.init(*model_, e, opt_.flush_every, block_bytes_);
    {
        std::lock_guard<std::mutex> lib(library_lock());
        create();
    }
    writer_.start();
    writer_.post([this] {
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

void BlockSink::step(const Engine& e, const StepInfo& s) {
    if (!s.output) return;
    fill_.record(e, s);
    if (fill_.flush_due(opt_)) hand_off();
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
