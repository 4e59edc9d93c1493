#!/usr/bin/env bash
# fuzz.sh [deck|expr] [seconds] -- fuzz with libFuzzer for the given time (default 1200 s) on
# one core: `deck` (default) the `mbsolve --check` path (parser + builder + card readers),
# `expr` the other expression entry points (-D, string drives, --report; fuzz/fuzz_expr.cpp).
#   - installs clang from Debian if it is missing (only this script needs it);
#   - builds fuzz/fuzz_<target> in build-fuzz/ (or $MBS_FUZZ_DIR; clang, ASan + UBSan +
#     coverage, no tests; through ccache when it is installed);
#   - seeds from input-examples/, regression/ (bad-input corpus included), parser/test/;
#     the evolving corpus stays in build-fuzz/corpus-<target>/ so later runs continue where this
#     one ended;
#   - a crash, hang (> 5 s) or runaway memory (> 2 GB) is written to build-fuzz/artifacts-<target>/
#     and the script exits non-zero: turn each one into a regression/bad-input/ case (deck) or a
#     unit test (expr).
# The last lines printed are libFuzzer's totals (executions, coverage, corpus size).
set -euo pipefail

target=deck
if [[ "${1:-}" == deck || "${1:-}" == expr ]]; then
    target="$1"
    shift
fi
seconds="${1:-1200}"
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
MBS_DEB_PACKAGES+=(clang)
mbs_install_deps

FUZZ_DIR="${MBS_FUZZ_DIR:-$MBS_ROOT/build-fuzz}"
if [[ ! -f "$FUZZ_DIR/CMakeCache.txt" ]]; then
    mbs_log "configuring $FUZZ_DIR (clang, libFuzzer, ASan + UBSan)"
    launcher=()
    if command -v ccache >/dev/null 2>&1; then
        launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    fi
    CC=clang CXX=clang++ cmake -S "$MBS_ROOT" -B "$FUZZ_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DMBS_FUZZ=ON -DMBS_BUILD_TESTS=OFF -DMBS_WITH_NETCDF=OFF -DMBS_WITH_HDF5=OFF \
        "${launcher[@]}" >&2
fi
cmake --build "$FUZZ_DIR" -j "$(nproc)" --target "fuzz_$target" >&2

corpus="$FUZZ_DIR/corpus-$target"
artifacts="$FUZZ_DIR/artifacts-$target"
work="$FUZZ_DIR/work"  # the fuzzed decks' cwd (relative includes, chdir)
seeds="$FUZZ_DIR/seeds-$target"
mkdir -p "$corpus" "$artifacts" "$work" "$seeds"
if [[ "$target" == deck ]]; then
    # Seeds: every deck in the repository (the bad-input corpus included), flattened into one folder.
    find "$MBS_ROOT/input-examples" "$MBS_ROOT/regression" "$MBS_ROOT/parser/test" \
         \( -name '*.mbd' -o -name '*.inc' -o -name '*.deck' \) -type f -size -64k -print0 |
        while IFS= read -r -d '' f; do
            cp "$f" "$seeds/$(echo "${f#"$MBS_ROOT"/}" | tr '/' '_')"
        done
    dict="$MBS_ROOT/fuzz/deck.dict"
else
    # Seeds: the mode byte (0 -D, 1 string drive, 2 --report) and expressions from the repository:
    # every `string` drive body and `set:` value of the example decks, and report forms.
    python3 - "$MBS_ROOT" "$seeds" <<'PY'
import pathlib, re, sys
root, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
n = 0
def seed(mode, text):
    global n
    n += 1
    (out / f'seed_{n}').write_bytes(bytes([mode]) + text.encode('utf-8', 'replace'))
for deck in sorted((root / 'input-examples').glob('*.mbd')):
    text = deck.read_text(errors='replace')
    for body in re.findall(r'string\s*,\s*"([^"]*)"', text):
        seed(1, body)
    for value in re.findall(r'set:\s*(?:ifndef\s+)?(?:const\s+)?\w+\s+\w+\s*=\s*([^;]*);', text):
        seed(0, value)
for r in ['xend=final(node 2, x)', 'Fmax=maximum(joint 2, F)', 'mean(node 1, vz)*2 + 1',
          'e=final(body 1, E) - initial(body 1, E)']:
    seed(2, r)
PY
    dict="$MBS_ROOT/fuzz/deck.dict"
fi
cd "$work"
set +e
"$FUZZ_DIR/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len=16384 \
    -dict="$dict" -artifact_prefix="$artifacts/" -print_final_stats=1 \
    -print_pcs=0 -reload=0 "$corpus" "$seeds" 2>"$FUZZ_DIR/fuzz-$target.log"
status=$?
set -e
# (|| true: with pipefail a log without these lines -- the target died before INITED -- made
# grep's status 1 end the script here, hiding the fuzzer's status and the message below.)
{ grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)|^stat::|^(==|SUMMARY|ERROR)' \
      "$FUZZ_DIR/fuzz-$target.log" || true; } | tail -n 20
if ((status != 0)); then
    mbs_log "fuzzer stopped with status $status; artifact(s) in $artifacts, log in $FUZZ_DIR/fuzz-$target.log"
fi
exit "$status"
