// Spirit X3 rules for cards and the math language (docs/deck-language.md sections 1.1-1.4).
// Precedence, lowest first: logical (&& || ~|), relational, additive, multiplicative, power
// (right-associative, folded by the evaluator), unary (- + ! bind tighter than ^: -2^2 == 4).
#pragma once

#include <boost/spirit/home/x3.hpp>

#include "parser/ast.hpp"
#include "parser/ast_adapted.hpp"

namespace mbs::parser {

namespace x3 = boost::spirit::x3;

// Position of the first byte of the text being parsed; annotation offsets are relative to it.
struct base_tag;

// Thrown from inside the grammar for lexical errors that must point at an opening token.
struct LexError {
    const char* where;
    const char* message;
};

// The grammar is recursive (parentheses, statement lists, function arguments, unary operators),
// so input can nest deep enough to exhaust the stack. Every level of nesting passes through the
// `unary` rule, which is wrapped in depth_limit: past max_nesting it throws NestingError at the
// operand that opens the level. One limit for every entry point (cards, string drives, -D,
// MBDYN_real_*, --report, sweep tables), counted per parse, not reset at ';'.
constexpr int max_nesting = 256;

struct NestingError {
    const char* where;
};

inline int& nesting_depth() {
    thread_local int depth = 0;
    return depth;
}

template <class Subject>
struct depth_limit_parser : x3::unary_parser<Subject, depth_limit_parser<Subject>> {
    using base = x3::unary_parser<Subject, depth_limit_parser<Subject>>;
    constexpr depth_limit_parser(Subject const& subject) : base(subject) {}
    template <class It, class Ctx, class RCtx, class Attr>
    bool parse(It& first, It const& last, Ctx const& ctx, RCtx& rctx, Attr& attr) const {
        struct Level {
            Level() { ++nesting_depth(); }
            ~Level() { --nesting_depth(); }
        } level;
        if (nesting_depth() > max_nesting) {
            It at = first;
            while (at != last && (*at == ' ' || *at == '\t' || *at == '\n' || *at == '\r')) ++at;
            throw NestingError{at};
        }
        return this->subject.parse(first, last, ctx, rctx, attr);
    }
};

struct depth_limit_gen {
    template <class Subject>
    constexpr depth_limit_parser<typename x3::extension::as_parser<Subject>::value_type> operator[](
        Subject const& subject) const {
        return {x3::as_parser(subject)};
    }
};
inline constexpr depth_limit_gen depth_limit{};

// Records begin/end offsets on every Located node as rules succeed.
struct annotate {
    template <class It, class Attr, class Ctx>
    void on_success(It const& first, It const& last, Attr& attr, Ctx const& ctx) const {
        if constexpr (std::is_base_of_v<ast::Located, Attr>) {
            const char* base = x3::get<base_tag>(ctx);
            attr.begin = static_cast<std::uint32_t>(first - base);
            attr.end = static_cast<std::uint32_t>(last - base);
        }
    }
};

namespace grammar {

using x3::alnum;
using x3::alpha;
using x3::char_;
using x3::eoi;
using x3::eol;
using x3::lexeme;
using x3::lit;
using x3::raw;

// ---- skipper: blanks, '#' comments (backslash escapes the next char), /* */ comments
inline auto const throw_unterminated_comment = [](auto& ctx) {
    throw LexError{x3::_attr(ctx).begin(), "unterminated /* comment"};
};
inline auto const line_comment = lit('#') >> *(('\\' >> char_) | (char_ - eol));
inline auto const block_comment =
    (lit("/*") >> *(char_ - "*/") >> "*/") | raw[lit("/*") >> *char_][throw_unterminated_comment];
inline auto const skipper = x3::space | line_comment | block_comment;

// ---- lexical items
inline auto const name_start = alpha | char_('_');
inline auto const name_char = alnum | char_('_');
inline auto const keyword = [](const char* k) { return lexeme[lit(k) >> !name_char]; };

inline auto const throw_unterminated_string = [](auto& ctx) {
    throw LexError{x3::_attr(ctx).begin(), "unterminated string"};
};
inline auto const escape = lit('\\') >>
                           (char_('\\') | char_('"') | x3::uint_parser<unsigned char, 16, 2, 2>{} |
                            (eol >> x3::attr('\n')) | char_);

x3::rule<class number_class, ast::Number> const number = "number";
x3::rule<class string_class, ast::StringLit> const string_lit = "string";
x3::rule<class ident_class, ast::Ident> const ident = "name";
x3::rule<class word_class, ast::Word> const word = "keyword";
x3::rule<class empty_class, ast::Empty> const empty = "empty argument";

x3::rule<class logical_class, ast::Expression> const logical = "expression";
x3::rule<class relational_class, ast::Expression> const relational = "expression";
x3::rule<class additive_class, ast::Expression> const additive = "expression";
x3::rule<class multiplicative_class, ast::Expression> const multiplicative = "expression";
x3::rule<class power_class, ast::Expression> const power = "expression";
x3::rule<class unary_class, ast::Operand> const unary = "operand";
x3::rule<class unary_op_class, ast::Unary> const unary_op = "operand";
x3::rule<class primary_class, ast::Operand> const primary = "operand";
x3::rule<class call_class, ast::Call> const call = "function call";
x3::rule<class stmt_list_class, ast::StmtList> const stmt_list = "statement list";
x3::rule<class decl_class, ast::Decl> const decl = "declaration";
x3::rule<class assign_class, ast::Assign> const assign = "assignment";
x3::rule<class stmt_class, ast::Stmt> const stmt = "statement";
x3::rule<class arg_class, ast::Arg> const arg = "argument";
x3::rule<class plain_arg_class, ast::Arg> const plain_arg = "argument";
x3::rule<class nested_class, ast::Card> const nested = "card";
x3::rule<class card_class, ast::Card> const card = "card";

struct number_class : annotate {};
struct string_class : annotate {};
struct nested_class : annotate {};
struct ident_class : annotate {};
struct word_class : annotate {};
struct empty_class : annotate {};
struct logical_class : annotate {};
struct relational_class : annotate {};
struct additive_class : annotate {};
struct multiplicative_class : annotate {};
struct power_class : annotate {};
struct unary_class : annotate {};
struct unary_op_class : annotate {};
struct primary_class : annotate {};
struct call_class : annotate {};
struct stmt_list_class : annotate {};
struct decl_class : annotate {};
struct assign_class : annotate {};
struct stmt_class : annotate {};
struct arg_class : annotate {};
struct card_class : annotate {};

inline auto const exponent = char_("eEdDfFgG") >> -char_("+-") >> +x3::digit;
inline auto const number_def =
    raw[lexeme[((+x3::digit >> -('.' >> *x3::digit)) | ('.' >> +x3::digit)) >> -exponent >>
               !name_char]];
x3::rule<class string_body_class, std::string> const string_body = "string";
inline auto const string_body_def = lexeme['"' >> *(escape | ~char_("\"\\")) >> '"'];
inline auto const set_string_value = [](auto& ctx) { x3::_val(ctx).value = x3::_attr(ctx); };
inline auto const string_lit_def =
    string_body[set_string_value] |
    raw[lexeme['"' >> *(escape | ~char_("\"\\"))]][throw_unterminated_string];
inline auto const ident_def =
    raw[lexeme[name_start >> *name_char >> *("::" >> name_start >> *name_char)]];
// A keyword phrase: name characters with blanks inside (not at the ends).
inline auto const word_def = raw[lexeme[name_start >> *(name_char | (+x3::space >> &name_char))]];
inline auto const empty_def = x3::eps;

inline auto const logical_op = x3::string("&&") | x3::string("||") | x3::string("~|");
inline auto const relational_op = x3::string(">=") | x3::string("<=") | x3::string("==") |
                                  x3::string("!=") | x3::string(">") | x3::string("<");
inline auto const additive_op = x3::string("+") | x3::string("-");
inline auto const multiplicative_op = x3::string("*") | x3::string("/") | x3::string("%");

// Each "op operand" pair is its own rule so that X3 builds an Operation, not a flat list.
x3::rule<class op_logical_class, ast::Operation> const op_logical = "expression";
x3::rule<class op_relational_class, ast::Operation> const op_relational = "expression";
x3::rule<class op_additive_class, ast::Operation> const op_additive = "expression";
x3::rule<class op_multiplicative_class, ast::Operation> const op_multiplicative = "expression";
x3::rule<class op_power_class, ast::Operation> const op_power = "expression";
struct op_logical_class : annotate {};
struct op_relational_class : annotate {};
struct op_additive_class : annotate {};
struct op_multiplicative_class : annotate {};
struct op_power_class : annotate {};
inline auto const op_logical_def = logical_op > relational;
inline auto const op_relational_def = relational_op > additive;
inline auto const op_additive_def = additive_op > multiplicative;
inline auto const op_multiplicative_def = multiplicative_op > power;
inline auto const op_power_def = x3::string("^") > unary;

inline auto const logical_def = relational >> *op_logical;
inline auto const relational_def = additive >> *op_relational;
inline auto const additive_def = multiplicative >> *op_additive;
inline auto const multiplicative_def = power >> *op_multiplicative;
inline auto const power_def = unary >> *op_power;
inline auto const unary_def = depth_limit[unary_op | primary];
inline auto const unary_op_def = char_("-+!") > unary;
inline auto const primary_def = number | string_lit | call | ident | stmt_list;
inline auto const call_def = ident >> '(' > -(logical % ',') > ')';
inline auto const stmt_list_def = '(' > (stmt % ';') > ')';

inline auto const type_name = lexeme[(x3::string("bool") | x3::string("integer") |
                                      x3::string("real") | x3::string("string")) >>
                                     !name_char];
inline auto const decl_def = x3::matches[keyword("ifndef")] >> x3::matches[keyword("const")] >>
                             type_name >> ident >> -('=' > logical);
inline auto const assign_def = ident >> '=' >> !lit('=') > logical;
inline auto const stmt_def = decl | assign | logical;

inline auto const separator = lit(',') | lit(';');
inline auto const plain_arg_def =
    (stmt >> &separator) | (word >> &separator) | (empty >> &separator) | (stmt > &separator);
// A card as the last argument ("joint: 2, revolute hinge, ..."): a one-word card name, one ':'
// (not the '::' of a namespace), plain arguments up to the ';'. One word only, so that a
// missing ';' before the next card ("null\n structural: 2, ...") stays a syntax error there.
inline auto const nested_def = raw[lexeme[name_start >> *name_char]] >> (lit(':') >> !lit(':')) >>
                               (plain_arg % ',') >> &lit(';');
inline auto const arg_def = nested | plain_arg;

// Description: everything up to ':' or ';' (blanks removed later by normalize_keyword).
inline auto const description = raw[lexeme[+(char_ - (char_(":;,#\"") | "/*"))]];
// After the ':' the arguments must parse: an argument that does not (a malformed number such
// as `1.e` or `0x1p4`) is reported where it is, not as a missing ';' at the ':'.
inline auto const card_def = description >> -(':' > (arg % ',')) > ';';

BOOST_SPIRIT_DEFINE(op_logical, op_relational, op_additive, op_multiplicative, op_power)
BOOST_SPIRIT_DEFINE(string_body)
BOOST_SPIRIT_DEFINE(number, string_lit, ident, word, empty, logical, relational, additive,
                    multiplicative, power, unary, unary_op, primary, call, stmt_list, decl, assign,
                    stmt, arg, plain_arg, nested, card)

}  // namespace grammar
}  // namespace mbs::parser
