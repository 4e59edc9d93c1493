// mbsolve: read a deck, build the model, run the analysis. Exit status: 0 ok, 1 internal error,
// 2 bad input, 3 solver failure, 128 + signal when stopped by SIGINT (130), SIGTERM (143) or
// SIGHUP (129), 4 forced stop (a second signal), 5 killed by a third signal.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>

#include "core/analysis.hpp"
#include "core/plugin/plugin.hpp"
#include "core/source.hpp"
#include "mbsolve/cli.hpp"
#include "mbsolve/sweep.hpp"
#include "mbsolve/sweep_report.hpp"
#include "output/hdf5_output.hpp"
#include "output/modal_hdf5.hpp"
#include "output/modal_netcdf.hpp"
#include "output/netcdf_output.hpp"
#include "output/output_error.hpp"
#include "output/progress.hpp"
#include "output/text_output.hpp"
#include "output/worker.hpp"
#include "parser/builder.hpp"
#include "parser/dump.hpp"
#include "solvers/dae/eigenanalysis.hpp"
#include "solvers/dae/simulation.hpp"
#include "solvers/reduced/analyses.hpp"
#include "solvers/reduced/run.hpp"

namespace {

// Termination signals, one handler for all (README "Exit status"):
//  - the first SIGINT, SIGTERM or SIGHUP (a closed terminal or ssh session) stops the time loop
//    after the current step; every output is closed normally; exit 128 + the signal (130, 143,
//    129);
//  - a second one forces the stop: the step in progress is abandoned at its next Newton
//    iteration (Simulation::abandon), the outputs are still closed at the last completed step,
//    and the exit status is 4, so that a script can tell it from a clean stop;
//  - a third one exits at once (status 5) without closing anything: the last resort when
//    closing the files itself hangs (a dead network file system).
constexpr int exit_forced_stop = 4;
constexpr int exit_killed = 5;
volatile std::sig_atomic_t g_stop = 0;   // the first signal
volatile std::sig_atomic_t g_force = 0;  // the second one
extern "C" void on_stop_signal(int sig) {
    if (g_stop == 0) {
        g_stop = sig;
        return;
    }
    if (g_force == 0) {
        g_force = sig;
        static const char msg[] =
            "\nmbsolve: second signal: abandoning the current step and closing the output files "
            "(a third signal exits at once and leaves them incomplete)\n";
        ssize_t n = write(STDERR_FILENO, msg, sizeof msg - 1);
        (void)n;
        return;
    }
    std::_Exit(exit_killed);
}

void install_stop_handlers() {
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGHUP, &sa, nullptr);
}

std::string stop_reason() {
    std::string r = g_stop == SIGINT   ? "interrupted (SIGINT)"
                    : g_stop == SIGHUP ? "hung up (SIGHUP)"
                                       : "terminated (SIGTERM)";
    if (g_force) r += ", forced by a second signal";
    return r;
}

int stop_status() { return g_force ? exit_forced_stop : g_stop ? 128 + g_stop : 0; }

// Output prefix: -o, else the deck path without its extension (MBDyn's rule).
// The prefix of the output files: -o PREFIX, else the deck's path without its extension. As in
// MBDyn, -o naming a directory (or ending in '/') puts the files there under the deck's name
// (`-o dir/` wrote hidden files dir/.mov, dir/.out). A prefix whose files would replace the deck
// itself (a deck named x.out run without -o: the log is x.out) is refused before anything is
// written.
std::string output_prefix(const mbs::cli::Options& opt) {
    namespace fs = std::filesystem;
    const fs::path deck(opt.deck);
    fs::path prefix = deck.parent_path() / deck.stem();
    if (!opt.output_prefix.empty()) {
        std::error_code ec;
        const bool dir = opt.output_prefix.back() == '/' || fs::is_directory(opt.output_prefix, ec);
        prefix = dir ? fs::path(opt.output_prefix) / deck.stem() : fs::path(opt.output_prefix);
    }
    static const char* const written[] = {"out", "log",   "mov", "jnt",     "ine",
                                          "act", "frc",   "abs", "nc",      "h5",
                                          "eq",  "modal", "lam", "nc.part", "h5.part"};
    std::error_code ec;
    const fs::path deck_abs = fs::weakly_canonical(deck, ec);
    for (const char* ext : written) {
        const fs::path out = fs::weakly_canonical(fs::path(prefix.string() + "." + ext), ec);
        if (!ec && out == deck_abs)
            throw std::invalid_argument(
                "the output file '" + prefix.string() + "." + ext +
                "' would replace the deck; give another prefix with -o PREFIX");
    }
    return prefix.string();
}

