// Module loader: search path, dlopen, ABI check, mbs_module_init, and the registration entries
// of the host table (they add the module's types to the ordinary registries).
#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>

#include "core/constitutive_law.hpp"
#include "core/element.hpp"
#include "core/plugin/plugin.hpp"
#include "core/plugin/plugin_internal.hpp"
#include "core/registry.hpp"

#ifndef MBS_MODULE_DIR_REL
#define MBS_MODULE_DIR_REL "../lib/mbsolve/modules"
#endif

namespace mbs::plugin {

namespace fs = std::filesystem;

namespace {

struct Loaded {
    std::string path;
    void* handle = nullptr;
};

// Per-module host data: the module's name and the first registration error of its init.
struct HostData {
    std::string name;
    std::string error;
};

struct State {
    std::vector<Loaded> loaded;
    std::deque<HostData> host_data;
    std::deque<mbs_host> hosts;
    std::map<std::string, TypeEntry<mbs_element_type>> elements;
    std::map<std::string, TypeEntry<mbs_drive_type>> drives;  // drives and "scalarfunction<name>"
    std::map<std::string, TypeEntry<mbs_law_type>> laws;
    std::deque<ElementRecord> element_records;
    std::deque<DriveRecord> drive_records;
    std::deque<LawRecord> law_records;

