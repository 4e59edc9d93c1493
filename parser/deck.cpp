// Instantiates the deck grammar once and converts parse failures into located input errors.
#include "parser/deck.hpp"

#include <cctype>
#include <optional>
#include <regex>

#include "core/utf8.hpp"
#include "parser/deck_def.hpp"

namespace mbs::parser {

namespace {

std::string describe_expected(const std::string& which) {
    // The argument rule ends with an and-predicate on the separators; X3 names it by its C++ type.
    if (which.find("','") != std::string::npos || which.find("and_predicate") != std::string::npos)
        return "expected ',' or ';' after the argument";
    if (which.find("boost") != std::string::npos || which.find("N5") != std::string::npos)
        return "syntax error";
    if (which == "';'") return "expected ';' at the end of the card";
    if (which == "')'") return "expected ')'";
    if (which == "'('") return "expected '('";
    return "expected " + which;
}

std::string found_text(const char* where, const char* end, const char* at_end = "end of file") {
    if (where >= end) return at_end;
    if (*where == '\n' || *where == '\r') return "end of line";
    std::string t;
    for (const char* p = where; p < end && t.size() < 20 && *p != '\n'; ++p) t.push_back(*p);
    return "'" + t + "'";
}

// What a syntax error at `found` most likely is, when it is a token the grammar has no rule for:
// a number with trailing letters or a C-style form (`1.e`, `0x1p4`, `1x`, `3d`, `1.0f`: the
// grammar read the digits and stopped at the rest), or a non-breaking space (U+00A0, typed by
// some editors and word processors) where a blank belongs.
struct Malformed {
    const char* begin;
    const char* end;
    std::string message, hint;
};
std::optional<Malformed> malformed_token(const char* base, const char* found, const char* end) {
    if (found >= end) return std::nullopt;
    if (found + 1 < end && static_cast<unsigned char>(found[0]) == 0xC2 &&
        static_cast<unsigned char>(found[1]) == 0xA0)
        return Malformed{found, found + 2, "non-breaking space (U+00A0) in the deck",
                         "replace it with an ordinary space"};
    // A byte that does not start a valid UTF-8 sequence (Latin-1 text, a damaged file).
    if (static_cast<unsigned char>(*found) >= 0x80) {
        const auto c = static_cast<unsigned char>(*found);
        if (utf8_length(std::string_view(found, static_cast<std::size_t>(end - found)), 0) == 0) {
            static const char* hex = "0123456789abcdef";
            return Malformed{
                found, found + 1,
                std::string("invalid UTF-8 byte 0x") + hex[c >> 4] + hex[c & 0xf] + " in the deck",
                "save the deck as UTF-8 (or plain ASCII); names are ASCII letters, "
                "digits and '_'"};
        }
    }
    if (*found == '[')
        return Malformed{found, found + 1,
                         "'[' is not part of the deck language: MBDyn's plugin variables "
                         "('[node, ...]', '[element, ...]', '[dof, ...]') are not supported yet",
                         "read the value at run time with a 'node', 'element' or 'dof' drive "
                         "caller instead"};
    auto num_char = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_';
    };
    if (!num_char(*found)) return std::nullopt;
    // The token the error is in (or starts): back to its start, then on to its end.
    auto exp_sign = [&](const char* p) {  // p points at '+' or '-' right after an exponent 'e'
        return p - 1 > base && (p[-1] == 'e' || p[-1] == 'E') &&
               std::isdigit(static_cast<unsigned char>(p[-2]));
    };
    const char* b = found;
    while (b > base && (num_char(b[-1]) || ((b[-1] == '+' || b[-1] == '-') && exp_sign(b - 1))))
        --b;
    const char* e = found;
    while (e < end && (num_char(*e) || ((*e == '+' || *e == '-') && exp_sign(e)))) ++e;
    auto digit = [](const char* p) { return std::isdigit(static_cast<unsigned char>(*p)) != 0; };
    if (!(digit(b) || (*b == '.' && b + 1 < e && digit(b + 1)))) return std::nullopt;
    // A valid number: digits [. digits] or . digits, then [e|E [+|-] digits].
    const char* p = b;
    while (p < e && digit(p)) ++p;
    if (p < e && *p == '.') ++p;
    while (p < e && digit(p)) ++p;
    if (p < e && (*p == 'e' || *p == 'E')) {
        const char* q = p + 1;
        if (q < e && (*q == '+' || *q == '-')) ++q;
        if (q < e && digit(q)) {
            while (q < e && digit(q)) ++q;
            p = q;
        }
    }
    if (p == e) return std::nullopt;  // a valid number: the error is something else
    return Malformed{b, e, "malformed number '" + std::string(b, e) + "'",
                     "numbers read 2, 2., 2.5, .5, 2.5e-3 or 2.5E+3 (no hexadecimal, no suffix)"};
}

// `set: double a = 1.;` (a type mbsolve does not have, or a misspelt one): the grammar read
// `double` as an expression and stopped at `a`. Said as what it is.
std::optional<Malformed> unknown_decl_type(const char* card, const char* found) {
    static const std::regex decl(
        R"(^set\s*:\s*(?:ifndef\s+)?(?:const\s+)?([A-Za-z_][A-Za-z0-9_]*)\s+$)");
    std::cmatch m;
    if (found <= card || !std::regex_match(card, found, m, decl)) return std::nullopt;
    if (!(std::isalpha(static_cast<unsigned char>(*found)) || *found == '_')) return std::nullopt;
    const std::string type = m[1].str();
    const std::string near = closest_match(type, {"bool", "integer", "real", "string"});
    return Malformed{card + m.position(1), card + m.position(1) + m.length(1),
                     "unknown type '" + type + "' in a declaration",
                     (near.empty() ? std::string() : "did you mean '" + near + "'? ") +
                         "the types are bool, integer, real and string ('set: [ifndef] [const] "
                         "TYPE NAME = VALUE;')"};
}

InputError nesting_error(const SourceLoc& at) {
    return InputError(at,
                      "expression nested more than " + std::to_string(max_nesting) +
                          " deep (parentheses, statement lists or unary operators)",
                      "simplify the expression, or compute parts of it in 'set:' variables");
}

}  // namespace

