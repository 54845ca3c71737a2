#include "OccupancyKernels.h"

#include <cuda_runtime.h>

// Kernels with different register and shared memory appetites, for checking the analysis'
// occupancy calculation against the CUDA runtime. What they compute does not matter; they must
// not be optimised away, so each writes its result.

namespace wl::test::gpu {
namespace {

constexpr int kThreadsPerBlock = 256;

// The seed's reduce/normalize kernels (ported from Numba).
__global__ void partialReduce(const float* array, int n, float* partial) {
    __shared__ float block[kThreadsPerBlock];
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        sum += array[i];
    }
    block[threadIdx.x] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) {
            block[threadIdx.x] += block[threadIdx.x + s];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = block[0];
    }
}

__global__ void singleThreadSum(const float* partial, int n, float* sum) {
    float s = 0.0f;
    for (int i = 0; i < n; ++i) {
        s += partial[i];
    }
    sum[0] = s;
}

__global__ void divideBy(float* array, int n, const float* value) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        array[i] /= value[0];
    }
}

// Many live accumulators: the compiler needs many registers.
__global__ void registerHeavy(const float* in, float* out, int n) {
    float acc[48];
#pragma unroll
    for (int j = 0; j < 48; ++j) {
        acc[j] = in[(threadIdx.x + j) % n];
    }
    for (int k = 0; k < n; ++k) {
        const float x = in[k];
#pragma unroll
        for (int j = 0; j < 48; ++j) {
            acc[j] = acc[j] * x + acc[(j + 1) % 48];
        }
    }
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < 48; ++j) {
        s += acc[j];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// 12 KB of static shared memory.
__global__ void staticShared(const float* in, float* out, int n) {
    __shared__ float tile[3072];
    for (int i = threadIdx.x; i < 3072; i += blockDim.x) {
        tile[i] = in[i % n];
    }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = tile[(threadIdx.x * 7) % 3072];
}

// Dynamic shared memory sized at launch.
__global__ void dynamicShared(const float* in, float* out, int n) {
    extern __shared__ float tile[];
    tile[threadIdx.x] = in[threadIdx.x % n];
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
}

}  // namespace

const std::vector<KernelHandle>& occupancyKernels() {
    static const std::vector<KernelHandle> kernels = {
        {"partial_reduce", reinterpret_cast<const void*>(&partialReduce)},
        {"single_thread_sum", reinterpret_cast<const void*>(&singleThreadSum)},
        {"divide_by", reinterpret_cast<const void*>(&divideBy)},
        {"register_heavy", reinterpret_cast<const void*>(&registerHeavy)},
        {"static_shared", reinterpret_cast<const void*>(&staticShared)},
        {"dynamic_shared", reinterpret_cast<const void*>(&dynamicShared)},
    };
    return kernels;
}

}  // namespace wl::test::gpu
