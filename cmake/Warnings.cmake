# Warning flags applied to every mbsolve target through the mbs_warnings interface library.
add_library(mbs_warnings INTERFACE)
target_compile_options(mbs_warnings INTERFACE -Wall -Wextra -Wno-unused-parameter)