void check_text(const SourceFile& file) {
    const std::size_t nul = file.text.find('\0');
    if (nul != std::string::npos)
        throw InputError(
            SourceLoc{&file, static_cast<std::uint32_t>(nul), static_cast<std::uint32_t>(nul + 1)},
            "NUL byte in the deck: this is not a text file",
            "decks are plain text (ASCII or UTF-8)");
}

bool parse_card(const SourceFile& file, std::size_t& pos, ast::Card& card) {
    const char* base = file.text.data();
    const char* it = base + pos;
    const char* end = base + file.text.size();
    auto loc_at = [&](const char* p, const char* q = nullptr) {
        return SourceLoc{&file, static_cast<std::uint32_t>(p - base),
                         static_cast<std::uint32_t>((q ? q : p + 1) - base)};
    };
    const char* start = it;
    try {
        x3::parse(it, end, *grammar::skipper);
        if (it == end) {
            pos = file.text.size();
            return false;
        }
        start = it;
        card = ast::Card{};
        auto parser = x3::with<base_tag>(base)[grammar::card];
        bool ok = x3::phrase_parse(it, end, parser, grammar::skipper, card);
        if (!ok) {
            // The description itself could not be read: a stray ':' ',' or ';'.
            throw InputError(loc_at(start), "expected a card name before " + found_text(start, end),
                             "a card reads 'name: arguments;'");
        }
        pos = static_cast<std::size_t>(it - base);
        return true;
    } catch (const x3::expectation_failure<const char*>& e) {
        // Point at what was found, not at the blanks before it.
        const char* found = e.where();
        while (found < end && (*found == ' ' || *found == '\t')) ++found;
        if (auto m = malformed_token(base, found, end))
            throw InputError(loc_at(m->begin, m->end), m->message, m->hint);
        if (auto m = unknown_decl_type(start, found))
            throw InputError(loc_at(m->begin, m->end), m->message, m->hint);
        throw InputError(loc_at(found),
                         describe_expected(e.which()) + ", found " + found_text(found, end));
    } catch (const LexError& e) {
        throw InputError(loc_at(e.where, e.where + 2), e.message,
                         "it opens here and is never closed");
    } catch (const NestingError& e) {
        throw nesting_error(loc_at(e.where));
    }
}

ast::Stmt parse_statement(std::string_view text, const SourceLoc& origin) {
    const char* base = text.data();
    const char* it = base;
    const char* end = base + text.size();
    auto loc_at = [&](const char* p) {
        SourceLoc l = origin;
        l.begin += static_cast<std::uint32_t>(p - base);
        l.end = l.begin + 1;
        return l;
    };
    ast::Stmt stmt;
    try {
        auto parser = x3::with<base_tag>(base)[grammar::stmt];
        bool ok = x3::phrase_parse(it, end, parser, grammar::skipper, stmt);
        if (!ok)
            throw InputError(loc_at(it), "expected an expression, found " + found_text(it, end));
        if (it != end)
            throw InputError(loc_at(it),
                             "unexpected text after the expression: " + found_text(it, end));
    } catch (const x3::expectation_failure<const char*>& e) {
        const char* found = e.where();
        while (found < end && (*found == ' ' || *found == '\t')) ++found;
        throw InputError(loc_at(found), describe_expected(e.which()) + ", found " +
                                            found_text(found, end, "the end of the text"));
    } catch (const LexError& e) {
        throw InputError(loc_at(e.where), e.message);
    } catch (const NestingError& e) {
        throw nesting_error(loc_at(e.where));
    }
    return stmt;
}

}  // namespace mbs::parser
