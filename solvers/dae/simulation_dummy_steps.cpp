// MBDyn's dummy steps after the derivatives phase (docs/formulation.md 4.3).
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/source.hpp"
#include "solvers/dae/simulation.hpp"

namespace mbs {

// MBDyn's dummy steps: `number` steps of size ratio * dt after the derivatives phase, with their
// own tolerance and iteration limit. Time advances by them; the regular integration then starts
// afresh (one-step first step) from the state they reach, which is output as step 0. Their use:
// multipliers and accelerations consistent with the positions before the first regular step
// (the index-3 start transient decays during the tiny steps).
void Simulation::dummy_steps() {
    if (set_.dummy_steps <= 0) return;
    const double h = set_.dummy_ratio * set_.dt;
    for (int k = 0; k < set_.dummy_steps; ++k) {
        StepInfo info;
        if (!step(h, info, set_.dummy_max_iter, set_.dummy_tol))
            throw SolverFailure(describe_failure("dummy step " + std::to_string(k + 1) + " of " +
                                                     std::to_string(set_.dummy_steps) +
                                                     " did not converge",
                                                 info));
        last_info_ = info;
    }
    // Regular steps restart from here: numbering, history, time base.
    step_ = 0;
    have_two_ = false;
    T_ = set_.dt;
    k_const_ = 0;
    t_base_ = t_;
    last_info_.step = 0;
    last_info_.time = t_;
}

}  // namespace mbs
