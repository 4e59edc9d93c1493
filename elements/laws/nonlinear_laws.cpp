// Nonlinear elastic and viscoelastic laws (docs/deck-language.md section 6; MBDyn
// constltp_impl.cc).
//
// Parameters (LawSpec::params, "kind" first, then card order):
//   double linear elastic (1, 3)     "stiffness" "upper strain" (> 0) "lower strain" (< 0)
//                                    "second stiffness" "third stiffness" (default: second):
//                                    K1 inside [lower, upper], K2 above, K3 below; in 3D
//                                    only component 3 is bilinear
//   double linear viscoelastic (1, 3)  as above without "third stiffness", then "damping"
//                                    "second damping" (default: damping, used outside)
//   cubic elastic generic (1, 3)     "k1" "k2" "k3" (VecN entities):
//                                    f = k1 eps + k2 |eps| eps + k3 eps^3, per component
//   cubic viscoelastic generic (1, 3)  as above, then "damping" (VecN DerivEntity)
//   inverse square elastic (1)       "stiffness" (A) "reference length" (L0 > 0)
//   log elastic (1)                  "stiffness": f = K log(1 + eps)
//   isotropic hardening elastic      "stiffness" "reference strain" (> 0)
//                                    "linear stiffness" (default 0)
//   contact elastic (1, 3)           "stiffness" "exponent" (gamma >= 1)
//   turbulent viscoelastic (1)       "stiffness" "parabolic damping" "threshold" (default 0)
//                                    "linear damping" (default threshold * parabolic damping):
//                                    C = linear damping for |eps_dot| < threshold, else
//                                    2 parabolic damping |eps_dot|
#include "core/registry.hpp"
#include "elements/laws/law_util.hpp"

namespace mbs::laws {
namespace {

double read_stiffness(Reader& r, std::string_view what = "stiffness") {
    SourceLoc at = r.loc();
    double k = r.real(what);
    warn_if_negative(r, at, k, what);
    return k;
}

// K1, upper strain, lower strain, K2 (shared by the two double linear laws).
void read_double_linear_base(Reader& r, LawSpec& law) {
    law.params.set("stiffness", read_stiffness(r));
    SourceLoc at = r.loc();
    double up = r.real("upper strain");
    if (up <= 0.0) r.error_at(at, "the upper strain must be positive, got " + num(up));
    law.params.set("upper strain", up);
    at = r.loc();
    double low = r.real("lower strain");
    if (low >= 0.0) r.error_at(at, "the lower strain must be negative, got " + num(low));
    law.params.set("lower strain", low);
    law.params.set("second stiffness", read_stiffness(r, "second stiffness"));
}

void read_double_linear_elastic(Reader& r, LawSpec& law) {
    require_dim(r, law, "double linear elastic", {1, 3});
    set_kind(law, elastic);
    read_double_linear_base(r, law);
    double k3 = law.params.get<double>("second stiffness");
    if (r.accept("third stiffness")) k3 = read_stiffness(r, "third stiffness");
    law.params.set("third stiffness", k3);
}

void read_double_linear_viscoelastic(Reader& r, LawSpec& law) {
    require_dim(r, law, "double linear viscoelastic", {1, 3});
    set_kind(law, viscoelastic);
    read_double_linear_base(r, law);
    double c = read_stiffness(r, "damping");
    law.params.set("damping", c);
    if (r.accept("second damping")) c = read_stiffness(r, "second damping");
    law.params.set("second damping", c);
}

void read_cubic_entities(Reader& r, LawSpec& law) {
    law.params.set("k1", r.entity(law.dim, "linear stiffness K1"));
    law.params.set("k2", r.entity(law.dim, "quadratic stiffness K2"));
    law.params.set("k3", r.entity(law.dim, "cubic stiffness K3"));
}

void read_cubic_elastic_generic(Reader& r, LawSpec& law) {
    require_dim(r, law, "cubic elastic generic", {1, 3});
    set_kind(law, elastic);
    read_cubic_entities(r, law);
}

void read_cubic_viscoelastic_generic(Reader& r, LawSpec& law) {
    require_dim(r, law, "cubic viscoelastic generic", {1, 3});
    set_kind(law, viscoelastic);
    read_cubic_entities(r, law);
    law.params.set("damping", r.deriv_entity(law.dim, "damping"));
}

void read_inverse_square_elastic(Reader& r, LawSpec& law) {
    require_dim(r, law, "inverse square elastic", {1});
    set_kind(law, elastic);
    law.params.set("stiffness", read_stiffness(r));
    law.params.set("reference length", r.positive("reference length"));
}

void read_log_elastic(Reader& r, LawSpec& law) {
    require_dim(r, law, "log elastic", {1});
    set_kind(law, elastic);
    law.params.set("stiffness", read_stiffness(r));
}

void read_isotropic_hardening_elastic(Reader& r, LawSpec& law) {
    set_kind(law, elastic);
    law.params.set("stiffness", read_stiffness(r));
    law.params.set("reference strain", r.positive("reference strain"));
    double k0 = 0.0;
    if (r.accept("linear stiffness")) k0 = r.real("linear stiffness");
    law.params.set("linear stiffness", k0);
}

void read_contact_elastic(Reader& r, LawSpec& law) {
    require_dim(r, law, "contact elastic", {1, 3});
    set_kind(law, elastic);
    law.params.set("stiffness", read_stiffness(r));
    SourceLoc at = r.loc();
    double gamma = r.real("exponent");
    if (gamma < 1.0) r.error_at(at, "the contact exponent must be at least 1, got " + num(gamma));
    law.params.set("exponent", gamma);
}

// The optional threshold and linear damping are read only when a value follows (MBDyn reads
// any argument, which breaks on a following `prestress` or law keyword).
void read_turbulent_viscoelastic(Reader& r, LawSpec& law) {
    require_dim(r, law, "turbulent viscoelastic", {1});
    set_kind(law, viscoelastic);
    law.params.set("stiffness", read_stiffness(r));
    double cpar = read_stiffness(r, "parabolic damping");
    law.params.set("parabolic damping", cpar);
    double threshold = 0.0;
    if (drives::next_is_value(r)) threshold = drives::real_or(r, "threshold", 0.0);
    law.params.set("threshold", threshold);
    double clin = threshold * cpar;
    if (drives::next_is_value(r)) clin = drives::real_or(r, "linear damping", clin);
    law.params.set("linear damping", clin);
}

}  // namespace

MBS_REGISTER_LAW("double linear elastic", read_double_linear_elastic);
MBS_REGISTER_LAW("double linear viscoelastic", read_double_linear_viscoelastic);
MBS_REGISTER_LAW("cubic elastic generic", read_cubic_elastic_generic);
MBS_REGISTER_LAW("cubic viscoelastic generic", read_cubic_viscoelastic_generic);
MBS_REGISTER_LAW("inverse square elastic", read_inverse_square_elastic);
MBS_REGISTER_LAW("log elastic", read_log_elastic);
MBS_REGISTER_LAW("isotropic hardening elastic", read_isotropic_hardening_elastic);
MBS_REGISTER_LAW("contact elastic", read_contact_elastic);
MBS_REGISTER_LAW("turbulent viscoelastic", read_turbulent_viscoelastic);

}  // namespace mbs::laws
