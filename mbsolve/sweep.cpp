// Parameter sweeps: plan (table, reports, rows), cases as child processes, completion records,
// the serial scheduler, summaries and --sweep-merge. The MPI scheduler is in sweep_mpi.cpp, a
// module loaded here (MpiSession) only under an MPI launcher.
#include "mbsolve/sweep.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "mbsolve/sweep_exec.hpp"
#include "mbsolve/sweep_mpi.hpp"
#include "parser/builder.hpp"

extern char** environ;

namespace fs = std::filesystem;

namespace mbs::sweep {

volatile std::sig_atomic_t g_sweep_stop = 0;

namespace {

extern "C" void on_sweep_signal(int sig) { g_sweep_stop = sig; }

void install_sweep_handlers() {
    struct sigaction sa {};
    sa.sa_handler = on_sweep_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;  // no SA_RESTART: waitpid returns EINTR so the running case can be stopped
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::invalid_argument("cannot read '" + path + "'");
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// FNV-1a, 64 bit: a record is reused only when everything that shapes the case is unchanged.
std::string fnv1a(const std::string& s) {
    std::uint64_t h = 1469598103934665603ULL;
    for (unsigned char c : s) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    char b[17];
    std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(h));
    return b;
}

std::string csv_field(const std::string& s) {
    bool quote = s.find_first_of(",\"\n") != std::string::npos ||
                 (!s.empty() && (s.front() == ' ' || s.back() == ' '));
    if (!quote) return s;
    std::string q = "\"";
    for (char c : s) {
        if (c == '"') q += '"';
        q += c == '\n' ? ' ' : c;
    }
    return q + "\"";
}

void write_atomically(const std::string& path, const std::string& text) {
    // Unique per host and process: job-array tasks on several nodes may write the same manifest
    // into a shared directory at the same time.
    char host[256] = "host";
    gethostname(host, sizeof host - 1);
    std::string tmp = path + ".tmp." + host + "." + std::to_string(getpid());
    {
        std::ofstream o(tmp, std::ios::binary | std::ios::trunc);
        o << text;
        if (!o.flush()) throw std::invalid_argument("cannot write '" + tmp + "'");
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0)
        throw std::invalid_argument("cannot rename '" + tmp + "' to '" + path +
                                    "': " + std::strerror(errno));
}

// The first line of the case's stderr that says what went wrong.
std::string error_line(const std::string& err_path) {
    std::ifstream in(err_path);
    std::string line, first;
    while (std::getline(in, line)) {
        if (line.rfind("mbsolve:", 0) == 0 && line.find("warning") == std::string::npos)
            return line.substr(0, 300);
        if (first.empty() && !line.empty()) first = line;
    }
    return first.substr(0, 300);
}

// Rows of this invocation: --sweep-rows A:B, or task SLURM_ARRAY_TASK_ID (from 0) of
// --rows-per-task N: rows t*N+1 ... (t+1)*N. Returns false if the slice is past the table.
bool slice(const cli::Options& opt, int rows, int& first, int& last) {
    first = 1;
    last = rows;
    if (!opt.sweep_rows.empty()) {
        const std::string& s = opt.sweep_rows;
        auto colon = s.find(':');
        auto num = [&](const std::string& v) {
            char* end = nullptr;
            long x = std::strtol(v.c_str(), &end, 10);
            if (v.empty() || *end != '\0' || x < 1)
                throw std::invalid_argument("--sweep-rows A:B needs rows A <= B from 1, got '" + s +
                                            "'");
            return static_cast<int>(x);
        };
        if (colon == std::string::npos)
            throw std::invalid_argument("--sweep-rows needs A:B, got '" + s + "'");
        first = num(s.substr(0, colon));
        last = num(s.substr(colon + 1));
        if (first > last)
            throw std::invalid_argument("--sweep-rows A:B needs A <= B, got '" + s + "'");
        if (last > rows)
            throw std::invalid_argument("--sweep-rows " + s + ": the table has " +
                                        std::to_string(rows) + " rows");
        return true;
    }
    if (opt.rows_per_task > 0) {
        const char* id = std::getenv("SLURM_ARRAY_TASK_ID");
        if (!id)
            throw std::invalid_argument(
                "--rows-per-task needs the SLURM_ARRAY_TASK_ID environment variable (a Slurm job "
                "array)");
        char* end = nullptr;
        long t = std::strtol(id, &end, 10);
        if (*id == '\0' || *end != '\0' || t < 0)
            throw std::invalid_argument(
                std::string("SLURM_ARRAY_TASK_ID must be an integer >= 0, got '") + id + "'");
        long a = t * opt.rows_per_task + 1, b = (t + 1) * opt.rows_per_task;
        if (a > rows) return false;
        first = static_cast<int>(a);
        last = static_cast<int>(std::min<long>(b, rows));
    }
    return true;
}

std::string manifest_text(const Plan& p) {
    std::string s =
        "mbsolve sweep manifest 1\ndeck=" + p.deck + "\ntable=" + p.table.file->path + "\ncolumns=";
    for (std::size_t c = 0; c < p.table.names.size(); ++c) s += (c ? "," : "") + p.table.names[c];
    s += "\n";
    for (const auto& r : p.report_specs) s += "report=" + r + "\n";
    for (int r = 1; r <= p.rows(); ++r) {
        s += "row=" + p.signatures[r - 1] + ",";
        const auto& v = p.table.rows[r - 1];
        for (std::size_t c = 0; c < v.size(); ++c) s += (c ? "," : "") + v[c];
        s += "\n";
    }
    return s;
}

// Reads DIR/sweep.manifest back into a plan (names, rows, reports, signatures) for the merge.
Plan read_manifest(const std::string& dir) {
    std::string path = dir + "/sweep.manifest";
    std::ifstream in(path);
    if (!in)
        throw std::invalid_argument(
            "'" + path + "' not found: not a sweep directory (run mbsolve --sweep first)");
    Plan p;
    p.dir = dir;
    p.table.file = std::make_shared<SourceFile>(path, "");
    std::string line;
    std::getline(in, line);
    if (line != "mbsolve sweep manifest 1")
        throw std::invalid_argument("'" + path + "': not a sweep manifest");
    auto split = [](const std::string& s) {
        std::vector<std::string> v;
        for (std::size_t b = 0; b <= s.size();) {
            std::size_t e = std::min(s.find(',', b), s.size());
            v.push_back(s.substr(b, e - b));
            b = e + 1;
        }
        return v;
    };
    while (std::getline(in, line)) {
        auto eq = line.find('=');
        if (eq == std::string::npos) continue;
        std::string k = line.substr(0, eq), v = line.substr(eq + 1);
        if (k == "deck")
            p.deck = v;
        else if (k == "columns")
            p.table.names = split(v);
        else if (k == "report") {
            p.report_specs.push_back(v);
            p.reports.push_back(parse_report(v));
        } else if (k == "row") {
            auto f = split(v);
            p.signatures.push_back(f.front());
            p.table.rows.emplace_back(f.begin() + 1, f.end());
        }
    }
    p.first = 1;
    p.last = p.rows();
    return p;
}

// summary.csv: header and one line per row of [p.first, p.last]; rows without a record get
// `absent_status`.
int write_summary(const Plan& p, const std::string& path, const std::string& absent_status) {
    std::string s = "row";
    for (const auto& n : p.table.names) s += "," + csv_field(n);
    s += ",status,exit,steps,wall_s";
    for (const auto& r : p.reports) s += "," + csv_field(r.name);
    s += ",error\n";
    int not_ok = 0;
    for (int row = p.first; row <= p.last; ++row) {
        Record r;
        bool done = read_done(p, row, r);
        s += std::to_string(row);
        for (const auto& v : p.table.rows[row - 1]) s += "," + v;
        if (!done) {
            ++not_ok;
            s += "," + absent_status + ",,,";
            for (std::size_t k = 0; k < p.reports.size(); ++k) s += ",";
            s += ",\n";
            continue;
        }
        if (r.status != "ok") ++not_ok;
        char fields[96];
        std::snprintf(fields, sizeof fields, ",%s,%d,%ld,%.3f", r.status.c_str(), r.exit_code,
                      r.steps, r.wall_s);
        s += fields;
        for (std::size_t k = 0; k < p.reports.size(); ++k) {
            s += ',';
            if (k < r.reports.size()) s += r.reports[k];
        }
        s += ',';
        s += csv_field(r.error);
        s += '\n';
    }
    write_atomically(path, s);
    return not_ok;
}

Plan make_plan(const cli::Options& opt, const char* argv0) {
    Plan p;
    std::error_code ec;
    fs::path self = fs::read_symlink("/proc/self/exe", ec);
    p.exe = ec ? fs::absolute(argv0).string() : self.string();
    if (opt.output_prefix.empty())
        throw std::invalid_argument("--sweep needs -o DIR, the directory of the case results");
    p.deck = fs::absolute(opt.deck).lexically_normal().string();
    p.dir = fs::absolute(opt.output_prefix).lexically_normal().string();
    p.defines = opt.defines;
    p.quiet = opt.quiet;
    p.report_specs = opt.reports;

    // The deck as the user gives it: its `set: ifndef` variables are what the table may set.
    parser::BuildOptions bo;
    bo.defines = opt.defines;
    bo.echo_warnings = false;
    Model model = parser::build_model(p.deck, bo);
    p.table = read_table(opt.sweep_table, ifndef_variables(model));

    std::map<std::string, std::string> first_defines = p.defines;
    for (std::size_t c = 0; c < p.table.names.size(); ++c)
        first_defines[p.table.names[c]] = p.table.rows[0][c];
    for (const auto& spec : opt.reports) {
        p.reports.push_back(parse_report(spec));
        check_report(p.reports.back(), model, first_defines);
    }
    if (!p.reports.empty()) {
        // Private-data names and the run-time entities are known to the engine only: bind the
        // reports once here, so that a wrong name stops the sweep before its first case.
        Simulation sim(model, SolverSettings::from_model(model));
        ReportSink probe(p.reports, sim.engine());
    }
    for (const auto& f : opt.formats) p.pass_args.insert(p.pass_args.end(), {"--format", f});
    if (opt.formats.empty()) p.pass_args.insert(p.pass_args.end(), {"--format", "hdf5"});
    if (opt.flush_every > 0)
        p.pass_args.insert(p.pass_args.end(), {"--flush-every", std::to_string(opt.flush_every)});
    if (opt.compression >= 0)
        p.pass_args.insert(p.pass_args.end(), {"--compress", std::to_string(opt.compression)});

    std::string common = read_file(p.deck) + "\n";
    for (const auto& [k, v] : p.defines) common += "-D" + k + "=" + v + "\n";
    for (const auto& a : p.pass_args) common += a + "\n";
    for (const auto& r : p.report_specs) common += "report " + r + "\n";
    // Hashed once, then combined with each row (a large deck times many rows stays cheap).
    const std::string common_hash = fnv1a(common);
    for (int r = 1; r <= p.rows(); ++r) {
        std::string s = common_hash + "\nrow " + std::to_string(r) + "\n";
        for (std::size_t c = 0; c < p.table.names.size(); ++c)
            s += p.table.names[c] + "=" + p.table.rows[r - 1][c] + "\n";
        p.signatures.push_back(fnv1a(s));
    }
    // Not part of the signature (the results do not depend on it): a sweep keeps the cores busy
    // with cases, so each case writes its results on its own thread, unless told otherwise.
    p.pass_args.insert(
        p.pass_args.end(),
        {"--output-threads", opt.output_threads == 1 ? std::string("1") : std::string("0")});
    return p;
}

bool stop_signal(int sig) {
    return sig == SIGINT || sig == SIGTERM || sig == SIGKILL || sig == SIGHUP;
}

}  // namespace

double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

std::string case_prefix(const Plan& p, int row) { return p.dir + "/case-" + std::to_string(row); }

std::string record_text(const Record& r) {
    char wall[32];
    std::snprintf(wall, sizeof wall, "%.6f", r.wall_s);
    std::string s = "signature=" + r.signature + "\nrow=" + std::to_string(r.row) +
                    "\nstatus=" + r.status + "\nexit=" + std::to_string(r.exit_code) +
                    "\nsteps=" + std::to_string(r.steps) + "\nwall_s=" + wall +
                    "\nrank=" + std::to_string(r.rank) + "\n";
    for (const auto& v : r.reports) s += "report=" + v + "\n";
    std::string err = r.error;
    for (char& c : err)
        if (c == '\n' || c == '\r') c = ' ';
    return s + "error=" + err + "\nend=1\n";
}

bool parse_record(const std::string& text, Record& r) {
    r = Record{};
    std::istringstream in(text);
    bool end = false;
    for (std::string line; std::getline(in, line);) {
        auto eq = line.find('=');
        if (eq == std::string::npos) continue;
        std::string k = line.substr(0, eq), v = line.substr(eq + 1);
        try {
            if (k == "signature")
                r.signature = v;
            else if (k == "row")
                r.row = std::stoi(v);
            else if (k == "status")
                r.status = v;
            else if (k == "exit")
                r.exit_code = std::stoi(v);
            else if (k == "steps")
                r.steps = std::stol(v);
            else if (k == "wall_s")
                r.wall_s = std::strtod(v.c_str(), nullptr);
            else if (k == "rank")
                r.rank = std::stoi(v);
            else if (k == "report")
                r.reports.push_back(v);
            else if (k == "error")
                r.error = v;
            else if (k == "end")
                end = true;
        } catch (const std::exception&) {
            return false;
        }
    }
    return end;
}

void write_record(const Plan& p, const Record& r) {
    write_atomically(case_prefix(p, r.row) + ".done", record_text(r));
}

bool read_done(const Plan& p, int row, Record& r) {
    std::ifstream in(case_prefix(p, row) + ".done", std::ios::binary);
    if (!in) return false;
    std::stringstream ss;
    ss << in.rdbuf();
    return parse_record(ss.str(), r) && r.row == row && r.signature == p.signatures[row - 1];
}

pid_t spawn_case(const Plan& p, int row) {
    std::string prefix = case_prefix(p, row);
    std::vector<std::string> args = {p.exe,  "-f", p.deck,          "-o",
                                     prefix, "-s", "--report-file", prefix + ".result"};
    args.insert(args.end(), p.pass_args.begin(), p.pass_args.end());
    std::map<std::string, std::string> defs = p.defines;
    for (std::size_t c = 0; c < p.table.names.size(); ++c)
        defs[p.table.names[c]] = p.table.rows[row - 1][c];
    for (const auto& [k, v] : defs) args.insert(args.end(), {"-D", k + "=" + v});
    for (const auto& r : p.report_specs) args.insert(args.end(), {"--report", r});
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);

