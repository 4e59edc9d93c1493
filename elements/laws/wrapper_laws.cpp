// Laws built from other laws or from scalar functions (docs/deck-language.md section 6).
//
// Parameters (LawSpec::params, "kind" first, then card order; wrapped laws in children):
//   array, n, <law>...          children = the n laws (n >= 1), summed; kind = union of theirs
//                               (elastic + viscous = viscoelastic)
//   drive caller wrapper        "drive"; children = {law}: f = w(t) f_law
//   axial wrapper (3 only)      "direction" (Vec3, as written); children = {1D law} acting on
//                               the strain component along the direction
//   invariant angular (3 only)  "xi" (double); children = {3D law}; kind = elastic + theirs
//   scalar function elastic [isotropic]  "function" (name; see read_scalar_function_ref):
//                               f_i = sf(eps_i) for each component
//   scalar function elastic orthotropic  "function 1" ... "function n" (names; "" for `null`,
//                               a component without force); dimension 1 reads one name
#include "core/registry.hpp"
#include "elements/laws/law_util.hpp"

namespace mbs::laws {
namespace {

void read_array(Reader& r, LawSpec& law) {
    long n = drives::count_at_least(r, "number of constitutive laws", 1);
    int kind = 0;
    for (long i = 1; i <= n; ++i) {
        auto child = r.law(law.dim, "constitutive law #" + std::to_string(i));
        kind |= kind_of(*child);
        law.children.push_back(std::move(child));
    }
    set_kind(law, kind);
}

void read_drive_caller_wrapper(Reader& r, LawSpec& law) {
    set_kind(law, elastic);
    law.params.set("drive", r.drive("scaling drive"));
    auto inner = r.law(law.dim, "wrapped constitutive law");
    set_kind(law, kind_of(*inner));
    law.children.push_back(std::move(inner));
}

void read_axial_wrapper(Reader& r, LawSpec& law) {
    require_dim(r, law, "axial wrapper", {3});
    set_kind(law, elastic);
    SourceLoc at = r.loc();
    Vec3 dir = r.vec3("axis direction");
    if (dir.norm() == 0.0) r.error_at(at, "the axis direction must not be null");
    law.params.set("direction", dir);
    auto inner = r.law(1, "1D constitutive law");
    set_kind(law, kind_of(*inner));
    law.children.push_back(std::move(inner));
}

void read_invariant_angular(Reader& r, LawSpec& law) {
    require_dim(r, law, "invariant angular", {3});
    set_kind(law, elastic);
    law.params.set("xi", r.real("invariant coefficient xi"));
    auto inner = r.law(3, "3D constitutive law");
    set_kind(law, elastic | kind_of(*inner));
    law.children.push_back(std::move(inner));
}

void read_scalar_function_isotropic(Reader& r, LawSpec& law) {
    law.type = "scalarfunctionelasticisotropic";
    set_kind(law, elastic);
    drives::read_scalar_function_ref(r, law.params, "function");
}

void read_scalar_function_orthotropic(Reader& r, LawSpec& law) {
    if (law.dim == 1) {
        read_scalar_function_isotropic(r, law);
        return;
    }
    set_kind(law, elastic);
    for (int i = 1; i <= law.dim; ++i) {
        std::string key = "function " + std::to_string(i);
        if (r.accept("null"))
            law.params.set(key, std::string());
        else
            drives::read_scalar_function_ref(r, law.params, key);
    }
}

}  // namespace

MBS_REGISTER_LAW("array", read_array);
MBS_REGISTER_LAW("drive caller wrapper", read_drive_caller_wrapper);
MBS_REGISTER_LAW("axial wrapper", read_axial_wrapper);
MBS_REGISTER_LAW("invariant angular", read_invariant_angular);
MBS_REGISTER_LAW("scalar function elastic", read_scalar_function_isotropic);
MBS_REGISTER_LAW("scalar function elastic isotropic", read_scalar_function_isotropic);
MBS_REGISTER_LAW("scalar function elastic orthotropic", read_scalar_function_orthotropic);

}  // namespace mbs::laws
