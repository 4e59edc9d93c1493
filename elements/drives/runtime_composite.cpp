// Runtime of the expression and composite drive callers (mbdyn-syntax.md section 7): string,
// array (sum), mult (product), drive (outer(inner(x))), postponed; and the clear "not supported
// at run time" errors of the types without a runtime yet. `function`
// needs no runtime: its reader replaces the spec by the wrapped drive.
#include <string>

#include "core/compiled_expr.hpp"
#include "elements/drives/runtime_util.hpp"

namespace mbs::drives {
namespace {

// A compiled expression of Time, TimeStep, Step and Var = x. The derivative is the expression's
// d/dt with dVar/dt = 1, exact when x is the time (time drives) or when the expression reads
// Var only (a function fed by another drive).
class StringDrive final : public Drive {
public:
    StringDrive(std::shared_ptr<const CompiledExpr> e, const SimClock& c)
        : expr_(std::move(e)), clock_(&c) {}
    double value(double x) const override { return expr_->eval(inputs(x)); }
    double deriv(double x) const override {
        double d = 0.0;
        expr_->eval(inputs(x), &d);
        return d;
    }

private:
    CompiledExpr::Inputs inputs(double x) const {
        CompiledExpr::Inputs in;
        in.time = clock_->time;
        in.timestep = clock_->timestep;
        in.step = static_cast<double>(clock_->step);
        in.var = x;
        in.var_dot = 1.0;
        return in;
    }

    std::shared_ptr<const CompiledExpr> expr_;
    const SimClock* clock_;
};

DrivePtr make_string(const DriveSpec& d, const DriveEnv& env) {
    if (!d.expr) throw std::logic_error("string drive caller without a compiled expression");
    return rt::make<StringDrive>(d.expr, rt::clock(d, env));
}

// Base of drives made of sub-drives: differentiable when all are, after_step passed on.
class Composite : public Drive {
public:
    explicit Composite(std::vector<DrivePtr> parts) : parts_(std::move(parts)) {}
    bool differentiable() const override {
        for (const DrivePtr& p : parts_)
            if (!p->differentiable()) return false;
        return true;
    }
    void after_step() const override {
        for (const DrivePtr& p : parts_) p->after_step();
    }

protected:
    std::vector<DrivePtr> parts_;
};

// dc1 + ... + dcn.
class Sum final : public Composite {
public:
    using Composite::Composite;
    double value(double x) const override {
        double v = 0.0;
        for (const DrivePtr& p : parts_) v += p->value(x);
        return v;
    }
    double deriv(double x) const override {
        double d = 0.0;
        for (const DrivePtr& p : parts_) d += p->deriv(x);
        return d;
    }
};

// dc1 dc2; (dc1 dc2)' = dc1' dc2 + dc1 dc2'.
class Product final : public Composite {
public:
    using Composite::Composite;
    double value(double x) const override { return parts_[0]->value(x) * parts_[1]->value(x); }
    double deriv(double x) const override {
        return parts_[0]->deriv(x) * parts_[1]->value(x) +
               parts_[0]->value(x) * parts_[1]->deriv(x);
    }
};

// outer(inner(x)); d/dx = outer'(inner(x)) inner'(x).
class Chain final : public Composite {
public:
    using Composite::Composite;
    double value(double x) const override { return parts_[0]->value(parts_[1]->value(x)); }
    double deriv(double x) const override {
        return parts_[0]->deriv(parts_[1]->value(x)) * parts_[1]->deriv(x);
    }
};

DrivePtr make_array(const DriveSpec& d, const DriveEnv& env) {
    return rt::make<Sum>(rt::children(d, env));
}

// mult and drive have exactly two children (the readers guarantee it).
template <class T>
DrivePtr make_pair(const DriveSpec& d, const DriveEnv& env) {
    std::vector<DrivePtr> parts = rt::children(d, env);
    if (parts.size() != 2) throw std::logic_error("drive caller '" + d.type + "' needs 2 children");
    return rt::make<T>(std::move(parts));
}

// `postponed, label`: the `drive caller:` card of that label, resolved now that the deck is
// complete. A chain of postponed drives that comes back to itself is an input error.
DrivePtr make_postponed(const DriveSpec& d, const DriveEnv& env) {
    const long label = d.params.get<long>("label");
    if (!env.model) throw std::logic_error("postponed drive caller needs DriveEnv::model");
    auto it = env.model->drive_callers.find(label);
    if (it == env.model->drive_callers.end())
        throw InputError(d.loc,
                         "postponed drive caller " + std::to_string(label) + " is not defined",
                         "define it with 'drive caller: " + std::to_string(label) + ", ...;'");
    thread_local int depth = 0;
    struct Nesting {
        Nesting() { ++depth; }
        ~Nesting() { --depth; }
    } nesting;
    if (depth > 64)
        throw InputError(
            d.loc, "postponed drive caller " + std::to_string(label) + " refers back to itself");
    return make_drive(*it->second, env);
}

// Types the readers accept but the drives cannot run yet, each with the reason.
DrivePtr unsupported_file(const DriveSpec& d, const DriveEnv&) {
    throw_unsupported_drive(d, "file drivers (the 'drivers' block) are not read at run time yet");
}

}  // namespace

MBS_REGISTER_DRIVE_RUNTIME("string", make_string);
MBS_REGISTER_DRIVE_RUNTIME("array", make_array);
MBS_REGISTER_DRIVE_RUNTIME("mult", make_pair<Product>);
MBS_REGISTER_DRIVE_RUNTIME("drive", make_pair<Chain>);
MBS_REGISTER_DRIVE_RUNTIME("postponed", make_postponed);
MBS_REGISTER_DRIVE_RUNTIME("file", unsupported_file);

}  // namespace mbs::drives
