// Linear constitutive laws, dimensions 1, 3 and 6 unless noted (docs/deck-language.md section 6;
// MBDyn constltp_impl.cc). f = K (eps - eps_p) + C eps_dot (+ prestress).
//
// Parameters (LawSpec::params, "kind" first, then card order). Isotropic K and C are doubles
// (the matrix is K I); generic ones are VecN (dim 1: 1 value, 3: 9, 6: 36, row-major):
//   linear elastic [isotropic]                 "stiffness" (double)
//   linear elastic generic                     "stiffness" (VecN)
//   linear elastic generic axial torsion coupling (6 only)
//                                              "stiffness" (VecN) "coupling" (double c):
//                                              K44 becomes K44 + c eps_1
//   linear viscoelastic generic axial torsion coupling (6 only, in MBDyn's source)
//                                              "stiffness" "damping" ["proportional"] "coupling"
//   linear viscous [isotropic]                 "damping" (double)
//   linear viscous generic                     "damping" (VecN)
//   linear viscoelastic [isotropic]            "stiffness" "damping" (doubles) ["proportional"]
//   linear viscoelastic generic                "stiffness" "damping" (VecN) ["proportional"]
//   linear time variant viscoelastic generic   "stiffness" (VecN) "stiffness scale" (drive)
//                                              "damping" (VecN) ["proportional"]
//                                              "damping scale" (drive):
//                                              f = K s_K(t) eps + C s_C(t) eps_dot
// `proportional, f` gives C = f K; "damping" then holds the product and "proportional" f.
// The `isotropic` spellings are stored under the short type ("linearelastic", ...).
#include <algorithm>

#include "core/registry.hpp"
#include "elements/laws/law_util.hpp"

namespace mbs::laws {
namespace {

bool all_zero(const VecN& v) {
    return std::all_of(v.begin(), v.end(), [](double x) { return x == 0.0; });
}

VecN scaled(VecN v, double s) {
    for (double& x : v) x *= s;
    return v;
}

// A linear viscoelastic law with K = 0 acts as viscous, with C = 0 as elastic (as in MBDyn).
void set_viscoelastic_kind(Reader& r, LawSpec& law, bool k_null, bool c_null) {
    if (k_null && !c_null) {
        r.warn_at(law.loc, "null stiffness: the law acts as a linear viscous law");
        set_kind(law, viscous);
    } else if (c_null && !k_null) {
        r.warn_at(law.loc, "null damping: the law acts as a linear elastic law");
        set_kind(law, elastic);
    } else {
        set_kind(law, viscoelastic);
    }
}

void read_linear_elastic(Reader& r, LawSpec& law) {
    law.type = "linearelastic";
    set_kind(law, elastic);
    SourceLoc at = r.loc();
    double k = r.real("stiffness");
    warn_if_negative(r, at, k, "stiffness");
    law.params.set("stiffness", k);
}

void read_linear_elastic_generic(Reader& r, LawSpec& law) {
    set_kind(law, elastic);
    law.params.set("stiffness", r.deriv_entity(law.dim, "stiffness"));
}

void read_axial_torsion_coupling(Reader& r, LawSpec& law) {
    require_dim(r, law, "linear elastic generic axial torsion coupling", {6});
    set_kind(law, elastic);
    law.params.set("stiffness", r.deriv_entity(6, "stiffness matrix"));
    law.params.set("coupling", r.real("axial-torsion coupling coefficient"));
}

// Reads `{<C> | proportional, f}` after K; `generic` reads a DerivEntity C.
void read_damping(Reader& r, LawSpec& law, bool generic) {
    if (r.accept("proportional")) {
        double f = r.real("proportional damping factor");
        if (generic)
            law.params.set("damping", scaled(law.params.get<VecN>("stiffness"), f));
        else
            law.params.set("damping", f * law.params.get<double>("stiffness"));
        law.params.set("proportional", f);
    } else if (generic) {
        law.params.set("damping", r.deriv_entity(law.dim, "damping"));
    } else {
        SourceLoc at = r.loc();
        double c = r.real("damping");
        warn_if_negative(r, at, c, "damping");
        law.params.set("damping", c);
    }
}

void read_viscoelastic_axial_torsion_coupling(Reader& r, LawSpec& law) {
    require_dim(r, law, "linear viscoelastic generic axial torsion coupling", {6});
    set_kind(law, viscoelastic);
    law.params.set("stiffness", r.deriv_entity(6, "stiffness matrix"));
    read_damping(r, law, true);
    law.params.set("coupling", r.real("axial-torsion coupling coefficient"));
}

void read_linear_viscous(Reader& r, LawSpec& law) {
    law.type = "linearviscous";
    set_kind(law, viscous);
    SourceLoc at = r.loc();
    double c = r.real("damping");
    warn_if_negative(r, at, c, "damping");
    law.params.set("damping", c);
}

void read_linear_viscous_generic(Reader& r, LawSpec& law) {
    set_kind(law, viscous);
    law.params.set("damping", r.deriv_entity(law.dim, "damping"));
}

void read_linear_viscoelastic(Reader& r, LawSpec& law) {
    law.type = "linearviscoelastic";
    set_kind(law, viscoelastic);
    SourceLoc at = r.loc();
    double k = r.real("stiffness");
    warn_if_negative(r, at, k, "stiffness");
    law.params.set("stiffness", k);
    read_damping(r, law, false);
    set_viscoelastic_kind(r, law, k == 0.0, law.params.get<double>("damping") == 0.0);
}

void read_linear_viscoelastic_generic(Reader& r, LawSpec& law) {
    set_kind(law, viscoelastic);
    law.params.set("stiffness", r.deriv_entity(law.dim, "stiffness"));
    read_damping(r, law, true);
    set_viscoelastic_kind(r, law, all_zero(law.params.get<VecN>("stiffness")),
                          all_zero(law.params.get<VecN>("damping")));
}

void read_linear_time_variant(Reader& r, LawSpec& law) {
    set_kind(law, viscoelastic);
    law.params.set("stiffness", r.deriv_entity(law.dim, "stiffness"));
    law.params.set("stiffness scale", r.drive("stiffness scale drive"));
    read_damping(r, law, true);
    law.params.set("damping scale", r.drive("damping scale drive"));
}

}  // namespace

MBS_REGISTER_LAW("linear elastic", read_linear_elastic);
MBS_REGISTER_LAW("linear elastic isotropic", read_linear_elastic);
MBS_REGISTER_LAW("linear elastic generic", read_linear_elastic_generic);
MBS_REGISTER_LAW("linear elastic generic axial torsion coupling", read_axial_torsion_coupling);
MBS_REGISTER_LAW("linear viscoelastic generic axial torsion coupling",
                 read_viscoelastic_axial_torsion_coupling);
MBS_REGISTER_LAW("linear viscous", read_linear_viscous);
MBS_REGISTER_LAW("linear viscous isotropic", read_linear_viscous);
MBS_REGISTER_LAW("linear viscous generic", read_linear_viscous_generic);
MBS_REGISTER_LAW("linear viscoelastic", read_linear_viscoelastic);
MBS_REGISTER_LAW("linear viscoelastic isotropic", read_linear_viscoelastic);
MBS_REGISTER_LAW("linear viscoelastic generic", read_linear_viscoelastic_generic);
MBS_REGISTER_LAW("linear time variant viscoelastic generic", read_linear_time_variant);

}  // namespace mbs::laws