// The sinks of a run behind one: at the end, a run stopped by a signal is reported as such to
// every sink (Simulation::run ends it as a normal run).
class Sinks final : public mbs::OutputSink {
  public:
    void add(mbs::OutputSink* s) { sinks_.push_back(s); }
    void begin(const mbs::StepView& v) override {
        for (auto* s : sinks_) s->begin(v);
    }
    void step(const mbs::StepView& v, const mbs::StepInfo& info) override {
        t_ = info.time;
        for (auto* s : sinks_) s->step(v, info);
    }
    void end(const mbs::StepView& v, const std::string& status) override {
        std::string st = status;
        if (st.empty() && g_stop != 0) {
            char b[64];
            std::snprintf(b, sizeof b, " at t = %.9g", t_);
            st = stop_reason() + b;
        }
        for (auto* s : sinks_) s->end(v, st);
    }

  private:
    std::vector<mbs::OutputSink*> sinks_;
    double t_ = 0.0;
};

// Result formats: --format, else the deck's `output results: netcdf [, sync] [, no text] [, hdf5]`.
struct Formats {
    bool text = true, netcdf = false, hdf5 = false, sync = false;
};

Formats result_formats(const mbs::Model& model, const mbs::cli::Options& opt) {
    Formats f;
    auto has = [&](const char* w) { return model.control.output_result(w); };
    f.sync = has("sync");
    if (!opt.formats.empty()) {
        f.text = std::find(opt.formats.begin(), opt.formats.end(), "text") != opt.formats.end();
        f.netcdf = std::find(opt.formats.begin(), opt.formats.end(), "netcdf") != opt.formats.end();
        f.hdf5 = std::find(opt.formats.begin(), opt.formats.end(), "hdf5") != opt.formats.end();
        return f;
    }
    f.netcdf = has("netcdf");
    f.hdf5 = has("hdf5");
    f.text = !(has("no text") || has("notext"));
    return f;
}

// The command line's result files for any analysis: text (.out, .log and, unless `no text`,
// .mov .jnt ...), NetCDF and HDF5 as --format or the deck's `output results` ask, the progress
// line on a terminal, and the --report sink of a DAE run (add()).
class CliOutput final : public mbs::RunOutput {
  public:
    CliOutput(const mbs::Model& model, const mbs::cli::Options& opt)
        : model_(model), opt_(opt), prefix_(output_prefix(opt)), fmt_(result_formats(model, opt)) {}

    mbs::OutputSink& open(const mbs::RunSettings& settings) override {
        if (text_) return sinks_;
        text_ = std::make_unique<mbs::TextOutput>(model_, prefix_, fmt_.text);
        sinks_.add(text_.get());
        mbs::output::SinkOptions so;
        if (opt_.flush_every > 0) so.flush_every = opt_.flush_every;
        so.sync = fmt_.sync;
        so.deck = opt_.deck;
        so.version = MBS_VERSION;
        so.settings = settings;
        so.exit_after_run = true;
        if (fmt_.netcdf) {
            nc_ = mbs::output::make_netcdf_output(model_, prefix_ + ".nc", so);
            sinks_.add(nc_.get());
            result_files_.push_back(prefix_ + ".nc");
        }
        if (fmt_.hdf5) {
            h5_ = mbs::output::make_hdf5_output(model_, prefix_ + ".h5", so,
                                                opt_.compression < 0 ? 0 : opt_.compression);
            sinks_.add(h5_.get());
            result_files_.push_back(prefix_ + ".h5");
        }
        if (!opt_.quiet && isatty(STDOUT_FILENO)) {
            const bool forever = settings.final_time == std::numeric_limits<double>::infinity();
            progress_ = std::make_unique<mbs::output::Progress>(stdout, settings.initial_time,
                                                                settings.final_time, forever);
            sinks_.add(progress_.get());
        }
        return sinks_;
    }
    void add(mbs::OutputSink* s) { sinks_.add(s); }
    std::vector<std::string> write_modal(const mbs::ModalColumns& c) override {
        std::vector<std::string> written;
        if (fmt_.hdf5) {
            mbs::output::write_modal_hdf5(model_.deck_path, c, prefix_ + ".h5");
            written.push_back(prefix_ + ".h5");
        }
        if (fmt_.netcdf) {
            mbs::output::write_modal_netcdf(model_.deck_path, c, prefix_ + ".nc");
            written.push_back(prefix_ + ".nc");
        }
        return written;
    }
    std::vector<std::string> files() const override {
        std::vector<std::string> v = text_ ? text_->files() : std::vector<std::string>{};
        v.insert(v.end(), result_files_.begin(), result_files_.end());
        return v;
    }