    ~State() {
        for (auto& r : element_records)
            if (r.type->free_data && r.data) r.type->free_data(r.data);
        for (auto& r : drive_records)
            if (r.type->free_data && r.data) r.type->free_data(r.data);
        for (auto& r : law_records)
            if (r.type->free_data && r.data) r.type->free_data(r.data);
    }
};

State& state() {
    static State s;
    return s;
}

HostData& data_of(const mbs_host* h) { return *static_cast<HostData*>(h->host_data); }

// A registration refused: the message is reported at the `module load:` card after init.
int refuse(const mbs_host* h, const std::string& what) {
    HostData& d = data_of(h);
    if (d.error.empty()) d.error = what;
    return MBS_ERROR;
}

bool bad_name(const char* name) { return !name || normalize_keyword(name).empty(); }

int register_element(const mbs_host* h, const mbs_element_type* t) {
    if (!t || bad_name(t->name) || !t->read || !t->residual || !t->jacobian)
        return refuse(h, "register_element: a type needs a name, read, residual and jacobian");
    std::string key = normalize_keyword(t->name);
    auto& reg = Registry::instance();
    auto& table = reg.elements["userdefined"];
    if (table.find(key))
        return refuse(h, "element type '" + std::string(t->name) + "' is already registered");
    reg.element_cards["userdefined"] = ElementCard{"loadable elements", "loadable", true, true};
    table.add(t->name, ElementKind{.read = &read_user_defined, .make = &make_user_defined});
    state().elements[key] = {t, h};
    return MBS_OK;
}

int add_drive(const mbs_host* h, const mbs_drive_type* t, const std::string& keyword) {
    if (!t || bad_name(t->name) || !t->read || !t->value)
        return refuse(h, "a drive or scalar function type needs a name, read and value");
    auto& reg = Registry::instance();
    if (reg.drives.find(keyword))
        return refuse(h, "drive caller '" + keyword + "' is already registered");
    reg.drives.add(keyword, DriveKind{.read = &read_plugin_drive, .make = &make_plugin_drive});
    state().drives[normalize_keyword(keyword)] = {t, h};
    return MBS_OK;
}

int register_drive(const mbs_host* h, const mbs_drive_type* t) {
    return add_drive(h, t, t && t->name ? t->name : "");
}

int register_scalar_function(const mbs_host* h, const mbs_drive_type* t) {
    return add_drive(h, t, std::string("scalar function ") + (t && t->name ? t->name : ""));
}

int register_law(const mbs_host* h, const mbs_law_type* t) {
    if (!t || bad_name(t->name) || !t->read || !t->eval || !(t->dimensions & 7))
        return refuse(h, "register_law: a law needs a name, dimensions, read and eval");
    auto& reg = Registry::instance();
    if (reg.laws.find(t->name))
        return refuse(h, "constitutive law '" + std::string(t->name) + "' is already registered");
    reg.laws.add(t->name,
                 LawKind{.read = &read_plugin_law,
                         .make = {t->dimensions & MBS_LAW_1D ? &make_plugin_law<1> : nullptr,
                                  t->dimensions & MBS_LAW_3D ? &make_plugin_law<3> : nullptr,
                                  t->dimensions & MBS_LAW_6D ? &make_plugin_law<6> : nullptr}});
    state().laws[normalize_keyword(t->name)] = {t, h};
    return MBS_OK;
}

void log_message(const mbs_host* h, const char* msg) {
    std::cerr << "mbsolve: module " << data_of(h).name << ": " << (msg ? msg : "") << '\n';
}

std::string exe_dir() {
    std::error_code ec;
    fs::path p = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string{} : p.parent_path().string();
}

// Candidate file names for `name`: as given, with `lib` prefix and/or `.so` suffix added.
std::vector<std::string> file_names(const std::string& name) {
    std::vector<std::string> v{name};
    bool has_so = name.size() > 3 && name.compare(name.size() - 3, 3, ".so") == 0;
    bool has_lib = name.rfind("lib", 0) == 0;
    if (!has_so) v.push_back(name + ".so");
    if (!has_lib) {
        v.push_back("lib" + name);
        if (!has_so) v.push_back("lib" + name + ".so");
    }
    return v;
}

}  // namespace

template <class T>
const TypeEntry<T>* find_type(const std::string& key);

template <>
const TypeEntry<mbs_element_type>* find_type(const std::string& key) {
    auto it = state().elements.find(normalize_keyword(key));
    return it == state().elements.end() ? nullptr : &it->second;
}
template <>
const TypeEntry<mbs_drive_type>* find_type(const std::string& key) {
    auto it = state().drives.find(normalize_keyword(key));
    return it == state().drives.end() ? nullptr : &it->second;
}
template <>
const TypeEntry<mbs_law_type>* find_type(const std::string& key) {
    auto it = state().laws.find(normalize_keyword(key));
    return it == state().laws.end() ? nullptr : &it->second;
}

ElementRecord& element_record(long id) { return state().element_records.at(id); }
DriveRecord& drive_record(long id) { return state().drive_records.at(id); }
LawRecord& law_record(long id) { return state().law_records.at(id); }
long add_record(ElementRecord r) {
    state().element_records.push_back(std::move(r));
    return static_cast<long>(state().element_records.size() - 1);
}
long add_record(DriveRecord r) {
    state().drive_records.push_back(r);
    return static_cast<long>(state().drive_records.size() - 1);
}
long add_record(LawRecord r) {
    state().law_records.push_back(r);
    return static_cast<long>(state().law_records.size() - 1);
}

std::string install_module_dir() {
    std::string d = exe_dir();
    if (d.empty()) return {};
    return (fs::path(d) / MBS_MODULE_DIR_REL).lexically_normal().string();
}

std::vector<std::string> search_path(const std::string& deck_dir,
                                     const std::vector<std::string>& loadable_paths) {
    std::vector<std::string> dirs;
    dirs.push_back(deck_dir.empty() ? std::string(".") : deck_dir);
    for (const auto& p : loadable_paths) dirs.push_back(p);
    if (const char* env = std::getenv("MBSOLVE_MODULE_PATH")) {
        std::string s(env);
        for (std::size_t a = 0; a <= s.size();) {
            std::size_t b = std::min(s.find(':', a), s.size());
            if (b > a) dirs.push_back(s.substr(a, b - a));
            a = b + 1;
        }
    }
    std::string inst = install_module_dir();
    if (!inst.empty()) dirs.push_back(inst);
    return dirs;
}

std::vector<std::string> loaded_modules() {
    std::vector<std::string> v;
    for (const auto& l : state().loaded) v.push_back(l.path);
    return v;
}

const mbs_host* new_host(const std::string& module_name) {
    static const mbs_parse_api* parse = parse_api();
    static const mbs_element_decl_api* decl = decl_api();
    static const mbs_jacobian_api* jac = jacobian_api();
    State& s = state();
    s.host_data.push_back({module_name, {}});
    mbs_host h{};
    h.abi_version = MBS_MODULE_ABI_VERSION;
    h.size = sizeof(mbs_host);
    h.host_data = &s.host_data.back();
    h.module_name = s.host_data.back().name.c_str();
    h.parse = parse;
    h.decl = decl;
    h.jacobian = jac;
    h.register_element = &register_element;
    h.register_drive = &register_drive;
    h.register_scalar_function = &register_scalar_function;
    h.register_law = &register_law;
    h.log = &log_message;
    s.hosts.push_back(h);
    return &s.hosts.back();
}

void load_module(const std::string& name, const std::vector<std::string>& dirs, Reader* args,
                 const SourceLoc& at) {
    static std::mutex m;
    std::lock_guard<std::mutex> lock(m);
    if (name.empty()) throw InputError(at, "empty module name");
    // Find the file: a name with a '/' is a path (relative to the first folder, the deck's);
    // otherwise each folder in turn, each with the `lib`/`.so` variants.
    std::string found;
    std::vector<std::string> tried_dirs;
    std::error_code ec;
    auto try_file = [&](const fs::path& f) {
        if (found.empty() && fs::is_regular_file(f, ec))
            found = fs::absolute(f, ec).lexically_normal().string();
    };
    if (name.find('/') != std::string::npos) {
        fs::path p(name);
        if (p.is_relative() && !dirs.empty()) p = fs::path(dirs.front()) / p;
        for (const auto& n : file_names(p.filename().string())) try_file(p.parent_path() / n);
        tried_dirs.push_back(p.parent_path().string());
    } else {
        for (const auto& d : dirs) {
            tried_dirs.push_back(d);
            for (const auto& n : file_names(name)) try_file(fs::path(d) / n);
            if (!found.empty()) break;
        }
    }
    if (found.empty()) {
        std::string list, names;
        for (const auto& d : tried_dirs) list += (list.empty() ? "" : ", ") + d;
        for (const auto& n : file_names(fs::path(name).filename().string()))
            names += (names.empty() ? "" : ", ") + n;
        throw InputError(at, "cannot find module '" + name + "' (looked for " + names + ")",
                         "searched, in order: " + list +
                             " (the deck's folder, 'loadable path:', $MBSOLVE_MODULE_PATH, the "
                             "install's modules)");
    }
    fs::path canon = fs::weakly_canonical(found, ec);
    if (!ec) found = canon.string();
    // Loaded before (by another card or --module): initialised once; its arguments are skipped.
    for (const auto& l : state().loaded)
        if (l.path == found) {
            while (args && !args->at_end()) args->skip();
            return;
        }
    void* h = ::dlopen(found.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char* e = ::dlerror();
        throw InputError(at, "cannot load module '" + found + "': " + (e ? e : "unknown error"));
    }
    auto fail = [&](const std::string& what, const std::string& hint) {
        ::dlclose(h);
        throw InputError(at, what, hint);
    };
    using AbiFn = unsigned (*)();
    using InitFn = int (*)(const mbs_host*, mbs_parser*);
    auto abi = reinterpret_cast<AbiFn>(::dlsym(h, "mbs_module_abi_version"));
    if (!abi)
        fail("'" + found + "' is not an mbsolve module: it has no mbs_module_abi_version()",
             "define the module's entry with MBS_MODULE_ENTRY from <mbsolve/mbsolve_module.h>");
    unsigned v = abi();
    if (v != MBS_MODULE_ABI_VERSION)
        fail("module '" + found + "' was built for module ABI version " + std::to_string(v) +
                 ", but this mbsolve has ABI version " + std::to_string(MBS_MODULE_ABI_VERSION),
             "rebuild the module against this mbsolve's SDK (find_package(mbsolve))");
    auto init = reinterpret_cast<InitFn>(::dlsym(h, "mbs_module_init"));
    if (!init)
        fail("module '" + found + "' has no entry point mbs_module_init",
             "define the module's entry with MBS_MODULE_ENTRY from <mbsolve/mbsolve_module.h>");
    state().loaded.push_back({found, h});
    const mbs_host* host = new_host(fs::path(found).filename().string());
    mbs_parser p;
    p.context = mbs_parser::Context::module;
    p.r = args;
    p.card = at;
    p.last = at;
    int rc = init(host, &p);
    if (!data_of(host).error.empty())
        throw InputError(at, "module '" + found + "': " + data_of(host).error);
    p.check(rc != MBS_OK, "module '" + found + "' failed to initialise (mbs_module_init returned " +
                              std::to_string(rc) + ")");
    if (args && !p.error && !args->at_end())
        args->error("module '" + data_of(host).name + "' did not read this argument");
}

}  // namespace mbs::plugin
