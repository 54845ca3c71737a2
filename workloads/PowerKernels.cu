#include <cstdint>

#include "workloads/PowerKernels.h"

namespace wl::workloads {
namespace {

constexpr int kVectorThreads = 1024;  // single-block vector kernels: n = 8192 is 8 per thread
constexpr int kMatvecThreads = 256;
constexpr int kRowsPerBlock = kMatvecThreads / 32;

__device__ std::uint64_t splitmix64(std::uint64_t z) {
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// U[0,1) for element i of random stream `stream`.
__device__ double uniform01(std::uint64_t seed, std::uint64_t stream, std::uint64_t i) {
    const std::uint64_t h = splitmix64(splitmix64(seed * 0x100000001B3ull + stream) ^ i);
    return static_cast<double>(h >> 11) * 0x1.0p-53;
}

// Sum over the block; every thread gets the result. `shared` holds 32 doubles.
__device__ double blockSum(double v, double* shared) {
    for (int offset = 16; offset > 0; offset /= 2) {
        v += __shfl_down_sync(0xFFFFFFFFu, v, offset);
    }
    const unsigned lane = threadIdx.x % 32;
    const unsigned warp = threadIdx.x / 32;
    if (lane == 0) {
        shared[warp] = v;
    }
    __syncthreads();
    if (warp == 0) {
        v = lane < blockDim.x / 32 ? shared[lane] : 0.0;
        for (int offset = 16; offset > 0; offset /= 2) {
            v += __shfl_down_sync(0xFFFFFFFFu, v, offset);
        }
        if (lane == 0) {
            shared[0] = v;
        }
    }
    __syncthreads();
    const double total = shared[0];
    __syncthreads();
    return total;
}

__global__ void makeFactors(double* d, double* u, double* v, std::int64_t n, double dominance,
                            std::uint64_t seed, std::int64_t oneIndex) {
    const double scale = 1.0 / sqrt(static_cast<double>(n));
    for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::int64_t>(blockDim.x) * gridDim.x) {
        d[i] = i == oneIndex ? 1.0 : (1.0 - dominance) * uniform01(seed, 1, i);
        u[i] = (2.0 * uniform01(seed, 2, i) - 1.0) * scale;
        v[i] = (2.0 * uniform01(seed, 3, i) - 1.0) * scale;
    }
}

// dots[0] = 1 / (1 + v.u), dots[1] = v.(D u).
__global__ void factorDots(const double* d, const double* u, const double* v, std::int64_t n,
                           double* dots) {
    __shared__ double shared[32];
    double vu = 0.0;
    double vdu = 0.0;
    for (std::int64_t i = threadIdx.x; i < n; i += blockDim.x) {
        vu += v[i] * u[i];
        vdu += v[i] * d[i] * u[i];
    }
    vu = blockSum(vu, shared);
    vdu = blockSum(vdu, shared);
    if (threadIdx.x == 0) {
        dots[0] = 1.0 / (1.0 + vu);
        dots[1] = vdu;
    }
}

// A_ij = d_i [i == j] - c d_i u_i v_j + u_i v_j d_j - c s u_i v_j   (c = dots[0], s = dots[1]).
__global__ void buildMatrix(double* a, const double* d, const double* u, const double* v,
                            std::int64_t n, const double* dots) {
    const double c = dots[0];
    const double s = dots[1];
    const std::int64_t total = n * n;
    for (std::int64_t k = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
         k < total; k += static_cast<std::int64_t>(blockDim.x) * gridDim.x) {
        const std::int64_t i = k / n;
        const std::int64_t j = k - i * n;
        const double uv = u[i] * v[j];
        double value = uv * (d[j] - c * d[i] - c * s);
        if (i == j) {
            value += d[i];
        }
        a[k] = value;
    }
}

__global__ void uniformKernel(double* x, std::int64_t n, std::uint64_t seed) {
    for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::int64_t>(blockDim.x) * gridDim.x) {
        x[i] = uniform01(seed, 4, i);
    }
}

__global__ void __launch_bounds__(kMatvecThreads)
    matvecRows(const double* __restrict__ a, const double* __restrict__ x, double* __restrict__ y,
               std::int64_t n) {
    const std::int64_t row =
        static_cast<std::int64_t>(blockIdx.x) * kRowsPerBlock + threadIdx.x / 32;
    const unsigned lane = threadIdx.x % 32;
    if (row >= n) {
        return;
    }
    const double* r = a + row * n;
    double acc = 0.0;
    if (n % 2 == 0) {
        // Rows start on 16-byte boundaries when n is even (cudaMalloc aligns to 256).
        const double2* r2 = reinterpret_cast<const double2*>(r);
        const double2* x2 = reinterpret_cast<const double2*>(x);
        const std::int64_t half = n / 2;
#pragma unroll 4
        for (std::int64_t j = lane; j < half; j += 32) {
            const double2 av = __ldcs(r2 + j);  // streamed once: keep it out of the way of x
            const double2 xv = __ldg(x2 + j);
            acc += av.x * xv.x + av.y * xv.y;
        }
    } else {
        for (std::int64_t j = lane; j < n; j += 32) {
            acc += r[j] * __ldg(x + j);
        }
    }
    for (int offset = 16; offset > 0; offset /= 2) {
        acc += __shfl_down_sync(0xFFFFFFFFu, acc, offset);
    }
    if (lane == 0) {
        y[row] = acc;
    }
}

__global__ void __launch_bounds__(kVectorThreads)
    normalizeKernel(const double* __restrict__ y, double* __restrict__ x, std::int64_t n) {
    __shared__ double shared[32];
    double yy = 0.0;
    for (std::int64_t i = threadIdx.x; i < n; i += blockDim.x) {
        yy += y[i] * y[i];
    }
    const double inverseNorm = 1.0 / sqrt(blockSum(yy, shared));
    for (std::int64_t i = threadIdx.x; i < n; i += blockDim.x) {
        x[i] = y[i] * inverseNorm;
    }
}

__global__ void __launch_bounds__(kVectorThreads)
    checkStepKernel(const double* __restrict__ y, double* __restrict__ x,
                    double* __restrict__ snapshot, double* __restrict__ scalars, std::int64_t n) {
    __shared__ double shared[32];
    double xy = 0.0;
    double xx = 0.0;
    double yy = 0.0;
    for (std::int64_t i = threadIdx.x; i < n; i += blockDim.x) {
        xy += x[i] * y[i];
        xx += x[i] * x[i];
        yy += y[i] * y[i];
    }
    xy = blockSum(xy, shared);
    xx = blockSum(xx, shared);
    yy = blockSum(yy, shared);
    const double lambda = xy / xx;
    double rr = 0.0;
    for (std::int64_t i = threadIdx.x; i < n; i += blockDim.x) {
        const double r = y[i] - lambda * x[i];
        rr += r * r;
    }
    rr = blockSum(rr, shared);  // also orders every read of x before the writes below
    const double inverseNorm = 1.0 / sqrt(yy);
    for (std::int64_t i = threadIdx.x; i < n; i += blockDim.x) {
        const double value = y[i] * inverseNorm;
        x[i] = value;
        snapshot[i] = value;
    }
    if (threadIdx.x == 0) {
        scalars[0] = sqrt(rr);
        scalars[1] = lambda;
    }
}

int gridFor(std::int64_t elements, int threads, int maxBlocks) {
    const std::int64_t blocks = (elements + threads - 1) / threads;
    return static_cast<int>(blocks < maxBlocks ? (blocks < 1 ? 1 : blocks) : maxBlocks);
}

}  // namespace

