// The model description the builder produces from a deck: immutable once built.
// Nodes and elements carry their resolved (absolute or node-relative, as each card defines)
// data in ordered property lists; the engine turns them into concrete objects.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "core/math.hpp"
#include "core/settings.hpp"
#include "core/source.hpp"

namespace mbs {

struct DriveSpec;
struct FileDriver;
struct TplDriveSpec;
struct LawSpec;
struct CompiledExpr;

// A reference to another entity, kept with its type so that dumps and errors can name it.
struct EntityRef {
    std::string category;  // "structural", "abstract", "joint", ...
    long label = 0;
};

using VecN = std::vector<double>;

using PropValue = std::variant<bool, long, double, std::string, Vec3, Mat3, Vec6, Mat6, VecN,
                               EntityRef, std::shared_ptr<const DriveSpec>,
                               std::shared_ptr<const TplDriveSpec>, std::shared_ptr<const LawSpec>>;

// An ordered list of named values; order is the order in which the card gave them.
class Props {
  public:
    void set(std::string key, PropValue v);
    bool has(std::string_view key) const;
    const PropValue* find(std::string_view key) const;
    template <class T>
    const T& get(std::string_view key) const {
        const PropValue* v = find(key);
        if (!v || !std::holds_alternative<T>(*v))
            throw std::logic_error("missing property " + std::string(key));
        return std::get<T>(*v);
    }
    template <class T>
    T get_or(std::string_view key, T fallback) const {
        const PropValue* v = find(key);
        return v && std::holds_alternative<T>(*v) ? std::get<T>(*v) : fallback;
    }
    const std::vector<std::pair<std::string, PropValue>>& items() const { return items_; }
    bool empty() const { return items_.empty(); }

  private:
    std::vector<std::pair<std::string, PropValue>> items_;
};

// A drive caller: type keyword, parameters, sub-drives; `string` drives hold a compiled expression.
// The arguments a drive caller's or constitutive law's reader read, typed for the kind's
// runtime (for example drives::SineArgs: initial time, omega, amplitude, periods, initial value).
// The reader and the runtime of a kind sit in one file and share the type; describe() gives the
// generic view (--dump-model, the reader's walk over nested parts) in card order, under the
// names the kind's comment lists.
class KindArgs {
  public:
    virtual ~KindArgs() = default;
    virtual void describe(Props& out) const = 0;
};

// A new `A` stored as `spec.args`, returned for the reader to fill.
template <class A, class Spec>
A& emplace_args(Spec& spec) {
    auto a = std::make_shared<A>();
    A& ref = *a;
    spec.args = std::move(a);
    return ref;
}

// The typed arguments of `spec`; a kind asking for the wrong type is a programming error.
template <class A, class Spec>
const A& args_of(const Spec& spec) {
    const auto* a = dynamic_cast<const A*>(spec.args.get());
    if (!a) throw std::logic_error("no typed arguments of the expected kind for " + spec.type);
    return *a;
}

// What a drive caller card asks to write of its drive (MBDyn's DriveCaller::OUTPUT_VALUE,
// OUTPUT_DERIVATIVE; `derivative_if_any`: `output, yes`, the derivative when the drive has one).
struct DriveOutput {
    static constexpr unsigned char value = 1, derivative = 2, derivative_if_any = 4;
};
struct DriveSpec {
    std::string type;  // normalised keyword, e.g. "sine", "piecewiselinear", "string"
    SourceLoc loc;
    std::shared_ptr<const KindArgs> args;  // the kind's typed arguments (null: it takes none)
    std::vector<std::shared_ptr<const DriveSpec>> children;
    std::shared_ptr<const CompiledExpr> expr;  // only for "string"
    std::string source_text;                   // the expression text of a string drive
    long named_label = -1;                     // label of the drive caller card when referenced
    // A drive caller card's `output` and `output trace` flags (MBDyn's .drv and .trc, written
    // by elements/drives/drive_output.cpp): DriveOutput bits.
    unsigned char output = 0, trace = 0;

