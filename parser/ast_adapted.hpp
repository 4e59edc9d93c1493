// Boost.Fusion adaptation of the AST for Spirit X3 attribute propagation.
#pragma once

#include <boost/fusion/include/adapt_struct.hpp>

#include "parser/ast.hpp"

BOOST_FUSION_ADAPT_STRUCT(mbs::ast::Number, text)
BOOST_FUSION_ADAPT_STRUCT(mbs::ast::StringLit, value)
BOOST_FUSION_ADAPT_STRUCT(mbs::ast::Ident, name)
BOOST_FUSION_ADAPT_STRUCT(mbs::ast::Unary, op, operand)
BOOST_FUSION_ADAPT_STRUCT(mbs::ast::Operation, op, operand)
BOOST_FUSION_ADAPT_STRUCT(mbs::ast::Expression, first, rest)
BOOST_FUSION_ADAPT_STRUCT(mbs::ast::Call, name, args)
BOOST_FUSION_ADAPT_STRUCT(mbs::ast::Decl, ifndef, is_const, type, name, init)
BOOST_FUSION_ADAPT_STRUCT(mbs::ast::Assign, name, value)
BOOST_FUSION_ADAPT_STRUCT(mbs::ast::StmtList, stmts)
BOOST_FUSION_ADAPT_STRUCT(mbs::ast::Word, text)
BOOST_FUSION_ADAPT_STRUCT(mbs::ast::Card, description, args)
