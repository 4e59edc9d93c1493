// Drive callers built from other drive callers: array, mult, drive, function, postponed
// (docs/deck-language.md section 7).
//
//   array      children = {dc1, ..., dcn} (n >= 1): the sum
//   mult       children = {dc1, dc2}: the product
//   drive      children = {outer, inner}: outer(inner(t)); inner's value is outer's input Var
//   function   an alias wrapper: the spec becomes the wrapped drive itself
//   postponed  PostponedArgs: label "label", a `drive caller:` card that may be defined later in
//              the deck
//
// Expression drive callers: `string, "expr"` (compiled once; Time, TimeStep, Step and Var stay
// live, every other name is folded to its value when the card is read) and `ginac`, which
// needs GiNaC and is not supported (docs/deck-language.md section 7).
//
// Runtime of the expression and composite drive callers (docs/deck-language.md section 7): string,
// array (sum), mult (product), drive (outer(inner(x))), postponed. `function` needs no runtime:
// its reader replaces the spec by the wrapped drive. The `file` drive caller is in file_drive.cpp.
#include <cmath>
#include <string>

#include "core/compiled_expr.hpp"
#include "core/registry.hpp"
#include "elements/drives/drive_util.hpp"
#include "elements/drives/model_functions.hpp"
#include "elements/drives/runtime_util.hpp"

namespace mbs::drives {
namespace {

void read_array(Reader& r, DriveSpec& d) {
    long n = count_of_items(r, "number of drive callers", 1, 1);
    for (long i = 1; i <= n; ++i)
        d.children.push_back(r.drive("drive caller #" + std::to_string(i)));
}

void read_mult(Reader& r, DriveSpec& d) {
    d.children.push_back(r.drive("first factor"));
    d.children.push_back(r.drive("second factor"));
}

void read_drive(Reader& r, DriveSpec& d) {
    d.children.push_back(r.drive("outer drive caller"));
    d.children.push_back(r.drive("inner drive caller"));
}

// MBDyn's `function` returns the drive that follows unchanged; so does this reader.
void read_function(Reader& r, DriveSpec& d) { d = *r.drive("drive caller"); }

struct PostponedArgs final : KindArgs {
    long label = 0;
    void describe(Props& out) const override { out.set("label", label); }
};

// The referenced card may come later, so its existence is checked when the model is complete.
void read_postponed(Reader& r, DriveSpec& d) {
    emplace_args<PostponedArgs>(d).label = r.label("drive caller label");
}

void read_string(Reader& r, DriveSpec& d) {
    SourceLoc at = r.loc();
    std::string text = r.string("expression");
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
        r.error_at(at, "empty string drive expression");
    d.expr = r.compile(text, at);
    d.source_text = std::move(text);
}

void read_ginac(Reader& r, DriveSpec& d) {
    r.error_at(d.loc, "the \"ginac\" drive caller is not supported (it needs GiNaC)",
               "write the expression as a string drive: string, \"...\"; it is differentiated "
               "exactly");
}

// A compiled expression of Time, TimeStep, Step and Var = x (MBDyn's StringDriveCaller: Var is
// the drive's input). Time is the time the drive is evaluated at: x itself when x is the time
// (DriveEnv::time_input: the reduced path's stage times, a drive inside array/mult/the inner of
// `drive`), else the time of the enclosing time-fed drive (rt::TimeScope: the outer drive of
// `drive`, the function of `periodic` or `dof`, as MBDyn's Time, which is always the time), else
// the clock's. TimeStep and Step always come from the clock. The
// derivative is d/dx: dVar/dx = 1, dTime/dx = 1 when x is the time, 0 otherwise (Time then does
// not move with x).
class StringDrive final : public Drive {
  public:
    StringDrive(std::shared_ptr<const CompiledExpr> e, const SimClock& c, bool time_input)
        : expr_(std::move(e)), clock_(&c), time_input_(time_input) {}
    double value(double x) const override { return expr_->eval(inputs(x)); }
    double deriv(double x) const override {
        double d = 0.0;
        expr_->eval(inputs(x), &d);
        return d;
    }
    // Not fed the time: d/dTime with Var fixed (dVar = 0, dTime = 1).
    double deriv_time(double x) const override {
        if (time_input_) return 0.0;
        CompiledExpr::Inputs in = inputs(x);
        in.var_dot = 0.0;
        in.time_dot = 1.0;
        double d = 0.0;
        expr_->eval(in, &d);
        return d;
    }

