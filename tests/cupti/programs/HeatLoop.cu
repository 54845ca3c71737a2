// A heat-diffusion loop written as NVIDIA's CUDA C++ asynchrony tutorial writes one (thrust for
// the set-up, a stencil kernel per step, the state written to a file every few hundred steps),
// in the tutorial's two forms:
//   heat_loop              the exercise: each write copies the state back with a blocking copy
//                          and writes the file while the GPU waits;
//   heat_loop --solution   the solution: the state is snapshotted on the GPU, copied back on a
//                          second stream into pinned memory, and the host writes the file while
//                          the next steps already run.
// Start-up (filling the host and device buffers) comes first and is not part of the loop, which
// is what Warpline's steady-state window must find. NVTX ranges as the tutorial names them
// ("compute", "copy", "write"), through the NVTX3 C++ header in the default domain.
#include <cuda_runtime.h>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/fill.h>
#include <thrust/host_vector.h>

#include <nvtx3/nvtx3.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include <vector>
#include "CudaCheck.h"

namespace {

constexpr const char* kProgramName = "heat_loop";
constexpr int kCudaFailureExit = 1;

__global__ void diffuse(const float* in, float* out, int width, int height) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x <= 0 || y <= 0 || x >= width - 1 || y >= height - 1) {
        return;
    }
    const int i = y * width + x;
    out[i] = in[i] + 0.2f * (in[i - 1] + in[i + 1] + in[i - width] + in[i + width] - 4.0f * in[i]);
}

void writeState(const float* state, std::size_t count, int step) {
    nvtx3::scoped_range r{"write"};
    // Text, as the tutorial's program writes it: slow on purpose, it is the host's share.
    std::ofstream out("heat-step-" + std::to_string(step) + ".txt");
    for (std::size_t i = 0; i < count; i += 1024) {
        out << state[i] << '\n';
    }
}

}  // namespace

int main(int argc, char** argv) {
    const bool solution = argc > 1 && std::strcmp(argv[1], "--solution") == 0;
    constexpr int kWidth = 4096;
    constexpr int kHeight = 4096;
    constexpr int kSteps = 600;
    constexpr int kWriteEvery = 200;
    const std::size_t count = std::size_t(kWidth) * kHeight;

    // Start-up: the device buffers are cleared, the initial state is computed on the host (the
    // GPU waits) and uploaded.
    thrust::device_vector<float> a(count, 0.0f);
    thrust::device_vector<float> b(count, 0.0f);
    thrust::device_vector<float> snapshot(count, 0.0f);
    thrust::host_vector<float> initial(count);
    for (std::size_t i = 0; i < count; ++i) {
        initial[i] = std::sin(0.001f * float(i % kWidth)) * std::cos(0.001f * float(i / kWidth));
    }
    thrust::copy(initial.begin(), initial.end(), a.begin());
    float* hostState = nullptr;
    if (solution) {
        CHECK(cudaMallocHost(&hostState, count * sizeof(float)));
    } else {
        hostState = static_cast<float*>(std::malloc(count * sizeof(float)));
    }
    cudaStream_t compute = nullptr;
    cudaStream_t copy = nullptr;
    CHECK(cudaStreamCreateWithFlags(&compute, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&copy, cudaStreamNonBlocking));
    cudaEvent_t snapshotTaken = nullptr;
    cudaEvent_t copied = nullptr;
    CHECK(cudaEventCreateWithFlags(&snapshotTaken, cudaEventDisableTiming));
    CHECK(cudaEventCreateWithFlags(&copied, cudaEventDisableTiming));
    CHECK(cudaDeviceSynchronize());

    const dim3 block(32, 8);
    const dim3 grid((kWidth + block.x - 1) / block.x, (kHeight + block.y - 1) / block.y);
    float* in = thrust::raw_pointer_cast(a.data());
    float* out = thrust::raw_pointer_cast(b.data());
    int pendingWrite = -1;
    for (int step = 0; step < kSteps; ++step) {
        if (step % kWriteEvery == 0) {
            if (solution) {
                nvtx3::scoped_range r{"copy"};
                CHECK(cudaMemcpyAsync(thrust::raw_pointer_cast(snapshot.data()), in,
                                      count * sizeof(float), cudaMemcpyDeviceToDevice, compute));
                CHECK(cudaEventRecord(snapshotTaken, compute));
                CHECK(cudaStreamWaitEvent(copy, snapshotTaken, 0));
                CHECK(cudaMemcpyAsync(hostState, thrust::raw_pointer_cast(snapshot.data()),
                                      count * sizeof(float), cudaMemcpyDeviceToHost, copy));
                CHECK(cudaEventRecord(copied, copy));
                pendingWrite = step;
            } else {
                {
                    nvtx3::scoped_range r{"copy"};
                    CHECK(cudaMemcpy(hostState, in, count * sizeof(float), cudaMemcpyDeviceToHost));
                }
                writeState(hostState, count, step);
            }
        }
        {
            nvtx3::scoped_range r{"compute"};
            diffuse<<<grid, block, 0, compute>>>(in, out, kWidth, kHeight);
            CHECK(cudaGetLastError());
        }
        std::swap(in, out);
        // The solution writes the snapshot once most of the next steps are queued.
        if (solution && pendingWrite >= 0 && step % kWriteEvery == kWriteEvery - 10) {
            {
                nvtx3::scoped_range r{"wait"};
                CHECK(cudaEventSynchronize(copied));
            }
            writeState(hostState, count, pendingWrite);
            pendingWrite = -1;
        }
    }
    CHECK(cudaStreamSynchronize(compute));
    CHECK(cudaMemcpy(hostState, in, sizeof(float), cudaMemcpyDeviceToHost));
    std::printf("heat loop (%s): %d steps, state[0] = %g\n", solution ? "solution" : "exercise",
                kSteps, hostState[0]);
    return 0;
}