cudaError_t buildPowerMatrix(double* a, std::int64_t n, double dominance, std::uint64_t seed,
                             std::int64_t oneIndex, double* scratch, cudaStream_t stream) {
    double* d = scratch;
    double* u = scratch + n;
    double* v = scratch + 2 * n;
    double* dots = scratch + 3 * n;
    makeFactors<<<gridFor(n, 256, 4096), 256, 0, stream>>>(d, u, v, n, dominance, seed, oneIndex);
    factorDots<<<1, kVectorThreads, 0, stream>>>(d, u, v, n, dots);
    buildMatrix<<<gridFor(n * n, 256, 65536), 256, 0, stream>>>(a, d, u, v, n, dots);
    return cudaGetLastError();
}

cudaError_t fillUniform(double* x, std::int64_t n, std::uint64_t seed, cudaStream_t stream) {
    uniformKernel<<<gridFor(n, 256, 4096), 256, 0, stream>>>(x, n, seed);
    return cudaGetLastError();
}

cudaError_t launchMatvecRows(const double* a, const double* x, double* y, std::int64_t n,
                             cudaStream_t stream) {
    const auto blocks = static_cast<unsigned>((n + kRowsPerBlock - 1) / kRowsPerBlock);
    matvecRows<<<blocks, kMatvecThreads, 0, stream>>>(a, x, y, n);
    return cudaGetLastError();
}

cudaError_t launchNormalize(const double* y, double* x, std::int64_t n, cudaStream_t stream) {
    normalizeKernel<<<1, kVectorThreads, 0, stream>>>(y, x, n);
    return cudaGetLastError();
}

cudaError_t launchCheckStep(const double* y, double* x, double* snapshot, double* scalars,
                            std::int64_t n, cudaStream_t stream) {
    checkStepKernel<<<1, kVectorThreads, 0, stream>>>(y, x, snapshot, scalars, n);
    return cudaGetLastError();
}

}  // namespace wl::workloads
