// Every keyword in the builder's card tables (Builder::problem_cards(), control_cards(),
// global_cards(), and the control-data counters) is consumed, refused or warned about
// (issue 19, item 2: nothing accepted may be silently dropped). Each keyword needs an entry in
// the sample tables below: a minimal valid argument and the decision taken for it. A keyword
// added to a table without an entry here fails KeywordsHaveSamples, so adding a card forces a
// decision on who consumes it.
//
// What each outcome means, checked on a small deck with the card and the same deck without it:
//   consumed  both build, and the --dump-model text (parser/dump.hpp) or the remark stream differs;
//   enables   the card's effect is used by a probe card after it: the deck with the card builds,
//             the deck without it fails at the probe (set, include, chdir, setenv, module load,
//             loadable path: their effect is on the reading of the deck, not on the model);
//   refused   building throws InputError with the fragment given ("not supported yet", "out of
//             scope", or the message that sends the card elsewhere);
//   warned    both build, the dump is unchanged, and a warning names the card.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/source.hpp"
#include "parser/builder.hpp"
#include "parser/builder_impl.hpp"
#include "parser/dump.hpp"

namespace {

namespace fs = std::filesystem;
using mbs::parser::Builder;

enum class Outcome { consumed, enables, refused, warned };

struct Sample {
    std::string args;  // the card's arguments ("" for none); @TMP@ is the test's scratch folder
    Outcome outcome;
    std::string detail = {};    // refused: message fragment; enables: the probe card
    std::string elements = {};  // element cards both decks add (enables: the probe)
};

const std::string refused_fragment = "not supported yet";

// The problem block (initial value) cards.
const std::map<std::string, Sample>& problem_samples() {
    static const std::map<std::string, Sample> m = {
        {"initial time", {"0.5", Outcome::consumed}},
        {"final time", {"2.", Outcome::consumed}},
        {"time step", {"1.e-2", Outcome::consumed}},
        {"min time step", {"1.e-6", Outcome::consumed}},
        {"max time step", {"unlimited", Outcome::consumed}},
        {"max iterations", {"7", Outcome::consumed}},
        {"tolerance", {"1.e-5", Outcome::consumed}},
        {"method", {"ms, 0.6", Outcome::consumed}},
        {"linear solver", {"umfpack", Outcome::consumed}},
        {"solver", {"umfpack", Outcome::consumed}},
        {"nonlinear solver", {"newton raphson, modified, 2", Outcome::consumed}},
        {"newton raphson", {"modified, 3", Outcome::consumed}},
        {"derivatives tolerance", {"1.e-4", Outcome::consumed}},
        {"derivatives max iterations", {"5", Outcome::consumed}},
        {"derivatives coefficient", {"1.e-3", Outcome::consumed}},
        {"dummy steps number", {"2", Outcome::consumed}},
        {"dummy steps ratio", {"1.e-3", Outcome::consumed}},
        {"dummy steps tolerance", {"1.e-5", Outcome::consumed}},
        {"dummy steps max iterations", {"5", Outcome::consumed}},
        {"dummy steps method", {"ms, 0.6", Outcome::refused, refused_fragment}},
        {"fictitious steps number", {"2", Outcome::consumed}},
        {"fictitious steps ratio", {"1.e-3", Outcome::consumed}},
        {"fictitious steps tolerance", {"1.e-5", Outcome::consumed}},
        {"fictitious steps max iterations", {"5", Outcome::consumed}},
        {"fictitious steps method", {"ms, 0.6", Outcome::refused, refused_fragment}},
        {"strategy", {"factor, 0.5, 1, 2., 5, 3, 6", Outcome::consumed}},
        {"output", {"iterations", Outcome::warned}},
        {"abort after", {"input", Outcome::consumed}},
        {"output meter", {"const, 1.", Outcome::refused, "belongs in the control data block"}},
        {"threads", {"2", Outcome::warned}},
        {"eigenanalysis", {"1., output eigenvectors", Outcome::consumed}},
        {"modify residual test", {"", Outcome::refused, refused_fragment}},
        {"enforce constraint equations", {"", Outcome::refused, refused_fragment}},
    };
    return m;
}

// Control data's cards other than the counters.
const std::map<std::string, Sample>& control_samples() {
    static const std::map<std::string, Sample> m = {
        // The flag declares the gravity element: a gravity card without it is refused.
        {"gravity", {"", Outcome::enables, "", "gravity: uniform, 0., 0., -1., const, 9.81;"}},
        {"air properties", {"std, SI", Outcome::warned}},
        {"skip initial joint assembly", {"", Outcome::consumed}},
        {"use", {"rigid bodies, in assembly", Outcome::consumed}},
        {"initial stiffness", {"1., 2.", Outcome::consumed}},
        {"stiffness", {"2.", Outcome::consumed}},
        {"omega rotates", {"no", Outcome::refused, refused_fragment}},
        {"tolerance", {"1.e-6", Outcome::consumed}},
        {"initial tolerance", {"1.e-6", Outcome::consumed}},
        {"max iterations", {"10", Outcome::consumed}},
        {"max initial iterations", {"10", Outcome::consumed}},
        {"epsilon", {"1.e-8", Outcome::refused, refused_fragment}},
        {"default output", {"none", Outcome::consumed}},
        {"output frequency", {"2", Outcome::consumed}},
        {"output meter", {"const, 1.", Outcome::consumed}},
        {"output precision", {"8", Outcome::consumed}},
        {"output results", {"netcdf", Outcome::consumed}},
        {"default orientation", {"euler321", Outcome::consumed}},
        {"model", {"static", Outcome::consumed}},
        {"title", {"\"kw\"", Outcome::consumed}},
        {"print", {"dof stats", Outcome::warned}},
        {"default scale", {"none", Outcome::warned}},
        {"default aerodynamic output", {"all", Outcome::warned}},
        {"default beam output", {"all", Outcome::refused, refused_fragment}},
        {"make restart file", {"", Outcome::refused, refused_fragment}},
        {"rigid body kinematics", {"const", Outcome::refused, refused_fragment}},
    };
    return m;
}

// The cards allowed anywhere, tried in the control data block.
const std::map<std::string, Sample>& global_samples() {
    static const std::map<std::string, Sample> m = {
        {"set", {"integer KW_N = 7", Outcome::enables, "output precision: KW_N;"}},
        {"remark", {"\"kw remark\", 1", Outcome::consumed}},
        {"include", {"\"@TMP@/kw_include.mbd\"", Outcome::consumed}},
        // MBDyn stops reading at 'exit'; before 'end: elements;' the model would be incomplete.
        {"exit", {"", Outcome::refused, "are never read"}},
        {"chdir", {"\"@TMP@\"", Outcome::enables, "include: \"kw_include.mbd\";"}},
        {"setenv",
         {"\"KW_DIR=@TMP@\"", Outcome::enables, "include: \"${KW_DIR}/kw_include.mbd\";"}},
        {"print symbol table", {"", Outcome::consumed}},
        {"reference", {"7, null, eye", Outcome::consumed}},
        {"drive caller", {"7, const, 2.", Outcome::consumed}},
        {"template drive caller",
         {"7, 3, single, 1., 0., 0., const, 1.", Outcome::enables,
          "template drive caller: 8, 3, reference, 7;"}},
        {"constitutive law", {"7, 1, linear elastic, 10.", Outcome::consumed}},
        {"scalar function", {"\"kw\", const, 2.", Outcome::consumed}},
        {"module load",
         {"\"@MODULES@/libsmooth_step.so\"", Outcome::enables,
          "scalar function: \"kw_step\", smooth step, 0., 1., 0., 1.;"}},
        {"loadable path", {"\"@TMP@/modules\"", Outcome::enables, "module load: \"kw_module\";"}},
        {"hydraulic fluid", {"incompressible", Outcome::refused, "out of scope"}},
        {"c81 data", {"1, \"x.c81\"", Outcome::refused, "out of scope"}},
    };
    return m;
}

std::string substitute(std::string s, const std::string& key, const std::string& value) {
    for (auto p = s.find(key); p != std::string::npos; p = s.find(key, p + value.size()))
        s.replace(p, key.size(), value);
    return s;
}

fs::path scratch() {
    static const fs::path dir = [] {
        fs::path d = fs::temp_directory_path() / ("mbs_keywords_" + std::to_string(::getpid()));
        fs::create_directories(d / "modules");
        std::ofstream(d / "kw_include.mbd") << "remark: \"from the include\";\n";
        std::error_code ec;
        fs::copy_file(fs::path(MBS_TEST_MODULE_DIR) / "libdc_motor.so",
                      d / "modules" / "libkw_module.so", fs::copy_options::overwrite_existing, ec);
        return d;
    }();
    return dir;
}

// What --dump-model shows of the deck (the dump, the remarks, the warnings), or the error.
struct Result {
    bool built = false;
    std::string dump, remarks, error;
    std::vector<std::string> warnings;
};

Result build(const std::string& text) {
    Result res;
    std::ostringstream remarks;
    mbs::parser::BuildOptions opt;
    opt.echo_warnings = false;
    opt.remarks = &remarks;
    const fs::path cwd = fs::current_path();
    ::unsetenv("KW_DIR");
    try {
        mbs::Model m = mbs::parser::build_model_from_text("kw.mbd", text, opt);
        std::ostringstream os;
        mbs::parser::dump_model(m, os);
        res.built = true;
        res.dump = os.str();
        res.warnings = m.warnings;
    } catch (const mbs::InputError& e) {
        res.error = e.message() + " | " + e.hint();
    }
    fs::current_path(cwd);  // chdir
    ::unsetenv("KW_DIR");   // setenv
    res.remarks = remarks.str();
    return res;
}

const std::string head =
    "begin: data; problem: initial value; end: data;\n"
    "begin: initial value;\n@PROBLEM@end: initial value;\n"
    "begin: control data; structural nodes: 1; joints: 1;\n@CONTROL@end: control data;\n"
    "begin: nodes; structural: 1, static, null, eye, null, null; end: nodes;\n"
    "begin: elements; joint: 1, clamp, 1, node, node;\n@ELEMENTS@end: elements;\n";

std::string deck(const std::string& problem, const std::string& control,
                 const std::string& elements) {
    return substitute(substitute(substitute(head, "@PROBLEM@", problem), "@CONTROL@", control),
                      "@ELEMENTS@", elements);
}

std::string card_text(const std::string& keyword, const std::string& args) {
    std::string a =
        substitute(substitute(args, "@TMP@", scratch().string()), "@MODULES@", MBS_TEST_MODULE_DIR);
    return keyword + (a.empty() ? "" : ": " + a) + ";\n";
}

// Checks one keyword's outcome; `in_problem` places the card in the initial value block.
void check(const std::string& keyword, const Sample& s, bool in_problem) {
    SCOPED_TRACE("card '" + keyword + "'");
    std::string probe = s.outcome == Outcome::enables && !s.detail.empty() ? s.detail + "\n" : "";
    std::string with = card_text(keyword, s.args) + probe;
    // Without the card first: a module loaded by the deck with it stays loaded.
    const std::string& el = s.elements;
    Result b = build(in_problem ? deck(probe, "", el) : deck("", probe, el));
    Result a = build(in_problem ? deck(with, "", el) : deck("", with, el));
    switch (s.outcome) {
        case Outcome::consumed:
            ASSERT_TRUE(a.built) << a.error;
            ASSERT_TRUE(b.built) << b.error;
            EXPECT_TRUE(a.dump != b.dump || a.remarks != b.remarks)
                << "accepted and dropped: the dump is the same without it";
            break;
        case Outcome::enables:
            ASSERT_TRUE(a.built) << a.error;
            EXPECT_FALSE(b.built) << "the probe '" << s.detail << s.elements
                                  << "' builds without the card";
            break;
        case Outcome::refused:
            ASSERT_FALSE(a.built) << "accepted";
            EXPECT_NE(a.error.find(s.detail), std::string::npos) << a.error;
            break;
        case Outcome::warned: {
            ASSERT_TRUE(a.built) << a.error;
            ASSERT_TRUE(b.built) << b.error;
            EXPECT_EQ(a.dump, b.dump) << "warned as ignored, but it changes the model";
            bool named = false;
            for (const auto& w : a.warnings)
                if (w.find("'" + keyword + "'") != std::string::npos) named = true;
            EXPECT_TRUE(named) << "no warning names it";
            break;
        }
    }
}

template <class Table>
std::vector<std::string> keywords(const Table& t) {
    std::vector<std::string> v;
    for (const auto& c : t) v.emplace_back(c.keyword);
    return v;
}

TEST(BuilderKeywords, KeywordsHaveSamples) {
    auto missing = [](const std::vector<std::string>& ks, const std::map<std::string, Sample>& m,
                      const char* table) {
        for (const auto& k : ks)
            EXPECT_TRUE(m.count(k)) << table << ": '" << k
                                    << "' has no sample in parser/test/settings_keywords_test.cpp:"
                                       " add one with its consumer decision";
        for (const auto& [k, s] : m)
            EXPECT_NE(std::find(ks.begin(), ks.end(), k), ks.end())
                << table << ": sample for '" << k << "', which the table does not have";
    };
    missing(keywords(Builder::problem_cards()), problem_samples(), "problem_cards()");
    missing(keywords(Builder::control_cards()), control_samples(), "control_cards()");
    missing(keywords(Builder::global_cards()), global_samples(), "global_cards()");
}

TEST(BuilderKeywords, ProblemCards) {
    for (const auto& c : Builder::problem_cards()) {
        auto it = problem_samples().find(c.keyword);
        if (it != problem_samples().end()) check(c.keyword, it->second, true);
    }
}

TEST(BuilderKeywords, ControlCards) {
    for (const auto& c : Builder::control_cards()) {
        auto it = control_samples().find(c.keyword);
        if (it != control_samples().end()) check(c.keyword, it->second, false);
    }
}

TEST(BuilderKeywords, GlobalCards) {
    for (const auto& c : Builder::global_cards()) {
        auto it = global_samples().find(c.keyword);
        if (it != global_samples().end()) check(c.keyword, it->second, false);
    }
}

// The control-data counters go to Model::declared_counts, which the dump prints.
TEST(BuilderKeywords, Counters) {
    for (const auto& counter : mbs::parser::counter_names()) {
        SCOPED_TRACE("counter '" + counter + "'");
        std::string base =
            "begin: data; problem: initial value; end: data;\n"
            "begin: initial value; end: initial value;\n";
        Result a = build(base + "begin: control data; " + counter + ": 0; end: control data;\n");
        Result b = build(base + "begin: control data; end: control data;\n");
        ASSERT_TRUE(a.built) << a.error;
        ASSERT_TRUE(b.built) << b.error;
        EXPECT_NE(a.dump, b.dump);
    }
}

// `umfpack3`, MBDyn's legacy name of umfpack (its linsol.cc), is umfpack.
TEST(BuilderKeywords, Umfpack3IsUmfpack) {
    Result legacy = build(deck("linear solver: umfpack3;\n", "", ""));
    Result modern = build(deck("linear solver: umfpack;\n", "", ""));
    ASSERT_TRUE(legacy.built) << legacy.error;
    ASSERT_TRUE(modern.built) << modern.error;
    EXPECT_EQ(legacy.dump, modern.dump);
    EXPECT_NE(legacy.dump.find("umfpack"), std::string::npos);
}

}  // namespace
