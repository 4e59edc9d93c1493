# setup.sh -- shared by scripts/run.sh and scripts/test.sh (source it; do not run it).
# Installs the Debian packages mbsolve needs if any are missing, then configures and builds build/,
# and builds the result viewer's script (viewer/, npm) when npm is there.
# Everything it prints goes to stderr, so the stdout of run.sh is mbsolve's own.

MBS_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MBS_BUILD_DIR="$MBS_ROOT/build"
MBS_DEB_PACKAGES=(build-essential cmake pkg-config libsuitesparse-dev libeigen3-dev libboost-dev
                  libhdf5-dev libnetcdf-dev libgtest-dev python3 python3-numpy
                  python3-h5py python3-netcdf4 python3-matplotlib netcdf-bin
                  python3-scipy  # regression/rotation_update: DOP853 reference of a torque-free top
                  python3-meshio python3-xarray python3-h5netcdf  # regression/output_xdmf
                  clang-format   # style.clang_format (scripts/check_format.sh)
                  libopenmpi-dev openmpi-bin)  # MPI sweeps (mbsolve --sweep under mpirun)

# For the tests only (scripts/test.sh adds them): Debian's Chromium, for the viewer's browser test
# (regression/viewer); Node.js and npm where the machine has none (viewer/: three.js, esbuild,
# playwright-core, which drives /usr/bin/chromium and downloads no browser).
MBS_TEST_DEB_PACKAGES=(chromium)
command -v npm >/dev/null 2>&1 || MBS_TEST_DEB_PACKAGES+=(nodejs npm)

mbs_log() { printf 'mbsolve setup: %s\n' "$*" >&2; }

# Install the packages of MBS_DEB_PACKAGES that are not installed yet; silent when none are missing.
mbs_install_deps() {
    if ! command -v dpkg-query >/dev/null 2>&1; then
        mbs_log "dpkg-query not found (not a Debian system?): install the equivalents of" \
                "${MBS_DEB_PACKAGES[*]} yourself; trying to build anyway"
        return 0
    fi
    local pkg status missing=()
    for pkg in "${MBS_DEB_PACKAGES[@]}"; do
        status="$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)"
        [[ "$status" == *" ok installed" ]] || missing+=("$pkg")
    done
    ((${#missing[@]} == 0)) && return 0

    local sudo=()
    if [[ "$(id -u)" -ne 0 ]]; then
        if command -v sudo >/dev/null 2>&1; then
            sudo=(sudo)
        else
            mbs_log "error: missing Debian packages: ${missing[*]}"
            mbs_log "error: installing them needs root, and sudo is not available;" \
                    "as root run: apt-get install ${missing[*]}"
            return 1
        fi
    fi
    mbs_log "installing missing Debian packages: ${missing[*]}"
    "${sudo[@]}" apt-get update >&2
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y --no-install-recommends "${missing[@]}" >&2
}

# Configure once; afterwards the build step lets cmake re-run itself when CMakeLists change.
mbs_configure() {
    if [[ ! -f "$MBS_BUILD_DIR/CMakeCache.txt" ]]; then
        mbs_log "configuring $MBS_BUILD_DIR (Release)"
        cmake -S "$MBS_ROOT" -B "$MBS_BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >&2
    fi
}

mbs_build() {
    cmake --build "$MBS_BUILD_DIR" -j "$(nproc)" >&2
}

# viewer/: installs the npm packages pinned in package-lock.json (npm ci) when node_modules is
# missing or older than the lock file, and bundles dist/viewer.js (three.js + the page script,
# inlined by scripts/mbsolve-view) when it is missing or older than its sources. Quiet when
# nothing is to be done; without npm, says so and leaves the viewer unbuilt.
mbs_install_viewer() {
    local v="$MBS_ROOT/viewer"
    if ! command -v npm >/dev/null 2>&1; then
        mbs_log "npm not found: the result viewer (scripts/mbsolve-view) is not built"
        return 0
    fi
    if [[ ! -f "$v/node_modules/.package-lock.json" || "$v/package-lock.json" -nt "$v/node_modules/.package-lock.json" ]]; then
        mbs_log "installing the viewer's npm packages (viewer/package-lock.json)"
        if ! (cd "$v" && npm ci --no-audit --no-fund --silent >&2); then
            # mbsolve itself does not need the viewer: go on; regression.viewer says it is skipped.
            mbs_log "npm ci failed in viewer/: the result viewer is not built"
            return 0
        fi
    fi
    if [[ ! -f "$v/dist/viewer.js" || "$v/src/viewer.js" -nt "$v/dist/viewer.js" ||
          "$v/package-lock.json" -nt "$v/dist/viewer.js" ]]; then
        mbs_log "bundling viewer/dist/viewer.js"
        (cd "$v" && npm run --silent build >&2) || mbs_log "npm run build failed in viewer/"
    fi
}

mbs_setup() {
    mbs_install_deps
    mbs_configure
    mbs_build
    mbs_install_viewer
}
