// Helpers shared by the constitutive-law readers (docs/deck-language.md section 6): the law kind,
// the dimension check and the bistop switch (its typed arguments, BistopSwitchArgs).
#pragma once

#include <initializer_list>
#include <memory>
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

// The on/off switch of the bistop laws as read; its view: "initial status" (bool), "activate",
// "deactivate" (drives).
struct BistopSwitchArgs {
    bool initial_active = false;                  // `initial status`: active from the start
    std::shared_ptr<const DriveSpec> activate;    // switches it on when non-zero
    std::shared_ptr<const DriveSpec> deactivate;  // switches it off when non-zero

    void describe(Props& out) const {
        out.set("initial status", initial_active);
        out.set("activate", activate);
        out.set("deactivate", deactivate);
    }
};

// `[initial status, {active | inactive | <bool>},] <dc activate>, <dc deactivate>`
inline BistopSwitchArgs read_bistop_switch(Reader& r) {
    BistopSwitchArgs sw;
    if (r.accept("initial status")) {
        if (r.accept("active"))
            sw.initial_active = true;
        else if (r.accept("inactive"))
            sw.initial_active = false;
        else
            sw.initial_active = r.boolean("initial status");
    }
    sw.activate = r.drive("activation drive");
    sw.deactivate = r.drive("deactivation drive");
    return sw;
}

}  // namespace mbs::laws
