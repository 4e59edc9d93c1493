// Laws built from other laws (docs/deck-language.md section 6; the scalar function laws are in
// nonlinear_laws.cpp).
//
// Arguments (typed; the view after LawSpec::kind, in card order, under the names in quotes;
// wrapped laws in children):
//   array, n, <law>...          none; children = the n laws (n >= 1), summed; kind = union of
//                               theirs (elastic + viscous = viscoelastic)
//   drive caller wrapper        DriveWrapperArgs: drive "drive"; children = {law}:
//                               f = w(t) f_law
//   axial wrapper (3 only)      AxialWrapperArgs: direction "direction" (Vec3, as written);
//                               children = {1D law} acting on the strain component along the
//                               direction
//   invariant angular (3 only)  InvariantAngularArgs: xi "xi" (double); children = {3D law};
//                               kind = elastic + theirs
//
// The bistop wrapper (docs/deck-language.md section 6): the wrapped law acts while active; it
// becomes active when the activation drive is non-zero and inactive when the deactivation
// drive is.
//
// Arguments (BistopArgs; the view after LawSpec::kind):
//   bistop                      sw (BistopSwitchArgs: "initial status" "activate"
//                               "deactivate"); children = {law}
//
// Runtime of the wrapper laws (readers above):
//   array, n, <law>...             F = sum F_i, K = sum K_i, C = sum C_i
//   drive caller wrapper, w, <law> F = w(t) F_law, tangents scaled by w(t)
//   axial wrapper, v, <1D law>     (3D) u = v/|v|: the 1D law acts on e = u.eps, edot = u.epsdot;
//                                  F = u f, K = u u^T df/de, C = u u^T df/dedot
//   bistop, [initial status,] on, off, <law>
//                                  active: the wrapped law at (eps - eps_ref, epsdot), eps_ref
//                                  the strain when it switched on; inactive: 0
// `invariant angular` has no runtime: it stops the run at the law with a clear message.
#include <memory>
#include <vector>

#include "core/registry.hpp"
#include "elements/laws/law_util.hpp"
#include "elements/laws/runtime_law_util.hpp"

namespace mbs::laws {
namespace {

void read_array(Reader& r, LawSpec& law) {
    long n = drives::count_at_least(r, "number of constitutive laws", 1);
    for (long i = 1; i <= n; ++i) {
        auto child = r.law(law.dim, "constitutive law #" + std::to_string(i));
        law.kind = i == 1 ? child->kind : law.kind | child->kind;
        law.children.push_back(std::move(child));
    }
}

struct DriveWrapperArgs final : KindArgs {
    std::shared_ptr<const DriveSpec> drive;  // w(t)
    void describe(Props& out) const override { out.set("drive", drive); }
};

struct AxialWrapperArgs final : KindArgs {
    Vec3 direction = Vec3::Zero();  // as written (not null)
    void describe(Props& out) const override { out.set("direction", direction); }
};

struct InvariantAngularArgs final : KindArgs {
    double xi = 0.0;
    void describe(Props& out) const override { out.set("xi", xi); }
};

struct BistopArgs final : KindArgs {
    BistopSwitchArgs sw;
    void describe(Props& out) const override { sw.describe(out); }
};

void read_drive_caller_wrapper(Reader& r, LawSpec& law) {
    emplace_args<DriveWrapperArgs>(law).drive = r.drive("scaling drive");
    auto inner = r.law(law.dim, "wrapped constitutive law");
    law.kind = inner->kind;
    law.children.push_back(std::move(inner));
}

void read_axial_wrapper(Reader& r, LawSpec& law) {
    require_dim(r, law, "axial wrapper", {3});
    SourceLoc at = r.loc();
    Vec3 dir = r.vec3("axis direction");
    if (dir.norm() == 0.0) r.error_at(at, "the axis direction must not be null");
    emplace_args<AxialWrapperArgs>(law).direction = dir;
    auto inner = r.law(1, "1D constitutive law");
    law.kind = inner->kind;
    law.children.push_back(std::move(inner));
}

void read_invariant_angular(Reader& r, LawSpec& law) {
    require_dim(r, law, "invariant angular", {3});
    emplace_args<InvariantAngularArgs>(law).xi = r.real("invariant coefficient xi");
    auto inner = r.law(3, "3D constitutive law");
    law.kind = elastic | inner->kind;
    law.children.push_back(std::move(inner));
}

// `bistop, [initial status, s,] <dc on>, <dc off>, <law>`: the wrapped law's kind.
void read_bistop(Reader& r, LawSpec& law) {
    emplace_args<BistopArgs>(law).sw = read_bistop_switch(r);
    auto inner = r.law(law.dim, "wrapped constitutive law");
    law.kind = inner->kind;
    law.children.push_back(std::move(inner));
}

template <int N>
class Array final : public ConstitutiveLaw<N> {
  public:
    using typename ConstitutiveLaw<N>::V;
    using typename ConstitutiveLaw<N>::M;

    Array(std::vector<LawPtr<N>> laws, int kind) : laws_(std::move(laws)), kind_(kind) {}
    void eval(const V& eps, const V& epsdot, double t, V& F, M& K, M& C) const override {
        F.setZero(), K.setZero(), C.setZero();
        V f;
        M k, c;
        for (const auto& l : laws_) {
            l->eval(eps, epsdot, t, f, k, c);
            F += f, K += k, C += c;
        }
    }
    int kind() const override { return kind_; }
    void after_step(const V& eps, const V& epsdot, double t) override {
        for (auto& l : laws_) l->after_step(eps, epsdot, t);
    }

