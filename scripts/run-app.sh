#!/usr/bin/env bash
# Sets up, builds and starts the Warpline window. Without a GPU it opens a bundled sample trace.
# It builds in the folder the test command (scripts/test.sh) builds in, with the same optimised
# configuration, so running both compiles everything once.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}
cmake --preset ci >/dev/null
cmake --build --preset ci --target warpline
exec build/ci/app/warpline "$@"
