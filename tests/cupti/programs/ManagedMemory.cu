// Managed (unified) memory the way NVIDIA's UnifiedMemoryPerf sample uses it: an array filled on
// the host, then a kernel over it. Without a prefetch the kernel faults every page in from the
// host and waits for the driver to migrate them; with cudaMemPrefetchAsync before the launch the
// pages are on the GPU when it starts. Each phase runs inside an NVTX range of its name ("no
// prefetch", "prefetch"), on an array of its own, and prints what the tests compare against:
//
//   managed_memory bytes=B device=D concurrent_managed_access=0|1
//
// Usage: managed_memory [--mib N] [--phase both|no-prefetch|prefetch]   (default: 64, both)
// concurrent_managed_access=0 (Windows, WSL, some virtual machines): GPUs cannot fault on managed
// memory there; the driver moves it all at the launch instead, so there are no GPU page faults.
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "CudaCheck.h"

namespace {

constexpr const char* kProgramName = "managed_memory";
constexpr int kCudaFailureExit = 1;
constexpr int kUsageExit = 2;

// One read and one write of each element: the kernel touches every page of the array once.
__global__ void scale(float* data, std::size_t n) {
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
    for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
        data[i] = 2.0f * data[i] + 1.0f;
    }
}

void prefetchToDevice(const float* data, std::size_t bytes, int device, cudaStream_t stream) {
#if CUDART_VERSION >= 13000
    cudaMemLocation location{};
    location.type = cudaMemLocationTypeDevice;
    location.id = device;
    CHECK(cudaMemPrefetchAsync(data, bytes, location, 0, stream));
#else
    CHECK(cudaMemPrefetchAsync(data, bytes, device, stream));
#endif
}

// Fills a managed array on the host (its pages are the host's), then runs the kernel over it,
// inside an NVTX range named `phase`; with `prefetch`, the pages are moved to the GPU first.
// Returns whether the kernel computed what it should.
bool runPhase(const char* phase, bool prefetch, std::size_t bytes, int device, cudaStream_t stream,
              int blocks) {
    const std::size_t n = bytes / sizeof(float);
    float* data = nullptr;
    CHECK(cudaMallocManaged(&data, bytes));
    for (std::size_t i = 0; i < n; ++i) {
        data[i] = 1.0f;
    }
    nvtxRangePushA(phase);
    if (prefetch) {
        prefetchToDevice(data, bytes, device, stream);
    }
    scale<<<blocks, 256, 0, stream>>>(data, n);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(stream));
    nvtxRangePop();
    // Read back on the host (outside the phase: these faults are not the kernel's).
    const bool ok = data[0] == 3.0f && data[n / 2] == 3.0f && data[n - 1] == 3.0f;
    CHECK(cudaFree(data));
    return ok;
}

}  // namespace

int main(int argc, char** argv) {
    long mib = 64;
    std::string phase = "both";
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--mib") == 0 && i + 1 < argc) {
            mib = std::strtol(argv[++i], nullptr, 10);
        } else if (std::strcmp(argv[i], "--phase") == 0 && i + 1 < argc) {
            phase = argv[++i];
        } else {
            std::fprintf(stderr, "usage: %s [--mib N] [--phase both|no-prefetch|prefetch]\n",
                         kProgramName);
            return kUsageExit;
        }
    }
    if (mib < 1 || (phase != "both" && phase != "no-prefetch" && phase != "prefetch")) {
        std::fprintf(stderr,
                     "%s: --mib must be at least 1, --phase both, no-prefetch or "
                     "prefetch\n",
                     kProgramName);
        return kUsageExit;
    }
    const std::size_t bytes = std::size_t(mib) << 20;
    int device = 0;
    CHECK(cudaGetDevice(&device));
    int concurrent = 0;
    CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, device));
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    std::printf("%s bytes=%zu device=%d concurrent_managed_access=%d\n", kProgramName, bytes,
                device, concurrent);
    std::fflush(stdout);
    cudaStream_t stream = nullptr;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    bool ok = true;
    if (phase != "prefetch") {
        ok &= runPhase("no prefetch", false, bytes, device, stream, sms * 8);
    }
    if (phase != "no-prefetch") {
        ok &= runPhase("prefetch", true, bytes, device, stream, sms * 8);
    }
    CHECK(cudaStreamDestroy(stream));
    if (!ok) {
        std::fprintf(stderr, "%s: the kernel's results are wrong\n", kProgramName);
        return 1;
    }
    return 0;
}
