# Golden test: runs `mbsolve --dump-model DECK` and compares stdout with EXPECTED exactly.
# Usage: cmake -DMBSOLVE=... -DDECK=... -DEXPECTED=... -DACTUAL=... -P RunGolden.cmake
# A differing dump is written to ACTUAL (in the build tree) and shown as a diff.
get_filename_component(deck_dir ${DECK} DIRECTORY)
get_filename_component(deck_name ${DECK} NAME)
execute_process(COMMAND ${MBSOLVE} --quiet --dump-model ${deck_name}
  WORKING_DIRECTORY ${deck_dir}
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 20)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "mbsolve exited with ${rc}:\n${err}")
endif()
file(READ ${EXPECTED} expected)
if(NOT out STREQUAL expected)
  file(WRITE ${ACTUAL} "${out}")
  execute_process(COMMAND diff -u ${EXPECTED} ${ACTUAL})
  message(FATAL_ERROR "dump differs from ${EXPECTED} (actual output in ${ACTUAL})")
endif()
