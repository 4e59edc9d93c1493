// Time per call of the relative-coordinate recursive algorithms on serial chains (7 and 30 DOF by
// default): inverse dynamics (forward kinematics + Newton-Euler), mass matrix (CRBA) and direct
// dynamics of the tree (bias forces by Newton-Euler, M by CRBA, then M qdd = -tau0 by LDL^T).
// Prints microseconds per call; fails (exit 1) if the direct dynamics disagree with the inverse
// dynamics (M qdd + c - Q must vanish) by more than 1e-9.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "solvers/reduced/dynamics.hpp"
#include "solvers/reduced/test/chain.hpp"

using namespace mbs::reduced;

namespace {
template <class F>
double time_us(F&& f, int reps) {
    f();
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i) f();
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0)
               .count() /
           reps;
}
}  // namespace

int main(int argc, char** argv) {
    int status = 0;
    std::printf("%6s %22s %22s %22s\n", "DOF", "inverse dynamics [us]", "mass matrix [us]",
                "direct dynamics [us]");
    std::vector<int> sizes;
    for (int a = 1; a < argc; ++a) sizes.push_back(std::atoi(argv[a]));
    if (sizes.empty()) sizes = {7, 30};
    {
        for (int nn : sizes) {
            ReducedModel m = make_chain(nn);
            Workspace ws = make_workspace(m);
            VecX q = VecX::LinSpaced(nn, 0.1, 1.0), qd = VecX::LinSpaced(nn, -1.0, 1.0);
            VecX qdd = VecX::LinSpaced(nn, 0.3, -0.7), acc(nn), rhs(nn);
            Eigen::LDLT<MatX> ldlt(nn);
            const int reps = nn < 10 ? 200000 : 20000;
            const double t_id = time_us(
                [&] {
                    forward_kinematics(m, ws, q, qd, qdd);
                    compute_loads(m, ws, 0.0);
                    inverse_dynamics(m, ws);
                },
                reps);
            const double t_m = time_us(
                [&] {
                    forward_kinematics(m, ws, q, ws.zero, ws.zero);
                    mass_matrix(m, ws);
                },
                reps);
            const double t_dd = time_us(
                [&] {
                    forward_kinematics(m, ws, q, qd, ws.zero);
                    compute_loads(m, ws, 0.0);
                    inverse_dynamics(m, ws);
                    mass_matrix(m, ws);
                    ldlt.compute(ws.M);
                    rhs = -ws.tau;
                    acc = ldlt.solve(rhs);
                },
                reps);
            // Consistency: inverse dynamics with the computed accelerations gives zero torques.
            forward_kinematics(m, ws, q, qd, acc);
            compute_loads(m, ws, 0.0);
            inverse_dynamics(m, ws);
            const double resid = ws.tau.lpNorm<Eigen::Infinity>();
            std::printf("%6d %22.3f %22.3f %22.3f   (|M qdd + c - Q| = %.1e)\n", nn, t_id, t_m,
                        t_dd, resid);
            if (resid > 1e-9) status = 1;
        }
    }
    return status;
}
