#include <cstdint>

#include "workloads/ReduceKernels.h"

namespace wl::workloads {
namespace {

// Elements before the first 16-byte boundary: chunks of the async version start anywhere, and the
// vector loads below need float4 alignment.
__device__ std::int64_t headElements(const float* a, std::int64_t n) {
    const auto misalignment = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(a) & 15u);
    const std::int64_t head = ((16 - misalignment) & 15) / 4;
    return head < n ? head : n;
}

// Grid-stride sum with float4 loads, four in flight per thread: a load per element with one
// outstanding request per thread leaves HBM half idle on a Hopper-sized GPU.
__global__ void __launch_bounds__(kReduceThreadsPerBlock)
    partial_reduce(const float* __restrict__ a, std::int64_t n, float* __restrict__ partial) {
    const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::int64_t stride = static_cast<std::int64_t>(blockDim.x) * gridDim.x;
    const std::int64_t head = headElements(a, n);
    float sum = 0.0f;
    if (first < head) {
        sum += a[first];
    }
    const float4* a4 = reinterpret_cast<const float4*>(a + head);
    const std::int64_t n4 = (n - head) / 4;
    float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    std::int64_t i = first;
    for (; i + 3 * stride < n4; i += 4 * stride) {
        const float4 v0 = a4[i];
        const float4 v1 = a4[i + stride];
        const float4 v2 = a4[i + 2 * stride];
        const float4 v3 = a4[i + 3 * stride];
        acc.x += (v0.x + v1.x) + (v2.x + v3.x);
        acc.y += (v0.y + v1.y) + (v2.y + v3.y);
        acc.z += (v0.z + v1.z) + (v2.z + v3.z);
        acc.w += (v0.w + v1.w) + (v2.w + v3.w);
    }
    for (; i < n4; i += stride) {
        const float4 v = a4[i];
        acc.x += v.x;
        acc.y += v.y;
        acc.z += v.z;
        acc.w += v.w;
    }
    sum += (acc.x + acc.y) + (acc.z + acc.w);
    for (std::int64_t j = head + n4 * 4 + first; j < n; j += stride) {
        sum += a[j];
    }

    // The seed's shared-memory tree.
    __shared__ float block[kReduceThreadsPerBlock];
    const unsigned tid = threadIdx.x;
    block[tid] = sum;
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
        if (tid < half) {
            block[tid] += block[tid + half];
        }
        __syncthreads();
    }
    if (tid == 0) {
        partial[blockIdx.x] = block[0];
    }
}

__global__ void single_thread_sum(const float* __restrict__ partial, int count,
                                  float* __restrict__ sum) {
    float total = 0.0f;
    for (int i = 0; i < count; ++i) {
        total += partial[i];
    }
    sum[0] = total;
}

__global__ void __launch_bounds__(kReduceThreadsPerBlock)
    divide_by(float* __restrict__ a, std::int64_t n, const float* __restrict__ value) {
    const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::int64_t stride = static_cast<std::int64_t>(blockDim.x) * gridDim.x;
    const float divisor = value[0];
    const std::int64_t head = headElements(a, n);
    if (first < head) {
        a[first] /= divisor;
    }
    float4* a4 = reinterpret_cast<float4*>(a + head);
    const std::int64_t n4 = (n - head) / 4;
    std::int64_t i = first;
    for (; i + stride < n4; i += 2 * stride) {
        float4 v0 = a4[i];
        float4 v1 = a4[i + stride];
        v0.x /= divisor;
        v0.y /= divisor;
        v0.z /= divisor;
        v0.w /= divisor;
        v1.x /= divisor;
        v1.y /= divisor;
        v1.z /= divisor;
        v1.w /= divisor;
        a4[i] = v0;
        a4[i + stride] = v1;
    }
    for (; i < n4; i += stride) {
        float4 v = a4[i];
        v.x /= divisor;
        v.y /= divisor;
        v.z /= divisor;
        v.w /= divisor;
        a4[i] = v;
    }
    for (std::int64_t j = head + n4 * 4 + first; j < n; j += stride) {
        a[j] /= divisor;
    }
}

}  // namespace

cudaError_t launchPartialReduce(const float* a, std::int64_t n, float* partial,
                                cudaStream_t stream) {
    partial_reduce<<<kReduceBlocksPerGrid, kReduceThreadsPerBlock, 0, stream>>>(a, n, partial);
    return cudaGetLastError();
}

cudaError_t launchSingleThreadSum(const float* partial, float* sum, cudaStream_t stream) {
    single_thread_sum<<<1, 1, 0, stream>>>(partial, kReduceBlocksPerGrid, sum);
    return cudaGetLastError();
}

cudaError_t launchDivideBy(float* a, std::int64_t n, const float* value, cudaStream_t stream) {
    divide_by<<<kReduceBlocksPerGrid, kReduceThreadsPerBlock, 0, stream>>>(a, n, value);
    return cudaGetLastError();
}

}  // namespace wl::workloads
