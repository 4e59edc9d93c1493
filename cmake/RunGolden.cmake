# Golden test: runs `mbsolve --dump-model DECK` and compares stdout with EXPECTED exactly.
# Usage: cmake -DMBSOLVE=... -DDECK=... -DEXPECTED=... -P RunGolden.cmake
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
  file(WRITE ${EXPECTED}.actual "${out}")
  execute_process(COMMAND diff -u ${EXPECTED} ${EXPECTED}.actual)
  message(FATAL_ERROR "dump differs from ${EXPECTED} (actual output in ${EXPECTED}.actual)")
endif()