    std::string parent = "MBS_SWEEP_PARENT=" + std::to_string(getpid());
    std::vector<char*> envp;
    for (char** e = environ; e && *e; ++e)
        if (std::strncmp(*e, "MBS_SWEEP_PARENT=", 17) != 0) envp.push_back(*e);
    envp.push_back(parent.data());
    envp.push_back(nullptr);

    std::remove((prefix + ".result").c_str());
    std::string err = prefix + ".err";
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    pid_t pid = -1;
    int rc = posix_spawn(&pid, p.exe.c_str(), &fa, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        throw std::runtime_error("cannot start '" + p.exe + "' for row " + std::to_string(row) +
                                 ": " + std::strerror(rc));
    return pid;
}

Record collect_case(const Plan& p, int row, int ws, double wall_s) {
    Record r;
    r.row = row;
    r.wall_s = wall_s;
    r.signature = p.signatures[row - 1];
    std::string prefix = case_prefix(p, row);
    RunResult res;
    bool have = read_run_result(prefix + ".result", res);
    if (have) {
        r.steps = res.steps;
        char b[32];
        for (double v : res.reports) {
            std::snprintf(b, sizeof b, "%.17g", v);
            r.reports.push_back(b);
        }
    }
    if (WIFSIGNALED(ws)) {
        int sig = WTERMSIG(ws);
        r.exit_code = sig;
        r.status = stop_signal(sig) ? "interrupted" : "crashed";
        r.error = "killed by signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
    } else {
        r.exit_code = WEXITSTATUS(ws);
        switch (r.exit_code) {
            case 0:
                r.status = have ? "ok" : "error";
                break;
            case 3:
                r.status = "failed";
                break;
            case 4:    // forced stop (second signal)
            case 5:    // killed by a third signal
            case 129:  // SIGHUP
            case 130:
            case 143:
                r.status = "interrupted";
                break;
            default:
                r.status = "error";
                break;
        }
        if (r.status != "ok") r.error = error_line(prefix + ".err");
        if (r.exit_code == 0 && !have) r.error = "the case wrote no report file";
    }
    if (g_sweep_stop != 0) r.status = "interrupted";
    std::remove((prefix + ".result").c_str());
    std::error_code ec;
    if (fs::file_size(prefix + ".err", ec) == 0 && !ec) fs::remove(prefix + ".err", ec);
    return r;
}

Record run_case(const Plan& p, int row) {
    double t0 = now_s();
    pid_t pid = spawn_case(p, row);
    int ws = 0;
    bool killed = false;
    while (waitpid(pid, &ws, 0) < 0) {
        if (errno != EINTR)
            throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
        if (g_sweep_stop != 0 && !killed) {
            kill(pid, SIGTERM);
            killed = true;
        }
    }
    return collect_case(p, row, ws, now_s() - t0);
}

void case_child_setup() {
    const char* parent = std::getenv("MBS_SWEEP_PARENT");
    if (!parent) return;
    // The case dies with its sweep: SIGTERM (outputs closed, exit 143) when the parent exits.
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (std::to_string(getppid()) != parent) std::_Exit(143);  // parent gone before prctl
}

namespace {

// The case operations the MPI module calls back.
class PlanRunner final : public CaseRunner {
  public:
    explicit PlanRunner(const Plan& p) : p_(p) {}
    Record run(int row) override { return run_case(p_, row); }
    pid_t spawn(int row) override { return spawn_case(p_, row); }
    Record collect(int row, int ws, double wall_s) override {
        return collect_case(p_, row, ws, wall_s);
    }
    std::string to_text(const Record& r) override { return record_text(r); }
    bool from_text(const std::string& text, Record& r) override { return parse_record(text, r); }
    double now() override { return now_s(); }

