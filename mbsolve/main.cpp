// mbsolve: read a deck, build the model, run the analysis. Exit status: 0 ok, 1 internal error,
// 2 bad input, 3 solver failure.
#include <filesystem>
#include <iostream>

#include "core/source.hpp"
#include "mbsolve/cli.hpp"
#include "parser/builder.hpp"
#include "parser/dump.hpp"

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
        std::cerr << "mbsolve: the deck was read (" << model.nodes.size() << " nodes, " << model.elements.size()
                  << " elements), but time integration is not available yet in this version\n"
                  << "hint: use --check or --dump-model\n";
        return 1;
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
