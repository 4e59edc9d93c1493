// Runtime drive callers (docs/deck-language.md 7). A DriveSpec from the deck is turned once into a
// tree of Drive objects; evaluation (value and first derivative) runs inside the Newton loop, so it
// never allocates and never looks anything up by name.
//
// Input: every drive is a function f(x). Time drives are called with x = clock time; composite
// drives (`drive`, `dof`, `node`, ...) feed another input. Drives that depend on the step size or
// the step counter (`timestep`, `meter`, `string` with TimeStep/Step) read the shared SimClock.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "core/math.hpp"
#include "core/model.hpp"

namespace mbs {

// Simulated time, current step size and step counter, owned by the engine and updated before
// each residual evaluation. Drives keep a pointer to it.
struct SimClock {
    double time = 0.0;
    double timestep = 0.0;
    long step = 0;
};

class Drive {
  public:
    virtual ~Drive() = default;
    // f(x).
    virtual double value(double x) const = 0;
    // df/dx. Drives without a derivative in MBDyn return false from differentiable() and 0 here.
    virtual double deriv(double x) const = 0;
    virtual bool differentiable() const { return true; }
    // df/dTime at a fixed input x: non-zero only for drives that are fed something other than
    // the time and read the time themselves (a string drive using Time as the outer drive of
    // `drive`, or as the function of `periodic`). Composites add it in their chain rule.
    virtual double deriv_time(double /*x*/) const { return 0.0; }
    // Called once after each converged step (sample and hold, filters, meters with memory).
    virtual void after_step() const {}
};
using DrivePtr = std::shared_ptr<const Drive>;

class Element;
class StructNode;

// The run's nodes, elements and unknowns, for drive callers that read model data (`dof`,
// `node`, `element`). The vectors are the engine's own; elements built earlier are already in
// `elements` when a later element's drives are made. All null outside a run (--check).
struct ModelData {
    const std::vector<StructNode>* nodes = nullptr;
    const std::vector<std::unique_ptr<Element>>* elements = nullptr;
    const std::vector<double>* y = nullptr;
    const std::vector<double>* yp = nullptr;
};

// A drive built for the run and the card it came from: when the residual turns non-finite,
// the run names the drive that did it (Engine::non_finite_drive) at its file:line:col.
struct DriveSite {
    DrivePtr drive;
    const DriveSpec* spec = nullptr;
};

// What a drive may need from the run, besides its spec.
struct DriveEnv {
    const SimClock* clock = nullptr;
    const Model* model = nullptr;
    ModelData data;
    // The drive's input x is the time. False for drives fed something else: the outer drive of
    // `drive`, the function of `dof`/`node`/`element`, the function of `periodic` (time since the
    // period began). Time drives take the one-sided derivative at the run's initial time (the
    // model's `initial time`), see elements/drives/runtime_util.hpp.
    bool time_input = true;
    // When set, make_drive() records every drive of time it builds (children first).
    std::vector<DriveSite>* sites = nullptr;
};

// Builds the runtime drive of `spec` (children included). Throws InputError at spec.loc when the
// type has no runtime implementation yet.
DrivePtr make_drive(const DriveSpec& spec, const DriveEnv& env);

// Throws the InputError of make_drive for a type without a runtime, with an optional hint (why,
// or what to write instead). Runtime factories use it for types they recognise but cannot run.
[[noreturn]] void throw_unsupported_drive(const DriveSpec& spec, const std::string& hint = {});

// The runtime factory of a drive caller keyword: registered with its reader as one DriveKind
// (core/registry.hpp, MBS_REGISTER_DRIVE_KIND), looked up by make_drive.
using DriveFactoryFn = DrivePtr (*)(const DriveSpec&, const DriveEnv&);

// A template drive caller of dimension N (1, 3 or 6): null, single (entity * drive), component
// (one drive per component; inactive components give 0 and are reported by active()), array
// (sum). Concrete, allocation-free evaluation.
template <int N>
class TplDrive {
  public:
    using V = Eigen::Matrix<double, N, 1>;

    V value(double t) const;
    V deriv(double t) const;
    // Components that have a drive (component form with `inactive` entries); all true otherwise.
    const std::array<bool, N>& active() const { return active_; }
    bool is_null() const { return kind_ == Kind::null; }
    bool differentiable() const;
    void after_step() const;

    static TplDrive make(const TplDriveSpec& spec, const DriveEnv& env);
    static TplDrive constant(const V& v);  // single, v, const 1 (for defaults)

  private:
    enum class Kind { null, single, component, array };
    V eval(double t, bool derivative) const;  // value() or deriv()

    Kind kind_ = Kind::null;
    V entity_ = V::Zero();
    DrivePtr drive_;
    std::array<DrivePtr, N> comps_{};
    std::vector<TplDrive> children_;
    std::array<bool, N> active_{};
};

extern template class TplDrive<1>;
extern template class TplDrive<3>;
extern template class TplDrive<6>;

}  // namespace mbs
