// mbsolve: read a deck, build the model, run the analysis. Exit status: 0 ok, 1 internal error,
// 2 bad input, 3 solver failure.
#include <chrono>
#include <csignal>
#include <filesystem>
#include <iostream>

#include "core/source.hpp"
#include "mbsolve/cli.hpp"
#include "output/text_output.hpp"
#include "solvers/dae/simulation.hpp"
#include "parser/builder.hpp"
#include "parser/dump.hpp"

namespace {

// SIGINT/SIGTERM stop the time loop after the current step; outputs are closed normally.
volatile std::sig_atomic_t g_stop = 0;
extern "C" void on_stop_signal(int) { g_stop = 1; }

// Output prefix: -o, else the deck path without its extension (MBDyn's rule).
std::string output_prefix(const mbs::cli::Options& opt) {
    if (!opt.output_prefix.empty()) return opt.output_prefix;
    std::filesystem::path p(opt.deck);
    return (p.parent_path() / p.stem()).string();
}

int run(const mbs::Model& model, const mbs::cli::Options& opt) {
    mbs::SolverSettings settings = mbs::SolverSettings::from_model(model);
    mbs::Simulation sim(model, settings);
    mbs::TextOutput text(model, output_prefix(opt));
    sim.add_sink(&text);
    std::signal(SIGINT, on_stop_signal);
    std::signal(SIGTERM, on_stop_signal);
    sim.keep_going = [](double) { return g_stop == 0; };
    // Output steps: `output meter` (a drive, non-zero = output) or the deprecated `output frequency`.
    mbs::DrivePtr meter;
    if (const auto* v = model.control.find("output meter"))
        meter = mbs::make_drive(*std::get<std::shared_ptr<const mbs::DriveSpec>>(*v), sim.engine().drive_env());
    long every = model.control.get_or<long>("output frequency", 1);
    sim.is_output_step = [meter, every](long step, double t) {
        if (meter) return meter->value(t) != 0.0;
        return every <= 1 || step % every == 0;
    };
    auto t0 = std::chrono::steady_clock::now();
    try {
        mbs::RunStats st = sim.run();
        double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!opt.quiet)
            std::cout << "mbsolve: " << (g_stop ? "stopped by a signal after " : "") << st.steps << " steps, " << st.rejected << " rejected, " << st.iterations
                      << " iterations, " << st.factorizations << " factorizations, " << wall << " s\n";
        return 0;
    } catch (const mbs::SolverFailure& f) {
        std::cerr << "mbsolve: solver failure: " << f.what() << "\n";
        return 3;
    }
}

}  // namespace

int main(int argc, char** argv) {
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
    try {
        if (!opt.working_dir.empty()) std::filesystem::current_path(opt.working_dir);
        mbs::parser::BuildOptions bo;
        bo.defines = opt.defines;
        bo.echo_warnings = !opt.quiet;
        mbs::Model model = mbs::parser::build_model(opt.deck, bo);
        if (opt.dump_model) {
            mbs::parser::dump_model(model, std::cout);
            return 0;
        }
        if (opt.check) {
            mbs::parser::print_summary(model, std::cout);
            return 0;
        }
        return run(model, opt);
    } catch (const mbs::InputError& e) {
        std::cerr << e.format();
        return 2;
    } catch (const std::filesystem::filesystem_error& e) {
        std::cerr << "mbsolve: error: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "mbsolve: internal error: " << e.what() << "\n";
        return 1;
    }
}
