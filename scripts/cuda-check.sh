#!/usr/bin/env bash
# Builds everything with this machine's CUDA toolkit (the tracer, the injection library behind
# `warpline record`, the workloads, the GPU tests and benchmarks' code) and runs the unit tests of
# the CUDA parts (the tracer against a fake CUPTI, the workloads' validation). CI runs
# it on the host because the bare Debian root of scripts/fresh-machine-check.sh has no CUDA
# toolkit; the tests that need no CUDA run there, from the README's test command. GPU tests
# (label gpu) are built here and run on a machine with a GPU.
#
# It builds in build/ci with the ci preset, the directory the README's test command uses, so the
# objects that do not depend on CUDA are the same compilations there (a compiler cache replays
# them). Only Hopper code is generated (sm_90): this proves the CUDA code compiles, and the other
# architectures add nothing to that proof.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
    echo "cuda-check: no CUDA toolkit (nvcc) on this machine: the tracer and workloads cannot be built" >&2
    exit 1
fi
scripts/install-deps.sh
export QT_QPA_PLATFORM=offscreen
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}
cmake --preset ci -DWARPLINE_WITH_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
cmake --build --preset ci
# The suites of the CUDA parts; every other suite runs in the bare root.
for suite in cupti_tests workloads_tests; do
    echo "cuda-check: $suite"
    build/ci/tests/$suite --gtest_brief=1
done
