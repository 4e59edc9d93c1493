// Background job thread of the sinks (see worker.hpp).
#include "output/worker.hpp"

#include <pthread.h>

#include <atomic>
#include <csignal>
#include <utility>

namespace mbs::output {

namespace {
std::atomic<bool> g_threads{true};
}  // namespace

void Worker::set_threads(bool on) { g_threads.store(on); }
bool Worker::threads() { return g_threads.load(); }

void Worker::start() {
    if (started_) return;
    started_ = true;
    if (!g_threads.load()) return;
    quit_ = false;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);  // the new thread inherits the mask
    thread_ = std::thread([this] { run(); });
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

void Worker::run() {
    for (;;) {
        {
            std::unique_lock<std::mutex> lk(m_);
            cv_.wait(lk, [this] { return busy_ || quit_; });
            if (!busy_) return;  // quit with nothing to do
        }
        std::exception_ptr err;
        try {
            job_();
        } catch (...) {
            err = std::current_exception();
        }
        {
            std::lock_guard<std::mutex> lk(m_);
            if (err && !error_) error_ = err;
            busy_ = false;
        }
        cv_.notify_all();
    }
}

void Worker::wait_idle() {
    if (!thread_.joinable()) return;  // without a thread, jobs have already run
    std::exception_ptr err;
    {
        std::unique_lock<std::mutex> lk(m_);
        cv_.wait(lk, [this] { return !busy_; });
        err = std::exchange(error_, nullptr);
    }
    if (err) std::rethrow_exception(err);
}

bool Worker::idle() {
    if (!thread_.joinable()) return true;
    std::lock_guard<std::mutex> lk(m_);
    return !busy_;
}

void Worker::post(std::function<void()> job) {
    if (!thread_.joinable()) {
        job();
        return;
    }
    wait_idle();
    {
        std::lock_guard<std::mutex> lk(m_);
        job_ = std::move(job);
        busy_ = true;
    }
    cv_.notify_all();
}

void Worker::stop() {
    started_ = false;
    if (!thread_.joinable()) return;
    {
        std::unique_lock<std::mutex> lk(m_);
        cv_.wait(lk, [this] { return !busy_; });
        quit_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

}  // namespace mbs::output
