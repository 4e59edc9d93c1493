// The case table of a parameter sweep (mbsolve --sweep TABLE.csv) and the deck variables it may
// set.
//
// TABLE format: comma-separated text. The first non-blank, non-comment line is the header: the
// names of deck variables declared with `set: ifndef <type> NAME ...` (docs/deck-language.md 1.4).
// Every further line is one case (row 1 is the first line after the header); its fields are
// numbers, passed to the deck exactly as `-D NAME=VALUE` would. Blank lines and lines whose first
// non-blank character is '#' are skipped. Spaces around fields are ignored; quotes are not
// supported (every value is a number).
//
// Errors (unknown variable, duplicate column, wrong number of columns, non-numeric value, a
// non-integer value for an integer variable, a string variable) are InputErrors located at the
// offending field (file:line:col) and name the row and the column.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "core/source.hpp"

namespace mbs::sweep {

struct Table {
    std::shared_ptr<SourceFile> file;            // the table's text (error locations point into it)
    std::vector<std::string> names;              // header: deck variable names
    std::vector<std::vector<std::string>> rows;  // rows[r][c]: the value as written (validated)
    std::vector<int> lines;                      // 1-based line of each row in the file
};

// Variables the deck (and the files it includes) declares with `set: ifndef`: name -> type
// ("real", "integer", "bool", "string"). Found by parsing the cards of model.sources again.
std::map<std::string, std::string> ifndef_variables(const Model& model);

// Reads and validates TABLE against `declared`; throws InputError (or std::invalid_argument when
// the file cannot be read).
Table read_table(const std::string& path, const std::map<std::string, std::string>& declared);

}  // namespace mbs::sweep
