#pragma once

#include <cuda_runtime.h>

namespace wl::cupti::test {

// `blocks` blocks of `threadsPerBlock` threads, each spinning on clock64() for `cycles` SM clock
// cycles: residency (warps per SM, SMs in use) and duration are both set by the launch, which is
// what the PM sampling checks need.
cudaError_t launchSpin(int blocks, int threadsPerBlock, long long cycles,
                       cudaStream_t stream = nullptr);
const void* spinKernel();  // for the occupancy calculator

}  // namespace wl::cupti::test
