// Entry points of the Spirit X3 grammar (rules live in deck_def.hpp, compiled once in deck.cpp).
#pragma once

#include <string_view>

#include "core/source.hpp"
#include "parser/ast.hpp"

namespace mbs::parser {

// Parses the next card of `file` starting at byte offset `pos` (comments and blanks are skipped).
// Returns false at the end of the input; on success `pos` is just past the card's ';'.
// Throws InputError at the offending position for malformed text.
// Refuses text that is not a deck before it is parsed: a NUL byte (a binary file, or a file of
// zeros) is reported where it is, not as a syntax error at the end of the file.
void check_text(const SourceFile& file);

bool parse_card(const SourceFile& file, std::size_t& pos, ast::Card& card);

// Parses a whole statement (expression, declaration or assignment) from `text`, e.g. the
// contents of a string drive. Offsets in the result are relative to `text`. On error, throws
// InputError located at `origin` shifted by the offending offset.
ast::Stmt parse_statement(std::string_view text, const SourceLoc& origin);

}  // namespace mbs::parser
