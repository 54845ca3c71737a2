#!/usr/bin/env bash
# Proves the README's two commands work on a machine that has nothing installed: makes a minimal
# Debian 12 (bookworm) root with mmdebstrap, puts a clean clone of this repository's HEAD in it,
# and runs, inside it with chroot, exactly what a new user runs:
#   scripts/test.sh                                  (the README's test command)
#   scripts/run-app.sh --screenshot first.png        (the README's app command, offscreen)
# The root has no CUDA toolkit, so this also proves that the viewer builds, opens, analyses and
# exports without one. A package missing from scripts/install-deps.sh fails here, whatever this
# machine has installed.
#
# Usage: scripts/fresh-machine-check.sh [--keep-root] [--screenshot-out FILE.png]
#            [--compiler-cache DIR] [--package-cache DIR]
# The root's package sources are this machine's own (its apt sources files), so it uses whatever
# mirror this machine is set up for. --compiler-cache DIR compiles through ccache with its cache
# in DIR (installed into the root as a build tool, beside what install-deps.sh installs: a cache
# cannot stand in for a missing package, since CMake still finds each package and the compiler
# still reads each header). --package-cache DIR keeps the downloaded .deb files in DIR between
# runs (apt still installs exactly what install-deps.sh names).
# Needs root (chroot, mounts) and the mmdebstrap package (installed here when missing, as
# install-deps.sh does). When the check cannot run at all it says why in one line and exits 1:
# it never passes without having run.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

keep_root=0
screenshot_out=""
compiler_cache=""
package_cache=""
while [ $# -gt 0 ]; do
    case "$1" in
        --keep-root) keep_root=1 ;;
        --screenshot-out) screenshot_out="$2"; shift ;;
        --compiler-cache) compiler_cache="$2"; shift ;;
        --package-cache) package_cache="$2"; shift ;;
        -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "fresh-machine check: unknown option '$1'" >&2; exit 2 ;;
    esac
    shift
done

say() { echo "fresh-machine check: $*"; }
cannot_run() { echo "fresh-machine check: cannot run: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || cannot_run "needs root rights (chroot and mounts); run it as root or with sudo"
if ! command -v mmdebstrap >/dev/null 2>&1; then
    say "installing mmdebstrap"
    { env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
      env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap; } \
        >/dev/null 2>&1 || cannot_run "the mmdebstrap package could not be installed (no package mirror reachable?)"
fi
git -C "$repo" rev-parse HEAD >/dev/null 2>&1 || cannot_run "$repo is not a git checkout"

# This machine's apt sources (one-line and deb822 files alike; mmdebstrap pastes each file given
# as a mirror into the root's sources).
sources=()
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    if [ -f "$f" ] && grep -qv '^[[:space:]]*\(#\|$\)' "$f"; then sources+=("$f"); fi
done
[ ${#sources[@]} -gt 0 ] || cannot_run "this machine has no apt sources (/etc/apt/sources.list*) to make the root from"
include=()
if [ -n "$compiler_cache" ]; then include=(--include=ccache); fi
root=$(mktemp -d "${TMPDIR:-/var/tmp}/warpline-fresh-root.XXXXXX")
mounted=()

cleanup() {
    local status=$?
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
        umount -R "${mounted[$i]}" 2>/dev/null || umount -l -R "${mounted[$i]}" 2>/dev/null || true
    done
    if [ "$keep_root" -eq 0 ]; then
        # Never remove anything while something is still mounted inside the root.
        if ! grep -q " $root/" /proc/mounts; then rm -rf "$root"; fi
    else
        say "root kept at $root"
    fi
    exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM

started=$(date +%s)
say "making a minimal Debian 12 root"
mmdebstrap --quiet --variant=minbase --mode=root "${include[@]}" bookworm "$root" "${sources[@]}" \
    </dev/null >"$root.mmdebstrap.log" 2>&1 || {
    tail -n 20 "$root.mmdebstrap.log" >&2
    rm -f "$root.mmdebstrap.log"
    cannot_run "mmdebstrap could not make a Debian 12 root (no package mirror reachable?)"
}
rm -f "$root.mmdebstrap.log"
say "root made in $(($(date +%s) - started)) s"

# A clean clone: only what is committed, as a user's `git clone` would give.
git clone --quiet --no-hardlinks "$repo" "$root/root/warpline"
cp /etc/resolv.conf "$root/etc/resolv.conf"
for fs in proc sys dev; do
    mount --rbind "/$fs" "$root/$fs"
    mount --make-rslave "$root/$fs"
    mounted+=("$root/$fs")
done
# bind DIR PATH_IN_ROOT: a folder of this machine's, kept between runs, mounted into the root.
bind() {
    mkdir -p "$1" "$root$2"
    mount --bind "$1" "$root$2"
    mounted+=("$root$2")
}
cache_env=()
if [ -n "$compiler_cache" ]; then
    bind "$compiler_cache" /var/cache/ccache
    # Paths under the clone are hashed relative to it, and not the build folder's own path, so
    # compilations made in another checkout (CI's CUDA build on the host) are found here too.
    cache_env=(CCACHE_DIR=/var/cache/ccache CCACHE_BASEDIR=/root/warpline CCACHE_NOHASHDIR=1
               CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-10G} CMAKE_C_COMPILER_LAUNCHER=ccache
               CMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
if [ -n "$package_cache" ]; then bind "$package_cache" /var/cache/apt/archives; fi
# Other tools' traces (shared/external-traces beside the checkout, where the project keeps them):
# the round-trip tests read them from beside the clone, read-only, and skip only without them.
if [ -d "$repo/../shared/external-traces" ]; then
    bind "$(cd "$repo/../shared/external-traces" && pwd)" /root/shared/external-traces
    mount -o remount,bind,ro "$root/root/shared/external-traces"
fi

in_root() {
    chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        ${CMAKE_BUILD_PARALLEL_LEVEL:+CMAKE_BUILD_PARALLEL_LEVEL=$CMAKE_BUILD_PARALLEL_LEVEL} \
        "${cache_env[@]}" "$@"
}

step=$(date +%s)
say "running the README's test command: scripts/test.sh"
in_root bash -c 'cd /root/warpline && scripts/test.sh' || {
    say "FAILED: scripts/test.sh in a fresh Debian 12 root (the errors above; a CMake 'could not find' means a package is missing from scripts/install-deps.sh)"
    exit 1
}
say "scripts/test.sh passed in $(($(date +%s) - step)) s"
if [ -n "$compiler_cache" ]; then in_root ccache --show-stats | sed -n '1,12p'; fi

step=$(date +%s)
say "running the README's app command: scripts/run-app.sh --screenshot first.png (offscreen)"
in_root bash -c 'cd /root/warpline && QT_QPA_PLATFORM=offscreen scripts/run-app.sh --screenshot /root/first.png' || {
    say "FAILED: scripts/run-app.sh --screenshot in a fresh Debian 12 root"
    exit 1
}
# The window must have shown the bundled sample: a real picture, not an empty file.
bytes=$(stat -c %s "$root/root/first.png" 2>/dev/null || echo 0)
if [ "$bytes" -lt 20000 ]; then
    say "FAILED: the app's screenshot is missing or nearly empty ($bytes bytes)"
    exit 1
fi
if [ -n "$screenshot_out" ]; then cp "$root/root/first.png" "$screenshot_out"; fi
say "scripts/run-app.sh wrote a $bytes-byte screenshot in $(($(date +%s) - step)) s"
say "passed in $(($(date +%s) - started)) s"
