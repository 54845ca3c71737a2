#pragma once

#include <cuda_runtime_api.h>

// Kernels with known names for the tracer's GPU tests (TracerTestKernels.cu).
namespace wl::cupti::test {

// "tracer_spin": each thread spins ~`cycles` clock cycles, so kernels last long enough to show.
cudaError_t launchTracerSpin(cudaStream_t stream, int blocks, int threads, long long cycles,
                             float* out);
// "tracer_empty": does nothing; for launch-rate tests.
cudaError_t launchTracerEmpty(cudaStream_t stream);

}  // namespace wl::cupti::test
