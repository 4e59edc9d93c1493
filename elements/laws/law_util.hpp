// Helpers shared by the constitutive-law readers (docs/deck-language.md section 6): the law kind,
// the dimension check and the bistop switch.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

#include "core/reader.hpp"
#include "elements/drives/drive_util.hpp"

namespace mbs::laws {

using drives::num;

// A law's kind (LawSpec::kind): what its force depends on (strain, strain rate or both).
inline constexpr LawResponse elastic = LawResponse::elastic;
inline constexpr LawResponse viscous = LawResponse::viscous;
inline constexpr LawResponse viscoelastic = LawResponse::viscoelastic;

// Rejects a dimension the law is not defined for, at the law's keyword.
inline void require_dim(Reader& r, const LawSpec& law, std::string_view name,
                        std::initializer_list<int> dims) {
    std::string list;
    for (int d : dims) {
        if (d == law.dim) return;
        list += (list.empty() ? "" : ", ") + std::to_string(d);
    }
    r.error_at(law.loc, "constitutive law \"" + std::string(name) +
                            "\" is not defined for dimension " + std::to_string(law.dim) +
                            " (allowed: " + list + ")");
}

inline void warn_if_negative(Reader& r, const SourceLoc& at, double v, std::string_view what) {
    if (v < 0.0) r.warn_at(at, "negative " + std::string(what) + " " + num(v));
}

// `[initial status, {active | inactive | <bool>},] <dc activate>, <dc deactivate>`
inline void read_bistop_switch(Reader& r, LawSpec& law) {
    bool active = false;
    if (r.accept("initial status")) {
        if (r.accept("active"))
            active = true;
        else if (r.accept("inactive"))
            active = false;
        else
            active = r.boolean("initial status");
    }
    law.params.set("initial status", active);
    law.params.set("activate", r.drive("activation drive"));
    law.params.set("deactivate", r.drive("deactivation drive"));
}

}  // namespace mbs::laws
