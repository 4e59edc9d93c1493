// Loadable modules (issue 7): the engine's side of the C ABI in
// core/plugin/include/mbsolve/mbsolve_module.h. A module is opened once per process; the types
// it registers enter the ordinary registries (element cards, drive and law readers, runtime
// factories), so the builder and the engine see them like built-in ones.
#pragma once

#include <string>
#include <vector>

#include "core/reader.hpp"

namespace mbs::plugin {

// Folders a module name is looked up in, in order: the deck's folder, `loadable path:`
// entries, $MBSOLVE_MODULE_PATH (':'-separated) and the install's module folder.
std::vector<std::string> search_path(const std::string& deck_dir,
                                     const std::vector<std::string>& loadable_paths);

// The install's module folder (next to the running executable: <bindir>/<rel>/).
std::string install_module_dir();

// Opens module `name` ("name", "libname.so", a path; `lib` and `.so` optional), checks its ABI
// version and calls its mbs_module_init with `args` (the rest of the `module load:` card; null
// for --module). Throws InputError at `at` (the name's argument) with what went wrong. A module
// already loaded (same file) is not initialised again.
void load_module(const std::string& name, const std::vector<std::string>& dirs, Reader* args,
                 const SourceLoc& at);

// Paths of the modules loaded so far (for --check summaries and tests).
std::vector<std::string> loaded_modules();

}  // namespace mbs::plugin
