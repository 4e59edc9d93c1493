// Laws switched on and off by drives (docs/deck-language.md section 6): linear elastic bistop,
// linear viscoelastic bistop and the bistop wrapper. The law acts while active; it becomes
// active when the activation drive is non-zero and inactive when the deactivation drive is.
//
// Parameters (LawSpec::params, "kind" first, then card order):
//   linear elastic bistop       "stiffness" (double: a scalar K for every dimension, as in
//                               MBDyn's source) "initial status" (bool) "activate" "deactivate"
//   linear viscoelastic bistop  "stiffness" "damping" "initial status" "activate" "deactivate"
//   bistop                      "initial status" "activate" "deactivate"; children = {law}
#include "core/registry.hpp"
#include "elements/laws/law_util.hpp"

namespace mbs::laws {
namespace {

void read_linear_elastic_bistop(Reader& r, LawSpec& law) {
    set_kind(law, elastic);
    SourceLoc at = r.loc();
    double k = r.real("stiffness (a scalar)");
    warn_if_negative(r, at, k, "stiffness");
    law.params.set("stiffness", k);
    read_bistop_switch(r, law);
}

void read_linear_viscoelastic_bistop(Reader& r, LawSpec& law) {
    set_kind(law, viscoelastic);
    SourceLoc at = r.loc();
    double k = r.real("stiffness (a scalar)");
    warn_if_negative(r, at, k, "stiffness");
    law.params.set("stiffness", k);
    at = r.loc();
    double c = r.real("damping (a scalar)");
    warn_if_negative(r, at, c, "damping");
    law.params.set("damping", c);
    read_bistop_switch(r, law);
}

// `bistop, [initial status, s,] <dc on>, <dc off>, <law>`: the wrapped law's kind.
void read_bistop(Reader& r, LawSpec& law) {
    set_kind(law, elastic);
    read_bistop_switch(r, law);
    auto inner = r.law(law.dim, "wrapped constitutive law");
    set_kind(law, kind_of(*inner));
    law.children.push_back(std::move(inner));
}

}  // namespace

MBS_REGISTER_LAW("linear elastic bistop", read_linear_elastic_bistop);
MBS_REGISTER_LAW("linear viscoelastic bistop", read_linear_viscoelastic_bistop);
MBS_REGISTER_LAW("bistop", read_bistop);

}  // namespace mbs::laws
