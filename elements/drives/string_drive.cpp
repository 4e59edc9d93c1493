// Expression drive callers: `string, "expr"` (compiled once; Time, TimeStep, Step and Var stay
// live, every other name is folded to its value when the card is read) and `ginac`, which
// needs GiNaC and is not supported (docs/deck-language.md section 7).
#include "core/registry.hpp"

namespace mbs::drives {
namespace {

void read_string(Reader& r, DriveSpec& d) {
    SourceLoc at = r.loc();
    std::string text = r.string("expression");
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
        r.error_at(at, "empty string drive expression");
    d.expr = r.compile(text, at);
    d.source_text = std::move(text);
}

void read_ginac(Reader& r, DriveSpec& d) {
    r.error_at(d.loc, "the \"ginac\" drive caller is not supported (it needs GiNaC)",
               "write the expression as a string drive: string, \"...\"; it is differentiated "
               "exactly");
}

}  // namespace

MBS_REGISTER_DRIVE("string", read_string);
MBS_REGISTER_DRIVE("ginac", read_ginac);

}  // namespace mbs::drives
