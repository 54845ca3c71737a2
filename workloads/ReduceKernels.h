#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace wl::workloads {

// Launch shape of the seed's kernels (THREADS_PER_BLOCK, BLOCKS_PER_GRID = 32 * 40).
inline constexpr int kReduceThreadsPerBlock = 256;
inline constexpr int kReduceBlocksPerGrid = 32 * 40;

// partial_reduce: grid-stride sum of a[0..n) into partial[blockIdx] (kReduceBlocksPerGrid floats),
// one shared-memory tree per block. Returns the launch's error.
cudaError_t launchPartialReduce(const float* a, std::int64_t n, float* partial,
                                cudaStream_t stream);
// single_thread_sum: one thread adds the kReduceBlocksPerGrid partials into *sum (deliberately
// poor: the seed uses it to show an idle GPU).
cudaError_t launchSingleThreadSum(const float* partial, float* sum, cudaStream_t stream);
// divide_by: a[i] /= *value for i in [0, n), grid-stride.
cudaError_t launchDivideBy(float* a, std::int64_t n, const float* value, cudaStream_t stream);

}  // namespace wl::workloads
