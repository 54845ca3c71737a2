#!/usr/bin/env bash
# Sets up and runs every test that needs no GPU: the optimised build and the sanitizer build.
# GPU tests (label gpu) skip themselves where no device is present.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
export QT_QPA_PLATFORM=offscreen
jobs=$(nproc)
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$jobs}
cmake --workflow --preset ci
cmake --workflow --preset asan
