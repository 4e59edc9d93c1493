#!/usr/bin/env bash
# test.sh [--sanitize] [ctest options] -- install what is missing, build, then run the default test
# suite (everything but the 'perf' and 'long' labels). The exit status is ctest's.
#   --sanitize   build in build-asan/ with AddressSanitizer + UndefinedBehaviorSanitizer
#                (CMake option MBS_SANITIZE, RelWithDebInfo) and run the suite there; any
#                sanitizer report aborts the process under test, so its test fails.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
MBS_DEB_PACKAGES+=("${MBS_TEST_DEB_PACKAGES[@]}")  # Chromium (and npm) for regression/viewer
exclude='perf|long'
if [[ "${1:-}" == "--sanitize" ]]; then
    shift
    MBS_BUILD_DIR="$MBS_ROOT/build-asan"
    mbs_install_deps
    if [[ ! -f "$MBS_BUILD_DIR/CMakeCache.txt" ]]; then
        mbs_log "configuring $MBS_BUILD_DIR (RelWithDebInfo, ASan + UBSan)"
        cmake -S "$MBS_ROOT" -B "$MBS_BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMBS_SANITIZE=ON >&2
    fi
    mbs_build
    mbs_install_viewer
    export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1}"
    export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
    export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$MBS_ROOT/scripts/lsan.supp:print_suppressions=0}"
    # Instrumented code runs slower: the bad-input corpus's 2 s per deck becomes 10 s.
    export MBS_BAD_INPUT_TIME_FACTOR="${MBS_BAD_INPUT_TIME_FACTOR:-5}"
    # step_alloc_test replaces malloc/free itself (to count C allocations), which cannot coexist
    # with ASan's allocator: benchmarks/ is not built in a sanitized tree (CMakeLists.txt).
    # Regression folders holding NO_SANITIZE (label nosan) are long accuracy runs of code that
    # shorter sanitized tests cover (regression/CMakeLists.txt): left out here.
    exclude='perf|long|nosan'
else
    mbs_setup
fi
exec ctest --test-dir "$MBS_BUILD_DIR" --output-on-failure -LE "$exclude" -j "$(nproc)" "$@"
