// `mbsolve --check` prints the number of unknowns before any runtime object exists
// (parser::count_unknowns: the nodes' unknowns and what each element's reader says it owns,
// ElementSpec::own_unknowns()). This test builds the DAE engine of every input example and
// requires the same number: a kind whose spec does not state its multipliers, or states the
// wrong number, fails here by name.
#include <gtest/gtest.h>

#include <filesystem>

#include "parser/builder.hpp"
#include "parser/dump.hpp"
#include "solvers/dae/engine.hpp"

namespace mbs::test {
namespace {

TEST(CheckUnknowns, CountEqualsTheEngineSizeOnEveryInputExample) {
    namespace fs = std::filesystem;
    int compared = 0;
    for (const auto& f : fs::directory_iterator(MBS_EXAMPLES_DIR)) {
        if (f.path().extension() != ".mbd") continue;
        const std::string deck = f.path().string();
        // Only a deck's own error skips it (one that needs a module or an option, which its own
        // test gives; a relative-coordinate deck, whose joints the DAE does not run): a
        // programming error (a factory asking for the wrong spec: std::logic_error) fails here.
        Model m;
        try {
            m = parser::build_model(deck);
        } catch (const InputError&) {
            continue;
        }
        std::unique_ptr<Engine> e;
        try {
            e = std::make_unique<Engine>(m);
        } catch (const InputError&) {
            continue;
        }
        EXPECT_EQ(parser::count_unknowns(m), e->size()) << deck;
        ++compared;
    }
    EXPECT_GT(compared, 70);
}

}  // namespace
}  // namespace mbs::test
