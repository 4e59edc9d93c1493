// File drivers: the `file:` card, the data file reader and the interpolation
// (core/file_driver.hpp).
#include "core/file_driver.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string_view>

#include "core/reader.hpp"

namespace mbs {

namespace {

// `pad zeros, yes|no` or `bailout, none` (the bailouts that end the run are refused).
void read_padding(Reader& r, FileDriverCard& c) {
    if (r.accept("pad zeros") || r.accept("pad zeroes")) {
        c.pad_zeros = r.boolean("pad zeros");
        return;
    }
    if (!r.peek("bailout")) return;
    SourceLoc at = r.loc();
    r.accept("bailout");
    std::string b = r.keyword({"none", "upper", "lower", "any"}, "bailout");
    if (b != "none")
        r.error_at(at,
                   "'bailout, " + b +
                       "' (ending the run when the time leaves the file) is "
                       "not supported",
                   "set 'final time' to the file's last time, or use 'pad zeros, no' to hold the "
                   "last sample");
}

void read_interpolation(Reader& r, FileDriverCard& c) {
    if (r.accept("interpolation"))
        c.linear = r.keyword({"linear", "const"}, "interpolation") == "linear";
}

// `<value> | from file`; true when from file.
bool real_or_from_file(Reader& r, double& v, std::string_view what) {
    if (r.accept("from file")) return true;
    v = r.real(what);
    return false;
}

}  // namespace

FileDriverCard read_file_driver_card(Reader& r, long label, const SourceLoc& card) {
    FileDriverCard c;
    c.label = label;
    c.loc = card;
    SourceLoc at = r.loc();
    std::string type = r.keyword({"fixed step", "variable step", "socket", "socket stream",
                                  "stream", "rtai input", "buffer stream"},
                                 "file driver type");
    if (type != "fixed step" && type != "variable step")
        r.error_at(at, "'" + type + "' file drivers are not supported",
                   "mbsolve reads file drivers from text files only: 'fixed step' or 'variable "
                   "step'");
    c.variable_step = type == "variable step";
    if (!c.variable_step) {
        if (!r.accept("count")) {
            SourceLoc s = r.loc();
            c.steps = r.integer("number of steps");
            if (c.steps <= 0)
                r.error_at(s, "the number of steps must be positive",
                           "or write 'count' to count the samples in the file");
        }
    }
    SourceLoc ch = r.loc();
    c.channels = r.integer("number of channels");
    if (c.channels <= 0) r.error_at(ch, "the number of channels must be positive");
    if (c.channels > 100000) r.error_at(ch, "more than 100000 channels");
    if (!c.variable_step) {
        r.accept("initial time");  // MBDyn only warns when the keyword is missing
        c.t0_from_file = real_or_from_file(r, c.t0, "initial time");
        r.accept("time step");
        SourceLoc s = r.loc();
        c.dt_from_file = real_or_from_file(r, c.dt, "time step");
        if (!c.dt_from_file && !(c.dt > 0.0)) r.error_at(s, "the time step must be positive");
    }
    read_interpolation(r, c);
    read_padding(r, c);
    c.file_loc = r.loc();
    c.file_name = r.string("file name");
    return c;
}

namespace {

// A cursor over the data file's text that reports errors at line and column.
class DataText {
  public:
    DataText(const FileDriverCard& card, const SourceFile& f) : card_(card), f_(f) {}

    bool at_end() const { return pos_ >= f_.text.size(); }
    // The current line, without its end of line; moves to the next line.
    std::string_view line(std::uint32_t& begin) {
        begin = static_cast<std::uint32_t>(pos_);
        std::size_t e = f_.text.find('\n', pos_);
        if (e == std::string::npos) e = f_.text.size();
        pos_ = e + 1;
        std::string_view l(f_.text.data() + begin, e - begin);
        if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
        return l;
    }
    std::size_t pos() const { return pos_; }
    void seek(std::size_t p) { pos_ = p; }

