#include "TracerTestKernels.h"

__global__ void tracer_spin(long long cycles, float* out) {
    const long long start = clock64();
    float x = threadIdx.x;
    while (clock64() - start < cycles) {
        x = x * 0.999f + 1.0f;
    }
    if (out != nullptr && x == -1.0f) {
        out[threadIdx.x] = x;  // never true; keeps the loop from being optimised away
    }
}

__global__ void tracer_empty() {}

namespace wl::cupti::test {

cudaError_t launchTracerSpin(cudaStream_t stream, int blocks, int threads, long long cycles,
                             float* out) {
    tracer_spin<<<blocks, threads, 0, stream>>>(cycles, out);
    return cudaGetLastError();
}

cudaError_t launchTracerEmpty(cudaStream_t stream) {
    tracer_empty<<<1, 1, 0, stream>>>();
    return cudaGetLastError();
}

}  // namespace wl::cupti::test
