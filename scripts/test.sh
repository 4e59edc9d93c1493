#!/usr/bin/env bash
# test.sh [ctest options] -- install what is missing, build, then run the default test suite
# (everything but the 'perf' and 'long' labels). The exit status is ctest's.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
mbs_setup
exec ctest --test-dir "$MBS_BUILD_DIR" --output-on-failure -LE 'perf|long' -j "$(nproc)" "$@"
