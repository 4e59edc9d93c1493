// Shared helpers for the reader tests (elements/*/test): build a model from deck text, locate a
// token in that text as "t.mbd:line:col", say where building fails, and find built entities.
// Header-only; tests pull in what they use with using-declarations.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/model.hpp"
#include "core/source.hpp"
#include "parser/builder.hpp"

namespace mbs::test {

// The first two lines of every test deck: the data and initial value blocks.
inline const std::string deck_head =
    "begin: data; problem: initial value; end: data;\n"
    "begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-3; end: initial "
    "value;\n";

// Three lines: `deck_head` and an empty control data block. Cards after it start on line 4.
inline const std::string preamble = deck_head + "begin: control data; end: control data;\n";
inline constexpr int preamble_lines = 3;

// The model of deck `text`, named "t.mbd" in diagnostics; warnings are kept, not echoed.
inline mbs::Model build(const std::string& text) {
    mbs::parser::BuildOptions opt;
    opt.echo_warnings = false;
    return mbs::parser::build_model_from_text("t.mbd", text, opt);
}

// "t.mbd:line:col" of the nth (from 0) occurrence of `token` in `text`, whose first line is
// `first_line` of the deck; "token not found" if there is no such occurrence.
inline std::string where_of(std::string_view text, std::string_view token, std::size_t nth = 0,
                            int first_line = 1) {
    std::size_t pos = text.find(token);
    for (; nth > 0 && pos != std::string_view::npos; --nth) pos = text.find(token, pos + 1);
    if (pos == std::string_view::npos) return "token not found";
    int line = first_line, col = 1;
    for (std::size_t i = 0; i < pos; ++i) {
        if (text[i] == '\n')
            line++, col = 1;
        else
            col++;
    }
    return "t.mbd:" + std::to_string(line) + ":" + std::to_string(col);
}

// Where building `text` fails ("t.mbd:line:col", the message in *message), or "no error".
inline std::string error_at(const std::string& text, std::string* message = nullptr) {
    try {
        build(text);
    } catch (const mbs::InputError& e) {
        if (message) *message = e.message();
        return e.where();
    }
    return "no error";
}

// Bare cards after a head (`preamble` unless given): build, locate and fail relative to the
// cards, whose first line is line 4 of the deck.
namespace cards {

inline mbs::Model build(const std::string& text, const std::string& head = preamble) {
    return test::build(head + text);
}

inline std::string where_of(std::string_view text, std::string_view token, std::size_t nth = 0) {
    return test::where_of(text, token, nth, preamble_lines + 1);
}

inline std::string error_at(const std::string& text, std::string* message = nullptr) {
    return test::error_at(preamble + text, message);
}

}  // namespace cards

// The element (node) `category` `label` of `m`; throws std::runtime_error if there is none.
inline const mbs::EntityDesc& element(const mbs::Model& m, std::string_view category, long label) {
    const mbs::EntityDesc* e = m.find_element(category, label);
    if (!e)
        throw std::runtime_error("no element " + std::string(category) + " " +
                                 std::to_string(label));
    return *e;
}

inline const mbs::EntityDesc& node(const mbs::Model& m, std::string_view category, long label) {
    const mbs::EntityDesc* n = m.find_node(category, label);
    if (!n)
        throw std::runtime_error("no node " + std::string(category) + " " + std::to_string(label));
    return *n;
}

// The parameter names of a drive caller or constitutive law, in the order given, and one value
// (from its generic view: the typed arguments' describe()).
using Keys = std::vector<std::string>;

template <class Spec>
Keys keys(const Spec& s) {
    const Props view = s.view();
    Keys k;
    for (const auto& [name, v] : view.items()) k.push_back(name);
    return k;
}

template <class Spec>
double num(const Spec& s, const char* key) {
    return s.view().template get<double>(key);
}

// Vectors and matrices equal to within `tol` (Frobenius norm of the difference).
inline void expect_vec(const mbs::Vec3& a, const mbs::Vec3& b, double tol = 1e-12) {
    EXPECT_LT((a - b).norm(), tol) << a.transpose() << " vs " << b.transpose();
}

inline void expect_mat(const mbs::Mat3& a, const mbs::Mat3& b, double tol = 1e-12) {
    EXPECT_LT((a - b).norm(), tol) << a << "\nvs\n" << b;
}

}  // namespace mbs::test
