// Internals shared by the module loader, the C parse API and the runtime adapters: the parser
// object modules read their cards through, and the per-card records the read callbacks return.
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/constitutive_law.hpp"
#include "core/element.hpp"
#include "core/plugin/include/mbsolve/mbsolve_module.h"
#include "core/reader.hpp"
#include "core/scalar_function_args.hpp"

namespace mbs::plugin {

// What an element card declared at read time; kept for the process (ids in EntityDesc props).
struct ElementRecord {
    const mbs_element_type* type = nullptr;
    void* data = nullptr;
    int n_own = 0;
    std::vector<int> differential;            // per own unknown
    std::vector<std::pair<int, int>> couple;  // (row group, col group); empty: all pairs
    int n_nodes = 0;
};

struct DriveRecord {
    const mbs_drive_type* type = nullptr;
    void* data = nullptr;
};

// The arguments of a module's drive caller (DriveSpec::args): the module and the record of what
// its read callback returned (the module keeps its own arguments there, behind the C ABI).
// Described as "module" and "module drive" (the record id). A module may register the type as
// a scalar function too (register_scalar_function), hence ScalarFunctionArgs: an inline
// definition also describes its name.
struct PluginDriveArgs final : ScalarFunctionArgs {
    std::string module;
    long record = -1;  // drive_record(record)
    void describe_own(Props& out) const override {
        out.set("module", module);
        out.set("module drive", record);
    }
};

struct LawRecord {
    const mbs_law_type* type = nullptr;
    void* data = nullptr;
};

// The typed arguments of a module's constitutive law (LawSpec::args): the module's name and the
// id of the LawRecord its read callback filled. View: "module", "module law".
struct PluginLawArgs final : KindArgs {
    std::string module;
    long record = -1;
    void describe(Props& out) const override {
        out.set("module", module);
        out.set("module law", record);
    }
};

// The typed spec of a module's element (`user defined`, EntityDesc::spec): the module's name,
// the id of the ElementRecord its read callback filled, its own unknowns, and the nodes, drives
// and laws the card named through the parse API (core/plugin/parse_api.cpp), which the runtime
// (plugin_element.cpp) resolves. View: "module", "module element", "own unknowns", "node 1",
// ..., "drive 1", ..., "law 1", ...
struct PluginElementSpec final : ElementSpec {
    std::string module;
    long record = -1;
    long n_own = 0;
    std::vector<EntityRef> nodes;
    std::vector<std::shared_ptr<const DriveSpec>> drives;
    std::vector<std::shared_ptr<const LawSpec>> laws;
    void describe(Props& out) const override {
        out.set("module", module);
        out.set("module element", record);
        out.set("own unknowns", n_own);
        for (std::size_t k = 0; k < nodes.size(); ++k)
            out.set("node " + std::to_string(k + 1), nodes[k]);
        for (std::size_t k = 0; k < drives.size(); ++k)
            out.set("drive " + std::to_string(k + 1), drives[k]);
        for (std::size_t k = 0; k < laws.size(); ++k)
            out.set("law " + std::to_string(k + 1), laws[k]);
    }
    long own_unknowns() const override { return n_own; }
};

// Records by id (index); freed at exit with the types' free_data.
ElementRecord& element_record(long id);
DriveRecord& drive_record(long id);
LawRecord& law_record(long id);
long add_record(ElementRecord r);
long add_record(DriveRecord r);
long add_record(LawRecord r);

// A registered type and the host of the module that registered it.
template <class T>
struct TypeEntry {
    const T* type = nullptr;
    const mbs_host* host = nullptr;
};
// By normalised name (drives: also "scalarfunction<name>"); null if not registered.
template <class T>
const TypeEntry<T>* find_type(const std::string& key);

// The C tables of the host.
const mbs_parse_api* parse_api();
const mbs_element_decl_api* decl_api();
const mbs_jacobian_api* jacobian_api();

// Card readers and runtime factories installed for registered types.
void read_user_defined(Reader& r, EntityDesc& e);
std::unique_ptr<Element> make_user_defined(const EntityDesc& d, BuildContext& ctx);
void read_plugin_drive(Reader& r, DriveSpec& spec);
DrivePtr make_plugin_drive(const DriveSpec& spec, const DriveEnv& env);
void read_plugin_law(Reader& r, LawSpec& spec);
template <int N>
LawPtr<N> make_plugin_law(const LawSpec& spec, const LawEnv& env);

}  // namespace mbs::plugin

// The card a module reads (the C API's opaque mbs_parser). Errors are caught here and kept;
// the adapter rethrows the first one after the module's callback returns.
struct mbs_parser {
    enum class Context { module, element, drive, law };
    Context context = Context::module;
    mbs::Reader* r = nullptr;  // null: no arguments (--module)
    std::optional<mbs::InputError> error;
    mbs::SourceLoc last;  // the argument read last
    mbs::SourceLoc card;  // the card (for errors without an argument)
    std::deque<std::string> strings;
    // element cards
    std::vector<const mbs::EntityDesc*> nodes;
    std::vector<std::shared_ptr<const mbs::LawSpec>> laws;
    // every card with drives
    std::vector<std::shared_ptr<const mbs::DriveSpec>> drives;

    // Rethrows the recorded error, or throws `fallback` at the card if the module reported a
    // failure without one.
    void check(bool failed, const std::string& fallback) const;
};

struct mbs_element_decl {
    mbs::plugin::ElementRecord* rec = nullptr;
    mbs_parser* p = nullptr;
};