  private:
    std::vector<LawPtr<N>> laws_;
    int kind_;
};

template <int N>
LawPtr<N> make_array(const LawSpec& s, const LawEnv& env) {
    std::vector<LawPtr<N>> laws;
    int kind = 0;
    for (const auto& c : s.children) {
        laws.push_back(make_law<N>(*c, env));
        kind |= laws.back()->kind();
    }
    return std::make_unique<Array<N>>(std::move(laws), kind);
}

template <int N>
class DriveWrapper final : public ConstitutiveLaw<N> {
  public:
    using typename ConstitutiveLaw<N>::V;
    using typename ConstitutiveLaw<N>::M;

    DriveWrapper(DrivePtr w, LawPtr<N> law) : w_(std::move(w)), law_(std::move(law)) {}
    void eval(const V& eps, const V& epsdot, double t, V& F, M& K, M& C) const override {
        law_->eval(eps, epsdot, t, F, K, C);
        const double w = w_->value(t);
        F *= w, K *= w, C *= w;
    }
    int kind() const override { return law_->kind(); }
    void after_step(const V& eps, const V& epsdot, double t) override {
        w_->after_step();
        law_->after_step(eps, epsdot, t);
    }

  private:
    DrivePtr w_;
    LawPtr<N> law_;
};

template <int N>
LawPtr<N> make_drive_wrapper(const LawSpec& s, const LawEnv& env) {
    return std::make_unique<DriveWrapper<N>>(rt::drive(s.args_as<DriveWrapperArgs>().drive, env),
                                             make_law<N>(*s.children.at(0), env));
}

class AxialWrapper final : public ConstitutiveLaw<3> {
  public:
    AxialWrapper(const Vec3& dir, LawPtr<1> law) : u_(dir.normalized()), law_(std::move(law)) {}
    void eval(const V& eps, const V& epsdot, double t, V& F, M& K, M& C) const override {
        Eigen::Matrix<double, 1, 1> e, ed, f, k, c;
        e[0] = u_.dot(eps), ed[0] = u_.dot(epsdot);
        law_->eval(e, ed, t, f, k, c);
        const Mat3 uu = u_ * u_.transpose();
        F = u_ * f[0], K = uu * k(0, 0), C = uu * c(0, 0);
    }
    int kind() const override { return law_->kind(); }
    void after_step(const V& eps, const V& epsdot, double t) override {
        Eigen::Matrix<double, 1, 1> e, ed;
        e[0] = u_.dot(eps), ed[0] = u_.dot(epsdot);
        law_->after_step(e, ed, t);
    }

  private:
    Vec3 u_;
    LawPtr<1> law_;
};

template <int N>
LawPtr<N> make_axial_wrapper(const LawSpec& s, const LawEnv& env) {
    if constexpr (N != 3) {
        throw_unsupported_law(s);
    } else {
        return std::make_unique<AxialWrapper>(s.args_as<AxialWrapperArgs>().direction,
                                              make_law<1>(*s.children.at(0), env));
    }
}

template <int N>
class Bistop final : public ConstitutiveLaw<N> {
  public:
    using typename ConstitutiveLaw<N>::V;
    using typename ConstitutiveLaw<N>::M;

    Bistop(const BistopSwitchArgs& a, const LawEnv& env, LawPtr<N> law)
        : sw_(a, env), law_(std::move(law)) {}
    void eval(const V& eps, const V& epsdot, double t, V& F, M& K, M& C) const override {
        if (!sw_.sync(eps, t)) {
            F.setZero(), K.setZero(), C.setZero();
            return;
        }
        law_->eval(eps - sw_.eps_ref, epsdot, t, F, K, C);
    }
    int kind() const override { return law_->kind(); }
    void after_step(const V& eps, const V& epsdot, double t) override {
        if (sw_.active) law_->after_step(eps - sw_.eps_ref, epsdot, t);
        sw_.after_step();
    }

  private:
    rt::BistopSwitch<N> sw_;
    LawPtr<N> law_;
};

template <int N>
LawPtr<N> make_bistop(const LawSpec& s, const LawEnv& env) {
    return std::make_unique<Bistop<N>>(s.args_as<BistopArgs>().sw, env,
                                       make_law<N>(*s.children.at(0), env));
}

template <int N>
LawPtr<N> make_invariant_angular(const LawSpec& s, const LawEnv&) {
    throw_unsupported_law(s, "use the wrapped 3D law directly");
}

}  // namespace

MBS_REGISTER_LAW_KIND("array", {.read = read_array, .make = MBS_LAW_FACTORIES(make_array)});
MBS_REGISTER_LAW_KIND("drive caller wrapper", {.read = read_drive_caller_wrapper,
                                               .make = MBS_LAW_FACTORIES(make_drive_wrapper)});
MBS_REGISTER_LAW_KIND("axial wrapper",
                      {.read = read_axial_wrapper, .make = MBS_LAW_FACTORIES(make_axial_wrapper)});
MBS_REGISTER_LAW_KIND("invariant angular", {.read = read_invariant_angular,
                                            .make = MBS_LAW_FACTORIES(make_invariant_angular)});
MBS_REGISTER_LAW_KIND("bistop", {.read = read_bistop, .make = MBS_LAW_FACTORIES(make_bistop)});

}  // namespace mbs::laws
