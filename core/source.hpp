// Source files, source locations and the diagnostics every input error goes through.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mbs {

// One input file held in memory; offsets into `text` identify positions.
struct SourceFile {
    std::string path;  // as given (relative to the working directory or the including file)
    std::string text;
    std::vector<std::uint32_t> line_starts;

    SourceFile(std::string path_, std::string text_);
    // 1-based line and column of a byte offset.
    std::pair<int, int> line_col(std::size_t offset) const;
    std::string_view line_text(int line) const;
};

// A range [begin, end) in one source file. A default-constructed location means "no position".
struct SourceLoc {
    const SourceFile* file = nullptr;
    std::uint32_t begin = 0;
    std::uint32_t end = 0;
    bool valid() const { return file != nullptr; }
    std::string where() const;  // "file:line:col"
};

enum class Severity { error, warning, note };

// `s` with control bytes and invalid UTF-8 escaped as \xNN and newlines as \n.
std::string printable(std::string_view s);

// Formats "file:line:col: error: what", the source line, a caret under the range, and a hint.
std::string format_diagnostic(Severity sev, const SourceLoc& loc, std::string_view what,
                              std::string_view hint = {});

// Thrown for every problem in the user's input. Caught in main(): exit status 2.
class InputError : public std::runtime_error {
  public:
    InputError(SourceLoc loc, std::string what, std::string hint = {});
    // Valid only while the source files live; where() and format() are computed at construction
    // and stay valid after the builder that threw has gone.
    const SourceLoc& loc() const { return loc_; }
    const std::string& where() const { return where_; }  // "file:line:col"
    const std::string& message() const { return message_; }
    const std::string& hint() const { return hint_; }
    const std::string& format() const { return formatted_; }

  private:
    SourceLoc loc_;
    std::string message_;
    std::string hint_;
    std::string where_;
    std::string formatted_;
};

// Collects warnings during parsing and building; they are printed as they come unless quiet.
class Diagnostics {
  public:
    void warn(const SourceLoc& loc, std::string_view what, std::string_view hint = {});
    const std::vector<std::string>& warnings() const { return warnings_; }
    // Warnings with the same text are echoed at most `echo_limit` times; the rest are counted.
    std::size_t suppressed() const { return suppressed_; }
    bool echo = true;
    std::size_t echo_limit = 3;

  private:
    std::vector<std::string> warnings_;
    std::map<std::string, std::size_t> seen_;
    std::size_t suppressed_ = 0;
};

// Case-insensitive keyword normalisation: whitespace removed, lower case ("Control  Data" ->
// "controldata").
std::string normalize_keyword(std::string_view s);

// Levenshtein distance, for "did you mean" hints.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The closest candidate to `word` (already normalised) if it is close enough to be a useful hint.
std::string closest_match(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace mbs
