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

MBS_REGISTER_LAW_KIND("symbolic", {.read = read_symbolic, .no_make = "refused by the reader"});
MBS_REGISTER_LAW_KIND("symbolic elastic",
                      {.read = read_symbolic, .no_make = "refused by the reader"});
MBS_REGISTER_LAW_KIND("symbolic viscous",
                      {.read = read_symbolic, .no_make = "refused by the reader"});
MBS_REGISTER_LAW_KIND("symbolic viscoelastic",
                      {.read = read_symbolic, .no_make = "refused by the reader"});
MBS_REGISTER_LAW_KIND("shock absorber",
                      {.read = read_unsupported, .no_make = "refused by the reader"});
MBS_REGISTER_LAW_KIND("nlsf elastic",
                      {.read = read_unsupported, .no_make = "refused by the reader"});
MBS_REGISTER_LAW_KIND("nlsf viscous",
                      {.read = read_unsupported, .no_make = "refused by the reader"});
MBS_REGISTER_LAW_KIND("nlsf viscoelastic",
                      {.read = read_unsupported, .no_make = "refused by the reader"});
MBS_REGISTER_LAW_KIND("nlp elastic",
                      {.read = read_unsupported, .no_make = "refused by the reader"});
MBS_REGISTER_LAW_KIND("nlp viscous",
                      {.read = read_unsupported, .no_make = "refused by the reader"});
MBS_REGISTER_LAW_KIND("nlp viscoelastic",
                      {.read = read_unsupported, .no_make = "refused by the reader"});
MBS_REGISTER_LAW_KIND("ann elastic",
                      {.read = read_unsupported, .no_make = "refused by the reader"});
MBS_REGISTER_LAW_KIND("ann viscoelastic",
                      {.read = read_unsupported, .no_make = "refused by the reader"});

}  // namespace mbs::laws
