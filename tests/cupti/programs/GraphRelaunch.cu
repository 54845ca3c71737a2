// A CUDA graph relaunched in a loop, as NVIDIA's jacobiCudaGraphs sample runs one: each
// iteration updates the kernel node's parameters on the executable graph, launches it and waits
// for it with cudaStreamSynchronize. The graph is a memset, a kernel and a copy of a sum to the
// host. As the sample writes it, the copy goes into a pageable host variable: the driver then
// finishes the whole graph before cudaGraphLaunch returns, so the launch is the call that waits.
// With --pinned the sum goes to pinned memory, the launch returns at once and the wait is
// cudaStreamSynchronize's.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "CudaCheck.h"

namespace {

constexpr const char* kProgramName = "graph_relaunch";
constexpr int kCudaFailureExit = 1;

__global__ void relax(const float* in, float* out, double* sum, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float v = 0.5f * (in[i] + in[(i + 1) % n]);
        out[i] = v;
        atomicAdd(sum, double(v));
    }
}

}  // namespace

int main(int argc, char** argv) {
    const bool pinned = argc > 1 && std::strcmp(argv[1], "--pinned") == 0;
    constexpr int kN = 1 << 16;
    constexpr int kIterations = 2000;
    float* x = nullptr;
    float* y = nullptr;
    double* dSum = nullptr;
    CHECK(cudaMalloc(&x, kN * sizeof(float)));
    CHECK(cudaMalloc(&y, kN * sizeof(float)));
    CHECK(cudaMalloc(&dSum, sizeof(double)));
    CHECK(cudaMemset(x, 0, kN * sizeof(float)));
    cudaStream_t stream = nullptr;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    double pageableSum = 0.0;
    double* hostSum = &pageableSum;
    if (pinned) {
        CHECK(cudaMallocHost(&hostSum, sizeof(double)));
    }

    cudaGraph_t graph = nullptr;
    CHECK(cudaGraphCreate(&graph, 0));
    cudaMemsetParams memset{};
    memset.dst = dSum;
    memset.elementSize = sizeof(float);
    memset.width = 2;
    memset.height = 1;
    cudaGraphNode_t memsetNode = nullptr;
    CHECK(cudaGraphAddMemsetNode(&memsetNode, graph, nullptr, 0, &memset));
    int n = kN;
    void* args0[] = {&x, &y, &dSum, &n};
    void* args1[] = {&y, &x, &dSum, &n};
    cudaKernelNodeParams kernel{};
    kernel.func = reinterpret_cast<void*>(&relax);
    kernel.gridDim = dim3((kN + 255) / 256);
    kernel.blockDim = dim3(256);
    kernel.kernelParams = args0;
    cudaGraphNode_t kernelNode = nullptr;
    CHECK(cudaGraphAddKernelNode(&kernelNode, graph, &memsetNode, 1, &kernel));
    cudaMemcpy3DParms copy{};
    copy.srcPtr = make_cudaPitchedPtr(dSum, sizeof(double), 1, 1);
    copy.dstPtr = make_cudaPitchedPtr(hostSum, sizeof(double), 1, 1);
    copy.extent = make_cudaExtent(sizeof(double), 1, 1);
    copy.kind = cudaMemcpyDeviceToHost;
    cudaGraphNode_t copyNode = nullptr;
    CHECK(cudaGraphAddMemcpyNode(&copyNode, graph, &kernelNode, 1, &copy));
    cudaGraphExec_t exec = nullptr;
    CHECK(cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0));

    cudaKernelNodeParams other = kernel;
    other.kernelParams = args1;
    for (int k = 0; k < kIterations; ++k) {
        CHECK(cudaGraphExecKernelNodeSetParams(exec, kernelNode, (k & 1) == 0 ? &kernel : &other));
        CHECK(cudaGraphLaunch(exec, stream));
        CHECK(cudaStreamSynchronize(stream));
    }
    std::printf("graph relaunch (%s): %d iterations, last sum %g\n", pinned ? "pinned" : "pageable",
                kIterations, *hostSum);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    return 0;
}
