// Source files and diagnostics formatting.
#include "core/source.hpp"

#include <algorithm>
#include <cctype>
#include <iostream>
#include <sstream>

#include "core/utf8.hpp"

namespace mbs {

SourceFile::SourceFile(std::string path_, std::string text_)
    : path(std::move(path_)), text(std::move(text_)) {
    // A UTF-8 byte order mark (Windows editors) is not part of the deck; columns count without it.
    if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
    // Lines end at "\n", "\r\n" or a lone "\r" (classic Mac OS files): a deck with CR-only line
    // ends is not one long line 1.
    line_starts.push_back(0);
    for (std::size_t i = 0; i < text.size(); ++i)
        if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')))
            line_starts.push_back(static_cast<std::uint32_t>(i + 1));
}

std::pair<int, int> SourceFile::line_col(std::size_t offset) const {
    auto it = std::upper_bound(line_starts.begin(), line_starts.end(), offset);
    int line = static_cast<int>(it - line_starts.begin());
    int col = static_cast<int>(offset - line_starts[line - 1]) + 1;
    return {line, col};
}

std::string_view SourceFile::line_text(int line) const {
    if (line < 1 || line > static_cast<int>(line_starts.size())) return {};
    std::size_t b = line_starts[line - 1];
    std::size_t e = text.find_first_of("\r\n", b);
    if (e == std::string::npos) e = text.size();
    return std::string_view(text).substr(b, e - b);
}

std::string SourceLoc::where() const {
    if (!file) return "<command line>";
    auto [l, c] = file->line_col(begin);
    return file->path + ":" + std::to_string(l) + ":" + std::to_string(c);
}

// A message or hint quoting a huge piece of the deck (a 5000-character identifier, a long
// string) keeps its first and last 200 bytes around "... (N bytes left out) ...", cut at UTF-8
// character boundaries, so the diagnostic stays readable (the source line shows the rest).
static std::string shorten(std::string s) {
    constexpr std::size_t keep = 200;
    if (s.size() <= 3 * keep) return s;
    auto boundary = [&](std::size_t i) {
        while (i > 0 && i < s.size() && (static_cast<unsigned char>(s[i]) >> 6) == 0x2) --i;
        return i;
    };
    const std::size_t head = boundary(keep), tail = boundary(s.size() - keep);
    return s.substr(0, head) + "... (" + std::to_string(tail - head) + " bytes left out) ..." +
           s.substr(tail);
}

std::size_t utf8_length(std::string_view s, std::size_t i) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80                 ? 1
                          : c >= 0xc2 && c <= 0xdf ? 2
                          : (c >> 4) == 0xe        ? 3
                          : c >= 0xf0 && c <= 0xf4 ? 4
                                                   : 0;
    if (n == 0 || i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k)
        if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return 0;
    return n;
}

// Messages quote the deck's text, which may be binary: control bytes and bytes that are not
// UTF-8 are written as \xNN (a newline as \n), so a diagnostic stays one line of valid text.
std::string printable(std::string_view s) {
    static const char* hex = "0123456789abcdef";
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        auto c = static_cast<unsigned char>(s[i]);
        const std::size_t n = utf8_length(s, i);
        const bool ok = n > 0 && (n > 1 || (c >= 0x20 && c != 0x7f) || c == '\t');
        if (ok) {
            out.append(s.substr(i, n));
            i += n;
        } else if (c == '\n') {
            out += "\\n";
            ++i;
        } else {
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 0xf];
            ++i;
        }
    }
    return out;
}

std::string format_diagnostic(Severity sev, const SourceLoc& loc, std::string_view what,
                              std::string_view hint) {
    std::ostringstream os;
    const char* tag = sev == Severity::error     ? "error"
                      : sev == Severity::warning ? "warning"
                                                 : "note";
    os << printable(loc.where()) << ": " << tag << ": " << shorten(printable(what)) << '\n';
    if (loc.file) {
        auto [l, c] = loc.file->line_col(loc.begin);
        std::string_view text = loc.file->line_text(l);
        // Long lines (generated or hostile input) are shown around the column only.
        std::size_t from = 0;
        if (text.size() > 160 && static_cast<std::size_t>(c) > 80) from = c - 60;
        std::string_view shown = text.substr(from, 160);
        // UTF-8 characters are shown as they are (one caret column each); a control byte or a
        // byte that is not UTF-8 as '?'.
        os << "    " << (from ? "..." : "");
        for (std::size_t i = 0; i < shown.size();) {
            const std::size_t n = utf8_length(shown, i);
            const char ch = shown[i];
            if (n > 1)
                os << shown.substr(i, n);
            else
                os << (std::isprint(static_cast<unsigned char>(ch)) || ch == '\t' ? ch : '?');
            i += n > 1 ? n : 1;
        }
        os << '\n' << "    " << (from ? "   " : "");
        for (std::size_t i = from; i + 1 < static_cast<std::size_t>(c) && i < text.size();) {
            const std::size_t n = utf8_length(text, i);
            os << (text[i] == '\t' ? '\t' : ' ');
            i += n > 1 ? n : 1;
        }
        std::size_t width = 1;
        auto [l2, c2] = loc.file->line_col(loc.end > loc.begin ? loc.end : loc.begin);
        if (l2 == l && c2 > c) {
            width = 0;  // characters, not bytes
            for (std::size_t i = c - 1; i + 1 < static_cast<std::size_t>(c2) && i < text.size();
                 ++width) {
                const std::size_t n = utf8_length(text, i);
                i += n > 1 ? n : 1;
            }
            width = std::clamp<std::size_t>(width, 1, 80);
        }
        os << '^' << std::string(width - 1, '~') << '\n';
    }
    if (!hint.empty()) os << "    hint: " << shorten(printable(hint)) << '\n';
    return os.str();
}

InputError::InputError(SourceLoc loc, std::string what, std::string hint)
    : std::runtime_error(what),
      loc_(loc),
      message_(std::move(what)),
      hint_(std::move(hint)),
      where_(loc.where()),
      formatted_(format_diagnostic(Severity::error, loc_, message_, hint_)) {}

void Diagnostics::warn(const SourceLoc& loc, std::string_view what, std::string_view hint) {
    warnings_.push_back(format_diagnostic(Severity::warning, loc, what, hint));
    if (++seen_[std::string(what)] > echo_limit) {
        ++suppressed_;
        return;
    }
    if (echo) std::cerr << warnings_.back();
}

std::string normalize_keyword(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s)
        if (!std::isspace(static_cast<unsigned char>(c)))
            out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

std::string closest_match(std::string_view word, const std::vector<std::string>& candidates) {
    std::string best;
    std::size_t best_d = std::string::npos;
    std::string w = normalize_keyword(word);
    for (const auto& c : candidates) {
        std::size_t d = edit_distance(w, normalize_keyword(c));
        if (d < best_d) best_d = d, best = c;
    }
    std::size_t limit = std::max<std::size_t>(2, w.size() / 3);
    return best_d <= limit ? best : std::string{};
}

}  // namespace mbs