    [[noreturn]] void fail(std::size_t begin, std::size_t end, const std::string& what) const {
        SourceLoc at{&f_, static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end)};
        throw InputError(
            at, what,
            "data of file driver " + std::to_string(card_.label) + " (" + card_.loc.where() + ")");
    }

  private:
    const FileDriverCard& card_;
    const SourceFile& f_;
    std::size_t pos_ = 0;
};

bool blank(std::string_view l) { return l.find_first_not_of(" \t\r\f\v") == std::string::npos; }

std::string_view trim_left(std::string_view s) {
    std::size_t i = s.find_first_not_of(" \t");
    return i == std::string::npos ? std::string_view{} : s.substr(i);
}

bool starts_with_nocase(std::string_view s, std::string_view p) {
    if (s.size() < p.size()) return false;
    for (std::size_t i = 0; i < p.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[i])) != p[i]) return false;
    return true;
}

// Parses one number at the start of `s` (after blanks); returns the characters used, 0 if none.
std::size_t parse_number(std::string_view s, double& v) {
    std::size_t i = 0;
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    if (i < s.size() && s[i] == '+') ++i;  // from_chars takes no '+'
    auto [p, ec] = std::from_chars(s.data() + i, s.data() + s.size(), v);
    if (ec != std::errc() || p == s.data() + i) return 0;
    return static_cast<std::size_t>(p - s.data());
}

// `# initial time: <t>` / `# time step: <dt>` in the leading comments (fixed step, `from file`).
void header_value(DataText& d, std::string_view body, std::uint32_t at, std::string_view key,
                  bool wanted, double& out, bool& found) {
    if (!wanted || !starts_with_nocase(body, key)) return;
    std::string_view rest = body.substr(key.size());
    double v = 0.0;
    std::size_t n = parse_number(rest, v);
    const std::size_t off = at + static_cast<std::size_t>(rest.data() - body.data());
    if (n == 0 || !std::isfinite(v))
        d.fail(off, off + rest.size(), "cannot read the number after '" + std::string(key) + "'");
    out = v;
    found = true;
}

}  // namespace

