// libFuzzer target over the expression entry points other than the deck itself: the first byte
// chooses one, the rest is the text.
//   0: a -D NAME=VALUE definition (parsed and evaluated before the deck, then read by it);
//   1: the body of a `string` drive (parsed, compiled to the stack machine, evaluated at a few
//      times, as in the Newton loop);
//   2: a --report expression (parsed with its node/element terms, evaluated with terms = 1).
// A bad expression must end in InputError (or std::invalid_argument for --report, which names
// the option); any other exception, a crash, a sanitizer report, a hang (-timeout) or runaway
// memory (-rss_limit_mb) is a finding. scripts/fuzz.sh expr runs it.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <stdexcept>
#include <streambuf>
#include <string>

#include "core/compiled_expr.hpp"
#include "core/source.hpp"
#include "mbsolve/sweep_report.hpp"
#include "parser/builder.hpp"
#include "parser/deck.hpp"
#include "parser/expr.hpp"

namespace {

class NullBuffer : public std::streambuf {
  protected:
    int overflow(int c) override { return c; }
    std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

// Reads X (the -D variable) so that the definition is used, not only parsed.
const char* const deck =
    "begin: data; problem: initial value; end: data;\n"
    "set: ifndef real X = 1.;\n"
    "begin: initial value; initial time: 0.; final time: 1.; time step: 1e-3;\n"
    "end: initial value;\n";

void define(const std::string& text, std::ostream& null_stream) {
    mbs::parser::BuildOptions options;
    options.echo_warnings = false;
    options.use_environment = false;
    options.load_modules = false;
    options.remarks = &null_stream;
    options.defines["X"] = text;
    mbs::parser::build_model_from_text("fuzz.mbd", deck, options);
}

void string_drive(const std::string& text) {
    mbs::SourceFile file("fuzz.drive", text);
    mbs::ast::Stmt stmt = mbs::parser::parse_statement(file.text, mbs::SourceLoc{&file, 0, 1});
    mbs::parser::SymbolTable symbols;
    auto code = mbs::parser::compile_expression(stmt, mbs::parser::AstOrigin{&file, 0}, symbols);
    for (double t : {0.0, 0.5, 1.0}) {
        mbs::CompiledExpr::Inputs in;
        in.time = t;
        in.time_dot = 1.0;
        double d = 0.0;
        (void)code->eval(in, &d);
    }
}

void report(const std::string& text) {
    mbs::sweep::Report r = mbs::sweep::parse_report(text);
    std::vector<double> terms(r.terms.size(), 1.0);
    (void)mbs::sweep::evaluate_report(r, terms, {});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static NullBuffer null_buffer;
    static std::ostream null_stream(&null_buffer);
    if (size < 1) return 0;
    const int mode = data[0] % 3;
    std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
    try {
        if (mode == 0) define(text, null_stream);
        if (mode == 1) string_drive(text);
        if (mode == 2) report(text);
    } catch (const mbs::InputError& e) {
        if (e.format().find(": error: ") == std::string::npos) std::abort();
    } catch (const std::invalid_argument& e) {
        if (mode != 2) {
            std::fprintf(stderr, "fuzz_expr: invalid_argument outside --report: %s\n", e.what());
            std::abort();
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz_expr: exception other than InputError: %s\n", e.what());
        std::abort();
    }
    return 0;
}
