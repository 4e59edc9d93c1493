#!/usr/bin/env bash
# check_repo_refs.sh -- fails (exit 1) when a tracked file outside benchmarks/ cites the shared
# folder beside the checkout, or the external syntax digest, design and style documents that
# docs/ replaces (the patterns below): a clone of the repository has none of them. Run by CTest as style.repo_refs. Outside a git checkout
# there is nothing to check (exit 0).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { echo "not a git checkout: skipped"; exit 0; }
hits=$(git grep -n -E '\.\./shared/|shared/(bench|reference)|mbdyn-syntax\.md|DESIGN\.md|STYLE\.md' \
       -- . ':!benchmarks' ':!scripts/check_repo_refs.sh')
if [[ -n "$hits" ]]; then
    echo "references to documents outside the repository (use docs/ instead):"
    echo "$hits"
    exit 1
fi
echo "no tracked file outside benchmarks/ cites a document from outside the repository"