  private:
    const Plan& p_;
};

const char* env_any(std::initializer_list<const char*> names) {
    for (const char* n : names)
        if (const char* v = std::getenv(n)) return v;
    return nullptr;
}

}  // namespace

bool MpiSession::launched_by_mpi() {
    return env_any({"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"}) != nullptr;
}

bool MpiSession::launched_with_several_ranks() {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"}) {
        const char* s = std::getenv(v);
        if (s && std::atoi(s) > 1) return true;
    }
    return false;
}

// libmbs_sweep_mpi.so: next to the executable (build tree), else in the installed library
// folder (MBS_SWEEP_MPI_RELDIR, relative to the executable's folder).
MpiSession::MpiSession() {
    if (!launched_by_mpi()) return;
    std::error_code ec;
    fs::path dir = fs::read_symlink("/proc/self/exe", ec).parent_path();
    std::string errors;
    void* h = nullptr;
    for (const fs::path& f :
         {dir / "libmbs_sweep_mpi.so", dir / MBS_SWEEP_MPI_RELDIR / "libmbs_sweep_mpi.so"}) {
        if (!fs::exists(f, ec)) continue;
        // RTLD_GLOBAL: OpenMPI loads its own components later, and they need libmpi's symbols.
        h = dlopen(f.c_str(), RTLD_NOW | RTLD_GLOBAL);
        if (h) break;
        errors += std::string(" ") + dlerror();
    }
    auto open = h ? reinterpret_cast<MpiOpenFn>(dlsym(h, "mbs_sweep_mpi_open")) : nullptr;
    if (!open) {
        if (!launched_with_several_ranks()) return;  // mpirun -n 1: plain mode will do
        throw std::invalid_argument(
            "this mbsolve has no MPI support (libmbs_sweep_mpi.so not found or not loadable:" +
            (errors.empty() ? std::string(" build with cmake -DMBS_MPI=ON and OpenMPI") : errors) +
            "); under mpirun every rank would run the whole sweep: run it without mpirun, or split "
            "it "
            "with --sweep-rows / --rows-per-task");
    }
    backend_.reset(open(&g_sweep_stop));
}

