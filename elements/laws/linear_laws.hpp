// The typed arguments of the linear constitutive laws (elements/laws/linear_laws.cpp), shared
// with the relative-coordinate path's spring joints (elements/joints/joint_ends.cpp reads K and C
// of the isotropic linear laws).
#pragma once

#include <memory>
#include <optional>

#include "core/model.hpp"

namespace mbs::laws {

// A stiffness or a damping as read: isotropic, a double (the matrix is value I), or generic, a
// DerivEntity (`values`: dim 1: 1 value, 3: 9, 6: 36, row-major). A law without one has it absent
// (zero).
struct Coefficient {
    enum class Form { absent, isotropic, generic };
    Form form = Form::absent;
    double value = 0.0;  // isotropic
    VecN values;         // generic

    void set(double v) { form = Form::isotropic, value = v; }
    void set(VecN v) { form = Form::generic, values = std::move(v); }
    // Zero: absent, or every value zero.
    bool null() const {
        if (form == Form::isotropic) return value == 0.0;
        for (double x : values)
            if (x != 0.0) return false;
        return true;
    }
    // The view under `key`: a double (isotropic) or VecN (generic); nothing when absent.
    void describe(Props& out, const char* key) const {
        if (form == Form::isotropic) out.set(key, value);
        if (form == Form::generic) out.set(key, values);
    }
};

// The linear laws' arguments; each kind sets the fields its card has (see linear_laws.cpp).
// Their view: "stiffness" ["stiffness scale"] "damping" ["proportional"] ["damping scale"]
// ["coupling"], each when set.
struct LinearArgs final : KindArgs {
    Coefficient stiffness;
    std::shared_ptr<const DriveSpec> stiffness_scale;  // time variant: s_K(t)
    Coefficient damping;                               // `proportional, f`: f times stiffness
    std::optional<double> proportional;                // that f
    std::shared_ptr<const DriveSpec> damping_scale;    // time variant: s_C(t)
    std::optional<double> coupling;                    // axial torsion coupling: K44 += c eps_1

    void describe(Props& out) const override {
        stiffness.describe(out, "stiffness");
        if (stiffness_scale) out.set("stiffness scale", stiffness_scale);
        damping.describe(out, "damping");
        if (proportional) out.set("proportional", *proportional);
        if (damping_scale) out.set("damping scale", damping_scale);
        if (coupling) out.set("coupling", *coupling);
    }
};

}  // namespace mbs::laws
