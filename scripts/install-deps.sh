#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages Warpline needs to build, test and run.
# The CUDA toolkit (nvcc, CUPTI, NVTX3) is optional and not installed here: without it the viewer
# still builds; with it the tracer, workloads and `warpline record` are built too.
# The list is checked on a bare Debian 12 root by scripts/fresh-machine-check.sh (CI runs it): a
# package that only happens to be on a developer's machine cannot hide there.
set -euo pipefail
packages=(
    build-essential cmake ninja-build pkg-config git
    qt6-base-dev libgl-dev libxkbcommon-dev
    # Qt Charts; on Debian 12 its CMake package needs Qt's OpenGL one, which it does not pull in.
    qt6-charts-dev libqt6opengl6-dev
    libgtest-dev libgmock-dev libbenchmark-dev
    # zlib writes .json.gz and reads multi-member gzip; libdeflate inflates the usual one-member
    # trace about four times faster.
    libsimdjson-dev zlib1g-dev libdeflate-dev
    # Nsight Systems' SQLite exports (read-only); the sqlite3 command counts their tables in tests.
    libsqlite3-dev sqlite3
    fonts-dejavu-core xz-utils
)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "Installing: ${missing[*]}"
$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