  private:
    const mbs::Model& model_;
    const mbs::cli::Options& opt_;
    std::string prefix_;
    Formats fmt_;
    Sinks sinks_;
    std::unique_ptr<mbs::TextOutput> text_;
    std::unique_ptr<mbs::OutputSink> nc_, h5_;
    std::unique_ptr<mbs::output::Progress> progress_;
    std::vector<std::string> result_files_;
};

int run(const mbs::Model& model, const mbs::cli::Options& opt) {
    mbs::SolverSettings settings = mbs::SolverSettings::from_model(model);
    mbs::Simulation sim(model, settings);
    CliOutput output(model, opt);
    mbs::OutputSink& sinks = output.open(settings.run_settings());
    std::unique_ptr<mbs::sweep::RunReports> reports;
    if (!opt.reports.empty() || !opt.report_file.empty()) {
        reports = std::make_unique<mbs::sweep::RunReports>(opt.reports, opt.report_file,
                                                           opt.defines, sim.engine());
        output.add(reports->sink());
    }
    sim.add_sink(&sinks);
    // `eigenanalysis` (initial value block): its Octave files; NetCDF and HDF5 do not hold it yet.
    std::unique_ptr<mbs::EigenanalysisSink> eig;
    if (model.solver.eigenanalysis.given()) {
        const Formats f = result_formats(model, opt);
        if (f.netcdf || f.hdf5)
            throw mbs::InputError(model.solver.eigenanalysis.loc,
                                  std::string("eigenanalysis results in ") +
                                      (f.netcdf ? "NetCDF" : "HDF5") + " are not supported yet",
                                  "the modes are written to PREFIX_<k>.m: run with text output "
                                  "only (no --format netcdf/hdf5, no 'output results')");
        eig = std::make_unique<mbs::EigenanalysisSink>(sim.engine(), model, output_prefix(opt));
        sim.add_sink(eig.get());
    }

    install_stop_handlers();
    sim.keep_going = [](double) { return g_stop == 0; };
    sim.abandon = &g_force;
    // Output steps: `output meter` (a drive, non-zero = output) or the deprecated `output
    // frequency`.
    mbs::DrivePtr meter;
    if (model.control.output_meter.given())
        meter = mbs::make_drive(*model.control.output_meter.value, sim.engine().drive_env());
    long every = model.control.output_frequency.value_or(1);
    sim.is_output_step = [meter, every](long step, double t) {
        if (meter) return meter->value(t) != 0.0;
        return every <= 1 || step % every == 0;
    };
    auto t0 = std::chrono::steady_clock::now();
    try {
        mbs::RunStats st = sim.run();
        if (reports) reports->finish("ok", "", opt.quiet);
        double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::vector<std::string> files = output.files();
        if (eig) {
            files.insert(files.end(), eig->files().begin(), eig->files().end());
            for (double t : eig->missed())
                std::fprintf(stderr,
                             "mbsolve: warning: eigenanalysis at t = %.9g not done: the run "
                             "ended before it\n",
                             t);
        }
        if (!opt.quiet)
            mbs::output::print_summary(
                stdout, st, wall, files,
                g_stop ? stop_reason() + (g_force ? "" : " after the current step") : "");
        return stop_status();
    } catch (const mbs::SolverFailure& f) {
        std::cerr << "mbsolve: solver failure: " << f.what() << "\n";
        if (reports) reports->finish("failed", f.what(), true);
        return 3;
    }
}

