// Run-time drive callers and constitutive laws of modules: thin adapters from the core Drive and
// ConstitutiveLaw<N> interfaces to the module's C callbacks (no allocation per evaluation).
#include "core/plugin/plugin_internal.hpp"

namespace mbs::plugin {
namespace {

class PluginDrive final : public Drive {
  public:
    PluginDrive(const DriveRecord& rec, std::vector<DrivePtr> children, const SimClock* clock)
        : rec_(rec), children_(std::move(children)), clock_(clock) {
        run_.host = this;
        run_.drive_value = &sub_value;
        run_.drive_deriv = &sub_deriv;
        run_.law = nullptr;
    }
    double value(double x) const override { return rec_.type->value(rec_.data, run(), x); }
    double deriv(double x) const override {
        return rec_.type->deriv ? rec_.type->deriv(rec_.data, run(), x) : 0.0;
    }
    bool differentiable() const override { return rec_.type->deriv != nullptr; }
    void after_step() const override {
        for (const auto& c : children_) c->after_step();
    }

  private:
    const mbs_run* run() const {
        if (clock_) run_.time = clock_->time, run_.dt = clock_->timestep;
        return &run_;
    }
    static const PluginDrive& self(const mbs_run* r) {
        return *static_cast<const PluginDrive*>(r->host);
    }
    static double sub_value(const mbs_run* r, int i, double x) {
        const auto& c = self(r).children_;
        return i >= 0 && i < static_cast<int>(c.size()) ? c[i]->value(x) : 0.0;
    }
    static double sub_deriv(const mbs_run* r, int i, double x) {
        const auto& c = self(r).children_;
        return i >= 0 && i < static_cast<int>(c.size()) ? c[i]->deriv(x) : 0.0;
    }

    DriveRecord rec_;
    std::vector<DrivePtr> children_;
    const SimClock* clock_;
    mutable mbs_run run_{};
};

template <int N>
class PluginLaw final : public ConstitutiveLaw<N> {
  public:
    using V = typename ConstitutiveLaw<N>::V;
    using M = typename ConstitutiveLaw<N>::M;
    PluginLaw(const LawRecord& rec, int kind) : rec_(rec), kind_(kind) {}
    // The module writes K and C row-major; Eigen's fixed matrices are column-major.
    void eval(const V& eps, const V& epsdot, double t, V& F, M& K, M& C) const override {
        Eigen::Matrix<double, N, N, Eigen::RowMajor> k, c;
        k.setZero(), c.setZero(), F.setZero();
        rec_.type->eval(rec_.data, N, eps.data(), epsdot.data(), t, F.data(), k.data(), c.data());
        K = k, C = c;
    }
    int kind() const override { return kind_; }

  private:
    LawRecord rec_;
    int kind_;
};

}  // namespace

DrivePtr make_plugin_drive(const DriveSpec& spec, const DriveEnv& env) {
    const DriveRecord& rec = drive_record(spec.args_as<PluginDriveArgs>().record);
    std::vector<DrivePtr> children;
    for (const auto& c : spec.children) children.push_back(make_drive(*c, env));
    return std::make_shared<PluginDrive>(rec, std::move(children), env.clock);
}

template <int N>
LawPtr<N> make_plugin_law(const LawSpec& spec, const LawEnv&) {
    return std::make_unique<PluginLaw<N>>(law_record(spec.args_as<PluginLawArgs>().record),
                                          law_kind_bits(spec));
}

template LawPtr<1> make_plugin_law<1>(const LawSpec&, const LawEnv&);
template LawPtr<3> make_plugin_law<3>(const LawSpec&, const LawEnv&);
template LawPtr<6> make_plugin_law<6>(const LawSpec&, const LawEnv&);

}  // namespace mbs::plugin
