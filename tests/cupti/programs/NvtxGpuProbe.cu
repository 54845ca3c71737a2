// Every NVTX form (NvtxProbeForms.h) around GPU work: thrust and CUB calls (which add their own
// ranges in the CCCL domain) and a kernel on a stream the program names, on a device, stream and
// event named through NVTX. For the `warpline record` GPU test. With --launcher it behaves like
// torchrun: it initialises CUDA only to count the devices, starts itself twice with RANK=0 and
// RANK=1, and waits for them.
#include <nvtx3/nvToolsExtCuda.h>
#include <nvtx3/nvToolsExtCudaRt.h>
#include <thrust/device_vector.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <cub/device/device_reduce.cuh>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "CudaCheck.h"
#include "NvtxProbeForms.h"

namespace {

constexpr const char* kProgramName = "nvtx_gpu_probe";
constexpr int kCudaFailureExit = 90;

__global__ void probe_fill(float* data, int n, float value) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] = value;
    }
}

}  // namespace

int launch() {
    int devices = 0;
    CHECK(cudaGetDeviceCount(&devices));
    pid_t ranks[2] = {};
    for (int rank = 0; rank < 2; ++rank) {
        ranks[rank] = fork();
        if (ranks[rank] == 0) {
            setenv("RANK", rank == 0 ? "0" : "1", 1);
            execl("/proc/self/exe", "nvtx_gpu_probe", static_cast<char*>(nullptr));
            std::_Exit(91);
        }
    }
    int failed = 0;
    for (pid_t pid : ranks) {
        int status = 0;
        waitpid(pid, &status, 0);
        failed += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    return failed == 0 ? 0 : 1;
}

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "--launcher") == 0) {
        return launch();
    }
    constexpr int kN = 1 << 16;
    CHECK(cudaSetDevice(0));
    nvtxNameCudaDeviceA(0, nvtx_probe::kDeviceName);
    cudaStream_t stream = nullptr;
    cudaStream_t cuNamed = nullptr;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&cuNamed, cudaStreamNonBlocking));
    nvtxNameCudaStreamA(stream, nvtx_probe::kStreamName);
    nvtxNameCuStreamA(reinterpret_cast<CUstream>(cuNamed), nvtx_probe::kCuStreamName);
    cudaEvent_t event = nullptr;
    CHECK(cudaEventCreate(&event));
    nvtxNameCudaEventA(event, nvtx_probe::kEventName);

    thrust::device_vector<int> keys(kN);
    float* data = nullptr;
    float* sum = nullptr;
    void* scratch = nullptr;
    std::size_t scratchBytes = 0;
    CHECK(cudaMalloc(&data, kN * sizeof(float)));
    CHECK(cudaMalloc(&sum, sizeof(float)));
    CHECK(cub::DeviceReduce::Sum(nullptr, scratchBytes, data, sum, kN, stream));
    CHECK(cudaMalloc(&scratch, scratchBytes));

    nvtx_probe::useEveryNvtxForm([&] {
        probe_fill<<<(kN + 255) / 256, 256, 0, stream>>>(data, kN, 1.0f);
        CHECK(cub::DeviceReduce::Sum(scratch, scratchBytes, data, sum, kN, stream));
        probe_fill<<<1, 32, 0, cuNamed>>>(data, 32, 2.0f);
        CHECK(cudaEventRecord(event, stream));
        CHECK(cudaStreamSynchronize(stream));
        CHECK(cudaStreamSynchronize(cuNamed));
        thrust::sequence(keys.begin(), keys.end(), kN, -1);
        thrust::sort(keys.begin(), keys.end());
    });
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(scratch));
    CHECK(cudaFree(sum));
    CHECK(cudaFree(data));
    CHECK(cudaEventDestroy(event));
    CHECK(cudaStreamDestroy(cuNamed));
    CHECK(cudaStreamDestroy(stream));
    return 0;
}
