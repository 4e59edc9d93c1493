// Position-tagged syntax tree of a deck card and of the math language (MBDyn section 1).
// Offsets (begin, end) are byte offsets into the source text the node was parsed from.
#pragma once

#include <boost/spirit/home/x3/support/ast/variant.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mbs::ast {

namespace x3 = boost::spirit::x3;

struct Located {
    std::uint32_t begin = 0;
    std::uint32_t end = 0;
};

struct Nil {};
struct Number : Located {
    std::string text;  // raw literal; integer when it has no '.' and no exponent
};
struct StringLit : Located {
    std::string value;  // escapes already resolved
};
struct Ident : Located {
    std::string name;  // may carry a namespace: "default::sin", "model::position"
};
struct Unary;
struct Call;
struct StmtList;
struct Expression;

struct Operand
    : x3::variant<Nil, Number, StringLit, Ident, x3::forward_ast<Unary>, x3::forward_ast<Call>,
                  x3::forward_ast<StmtList>, x3::forward_ast<Expression>> {
    using base_type::base_type;
    using base_type::operator=;
};

struct Unary : Located {
    char op = '-';  // '-', '+', '!'
    Operand operand;
};

struct Operation : Located {
    std::string op;  // "&&" "||" "~|" ">" ">=" "==" "<=" "<" "!=" "+" "-" "*" "/" "%" "^"
    Operand operand;
};

// One precedence level: first op1 x op2 y ...; all operators in `rest` share the level.
struct Expression : Located {
    Operand first;
    std::vector<Operation> rest;
};

struct Call : Located {
    Ident name;
    std::vector<Expression> args;
};

// [ifndef] [const] type NAME [= value]
struct Decl : Located {
    bool ifndef = false;
    bool is_const = false;
    std::string type;
    Ident name;
    std::optional<Expression> init;
};

struct Assign : Located {
    Ident name;
    Expression value;
};

struct Stmt : x3::variant<Decl, Assign, Expression> {
    using base_type::base_type;
    using base_type::operator=;
};

// ( stmt ; stmt ; ... ; expr ): evaluates all, yields the last.
struct StmtList : Located {
    std::vector<Stmt> stmts;
};

// A bare keyword phrase that is not an expression, e.g. "angular velocity", "euler 123".
struct Word : Located {
    std::string text;
};

// An empty argument (",," or ", ;"): the caller's default.
struct Empty : Located {};

struct Card;

// The last argument of a card may be a card of its own (`driven: L, <drive>, joint: L, ...;`,
// `existing: joint, L`): one level only, accepted by the builder for `driven` cards.
struct Arg : x3::variant<Empty, Stmt, Word, x3::forward_ast<Card>> {
    using base_type::base_type;
    using base_type::operator=;
};

struct Card : Located {
    std::string description;  // raw text before ':' or ';'
    std::vector<Arg> args;    // empty for 'name;'
};

}  // namespace mbs::ast