// The relative-coordinate path (--tree, --analysis, a `problem:` of core/analysis.hpp) under the
// same signal handling as the DAE run: the first signal ends reduced and inverse dynamics after
// the current step (PREFIX.out ends with `# run stopped: ...`, every file closed; equilibrium and
// modal analysis finish their solve), exit 128 + signal; a second one exits 4 the same way (the
// steps are short: nothing to abandon); a third exits 5 at once.
int run_reduced(const mbs::Model& model, const mbs::cli::Options& opt, bool tree,
                const std::string& analysis) {
    if (!tree && model.solver.eigenanalysis.given())
        throw mbs::InputError(model.solver.eigenanalysis.loc,
                              "'eigenanalysis' belongs to the time integration of the DAE, not "
                              "to the relative-coordinate analysis '" +
                                  analysis + "'",
                              "run the deck without --analysis for the full model's modes; "
                              "'--analysis modal' gives the relative-coordinate ones");
    if (!tree) install_stop_handlers();
    mbs::reduced::StopRequest stop;
    stop.requested = &g_stop;
    stop.reason = stop_reason;
    CliOutput output(model, opt);
    const int status = mbs::reduced::run_cli(model, tree, analysis, output_prefix(opt), opt.quiet,
                                             opt.independent, &stop, &output);
    return status != 0 ? status : stop_status();
}

}  // namespace

int main(int argc, char** argv) {
    mbs::sweep::case_child_setup();
    mbs::cli::Options opt;
    try {
        opt = mbs::cli::parse(argc, argv);
    } catch (const std::invalid_argument& e) {
        std::cerr << "mbsolve: " << e.what() << "\n\n" << mbs::cli::usage();
        return 2;
    }
    if (opt.help) {
        std::cout << mbs::cli::usage();
        return 0;
    }
    if (opt.version) {
        std::cout << "mbsolve " << MBS_VERSION << "\n";
        return 0;
    }
    if (opt.output_threads == 0) mbs::output::Worker::set_threads(false);
    try {
        if (!opt.working_dir.empty()) {
            std::error_code ec;
            std::filesystem::current_path(opt.working_dir, ec);
            if (ec)
                throw std::invalid_argument("-W " + opt.working_dir +
                                            ": cannot change to this directory: " + ec.message());
        }
        if (!opt.sweep_merge.empty()) return mbs::sweep::merge(opt);
        if (!opt.sweep_table.empty()) return mbs::sweep::run(opt, argv[0]);
        mbs::parser::BuildOptions bo;
        bo.defines = opt.defines;
        bo.echo_warnings = !opt.quiet;
        for (const auto& m : opt.modules) {
            std::string dir = std::filesystem::path(opt.deck).parent_path().string();
            try {
                mbs::plugin::load_module(m, mbs::plugin::search_path(dir, {}), nullptr, {});
            } catch (const mbs::InputError& e) {
                std::cerr << "mbsolve: error: --module " << m << ": " << e.message() << "\n";
                if (!e.hint().empty()) std::cerr << "  " << e.hint() << "\n";
                return 2;
            }
        }
        mbs::Model model = mbs::parser::build_model(opt.deck, bo);
        if (opt.dump_model) {
            mbs::parser::dump_model(model, std::cout);
            return 0;
        }
        if (opt.check) {
            mbs::parser::print_summary(model, std::cout);
            return 0;
        }
        if (opt.tree || !opt.analysis.empty())
            return run_reduced(model, opt, opt.tree, opt.analysis);
        // A `problem:` of the relative-coordinate path (core/analysis.hpp); else the DAE.
        if (const mbs::AnalysisInfo* a = mbs::analysis_for_problem(model.problem))
            return run_reduced(model, opt, false, std::string(a->name));
        return run(model, opt);
    } catch (const mbs::InputError& e) {
        std::cerr << e.format();
        return 2;
    } catch (const std::filesystem::filesystem_error& e) {
        std::cerr << "mbsolve: error: " << e.what() << "\n";
        return 2;
    } catch (const std::invalid_argument& e) {
        std::cerr << "mbsolve: error: " << e.what() << "\n";
        return 2;
    } catch (const mbs::output::OutputError& e) {
        std::cerr << "mbsolve: error: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "mbsolve: internal error: " << e.what() << "\n";
        return 1;
    }
}
