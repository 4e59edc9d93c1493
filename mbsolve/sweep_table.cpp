// Case table of a sweep: CSV reading and validation against the deck's `set: ifndef` variables.
#include "mbsolve/sweep_table.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "parser/deck.hpp"

namespace mbs::sweep {

namespace {

std::string trim(const std::string& s, std::size_t& lead) {
    std::size_t b = 0, e = s.size();
    while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r')) ++b;
    while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r')) --e;
    lead = b;
    return s.substr(b, e - b);
}

// Whole-string number checks (strtod/strtol accept a prefix; these do not).
bool is_real(const std::string& v) {
    if (v.empty()) return false;
    errno = 0;
    char* end = nullptr;
    double x = std::strtod(v.c_str(), &end);
    return end == v.c_str() + v.size() && errno == 0 && std::isfinite(x);
}

bool is_integer(const std::string& v) {
    if (v.empty()) return false;
    errno = 0;
    char* end = nullptr;
    long x = std::strtol(v.c_str(), &end, 10);
    return end == v.c_str() + v.size() && errno == 0 && x >= -2147483648L && x <= 2147483647L;
}

}  // namespace

std::map<std::string, std::string> ifndef_variables(const Model& model) {
    std::map<std::string, std::string> out;
    for (const auto& f : model.sources) {
        // The builder keeps -D and MBDYN_* definitions as pseudo-files: they hold no cards.
        if (f->path.rfind("-D ", 0) == 0 || f->path.rfind("environment ", 0) == 0) continue;
        std::size_t pos = 0;
        ast::Card card;
        // The file has already been read by the builder without error, so parsing it again
        // card by card succeeds; `set` cards hold one statement.
        while (parser::parse_card(*f, pos, card)) {
            if (card.description.find("set") == std::string::npos || card.args.size() != 1)
                continue;
            std::size_t lead = 0;
            if (trim(card.description, lead) != "set") continue;
            const auto* stmt = boost::get<ast::Stmt>(&card.args[0]);
            const auto* decl = stmt ? boost::get<ast::Decl>(stmt) : nullptr;
            if (decl && decl->ifndef) out.emplace(decl->name.name, decl->type);
            card = ast::Card{};
        }
    }
    return out;
}

Table read_table(const std::string& path, const std::map<std::string, std::string>& declared) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::invalid_argument("cannot read the sweep table '" + path + "'");
    std::stringstream ss;
    ss << in.rdbuf();
    Table t;
    t.file = std::make_shared<SourceFile>(path, ss.str());
    const SourceFile& f = *t.file;
    auto at = [&](std::size_t b, std::size_t len) {
        return SourceLoc{&f, static_cast<std::uint32_t>(b),
                         static_cast<std::uint32_t>(b + std::max<std::size_t>(len, 1))};
    };
    auto list = [&] {
        std::string s;
        for (const auto& [n, type] : declared) s += (s.empty() ? "" : ", ") + n;
        return s.empty() ? std::string("the deck declares none") : "the deck declares: " + s;
    };

    bool header = true;
    int line_no = 0;
    // A UTF-8 byte-order mark (spreadsheet exports) is not part of the first name.
    for (std::size_t b = f.text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0; b < f.text.size();) {
        std::size_t e = f.text.find('\n', b);
        if (e == std::string::npos) e = f.text.size();
        std::string line = f.text.substr(b, e - b);
        ++line_no;
        std::size_t lead = 0;
        std::string content = trim(line, lead);
        if (content.empty() || content[0] == '#') {
            b = e + 1;
            continue;
        }
        // Split at commas; each field keeps its offset in the file for error locations.
        std::vector<std::pair<std::string, std::size_t>> fields;
        for (std::size_t fb = 0; fb <= line.size();) {
            std::size_t fe = std::min(line.find(',', fb), line.size());
            std::size_t fl = 0;
            std::string v = trim(line.substr(fb, fe - fb), fl);
            fields.emplace_back(v, b + fb + fl);
            fb = fe + 1;
        }
        if (header) {
            for (std::size_t c = 0; c < fields.size(); ++c) {
                const auto& [name, off] = fields[c];
                std::string col = "header, column " + std::to_string(c + 1);
                if (name.empty()) throw InputError(at(off, 1), col + ": empty variable name");
                auto it = declared.find(name);
                if (it == declared.end())
                    throw InputError(at(off, name.size()),
                                     col + ": unknown variable '" + name +
                                         "': not declared with 'set: ifndef' in the deck",
                                     list());
                if (it->second == "string")
                    throw InputError(
                        at(off, name.size()),
                        col + ": '" + name + "' is a string variable; a sweep sets numbers only");
                for (std::size_t k = 0; k < c; ++k)
                    if (t.names[k] == name)
                        throw InputError(at(off, name.size()), col + ": variable '" + name +
                                                                   "' appears twice (also column " +
                                                                   std::to_string(k + 1) + ")");
                t.names.push_back(name);
            }
            header = false;
            b = e + 1;
            continue;
        }
        int row = static_cast<int>(t.rows.size()) + 1;
        std::string where = "row " + std::to_string(row);
        if (fields.size() != t.names.size()) {
            std::size_t off =
                fields.size() > t.names.size() ? fields[t.names.size()].second : b + line.size();
            throw InputError(at(off, 1),
                             where + ": " + std::to_string(fields.size()) +
                                 " columns, the header has " + std::to_string(t.names.size()) +
                                 " (" +
                                 (fields.size() > t.names.size()
                                      ? "column " + std::to_string(t.names.size() + 1) + " is extra"
                                      : "column " + std::to_string(fields.size() + 1) + " ('" +
                                            t.names[fields.size()] + "') is missing") +
                                 ")");
        }
        std::vector<std::string> values;
        for (std::size_t c = 0; c < fields.size(); ++c) {
            const auto& [v, off] = fields[c];
            const std::string& type = declared.at(t.names[c]);
            std::string col =
                where + ", column " + std::to_string(c + 1) + " ('" + t.names[c] + "')";
            if (v.empty()) throw InputError(at(off, 1), col + ": empty value");
            if (!is_real(v))
                throw InputError(at(off, v.size()), col + ": '" + v + "' is not a number");
            if (type == "integer" && !is_integer(v))
                throw InputError(at(off, v.size()), col + ": '" + t.names[c] +
                                                        "' is an integer variable, '" + v +
                                                        "' is not an integer");
            values.push_back(v);
        }
        t.rows.push_back(std::move(values));
        t.lines.push_back(line_no);
        b = e + 1;
    }
    if (header)
        throw InputError(at(0, 1),
                         "the sweep table is empty: it needs a header line of variable names");
    if (t.rows.empty())
        throw InputError(at(f.text.empty() ? 0 : f.text.size() - 1, 1),
                         "the sweep table has a header but no rows");
    return t;
}

}  // namespace mbs::sweep
