# Warning flags applied to every mbsolve target through the mbs_warnings interface library.
# -Wno-missing-field-initializers: aggregates such as OutputQuantity are written with their
# leading fields only, the rest keeping their default member initializers (GCC's -Wextra warns
# there although nothing is left uninitialized).
add_library(mbs_warnings INTERFACE)
target_compile_options(mbs_warnings INTERFACE -Wall -Wextra -Wno-unused-parameter
                                              -Wno-missing-field-initializers)