int run(const cli::Options& opt, const char* argv0) {
    std::unique_ptr<MpiSession> session;
    try {
        session = std::make_unique<MpiSession>();
    } catch (const std::exception& e) {
        const char* r = env_any({"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"});
        if (!r || std::string(r) == "0") std::cerr << "mbsolve: error: " << e.what() << "\n";
        return 2;
    }
    MpiSession& mpi = *session;
    bool lead = mpi.rank() == 0;
    Plan p;
    int code = 0;
    try {
        p = make_plan(opt, argv0);
        if (!slice(opt, p.rows(), p.first, p.last)) {
            if (lead && !p.quiet)
                std::cout << "sweep: task " << std::getenv("SLURM_ARRAY_TASK_ID")
                          << " starts past the table's " << p.rows() << " rows: nothing to do\n";
            return 0;
        }
        if (lead) {
            fs::create_directories(p.dir);
            write_atomically(p.dir + "/sweep.manifest", manifest_text(p));
        }
    } catch (const InputError& e) {
        if (lead) std::cerr << e.format();
        code = 2;
    } catch (const std::exception& e) {
        if (lead) std::cerr << "mbsolve: error: " << e.what() << "\n";
        code = 2;
    }
    if (code != 0) return code;
    install_sweep_handlers();

    std::vector<int> todo;
    Record r;
    for (int row = p.first; row <= p.last; ++row)
        if (!read_done(p, row, r)) todo.push_back(row);
    int slice_rows = p.last - p.first + 1;
    if (lead && !p.quiet)
        std::cout << "sweep: " << slice_rows << " cases (rows " << p.first << "-" << p.last
                  << " of " << p.rows() << "), " << slice_rows - static_cast<int>(todo.size())
                  << " already completed, running " << todo.size() << " on " << mpi.size()
                  << (mpi.size() == 1 ? " process" : " MPI ranks") << "\n"
                  << std::flush;

    double t0 = now_s();
    auto report = [&](const Record& rec) {
        if (rec.recorded()) write_record(p, rec);
        if (!p.quiet && rec.status != "ok")
            std::cout << "sweep: row " << rec.row << ": " << rec.status
                      << (rec.error.empty() ? "" : ": " + rec.error) << "\n"
                      << std::flush;
    };
    int ran = 0;
    if (mpi.active()) {
        PlanRunner runner(p);
        ran = mpi.schedule(runner, todo, report);
    } else {
        for (int row : todo) {
            if (g_sweep_stop != 0) break;
            report(run_case(p, row));
            ++ran;
        }
    }
    if (g_sweep_stop != 0) {
        if (lead && !p.quiet)
            std::cout << "sweep: stopped by a signal after " << ran
                      << " cases; re-run to continue\n";
        return 128 + g_sweep_stop;
    }
    if (!lead) return mpi.finish(0);
    bool whole = p.first == 1 && p.last == p.rows();
    std::string summary = p.dir + (whole ? std::string("/summary.csv")
                                         : "/summary-rows-" + std::to_string(p.first) + "-" +
                                               std::to_string(p.last) + ".csv");
    int not_ok = write_summary(p, summary, "interrupted");
    if (!p.quiet) {
        char b[64];
        std::snprintf(b, sizeof b, "%.2f", now_s() - t0);
        std::cout << "sweep: ran " << ran << " cases in " << b << " s; " << slice_rows - not_ok
                  << " of " << slice_rows << " ok; summary " << summary << "\n";
    }
    return mpi.finish(not_ok == 0 ? 0 : 3);
}

int merge(const cli::Options& opt) {
    Plan p = read_manifest(fs::absolute(opt.sweep_merge).lexically_normal().string());
    std::vector<int> missing;
    Record r;
    for (int row = 1; row <= p.rows(); ++row)
        if (!read_done(p, row, r)) missing.push_back(row);
    int not_ok = write_summary(p, p.dir + "/summary.csv", "missing");
    if (!opt.quiet) {
        std::cout << "sweep-merge: " << p.rows() - static_cast<int>(missing.size()) << " of "
                  << p.rows() << " cases recorded, " << p.rows() - not_ok << " ok; summary "
                  << p.dir << "/summary.csv\n";
        if (!missing.empty()) {
            std::cout << "sweep-merge: missing rows:";
            for (std::size_t k = 0; k < missing.size() && k < 50; ++k)
                std::cout << " " << missing[k];
            std::cout << (missing.size() > 50 ? " ..." : "") << "\n";
        }
    }
    return not_ok == 0 ? 0 : 3;
}

}  // namespace mbs::sweep
