// Runtime drive callers: make_drive (through the drive kinds of the registry) and the template
// drive callers TplDrive<N> (instantiated here for N = 1, 3, 6). The drive types themselves live
// in elements/drives/*_drives.cpp, each registered with its reader (MBS_REGISTER_DRIVE_KIND);
// the `const` kind's arguments and constant_value() are declared in core/const_drive.hpp.
#include "core/drive.hpp"

#include <string>

#include "core/const_drive.hpp"
#include "core/registry.hpp"
#include "core/source.hpp"

namespace mbs {

namespace {

// The keyword as the deck writes it ("piecewise linear"), from the reader registry; the
// normalised type when no reader has it.
std::string display_name(const std::string& type) {
    for (const std::string& name : Registry::instance().drives.names())
        if (normalize_keyword(name) == type) return name;
    return type;
}

// f(x) = 1, the drive of TplDrive::constant().
class UnitDrive final : public Drive {
  public:
    double value(double) const override { return 1.0; }
    double deriv(double) const override { return 0.0; }
};

}  // namespace

void ConstArgs::describe(Props& out) const { out.set("value", value); }

std::optional<double> constant_value(const DriveSpec& d) {
    if (d.type == "const") return d.args_as<ConstArgs>().value;
    if (d.type == "null") return 0.0;
    if (d.type == "unit" || d.type == "one") return 1.0;
    return std::nullopt;
}

void throw_unsupported_drive(const DriveSpec& spec, const std::string& hint) {
    throw InputError(
        spec.loc, "drive caller '" + display_name(spec.type) + "' is not supported at run time yet",
        hint);
}

DrivePtr make_drive(const DriveSpec& spec, const DriveEnv& env) {
    const DriveKind* kind = Registry::instance().drives.find(spec.type);
    if (!kind || !kind->make) throw_unsupported_drive(spec);
    DrivePtr d = kind->make(spec, env);
    if (env.sites && env.time_input && d) env.sites->push_back({d, &spec});
    return d;
}

// --- template drive callers --------------------------------------------------------------------

template <int N>
typename TplDrive<N>::V TplDrive<N>::eval(double t, bool derivative) const {
    auto f = [&](const Drive& d) { return derivative ? d.deriv(t) : d.value(t); };
    V v = V::Zero();
    switch (kind_) {
        case Kind::null:
            break;
        case Kind::single:
            v = entity_ * f(*drive_);
            break;
        case Kind::component:
            for (int i = 0; i < N; ++i)
                if (comps_[i]) v[i] = f(*comps_[i]);
            break;
        case Kind::array:
            for (const TplDrive& c : children_) v += c.eval(t, derivative);
            break;
    }
    return v;
}

template <int N>
typename TplDrive<N>::V TplDrive<N>::value(double t) const {
    return eval(t, false);
}

template <int N>
typename TplDrive<N>::V TplDrive<N>::deriv(double t) const {
    return eval(t, true);
}

template <int N>
bool TplDrive<N>::differentiable() const {
    switch (kind_) {
        case Kind::null:
            return true;
        case Kind::single:
            return drive_->differentiable();
        case Kind::component:
            for (const DrivePtr& d : comps_)
                if (d && !d->differentiable()) return false;
            return true;
        case Kind::array:
            for (const TplDrive& c : children_)
                if (!c.differentiable()) return false;
            return true;
    }
    return true;
}

template <int N>
void TplDrive<N>::after_step() const {
    if (drive_) drive_->after_step();
    for (const DrivePtr& d : comps_)
        if (d) d->after_step();
    for (const TplDrive& c : children_) c.after_step();
}

template <int N>
TplDrive<N> TplDrive<N>::make(const TplDriveSpec& spec, const DriveEnv& env) {
    const std::string n = std::to_string(N);
    if (spec.dim != N)
        throw InputError(spec.loc, "template drive caller of dimension " +
                                       std::to_string(spec.dim) + " where dimension " + n +
                                       " is needed");
    TplDrive d;
    d.active_.fill(true);
    if (spec.type == "null") {
        d.kind_ = Kind::null;
    } else if (spec.type == "single") {
        if (spec.entity.size() != static_cast<std::size_t>(N) || !spec.drive)
            throw InputError(spec.loc, "single template drive caller needs " + n +
                                           " entity components and a drive caller");
        d.kind_ = Kind::single;
        for (int i = 0; i < N; ++i) d.entity_[i] = spec.entity[i];
        d.drive_ = make_drive(*spec.drive, env);
    } else if (spec.type == "component") {
        if (spec.components.size() != static_cast<std::size_t>(N))
            throw InputError(spec.loc, "component template drive caller needs " + n +
                                           " components, got " +
                                           std::to_string(spec.components.size()));
        d.kind_ = Kind::component;
        for (int i = 0; i < N; ++i) {
            if (spec.components[i])
                d.comps_[i] = make_drive(*spec.components[i], env);
            else
                d.active_[i] = false;
        }
    } else if (spec.type == "array") {
        d.kind_ = Kind::array;
        d.active_.fill(false);
        d.children_.reserve(spec.children.size());
        for (const auto& c : spec.children) {
            d.children_.push_back(make(*c, env));
            for (int i = 0; i < N; ++i)
                d.active_[i] = d.active_[i] || d.children_.back().active_[i];
        }
    } else {
        throw InputError(
            spec.loc, "template drive caller '" + spec.type + "' is not supported at run time yet");
    }
    return d;
}

template <int N>
TplDrive<N> TplDrive<N>::constant(const V& v) {
    static const DrivePtr unit = std::make_shared<const UnitDrive>();
    TplDrive d;
    d.kind_ = Kind::single;
    d.entity_ = v;
    d.drive_ = unit;
    d.active_.fill(true);
    return d;
}

template class TplDrive<1>;
template class TplDrive<3>;
template class TplDrive<6>;

}  // namespace mbs
