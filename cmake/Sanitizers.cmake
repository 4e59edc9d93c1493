# MBS_SANITIZE: every target built with ASan + UBSan (scripts/test.sh --sanitize, build-asan/).
# MBS_FUZZ: the same plus libFuzzer's coverage instrumentation (scripts/fuzz.sh, clang only).
# UBSan findings abort (no recovery), so a test that triggers one fails.
# -g1 (line tables and function names, no variable info) is what the sanitizers' stack traces
# need; it overrides RelWithDebInfo's -g, whose full debug info made each instrumented executable
# about 350-500 MB and its link take up to a minute of CI's time.
if(MBS_SANITIZE OR MBS_FUZZ)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g1)
  add_link_options(-fsanitize=address,undefined)
endif()
if(MBS_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "MBS_FUZZ needs clang (configure with CC=clang CXX=clang++)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
