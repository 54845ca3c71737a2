#!/usr/bin/env bash
# Sets up, builds and starts the Warpline window. Without a GPU it opens a bundled sample trace.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}
cmake --preset release -DWARPLINE_BUILD_TESTS=OFF -DWARPLINE_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build --preset release --target warpline
exec build/release/app/warpline "$@"
