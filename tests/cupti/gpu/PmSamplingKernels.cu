#include "PmSamplingKernels.h"

namespace wl::cupti::test {
namespace {

__global__ void spin(long long cycles) {
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
}

}  // namespace

cudaError_t launchSpin(int blocks, int threadsPerBlock, long long cycles, cudaStream_t stream) {
    spin<<<blocks, threadsPerBlock, 0, stream>>>(cycles);
    return cudaGetLastError();
}

const void* spinKernel() {
    return reinterpret_cast<const void*>(&spin);
}

}  // namespace wl::cupti::test
