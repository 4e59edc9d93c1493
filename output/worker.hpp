// One background thread that runs one job at a time for a sink: the solver's thread hands it a
// job (post) and goes on; the next post, wait_idle() or stop() first waits for the job to end
// and rethrows what it threw. Used by the text sink (formatting) and by BlockSink (NetCDF/HDF5).
// The thread blocks every signal: SIGINT and SIGTERM stay with the solver's thread, where
// mbsolve's handler expects them.
// With threads disabled for the process (set_threads(false), mbsolve --output-threads 0: the
// cases of a sweep, which already keep every core busy), the same calls run each job at once on
// the caller's thread, in the same order, with the same error behaviour.
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace mbs::output {

class Worker {
  public:
    Worker() = default;
    ~Worker() { stop(); }
    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

    // Whether sinks started after this call get a thread (default true).
    static void set_threads(bool on);
    static bool threads();

    void start();
    // Started and not yet stopped (with or without a thread).
    bool running() const { return started_; }
    // Waits for the current job, then starts `job` on the thread. A job that captures a pointer
    // or two fits std::function's local storage: no allocation.
    void post(std::function<void()> job);
    // Waits for the current job; rethrows its exception, if any.
    void wait_idle();
    // Whether no job is running (does not wait; always true without a thread).
    bool idle();
    // Waits for the current job and ends the thread (an error of that job is dropped).
    void stop();

  private:
    void run();

    std::thread thread_;
    std::mutex m_;
    std::condition_variable cv_;
    std::function<void()> job_;
    bool busy_ = false, quit_ = false, started_ = false;
    std::exception_ptr error_;
};

}  // namespace mbs::output
