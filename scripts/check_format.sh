#!/usr/bin/env bash
# check_format.sh -- fails (exit 1) when a C/C++ file of the repository differs from what
# clang-format makes of it with the repository's .clang-format; lists those files. Run by CTest
# as style.clang_format. To fix: clang-format -i FILE (or every file: see docs/contributing.md).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v clang-format >/dev/null 2>&1; then
    echo "check_format: clang-format not found (scripts/setup.sh installs it)" >&2
    exit 1
fi
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' '*.c')
else
    mapfile -t files < <(find core parser elements solvers output mbsolve modules benchmarks fuzz \
                              -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.c')
fi
bad=0
for f in "${files[@]}"; do
    if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then
        echo "not formatted: $f"
        bad=$((bad + 1))
    fi
done
echo "clang-format $(clang-format --version | grep -o 'version [0-9.]*'): ${#files[@]} files, $bad not formatted"
[[ $bad -eq 0 ]]
