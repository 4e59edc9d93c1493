// libFuzzer target over the `mbsolve --check` path: parse a deck held in memory, build the model
// (every card reader, reference frames, drives, laws) and print the summary and the model dump.
// A bad deck must end in InputError; any other exception, a crash, a sanitizer report, a hang
// (-timeout) or runaway memory (-rss_limit_mb) is a finding. scripts/fuzz.sh runs it.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <ostream>
#include <streambuf>
#include <string>

#include "core/source.hpp"
#include "parser/builder.hpp"
#include "parser/dump.hpp"

namespace {

// Discards everything written to it (remarks, print(), the summary).
class NullBuffer : public std::streambuf {
  protected:
    int overflow(int c) override { return c; }
    std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static NullBuffer null_buffer;
    static std::ostream null_stream(&null_buffer);
    // `chdir:` cards move the process; every input starts from the same directory.
    static const std::filesystem::path start_dir = std::filesystem::current_path();
    std::string text(reinterpret_cast<const char*>(data), size);
    mbs::parser::BuildOptions options;
    options.echo_warnings = false;
    options.use_environment = false;  // `setenv:` cards must not leak into the next input
    options.remarks = &null_stream;
    options.load_modules = false;  // fuzzed paths must not dlopen arbitrary files
    try {
        mbs::Model model = mbs::parser::build_model_from_text("fuzz.mbd", text, options);
        mbs::parser::print_summary(model, null_stream);
        mbs::parser::dump_model(model, null_stream);
    } catch (const mbs::InputError& e) {
        // Every input error must carry a formatted "file:line:col: error: ..." message.
        if (e.format().find(": error: ") == std::string::npos) std::abort();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz_deck: exception other than InputError: %s\n", e.what());
        std::abort();
    }
    std::error_code ec;
    std::filesystem::current_path(start_dir, ec);
    return 0;
}
