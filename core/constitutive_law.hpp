// Runtime constitutive laws (docs/deck-language.md 6). A LawSpec from the deck is turned once, per
// element, into a ConstitutiveLaw<N> (N = 1, 3, 6) that gives the generalized force of a
// deformable element and its exact tangents:
//   F(eps, epsdot, t),  K = dF/deps,  C = dF/depsdot      (fixed-size, no allocation)
// eps and epsdot are the element's strain and strain rate in the law's frame (a rod: axial
// strain; a deformable hinge: relative rotation vector; a deformable joint: [d; theta]).
//
// Laws with a state (the bistop family) change it only in after_step(), called once per
// converged step: eval() is a pure function of its arguments, so residual and Jacobian agree
// during Newton iterations. (MBDyn switches inside the iterations; here a switch takes effect
// from the step after the one in which the drive became non-zero.)
//
// Prestress and prestrain (`prestress, <Entity>`, `prestrain, <TplDC>`) are applied by
// make_law() around any law: F = F0 + F_law(eps - eps0(t), epsdot).
#pragma once

#include <memory>
#include <string>

#include "core/drive.hpp"
#include "core/model.hpp"

namespace mbs {

// What a law's force depends on, as bits (a combination of both is viscoelastic).
enum LawKindBits : int { law_elastic = 1, law_viscous = 2 };

template <int N>
class ConstitutiveLaw {
  public:
    using V = Eigen::Matrix<double, N, 1>;
    using M = Eigen::Matrix<double, N, N>;

    virtual ~ConstitutiveLaw() = default;
    // F, K = dF/deps and C = dF/depsdot at (eps, epsdot) and time t. Overwrites all three.
    virtual void eval(const V& eps, const V& epsdot, double t, V& F, M& K, M& C) const = 0;
    // law_elastic | law_viscous
    virtual int kind() const = 0;
    // Once per converged step, with that step's strain, strain rate and time.
    virtual void after_step(const V& /*eps*/, const V& /*epsdot*/, double /*t*/) {}
};

template <int N>
using LawPtr = std::unique_ptr<ConstitutiveLaw<N>>;

// What a law factory may need besides its spec: drives (prestrain, scale factors, switches)
// and the model (scalar functions by name).
struct LawEnv {
    DriveEnv drives;
};

// Builds the runtime law of `spec` (children, prestress and prestrain included); one fresh
// instance per call, so elements never share a law's state. Throws InputError at spec.loc when
// the spec's dimension is not N or the type has no runtime implementation.
template <int N>
LawPtr<N> make_law(const LawSpec& spec, const LawEnv& env);

// The kind a spec declares (LawSpec::kind) as LawKindBits.
int law_kind_bits(const LawSpec& spec);

// Throws the InputError of make_law for a type without a runtime, with an optional hint.
[[noreturn]] void throw_unsupported_law(const LawSpec& spec, const std::string& hint = {});

// The runtime factory of a law keyword for dimension N: registered with its reader as one LawKind
// (core/registry.hpp, MBS_REGISTER_LAW_KIND; nullptr: the type is not defined for that
// dimension). It builds the law without prestress/prestrain, which make_law adds.
template <int N>
using LawFactoryFn = LawPtr<N> (*)(const LawSpec&, const LawEnv&);

extern template LawPtr<1> make_law<1>(const LawSpec&, const LawEnv&);
extern template LawPtr<3> make_law<3>(const LawSpec&, const LawEnv&);
extern template LawPtr<6> make_law<6>(const LawSpec&, const LawEnv&);

}  // namespace mbs
