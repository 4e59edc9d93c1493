// Block-buffered sink with a writer thread (see block_sink.hpp).
#include "output/block_sink.hpp"

#include <pthread.h>

#include <csignal>
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

void BlockSink::shutdown() {
    if (!writer_.joinable()) return;
    {
        std::unique_lock<std::mutex> lk(m_);
        cv_.wait(lk, [this] { return !busy_; });
        job_ = Job::quit;
        busy_ = true;
    }
    cv_.notify_all();
    writer_.join();
}

void BlockSink::run_writer() {
    for (;;) {
        Job j;
        {
            std::unique_lock<std::mutex> lk(m_);
            cv_.wait(lk, [this] { return busy_; });
            j = job_;
        }
        if (j == Job::quit) return;
        std::exception_ptr err;
        try {
            std::lock_guard<std::mutex> lib(library_lock());
            if (j == Job::define) define(write_);
            else if (j == Job::write) write(write_);
            else if (j == Job::finish) finish(status_);
        } catch (...) {
            err = std::current_exception();
        }
        {
            std::lock_guard<std::mutex> lk(m_);
            if (err && !error_) error_ = err;
            busy_ = false;
            job_ = Job::none;
        }
        cv_.notify_all();
    }
}

void BlockSink::wait_idle() {
    std::exception_ptr err;
    {
        std::unique_lock<std::mutex> lk(m_);
        cv_.wait(lk, [this] { return !busy_; });
        err = std::exchange(error_, nullptr);
    }
    if (err) std::rethrow_exception(err);
}

void BlockSink::post(Job j) {
    wait_idle();
    {
        std::lock_guard<std::mutex> lk(m_);
        job_ = j;
        busy_ = true;
    }
    cv_.notify_all();
}

void BlockSink::begin(const Engine& e) {
    fill_.init(*model_, e, opt_.flush_every, block_bytes_);
    write_.init(*model_, e, opt_.flush_every, block_bytes_);
    {
        std::lock_guard<std::mutex> lib(library_lock());
        create();
    }
    // The writer thread blocks every signal (it inherits the mask): SIGINT and SIGTERM are then
    // handled on the solver's thread, where mbsolve's handler expects them.
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    writer_ = std::thread([this] { run_writer(); });
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    post(Job::define);
}

void BlockSink::hand_off() {
    wait_idle();  // the writer owns write_ until it is idle
    std::swap(fill_, write_);
    fill_.continue_after(write_);
    post(Job::write);
    if (opt_.sync) wait_idle();
}

void BlockSink::step(const Engine& e, const StepInfo& s) {
    if (!s.output) return;
    fill_.record(e, s);
    if (fill_.flush_due(opt_)) hand_off();
}

void BlockSink::end(const Engine&, const std::string& status) {
    if (!writer_.joinable()) return;
    if (fill_.rows() > 0) hand_off();
    wait_idle();
    status_ = status;
    post(Job::finish);
    wait_idle();
}

}  // namespace mbs::output
