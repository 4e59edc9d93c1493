# mbsolve_add_module(<name> <sources>...): builds a loadable mbsolve module lib<name>.so against
# the C ABI header <mbsolve/mbsolve_module.h> (target mbsolve::module_abi). Used in the source
# tree (modules/) and, installed with mbsolveConfig.cmake, by out-of-tree modules:
#   find_package(mbsolve REQUIRED)
#   mbsolve_add_module(my_law my_law.c)
# Only the module's entry (MBS_MODULE_ENTRY) is exported; everything else stays hidden.
function(mbsolve_add_module name)
  if(NOT ARGN)
    message(FATAL_ERROR "mbsolve_add_module(${name}): no sources")
  endif()
  add_library(${name} MODULE ${ARGN})
  target_link_libraries(${name} PRIVATE mbsolve::module_abi)
  set_target_properties(${name} PROPERTIES PREFIX "lib" SUFFIX ".so"
                        C_VISIBILITY_PRESET hidden CXX_VISIBILITY_PRESET hidden
                        VISIBILITY_INLINES_HIDDEN ON)
endfunction()
