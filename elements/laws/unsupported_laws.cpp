// Constitutive laws MBDyn accepts but mbsolve does not: symbolic (needs GiNaC), shock absorber,
// and the nlsf / nlp / ann families. Each fails at its keyword with a clear message instead
// of an "unknown constitutive law" guess.
#include "core/registry.hpp"

namespace mbs::laws {
namespace {

// The keyword as registered ("shock absorber"), from the normalised type ("shockabsorber").
std::string readable(const std::string& type) {
    for (const auto& n : Registry::instance().laws.names())
        if (normalize_keyword(n) == type) return n;
    return type;
}

void read_symbolic(Reader& r, LawSpec& law) {
    r.error_at(law.loc, "symbolic constitutive laws are not supported (they need GiNaC)",
               "write the law as a combination of linear, cubic or scalar function laws");
}

void read_unsupported(Reader& r, LawSpec& law) {
    r.error_at(law.loc,
               "constitutive law \"" + readable(law.type) + "\" is not supported by mbsolve",
               "supported nonlinear laws: double linear, cubic, log, contact, turbulent, "
               "isotropic hardening, scalar function elastic");
}

}  // namespace

MBS_REGISTER_LAW("symbolic", read_symbolic);
MBS_REGISTER_LAW("symbolic elastic", read_symbolic);
MBS_REGISTER_LAW("symbolic viscous", read_symbolic);
MBS_REGISTER_LAW("symbolic viscoelastic", read_symbolic);
MBS_REGISTER_LAW("shock absorber", read_unsupported);
MBS_REGISTER_LAW("nlsf elastic", read_unsupported);
MBS_REGISTER_LAW("nlsf viscous", read_unsupported);
MBS_REGISTER_LAW("nlsf viscoelastic", read_unsupported);
MBS_REGISTER_LAW("nlp elastic", read_unsupported);
MBS_REGISTER_LAW("nlp viscous", read_unsupported);
MBS_REGISTER_LAW("nlp viscoelastic", read_unsupported);
MBS_REGISTER_LAW("ann elastic", read_unsupported);
MBS_REGISTER_LAW("ann viscoelastic", read_unsupported);

}  // namespace mbs::laws