FileDriver parse_file_driver(const FileDriverCard& card, const SourceFile& data) {
    FileDriver fd;
    fd.label = card.label;
    fd.loc = card.loc;
    fd.path = data.path;
    fd.variable_step = card.variable_step;
    fd.linear = card.linear;
    fd.pad_zeros = card.pad_zeros;
    fd.channels = card.channels;
    fd.t0 = card.t0;
    fd.dt = card.dt;
    DataText d(card, data);

    // Leading comments, with the fixed-step header values.
    bool t0_found = false, dt_found = false;
    while (!d.at_end()) {
        std::size_t save = d.pos();
        std::uint32_t b = 0;
        std::string_view l = d.line(b);
        if (l.empty() || l[0] != '#') {
            d.seek(save);
            break;
        }
        std::string_view body = trim_left(l.substr(1));
        std::uint32_t body_at = b + static_cast<std::uint32_t>(body.data() - l.data());
        header_value(d, body, body_at, "initial time:", card.t0_from_file, fd.t0, t0_found);
        header_value(d, body, body_at, "time step:", card.dt_from_file, fd.dt, dt_found);
    }
    const std::size_t data_start = d.pos();
    const std::size_t end_at = data.text.empty() ? 0 : data.text.size() - 1;
    if (card.t0_from_file && !t0_found)
        d.fail(0, 0, "no '# initial time: <t0>' line in the leading comments");
    if (card.dt_from_file && !dt_found)
        d.fail(0, 0, "no '# time step: <dt>' line in the leading comments");
    if (card.dt_from_file && !(fd.dt > 0.0)) d.fail(0, 0, "the time step in the file must be > 0");

    // The samples: count them first (`count`, variable step), then read them into one block.
    long n = card.steps;
    if (n < 0) {
        n = 0;
        while (!d.at_end()) {
            std::uint32_t b = 0;
            std::string_view l = d.line(b);
            if (!blank(l) && l[0] != '#') ++n;
        }
        d.seek(data_start);
    }
    if (n == 0) d.fail(end_at, end_at, "the file holds no samples");
    fd.steps = n;
    const long cols = card.channels + (card.variable_step ? 1 : 0);
    if (card.variable_step) fd.times.resize(static_cast<std::size_t>(n));
    fd.values.resize(static_cast<std::size_t>(n * card.channels));
    long j = 0;
    while (j < n) {
        if (d.at_end())
            d.fail(end_at, end_at,
                   "the file ends after " + std::to_string(j) + " samples; " + std::to_string(n) +
                       " expected");
        std::uint32_t b = 0;
        std::string_view l = d.line(b);
        if (blank(l) || l[0] == '#') continue;
        std::size_t p = 0;
        for (long k = 0; k < cols; ++k) {
            double v = 0.0;
            std::size_t used = parse_number(l.substr(p), v);
            std::size_t at = b + p;
            while (at < b + l.size() && (data.text[at] == ' ' || data.text[at] == '\t')) ++at;
            if (used == 0 || !std::isfinite(v)) {
                std::string what = at >= b + l.size()
                                       ? "the line ends after " + std::to_string(k) + " of " +
                                             std::to_string(cols) + " columns"
                                       : "expected a number (column " + std::to_string(k + 1) +
                                             " of " + std::to_string(cols) + ")";
                d.fail(at, std::max(at, b + l.size()), what);
            }
            p += used;
            if (p < l.size() && l[p] != ' ' && l[p] != '\t' && l[p] != '\r')
                d.fail(b + p, b + l.size(), "expected a blank after the number");
            if (card.variable_step && k == 0)
                fd.times[static_cast<std::size_t>(j)] = v;
            else
                fd.values[static_cast<std::size_t>((k - (cols - card.channels)) * n + j)] = v;
        }
        if (!blank(l.substr(p)))
            d.fail(b + p, b + l.size(),
                   "more than " + std::to_string(cols) + " columns on this line" +
                       (card.variable_step
                            ? " (the time and " + std::to_string(card.channels) + " channels)"
                            : ""));
        if (card.variable_step && j > 0 &&
            !(fd.times[static_cast<std::size_t>(j)] > fd.times[static_cast<std::size_t>(j - 1)]))
            d.fail(b, b + l.size(),
                   "the times must increase strictly (sample " + std::to_string(j + 1) + ")");
        ++j;
    }
    return fd;
}

double FileDriver::value(long c, double t, long& hint) const {
    const double* v = values.data() + (c - 1) * steps;
    const long last = steps - 1;
    if (!variable_step) {
        const double tt = t - t0;
        if (tt < 0.0) return pad_zeros ? 0.0 : v[0];
        if (tt > dt * static_cast<double>(last)) return pad_zeros ? 0.0 : v[last];
        const long j1 = std::min(last, static_cast<long>(std::floor(tt / dt)));
        if (!linear || j1 == last) return v[j1];
        const double t1 = t0 + static_cast<double>(j1) * dt, t2 = t1 + dt;
        return v[j1 + 1] * ((t - t1) / dt) + v[j1] * ((t2 - t) / dt);
    }
    const double* T = times.data();
    if (t <= T[0]) return pad_zeros ? 0.0 : v[0];
    if (t >= T[last]) return pad_zeros ? 0.0 : v[last];
    // T[0] < t < T[last]: find j with T[j] <= t < T[j + 1]; the hint is usually right or one off.
    long j = std::clamp(hint, 0L, last - 1);
    if (!(T[j] <= t && t < T[j + 1])) {
        if (j + 2 <= last && T[j + 1] <= t && t < T[j + 2])
            ++j;
        else
            j = static_cast<long>(std::upper_bound(T, T + steps, t) - T) - 1;
    }
    hint = j;
    if (!linear) return v[j];
    const double t1 = T[j], t2 = T[j + 1];
    return v[j + 1] * ((t - t1) / (t2 - t1)) + v[j] * ((t2 - t) / (t2 - t1));
}

}  // namespace mbs
