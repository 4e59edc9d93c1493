// The analyses of the relative-coordinate path: one row each, with the `--analysis` name, the
// deck's `problem:` keyword that selects it (if any) and a one-line summary. The command line
// (mbsolve/cli.cpp), the builder's problem blocks (parser/builder.cpp) and the run control
// (mbsolve/main.cpp, solvers/reduced/run.cpp, which holds each row's run function) all read this
// table (docs/architecture.md 11). The DAE's `initial value` problem is not a row: it is the
// default run.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace mbs {

struct AnalysisInfo {
    std::string_view name;     // --analysis NAME
    std::string_view problem;  // `problem: <keyword>;` selecting it ("" none)
    std::string_view summary;  // what it computes and writes
};

// Every analysis, in the order the command line lists them.
const std::vector<AnalysisInfo>& analyses();
// The analysis called `name`, or null.
const AnalysisInfo* find_analysis(std::string_view name);
// The analysis a deck's `problem:` keyword selects, or null (the DAE's problems).
const AnalysisInfo* analysis_for_problem(std::string_view problem);
// "equilibrium, modal, ...": the names, comma-separated.
std::string analysis_names();

}  // namespace mbs
