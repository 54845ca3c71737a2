// A small CUDA program with known work, for `warpline record`: kernels on two streams, a pinned
// H2D copy, a memset, a pageable D2H copy, NVTX ranges in two domains, and a chosen exit code
// (argv[1], default 0) so tests can check that the recorder passes it through. With "--exit-in-
// signal-handler" it raises SIGTERM and leaves through exit() from its handler.
#include <nvtx3/nvToolsExt.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "CudaCheck.h"

__global__ void probe_scale(float* data, int n, float factor) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] *= factor;
    }
}

__global__ void probe_sum(const float* data, int n, float* out) {
    __shared__ float partial[256];
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        sum += data[i];
    }
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) {
            partial[threadIdx.x] += partial[threadIdx.x + stride];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        atomicAdd(out, partial[0]);
    }
}

namespace {

constexpr const char* kProgramName = "record_probe";
constexpr int kCudaFailureExit = 90;

void onSignal(int) {
    std::exit(7);  // the recorder must still get the trace
}

}  // namespace

int main(int argc, char** argv) {
    const int exitCode = argc > 1 ? std::atoi(argv[1]) : 0;
    const bool viaSignal = argc > 2 && std::strcmp(argv[2], "--exit-in-signal-handler") == 0;
    constexpr int kN = 1 << 20;
    constexpr int kStreams = 2;
    constexpr int kRounds = 5;

    nvtxDomainHandle_t domain = nvtxDomainCreateA("record-probe");
    nvtxRangePushA("Setup");
    float* device = nullptr;
    float* pinned = nullptr;
    float* sum = nullptr;
    CHECK(cudaMalloc(&device, kN * sizeof(float)));
    CHECK(cudaMalloc(&sum, sizeof(float)));
    CHECK(cudaMallocHost(&pinned, kN * sizeof(float)));
    for (int i = 0; i < kN; ++i) {
        pinned[i] = 1.0f;
    }
    cudaStream_t streams[kStreams];
    for (auto& s : streams) {
        CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    }
    nvtxRangePop();

    nvtxRangePushA("Compute");
    CHECK(cudaMemcpyAsync(device, pinned, kN * sizeof(float), cudaMemcpyHostToDevice, streams[0]));
    CHECK(cudaMemsetAsync(sum, 0, sizeof(float), streams[0]));
    CHECK(cudaStreamSynchronize(streams[0]));
    for (int round = 0; round < kRounds; ++round) {
        nvtxEventAttributes_t attr{};
        attr.version = NVTX_VERSION;
        attr.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
        attr.colorType = NVTX_COLOR_ARGB;
        attr.color = 0xFF2E86DE;
        attr.messageType = NVTX_MESSAGE_TYPE_ASCII;
        attr.message.ascii = "Round";
        nvtxDomainRangePushEx(domain, &attr);
        const int half = kN / kStreams;
        for (int s = 0; s < kStreams; ++s) {
            probe_scale<<<(half + 255) / 256, 256, 0, streams[s]>>>(device + s * half, half, 1.0f);
        }
        probe_sum<<<132, 256, 0, streams[1]>>>(device, kN, sum);
        nvtxDomainRangePop(domain);
    }
    CHECK(cudaDeviceSynchronize());
    nvtxRangePop();

    std::vector<float> pageable(kN);
    float total = 0.0f;
    nvtxRangePushA("Results");
    CHECK(cudaMemcpy(pageable.data(), device, kN * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&total, sum, sizeof(float), cudaMemcpyDeviceToHost));
    nvtxRangePop();
    std::printf("record_probe: sum over %d rounds = %.0f (expected %d)\n", kRounds, total,
                kRounds * kN);

    for (auto& s : streams) {
        CHECK(cudaStreamDestroy(s));
    }
    CHECK(cudaFreeHost(pinned));
    CHECK(cudaFree(device));
    CHECK(cudaFree(sum));
    if (viaSignal) {
        std::signal(SIGTERM, &onSignal);
        std::raise(SIGTERM);
    }
    return exitCode;
}
