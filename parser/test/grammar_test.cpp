// Unit tests of the card grammar (docs/deck-language.md 1.1-1.3) through mbs::parser::parse_card:
// comments inside expressions, backslash-continued '#' comments, multi-word keywords, empty
// arguments, string escapes, and where lexical errors are reported.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/source.hpp"
#include "parser/deck.hpp"
#include "parser/expr.hpp"

namespace {

namespace ast = mbs::ast;
using mbs::InputError;
using mbs::SourceFile;
using mbs::parser::AstOrigin;
using mbs::parser::Evaluator;
using mbs::parser::SymbolTable;
using mbs::parser::Value;

// All cards of a text, in order.
struct Cards {
    std::unique_ptr<SourceFile> file;
    std::vector<ast::Card> cards;
    SymbolTable symbols;
    Evaluator ev{symbols};

    explicit Cards(const std::string& text) : file(std::make_unique<SourceFile>("test.mbd", text)) {
        std::size_t pos = 0;
        ast::Card c;
        while (mbs::parser::parse_card(*file, pos, c)) cards.push_back(c);
    }
    const ast::Arg& arg(std::size_t card, std::size_t k) const { return cards.at(card).args.at(k); }
    bool is_empty(std::size_t card, std::size_t k) const {
        return boost::get<ast::Empty>(&arg(card, k)) != nullptr;
    }
    std::string word(std::size_t card, std::size_t k) const {
        const auto* w = boost::get<ast::Word>(&arg(card, k));
        return w ? w->text : std::string("<not a word>");
    }
    Value value(std::size_t card, std::size_t k) {
        const auto* s = boost::get<ast::Stmt>(&arg(card, k));
        if (!s) throw std::runtime_error("argument is not a statement");
        return ev.eval(*s, AstOrigin{file.get(), 0});
    }
    // The text an argument spans in the source.
    std::string text_of(std::size_t card, std::size_t k) const {
        struct Span {
            std::pair<std::uint32_t, std::uint32_t> operator()(const ast::Empty& e) const {
                return {e.begin, e.end};
            }
            std::pair<std::uint32_t, std::uint32_t> operator()(const ast::Word& w) const {
                return {w.begin, w.end};
            }
            std::pair<std::uint32_t, std::uint32_t> operator()(
                const ast::x3::forward_ast<ast::Card>& c) const {
                return {c.get().begin, c.get().end};
            }
            std::pair<std::uint32_t, std::uint32_t> operator()(const ast::Stmt& s) const {
                return boost::apply_visitor(
                    [](const auto& n) { return std::make_pair(n.begin, n.end); }, s);
            }
        };
        auto [b, e] = boost::apply_visitor(Span{}, arg(card, k));
        return file->text.substr(b, e - b);
    }
};

// The "file:line:col" of the error parse_card throws for `text`.
std::string error_where(const std::string& text, std::string* message = nullptr) {
    SourceFile f("test.mbd", text);
    std::size_t pos = 0;
    ast::Card c;
    try {
        while (mbs::parser::parse_card(f, pos, c)) {
        }
    } catch (const InputError& e) {
        if (message) *message = e.message();
        return e.where();
    }
    return "no error";
}

TEST(Grammar, SimpleCardsAndDescriptions) {
    Cards c("begin: data;\n  Control  Data;\nstructural: 1, static;\n");
    ASSERT_EQ(c.cards.size(), 3u);
    EXPECT_EQ(mbs::normalize_keyword(c.cards[0].description), "begin");
    EXPECT_EQ(c.text_of(0, 0), "data");  // a bare name is read as an expression (identifier)
    EXPECT_EQ(mbs::normalize_keyword(c.cards[1].description), "controldata");
    EXPECT_TRUE(c.cards[1].args.empty());
    EXPECT_EQ(c.cards[2].args.size(), 2u);
    EXPECT_EQ(c.value(2, 0).i, 1);
}

TEST(Grammar, EndOfInputAfterCommentsOnly) {
    Cards c("# only\n/* comments */ \n\t # here\n");
    EXPECT_TRUE(c.cards.empty());
}

TEST(Grammar, CommentsInsideExpressions) {
    Cards c(
        "x: 1. /* one */ + /* two\n lines */ 2.,\n"
        "   3. # a line comment between operand and operator\n"
        "   * 2., (4 /**/ - 1) /* before the separator */ ;");
    ASSERT_EQ(c.cards.size(), 1u);
    ASSERT_EQ(c.cards[0].args.size(), 3u);
    EXPECT_DOUBLE_EQ(c.value(0, 0).r, 3.0);
    EXPECT_DOUBLE_EQ(c.value(0, 1).r, 6.0);
    EXPECT_EQ(c.value(0, 2).i, 3);
}

TEST(Grammar, BackslashContinuesAHashComment) {
    // The backslash escapes the newline: the second line is still part of the comment.
    Cards c("a: 1; # comment \\\nb: 2;\nc: 3;\n");
    ASSERT_EQ(c.cards.size(), 2u);
    EXPECT_EQ(mbs::normalize_keyword(c.cards[0].description), "a");
    EXPECT_EQ(mbs::normalize_keyword(c.cards[1].description), "c");
    // A backslash elsewhere in the comment only escapes the next character.
    Cards d("a: 1; # a \\ b\nb: 2;\n");
    EXPECT_EQ(d.cards.size(), 2u);
}

TEST(Grammar, MultiWordKeywords) {
    Cards c(
        "joint: 1, angular velocity, 2, reference, other node, euler 123, Angular  Velocity, 0.5;");
    ASSERT_EQ(c.cards[0].args.size(), 8u);
    EXPECT_EQ(mbs::normalize_keyword(c.word(0, 1)), "angularvelocity");
    EXPECT_EQ(c.value(0, 2).i, 2);
    EXPECT_EQ(mbs::normalize_keyword(c.text_of(0, 3)),
              "reference");  // a bare name: parsed as an identifier
    EXPECT_EQ(mbs::normalize_keyword(c.word(0, 4)), "othernode");
    EXPECT_EQ(mbs::normalize_keyword(c.word(0, 5)), "euler123");
    EXPECT_EQ(mbs::normalize_keyword(c.word(0, 6)), "angularvelocity");
    EXPECT_DOUBLE_EQ(c.value(0, 7).r, 0.5);
}

TEST(Grammar, KeywordSpanningLinesAndComments) {
    Cards c("x: angular\n   velocity, 1;");
    EXPECT_EQ(mbs::normalize_keyword(c.word(0, 0)), "angularvelocity");
}

TEST(Grammar, EmptyArguments) {
    Cards c("forces: ;\nx: 1,, 3;\ny: 1, ;\nz: , ,;\n");
    ASSERT_EQ(c.cards.size(), 4u);
    ASSERT_EQ(c.cards[0].args.size(), 1u);
    EXPECT_TRUE(c.is_empty(0, 0));
    ASSERT_EQ(c.cards[1].args.size(), 3u);
    EXPECT_FALSE(c.is_empty(1, 0));
    EXPECT_TRUE(c.is_empty(1, 1));
    EXPECT_EQ(c.value(1, 2).i, 3);
    ASSERT_EQ(c.cards[2].args.size(), 2u);
    EXPECT_TRUE(c.is_empty(2, 1));
    ASSERT_EQ(c.cards[3].args.size(), 3u);
    EXPECT_TRUE(c.is_empty(3, 0) && c.is_empty(3, 1) && c.is_empty(3, 2));
}

TEST(Grammar, StringEscapes) {
    Cards c(R"(x: "a\"b", "back\\slash", "\41\42\43", "a#b/*c*/", "tab;comma,colon:";)");
    ASSERT_EQ(c.cards[0].args.size(), 5u);
    EXPECT_EQ(c.value(0, 0).s, "a\"b");
    EXPECT_EQ(c.value(0, 1).s, "back\\slash");
    EXPECT_EQ(c.value(0, 2).s, "ABC");  // \XY: two hex digits
    EXPECT_EQ(c.value(0, 3).s, "a#b/*c*/");
    EXPECT_EQ(c.value(0, 4).s, "tab;comma,colon:");
}

TEST(Grammar, StatementsAsArguments) {
    Cards c("set: real a = 2, integer k = 7/2, a = a*3;\nx: (real dt = 1.e-3), dt*2;");
    ASSERT_EQ(c.cards[0].args.size(), 3u);
    EXPECT_DOUBLE_EQ(c.value(0, 0).r, 2.0);
    EXPECT_EQ(c.value(0, 1).i, 3);
    EXPECT_DOUBLE_EQ(c.value(0, 2).r, 6.0);
    EXPECT_DOUBLE_EQ(c.value(1, 0).r, 1e-3);
    EXPECT_DOUBLE_EQ(c.value(1, 1).r, 2e-3);
}

TEST(Grammar, ArgumentSpans) {
    Cards c("x:  1 + 2 ,name , \"s\";");
    EXPECT_EQ(c.text_of(0, 0), "1 + 2");
    EXPECT_EQ(c.text_of(0, 1), "name");
    EXPECT_EQ(c.text_of(0, 2), "\"s\"");
}

TEST(Grammar, SeveralCardsOnOneLine) {
    Cards c("begin: data; problem: initial value; end: data;");
    ASSERT_EQ(c.cards.size(), 3u);
    EXPECT_EQ(mbs::normalize_keyword(c.word(1, 0)), "initialvalue");
}

// A card as the last argument (`driven: L, <drive>, joint: L, ...;`): one level, a single ':'
// (a namespace '::' stays part of a name).
TEST(Grammar, CardAsTheLastArgument) {
    Cards c(
        "driven: 3, const, 1., joint: 3, revolute pin, 1, null;\n"
        "x: default::sin(0.), existing: joint, 3;");
    ASSERT_EQ(c.cards[0].args.size(), 4u);
    const auto* n = boost::get<ast::x3::forward_ast<ast::Card>>(&c.arg(0, 3));
    ASSERT_NE(n, nullptr);
    EXPECT_EQ(n->get().description, "joint");
    EXPECT_EQ(n->get().args.size(), 4u);
    EXPECT_EQ(c.text_of(0, 3), "joint: 3, revolute pin, 1, null");
    ASSERT_EQ(c.cards[1].args.size(), 2u);
    EXPECT_DOUBLE_EQ(c.value(1, 0).r, 0.0);
    EXPECT_NE(boost::get<ast::x3::forward_ast<ast::Card>>(&c.arg(1, 1)), nullptr);
    std::string msg;
    EXPECT_EQ(error_where("d: 1, a: b: 2;", &msg), "test.mbd:1:11");  // no card in a card in a card
    EXPECT_NE(msg.find("expected ',' or ';'"), std::string::npos) << msg;
}

TEST(Grammar, ErrorLocations) {
    std::string msg;
    EXPECT_EQ(error_where("a: 1;\nname: \"never closed;\n", &msg), "test.mbd:2:7");
    EXPECT_EQ(msg, "unterminated string");
    EXPECT_EQ(error_where("a: 1 /* open\n\n;", &msg), "test.mbd:1:6");
    EXPECT_EQ(msg, "unterminated /* comment");
    EXPECT_EQ(error_where("a: (1 + 2, 3;", &msg), "test.mbd:1:10");
    EXPECT_NE(msg.find("expected ')'"), std::string::npos) << msg;
    EXPECT_EQ(error_where("  : 1;", &msg), "test.mbd:1:3");
    EXPECT_NE(msg.find("expected a card name"), std::string::npos) << msg;
    EXPECT_EQ(error_where("a: 1, 2", &msg), "test.mbd:1:8");  // end of file instead of ';'
}

}  // namespace