  private:
    CompiledExpr::Inputs inputs(double x) const {
        CompiledExpr::Inputs in;
        in.time = time_input_ ? x : std::isnan(rt::eval_time) ? clock_->time : rt::eval_time;
        in.time_dot = time_input_ ? 1.0 : 0.0;
        in.timestep = clock_->timestep;
        in.step = static_cast<double>(clock_->step);
        in.var = x;
        in.var_dot = 1.0;
        return in;
    }

    std::shared_ptr<const CompiledExpr> expr_;
    const SimClock* clock_;
    bool time_input_;
};

DrivePtr make_string(const DriveSpec& d, const DriveEnv& env) {
    if (!d.expr) throw std::logic_error("string drive caller without a compiled expression");
    if (!d.expr->model_refs.empty()) return make_model_string(d, env);
    return rt::make<StringDrive>(d.expr, rt::clock(d, env), env.time_input);
}

using rt::Composite;  // elements/drives/runtime_util.hpp

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
    double deriv_time(double x) const override {
        double d = 0.0;
        for (const DrivePtr& p : parts_) d += p->deriv_time(x);
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
    double deriv_time(double x) const override {
        return parts_[0]->deriv_time(x) * parts_[1]->value(x) +
               parts_[0]->value(x) * parts_[1]->deriv_time(x);
    }
};

// outer(inner(x)); d/dx = outer'(inner(x)) inner'(x) + d outer/dTime dTime/dx. The outer is not
// fed the time (DriveEnv::time_input), so an outer that reads Time (a string drive) has its own
// time derivative: it adds to d/dx when x is the time, else it is part of deriv_time.
class Chain final : public Composite {
  public:
    Chain(std::vector<DrivePtr> parts, bool time_input)
        : Composite(std::move(parts)), time_input_(time_input) {}
    double value(double x) const override {
        const double u = parts_[1]->value(x);
        if (!time_input_) return parts_[0]->value(u);
        const rt::TimeScope at(x);
        return parts_[0]->value(u);
    }
    double deriv(double x) const override {
        const double u = parts_[1]->value(x);
        if (!time_input_) return parts_[0]->deriv(u) * parts_[1]->deriv(x);
        const rt::TimeScope at(x);
        const double d = parts_[0]->deriv(u) * parts_[1]->deriv(x);
        return time_input_ ? d + parts_[0]->deriv_time(u) : d;
    }
    double deriv_time(double x) const override {
        if (time_input_) return 0.0;
        const double u = parts_[1]->value(x);
        return parts_[0]->deriv(u) * parts_[1]->deriv_time(x) + parts_[0]->deriv_time(u);
    }

  private:
    bool time_input_;
};

DrivePtr make_array(const DriveSpec& d, const DriveEnv& env) {
    return rt::make<Sum>(rt::children(d, env));
}

// mult has exactly two children (the readers guarantee it).
template <class T>
DrivePtr make_pair(const DriveSpec& d, const DriveEnv& env) {
    std::vector<DrivePtr> parts = rt::children(d, env);
    if (parts.size() != 2) throw std::logic_error("drive caller '" + d.type + "' needs 2 children");
    return rt::make<T>(std::move(parts));
}

// `postponed, label`: the `drive caller:` card of that label, resolved now that the deck is
// complete. A chain of postponed drives that comes back to itself is an input error.
DrivePtr make_postponed(const DriveSpec& d, const DriveEnv& env) {
    const long label = d.args_as<PostponedArgs>().label;
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

// `drive, outer, inner`: the inner drive sees the input, the outer one the inner's value (not the
// time: DriveEnv::time_input).
DrivePtr make_chain(const DriveSpec& d, const DriveEnv& env) {
    if (d.children.size() != 2) throw std::logic_error("drive caller 'drive' needs 2 children");
    DriveEnv outer = env;
    outer.time_input = false;
    return rt::make<Chain>(
        std::vector<DrivePtr>{make_drive(*d.children[0], outer), make_drive(*d.children[1], env)},
        env.time_input);
}

}  // namespace

MBS_REGISTER_DRIVE_KIND("array", {.read = read_array, .make = make_array});
MBS_REGISTER_DRIVE_KIND("mult", {.read = read_mult, .make = make_pair<Product>});
MBS_REGISTER_DRIVE_KIND("drive", {.read = read_drive, .make = make_chain});
MBS_REGISTER_DRIVE_KIND("function",
                        {.read = read_function,
                         .no_make = "the reader returns the named drive caller itself"});
MBS_REGISTER_DRIVE_KIND("postponed", {.read = read_postponed, .make = make_postponed});
MBS_REGISTER_DRIVE_KIND("string", {.read = read_string, .make = make_string});
MBS_REGISTER_DRIVE_KIND("ginac",
                        {.read = read_ginac, .no_make = "refused by the reader (needs GiNaC)"});

}  // namespace mbs::drives
