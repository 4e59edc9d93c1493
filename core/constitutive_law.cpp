// Runtime constitutive laws: make_law (through the law kinds of the registry) and the prestress /
// prestrain wrapper every law gets. The law types live in elements/laws/*_laws.cpp, each
// registered with its reader (MBS_REGISTER_LAW_KIND).
#include "core/constitutive_law.hpp"

#include <string>

#include "core/registry.hpp"
#include "core/source.hpp"

namespace mbs {

namespace {

// The keyword as the deck writes it ("linear elastic"), from the reader registry.
std::string display_name(const std::string& type) {
    for (const std::string& name : Registry::instance().laws.names())
        if (normalize_keyword(name) == type) return name;
    return type;
}

template <int N>
LawFactoryFn<N> pick(const LawFactories& f) {
    if constexpr (N == 1)
        return f.n1;
    else if constexpr (N == 3)
        return f.n3;
    else
        return f.n6;
}

// F = F0 + F_law(eps - eps0(t), epsdot): the prestress F0 and the prestrain drive eps0(t).
template <int N>
class Prestressed final : public ConstitutiveLaw<N> {
  public:
    using typename ConstitutiveLaw<N>::V;
    using typename ConstitutiveLaw<N>::M;

    Prestressed(LawPtr<N> inner, const V& stress, const TplDrive<N>* strain)
        : inner_(std::move(inner)), stress_(stress), has_strain_(strain != nullptr) {
        if (strain) strain_ = *strain;
    }
    void eval(const V& eps, const V& epsdot, double t, V& F, M& K, M& C) const override {
        inner_->eval(shifted(eps, t), epsdot, t, F, K, C);
        F += stress_;
    }
    int kind() const override { return inner_->kind(); }
    void after_step(const V& eps, const V& epsdot, double t) override {
        if (has_strain_) strain_.after_step();
        inner_->after_step(shifted(eps, t), epsdot, t);
    }

  private:
    V shifted(const V& eps, double t) const {
        return has_strain_ ? V(eps - strain_.value(t)) : eps;
    }
    LawPtr<N> inner_;
    V stress_;
    bool has_strain_;
    TplDrive<N> strain_;
};

}  // namespace

void throw_unsupported_law(const LawSpec& spec, const std::string& hint) {
    throw InputError(spec.loc,
                     "constitutive law '" + display_name(spec.type) + "' of dimension " +
                         std::to_string(spec.dim) + " is not supported at run time yet",
                     hint);
}

// LawResponse's values are these bits.
static_assert(static_cast<int>(LawResponse::elastic) == law_elastic &&
              static_cast<int>(LawResponse::viscous) == law_viscous &&
              static_cast<int>(LawResponse::viscoelastic) == (law_elastic | law_viscous));

int law_kind_bits(const LawSpec& spec) { return static_cast<int>(spec.kind); }

template <int N>
LawPtr<N> make_law(const LawSpec& spec, const LawEnv& env) {
    if (spec.dim != N)
        throw InputError(spec.loc, "constitutive law of dimension " + std::to_string(spec.dim) +
                                       " where dimension " + std::to_string(N) + " is needed");
    const LawKind* kind = Registry::instance().laws.find(spec.type);
    if (!kind) throw_unsupported_law(spec);
    LawFactoryFn<N> fn = pick<N>(kind->make);
    if (!fn) throw_unsupported_law(spec);
    LawPtr<N> law = fn(spec, env);
    const bool stress = !spec.prestress.empty();
    if (!stress && !spec.prestrain) return law;
    typename ConstitutiveLaw<N>::V f0 = ConstitutiveLaw<N>::V::Zero();
    if (stress) {
        if (spec.prestress.size() != static_cast<std::size_t>(N))
            throw InputError(spec.loc, "prestress of dimension " +
                                           std::to_string(spec.prestress.size()) +
                                           " where dimension " + std::to_string(N) + " is needed");
        for (int i = 0; i < N; ++i) f0[i] = spec.prestress[i];
    }
    if (!spec.prestrain) return std::make_unique<Prestressed<N>>(std::move(law), f0, nullptr);
    TplDrive<N> strain = TplDrive<N>::make(*spec.prestrain, env.drives);
    return std::make_unique<Prestressed<N>>(std::move(law), f0, &strain);
}

template LawPtr<1> make_law<1>(const LawSpec&, const LawEnv&);
template LawPtr<3> make_law<3>(const LawSpec&, const LawEnv&);
template LawPtr<6> make_law<6>(const LawSpec&, const LawEnv&);

}  // namespace mbs
