# Finds KLU and UMFPACK from Debian's libsuitesparse-dev (5.x ships no CMake package).
# Defines SuiteSparse::KLU and SuiteSparse::UMFPACK.
find_path(SuiteSparse_INCLUDE_DIR klu.h PATH_SUFFIXES suitesparse)
foreach(lib klu umfpack amd colamd btf cholmod suitesparseconfig)
  string(TOUPPER ${lib} LIB)
  find_library(SuiteSparse_${LIB}_LIBRARY ${lib})
endforeach()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(SuiteSparse REQUIRED_VARS SuiteSparse_INCLUDE_DIR
  SuiteSparse_KLU_LIBRARY SuiteSparse_UMFPACK_LIBRARY SuiteSparse_AMD_LIBRARY
  SuiteSparse_COLAMD_LIBRARY SuiteSparse_BTF_LIBRARY SuiteSparse_SUITESPARSECONFIG_LIBRARY)
if(SuiteSparse_FOUND AND NOT TARGET SuiteSparse::KLU)
  add_library(SuiteSparse::KLU INTERFACE IMPORTED)
  target_include_directories(SuiteSparse::KLU INTERFACE ${SuiteSparse_INCLUDE_DIR})
  target_link_libraries(SuiteSparse::KLU INTERFACE ${SuiteSparse_KLU_LIBRARY}
    ${SuiteSparse_BTF_LIBRARY} ${SuiteSparse_AMD_LIBRARY} ${SuiteSparse_COLAMD_LIBRARY}
    ${SuiteSparse_SUITESPARSECONFIG_LIBRARY})
  add_library(SuiteSparse::UMFPACK INTERFACE IMPORTED)
  target_include_directories(SuiteSparse::UMFPACK INTERFACE ${SuiteSparse_INCLUDE_DIR})
  target_link_libraries(SuiteSparse::UMFPACK INTERFACE ${SuiteSparse_UMFPACK_LIBRARY}
    ${SuiteSparse_AMD_LIBRARY} ${SuiteSparse_SUITESPARSECONFIG_LIBRARY})
endif()
