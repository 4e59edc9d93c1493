#!/usr/bin/env bash
# run.sh DECK [mbsolve options] -- install what is missing, build, then run mbsolve on DECK.
set -euo pipefail

if (($# == 0)); then
    cat >&2 <<'USAGE'
usage: scripts/run.sh DECK [mbsolve options]
  Installs missing Debian packages, configures and builds build/, then runs
  build/mbsolve/mbsolve with the given arguments, e.g.
    scripts/run.sh input-examples/pendulum.mbd
    scripts/run.sh input-examples/pendulum.mbd --check
  See 'scripts/run.sh --help' for mbsolve's own options.
USAGE
    exit 2
fi

source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
mbs_setup
exec "$MBS_BUILD_DIR/mbsolve/mbsolve" "$@"
