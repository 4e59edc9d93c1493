// MPI scheduler of sweeps: the module libmbs_sweep_mpi.so (MBS_MPI), loaded by mbsolve for a
// sweep under an MPI launcher (sweep_mpi.hpp). Rank 0 hands out rows one at a time: to itself
// (its case runs as a child process, so rank 0 keeps answering while it runs) and to every
// other rank that sends a request. A request carries the record of the rank's previous case, and
// rank 0 alone writes records and the summary. Ranks wait with MPI_Test and short sleeps rather
// than in blocking MPI calls, which spin on the CPU in OpenMPI and would take a core from the
// cases.
#include "mbsolve/sweep_mpi.hpp"

#include <mpi.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

#include <cstdlib>
#include <deque>
#include <string>

namespace mbs::sweep {

namespace {

volatile std::sig_atomic_t* g_stop = nullptr;  // the sweep's signal flag

constexpr int kTagResult = 1;  // rank -> 0: the record of the previous case ("" at first)
constexpr int kTagRow = 2;     // 0 -> rank: the next row, or -1 when there are no more

void nap() {
    timespec ts{0, 200000};  // 0.2 ms: polling latency far below a case's run time
    nanosleep(&ts, nullptr);
}

// Completes `req` without spinning; false if the sweep is being stopped.
bool sleepy_wait(MPI_Request* req) {
    for (;;) {
        int flag = 0;
        MPI_Test(req, &flag, MPI_STATUS_IGNORE);
        if (flag) return true;
        if (*g_stop != 0) return false;
        nap();
    }
}

class Backend final : public MpiBackend {
  public:
    Backend() {
        MPI_Init(nullptr, nullptr);
        MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
        MPI_Comm_size(MPI_COMM_WORLD, &size_);
    }
    ~Backend() override {
        // Stopped by a signal: the launcher is stopping every rank; MPI_Finalize could wait
        // forever for a rank that is already gone.
        if (*g_stop != 0) return;
        int done = 0;
        MPI_Finalized(&done);
        if (!done) MPI_Finalize();
    }
    int rank() const override { return rank_; }
    int size() const override { return size_; }
    int schedule(CaseRunner& runner, const std::vector<int>& todo,
                 const std::function<void(const Record&)>& done) override;
    int finish(int code) override {
        MPI_Request req;
        MPI_Ibcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
        sleepy_wait(&req);
        return code;
    }

  private:
    int rank_ = 0, size_ = 1;
};

int Backend::schedule(CaseRunner& runner, const std::vector<int>& todo,
                      const std::function<void(const Record&)>& done) {
    if (rank_ != 0) {
        std::string msg;
        for (;;) {
            MPI_Request req;
            MPI_Isend(msg.data(), static_cast<int>(msg.size()), MPI_CHAR, 0, kTagResult,
                      MPI_COMM_WORLD, &req);
            if (!sleepy_wait(&req)) return 0;
            int row = -1;
            MPI_Irecv(&row, 1, MPI_INT, 0, kTagRow, MPI_COMM_WORLD, &req);
            if (!sleepy_wait(&req)) return 0;
            if (row < 0) return 0;
            Record r = runner.run(row);
            r.rank = rank_;
            msg = runner.to_text(r);
        }
    }
    std::deque<int> pending(todo.begin(), todo.end());
    int workers = size_ - 1;  // ranks that have not been told to stop
    pid_t own = -1;
    int own_row = 0, ran = 0;
    double own_t0 = 0.0;
    for (;;) {
        bool busy = false;
        if (*g_stop != 0) {
            if (own > 0) {
                int ws = 0;
                kill(own, SIGTERM);
                waitpid(own, &ws, 0);
            }
            return ran;
        }
        if (own < 0 && !pending.empty()) {
            own_row = pending.front();
            pending.pop_front();
            own_t0 = runner.now();
            own = runner.spawn(own_row);
            busy = true;
        }
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, kTagResult, MPI_COMM_WORLD, &flag, &st);
        if (flag) {
            int n = 0;
            MPI_Get_count(&st, MPI_CHAR, &n);
            std::string buf(static_cast<std::size_t>(n), '\0');
            MPI_Recv(buf.data(), n, MPI_CHAR, st.MPI_SOURCE, kTagResult, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            Record r;
            if (n > 0 && runner.from_text(buf, r)) {
                done(r);
                ++ran;
            }
            int next = -1;
            if (!pending.empty()) {
                next = pending.front();
                pending.pop_front();
            } else {
                --workers;
            }
            // One int: sent eagerly, returns at once.
            MPI_Send(&next, 1, MPI_INT, st.MPI_SOURCE, kTagRow, MPI_COMM_WORLD);
            busy = true;
        }
        if (own > 0) {
            int ws = 0;
            if (waitpid(own, &ws, WNOHANG) == own) {
                done(runner.collect(own_row, ws, runner.now() - own_t0));
                ++ran;
                own = -1;
                busy = true;
            }
        }
        if (own < 0 && pending.empty() && workers == 0) return ran;
        if (!busy) nap();
    }
}

}  // namespace

extern "C" MpiBackend* mbs_sweep_mpi_open(volatile std::sig_atomic_t* stop) {
    g_stop = stop;
    return new Backend();
}

}  // namespace mbs::sweep
