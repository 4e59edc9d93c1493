// Values, the symbol table and the evaluator of MBDyn's math language (docs/deck-language.md 1.4),
// plus the compiler that turns a string-drive expression into a CompiledExpr.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "core/compiled_expr.hpp"
#include "core/source.hpp"
#include "parser/ast.hpp"

namespace mbs::parser {

enum class Type { boolean, integer, real, string };
const char* type_name(Type t);

struct Value {
    Type type = Type::integer;
    bool b = false;
    long i = 0;  // MBDyn integers are C ints: kept in range [INT_MIN, INT_MAX]
    double r = 0.0;
    std::string s;

    static Value of_bool(bool v) {
        Value x;
        x.type = Type::boolean;
        x.b = v;
        return x;
    }
    static Value of_int(long v) {
        Value x;
        x.type = Type::integer;
        x.i = v;
        return x;
    }
    static Value of_real(double v) {
        Value x;
        x.type = Type::real;
        x.r = v;
        return x;
    }
    static Value of_string(std::string v) {
        Value x;
        x.type = Type::string;
        x.s = std::move(v);
        return x;
    }
    double as_real() const;
    std::string to_string() const;
};

struct Variable {
    Type type;
    bool is_const = false;
    Value value;
    mutable bool used = false;  // looked up by the deck (SymbolTable::find); for -D warnings
};

class SymbolTable {
  public:
    SymbolTable();
    const Variable* find(const std::string& name) const;
    Variable* find_mutable(const std::string& name);
    void define(const std::string& name, Variable v) { vars_[name] = std::move(v); }
    bool is_reserved(const std::string& name) const;  // functions, constants, type names
    const std::map<std::string, Variable>& all() const { return vars_; }

  private:
    std::map<std::string, Variable> vars_;
};

// Where the offsets of an AST point: a file and the offset of the AST's text in it.
struct AstOrigin {
    const SourceFile* file = nullptr;
    std::uint32_t shift = 0;
    SourceLoc loc(const ast::Located& n) const {
        return SourceLoc{file, n.begin + shift, n.end + shift};
    }
};

class Evaluator {
  public:
    explicit Evaluator(SymbolTable& symbols) : symbols_(symbols) {}
    Value eval(const ast::Stmt& s, const AstOrigin& origin);
    Value eval(const ast::Expression& e, const AstOrigin& origin);
    // Output of remark/print goes here (stderr by default).
    std::ostream* out = nullptr;
    // Warnings (an implicit cast that changes a value, as MBDyn warns); none when null.
    Diagnostics* diag = nullptr;

  private:
    SymbolTable& symbols_;
    friend struct EvalVisitor;
};

// Compiles `stmt` (the text of a string drive) into a program. Time, TimeStep, Step and Var are
// run-time inputs; every other name is folded to its current value.
std::shared_ptr<CompiledExpr> compile_expression(const ast::Stmt& stmt, const AstOrigin& origin,
                                                 SymbolTable& symbols);

}  // namespace mbs::parser