    template <class A>
    const A& args_as() const {
        return args_of<A>(*this);
    }
    // The generic view: the typed arguments' describe() (empty without arguments).
    Props view() const;
};

// A template drive caller of dimension 1, 3, 6, 9 ("3x3") or 36 ("6x6").
struct TplDriveSpec {
    std::string type;  // "null", "single", "component", "array"
    int dim = 1;
    SourceLoc loc;
    VecN entity;                                                // single: the constant entity
    std::shared_ptr<const DriveSpec> drive;                     // single: the scalar drive
    std::vector<std::shared_ptr<const DriveSpec>> components;   // component: null = inactive
    std::vector<std::shared_ptr<const TplDriveSpec>> children;  // array
};

// What a constitutive law's force depends on: the strain (elastic), the strain rate (viscous) or
// both, as bits (elastic 1, viscous 2: `|` combines the kinds of wrapped laws). Every law's
// reader sets it; --dump-model prints it first, as kind="elastic" | "viscous" | "viscoelastic".
enum class LawResponse : int { elastic = 1, viscous = 2, viscoelastic = 3 };

constexpr LawResponse operator|(LawResponse a, LawResponse b) {
    return static_cast<LawResponse>(static_cast<int>(a) | static_cast<int>(b));
}

constexpr const char* law_response_name(LawResponse r) {
    return r == LawResponse::viscous        ? "viscous"
           : r == LawResponse::viscoelastic ? "viscoelastic"
                                            : "elastic";
}

// A constitutive law of dimension 1, 3 or 6.
struct LawSpec {
    std::string type;  // normalised keyword, e.g. "linearelastic", "linearviscoelasticgeneric"
    int dim = 1;
    SourceLoc loc;
    LawResponse kind = LawResponse::elastic;  // set by the kind's reader
    std::shared_ptr<const KindArgs> args;     // the kind's typed arguments (null: it takes none)
    std::vector<std::shared_ptr<const LawSpec>> children;
    std::shared_ptr<const TplDriveSpec> prestrain;
    VecN prestress;

    template <class A>
    const A& args_as() const {
        return args_of<A>(*this);
    }
    // The generic view: the typed arguments' describe() (empty without arguments).
    Props view() const;
};

// What a card's reader read, typed, for the kind's runtime and tree adapter (for example the
// hinge family's HingeSpec: two joint ends, each with node, offset, orientation and the deck
// location of each field). describe() gives the generic view of its fields (--dump-model,
// --check, the .log writer, tests), in card order, under stable names.
class ElementSpec {
  public:
    virtual ~ElementSpec() = default;
    virtual void describe(Props& out) const = 0;
    // The unknowns the element adds to its nodes' (a joint's Lagrange multipliers, one per
    // constraint equation): `--check` counts them before any runtime element exists. Equal to
    // the runtime element's own_dofs() (solvers/dae/test/check_unknowns_test.cpp).
    virtual long own_unknowns() const { return 0; }
};

// The spec of a node kind. `output: <nodes>, accelerations, ...` (Builder::output_card) sets a
// node's "accelerations" flag after its card was read: the builder swaps in the copy this gives.
class NodeSpec : public ElementSpec {
  public:
    virtual std::shared_ptr<const NodeSpec> with_output_accelerations() const = 0;
};

// A node or an element, fully resolved.
struct EntityDesc {
    std::string
        category;  // node: "structural", "abstract", ...; element: "joint", "body", "force", ...
    std::string
        type;  // "dynamic", "revolute hinge", "absolute", ... (normalised words kept readable)
    long label = 0;
    std::string name;
    SourceLoc loc;
    std::shared_ptr<const ElementSpec> spec;  // what the card's reader read (ElementSpec)
    bool output = true;

    // The typed spec; a kind asking for the wrong type is a programming error.
    template <class S>
    const S& spec_as() const {
        const auto* s = dynamic_cast<const S*>(spec.get());
        if (!s)
            throw std::logic_error("no typed spec of the expected kind for " + category + " " +
                                   type);
        return *s;
    }
    // The generic view: the spec's describe() (empty for a card without arguments).
    Props view() const;
};

// A reference frame from a `reference:` card, absolute.
struct ReferenceFrame {
    long label = 0;
    std::string name;
    Vec3 x = Vec3::Zero();
    Mat3 R = Mat3::Identity();
    Vec3 v = Vec3::Zero();
    Vec3 w = Vec3::Zero();
    SourceLoc loc;
};

struct Model {
    std::string deck_path;
    std::string problem = "initial value";
    ProblemSettings solver;                       // the problem block (core/settings.hpp)
    ControlSettings control;                      // control data, apart from the counters
    std::map<std::string, long> declared_counts;  // control-data counters, e.g. "structural nodes"
    std::vector<EntityDesc> nodes;
    std::vector<EntityDesc> elements;
    std::map<long, ReferenceFrame> references;
    std::map<long, std::shared_ptr<const DriveSpec>> drive_callers;
    std::map<long, std::shared_ptr<const LawSpec>> laws;
    std::map<std::string, std::shared_ptr<const DriveSpec>> scalar_functions;
    // The drivers block: `file: L, fixed step | variable step, ...;` (core/file_driver.hpp).
    std::map<long, std::shared_ptr<const FileDriver>> file_drivers;
    std::vector<std::string> warnings;
    // The deck's source files: kept alive because every SourceLoc above points into them.
    std::vector<std::unique_ptr<SourceFile>> sources;

    const EntityDesc* find_node(std::string_view category, long label) const;
    const EntityDesc* find_element(std::string_view category, long label) const;
};

// The settings as (key, value) pairs in the deck's order: the generic view --dump-model prints
// (core/settings.cpp).
Props settings_view(const ProblemSettings& s);
Props settings_view(const ControlSettings& c);

}  // namespace mbs
