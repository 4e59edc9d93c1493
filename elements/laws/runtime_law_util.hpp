// Helpers shared by the runtime constitutive laws (elements/laws/*_laws.cpp): the typed
// arguments of a law as fixed-size Eigen values, the switch of the bistop laws, scalar functions.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "core/constitutive_law.hpp"
#include "core/source.hpp"
#include "elements/laws/law_util.hpp"

namespace mbs::laws::rt {

template <int N>
using Vn = Eigen::Matrix<double, N, 1>;
template <int N>
using Mn = Eigen::Matrix<double, N, N>;

// A DerivEntity as the readers store it (N x N values, row-major) as a matrix; `what` names
// it in the error for a wrong count, at the law `at`.
template <int N>
Mn<N> deriv_entity(const VecN& a, const SourceLoc& at, std::string_view what) {
    if (a.size() != static_cast<std::size_t>(N * N))
        throw InputError(at, "law parameter '" + std::string(what) + "' has " +
                                 std::to_string(a.size()) + " values, expected " +
                                 std::to_string(N * N));
    Mn<N> m;
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) m(i, j) = a[static_cast<std::size_t>(i * N + j)];
    return m;
}

// An Entity (N values) as the readers store it.
template <int N>
Vn<N> entity(const VecN& a, const SourceLoc& at, std::string_view what) {
    if (a.size() != static_cast<std::size_t>(N))
        throw InputError(at, "law parameter '" + std::string(what) + "' has " +
                                 std::to_string(a.size()) + " values, expected " +
                                 std::to_string(N));
    Vn<N> v;
    for (int i = 0; i < N; ++i) v[i] = a[static_cast<std::size_t>(i)];
    return v;
}

inline DrivePtr drive(const std::shared_ptr<const DriveSpec>& d, const LawEnv& env) {
    return make_drive(*d, env.drives);
}

// A scalar function: its inline definition, or the `scalar function:` card `name` of the model,
// as a drive f(x) with exact f'(x). It is fed the strain, not the time (DriveEnv::time_input).
// Not defined: an error at the law `at`.
inline DrivePtr scalar_function(const std::string& name, const DriveSpec* definition,
                                const SourceLoc& at, const LawEnv& env) {
    DriveEnv of_strain = env.drives;
    of_strain.time_input = false;
    if (definition) return make_drive(*definition, of_strain);
    if (env.drives.model) {
        auto it = env.drives.model->scalar_functions.find(name);
        if (it != env.drives.model->scalar_functions.end())
            return make_drive(*it->second, of_strain);
    }
    throw InputError(at, "scalar function \"" + name + "\" is not defined");
}

// The on/off switch of the bistop laws, as MBDyn's bistop laws (LinearViscoElasticBiStop /
// BiStopCLWrapper ::Update): at every evaluation of the law (each residual and Jacobian inside
// Newton, the drives at the time t of that evaluation),
//   - inactive and the activation drive non-zero: it becomes active and takes the strain of this
//     evaluation as its reference eps_ref;
//   - then, active and the deactivation drive non-zero: it becomes inactive (both in one
//     evaluation: it stays inactive).
// The state is kept from one evaluation to the next. The first evaluation of a step is at the
// step's predicted state, so a switch at the step of time t acts in that same step (not from
// the next one), and a switch-on takes the predicted strain of that step as eps_ref. A step
// retried after a failure keeps a switch made by the failed attempt (as in MBDyn).
template <int N>
struct BistopSwitch {
    DrivePtr on, off;
    mutable bool active = false;
    mutable Vn<N> eps_ref = Vn<N>::Zero();

    BistopSwitch(const BistopSwitchArgs& a, const LawEnv& env)
        : on(drive(a.activate, env)), off(drive(a.deactivate, env)), active(a.initial_active) {}

    // The switch at an evaluation with strain eps at time t; returns whether the law acts.
    bool sync(const Vn<N>& eps, double t) const {
        if (!active && on->value(t) != 0.0) {
            active = true;
            eps_ref = eps;
        }
        if (active && off->value(t) != 0.0) active = false;
        return active;
    }
    // Once per converged step: the drives' own memory (sample and hold, filters, ...).
    void after_step() const {
        on->after_step();
        off->after_step();
    }
};

}  // namespace mbs::laws::rt
