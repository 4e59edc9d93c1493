// The analysis table (analysis.hpp).
#include "core/analysis.hpp"

namespace mbs {

const std::vector<AnalysisInfo>& analyses() {
    static const std::vector<AnalysisInfo> table = {
        {"equilibrium", "equilibrium", "static equilibrium (PREFIX.eq)"},
        {"modal", "modal", "modes about the equilibrium (PREFIX.modal)"},
        {"reduced-dynamics", "reduced dynamics",
         "time integration, RK4 (with `method: ms, rho` in a `problem: reduced dynamics;` deck: "
         "the two-step method; PREFIX.mov/.out)"},
        {"reduced-dynamics-implicit", "",
         "time integration, the two-step method (PREFIX.mov/.out)"},
        {"inverse-dynamics", "reduced inverse dynamics",
         "actuator forces of a fully driven model (PREFIX.act .lam)"},
    };
    return table;
}

const AnalysisInfo* find_analysis(std::string_view name) {
    for (const AnalysisInfo& a : analyses())
        if (a.name == name) return &a;
    return nullptr;
}

const AnalysisInfo* analysis_for_problem(std::string_view problem) {
    for (const AnalysisInfo& a : analyses())
        if (!a.problem.empty() && a.problem == problem) return &a;
    return nullptr;
}

std::string analysis_names() {
    std::string s;
    for (const AnalysisInfo& a : analyses()) s += (s.empty() ? "" : ", ") + std::string(a.name);
    return s;
}

}  // namespace mbs
