// Instantiates the deck grammar once and converts parse failures into located input errors.
#include "parser/deck.hpp"

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

InputError nesting_error(const SourceLoc& at) {
    return InputError(at,
                      "expression nested more than " + std::to_string(max_nesting) +
                          " deep (parentheses, statement lists or unary operators)",
                      "simplify the expression, or compute parts of it in 'set:' variables");
}

}  // namespace

bool parse_card(const SourceFile& file, std::size_t& pos, ast::Card& card) {
    const char* base = file.text.data();
    const char* it = base + pos;
    const char* end = base + file.text.size();
    auto loc_at = [&](const char* p, const char* q = nullptr) {
        return SourceLoc{&file, static_cast<std::uint32_t>(p - base),
                         static_cast<std::uint32_t>((q ? q : p + 1) - base)};
    };
    try {
        x3::parse(it, end, *grammar::skipper);
        if (it == end) {
            pos = file.text.size();
            return false;
        }
        const char* start = it;
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
