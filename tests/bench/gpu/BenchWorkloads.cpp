// GPU benchmarks of the workloads and of the ceilings they are judged against, measured in the
// same process: pinned/pageable H2D and D2H copy bandwidth, device-to-device copy bandwidth,
// partial_reduce, the power iteration's matrix-vector product (cuBLAS and our own kernel), and
// whole workload runs. Ends with a summary of the targets of docs/PERFORMANCE.md.
// Needs a GPU; prints a note and exits 0 without one.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "workloads/CublasLibrary.h"
#include "workloads/CudaResources.h"
#include "workloads/PowerIteration.h"
#include "workloads/PowerKernels.h"
#include "workloads/ReduceKernels.h"
#include "workloads/ReduceWorkload.h"

namespace {

using namespace wl::workloads;

constexpr std::int64_t kReduceElements = 100'000'000;
constexpr std::size_t kCopyBytes = kReduceElements * sizeof(float);  // the reduce array, 400 MB
constexpr std::int64_t kDim = 8192;

// Per-benchmark samples (GB/s or ms) for the summary.
std::map<std::string, std::vector<double>>& samples() {
    static std::map<std::string, std::vector<double>> all;
    return all;
}
double best(const std::string& key) {
    const auto& v = samples()[key];
    return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
}
double median(const std::string& key) {
    std::vector<double> v = samples()[key];
    if (v.empty()) {
        return 0.0;
    }
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

void check(cudaError_t code, const char* what) {
    if (code != cudaSuccess) {
        std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(code));
        std::exit(1);
    }
}

// Times `work` on `stream` with CUDA events; returns milliseconds.
template <class Work>
double timeOnGpu(cudaStream_t stream, Work&& work) {
    cudaEvent_t start;
    cudaEvent_t stop;
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
    check(cudaEventRecord(start, stream), "cudaEventRecord");
    work();
    check(cudaEventRecord(stop, stream), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0.0f;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return ms;
}

void recordRate(benchmark::State& state, const std::string& key, double bytes, double ms) {
    state.SetIterationTime(ms / 1e3);
    samples()[key].push_back(bytes / (ms * 1e6));  // GB/s
}

void finishRate(benchmark::State& state, const std::string& key) {
    state.counters["GB/s best"] = best(key);
    state.counters["GB/s median"] = median(key);
}

// --- ceilings -------------------------------------------------------------------------------

void copyBench(benchmark::State& state, cudaMemcpyKind kind, bool pinned, const std::string& key) {
    DeviceArray<char> device;
    DeviceArray<char> device2;
    HostArray<char> host;
    check(device.allocate(kCopyBytes, "bench").ok() ? cudaSuccess : cudaErrorMemoryAllocation,
          "alloc");
    if (kind == cudaMemcpyDeviceToDevice) {
        check(device2.allocate(kCopyBytes, "bench").ok() ? cudaSuccess : cudaErrorMemoryAllocation,
              "alloc");
    } else {
        check(host.allocate(kCopyBytes, pinned, "bench").ok() ? cudaSuccess
                                                              : cudaErrorMemoryAllocation,
              "alloc");
        std::fill(host.get(), host.get() + kCopyBytes, 1);
    }
    check(cudaMemset(device.get(), 0, kCopyBytes), "memset");
    for (auto _ : state) {
        const double ms = timeOnGpu(nullptr, [&] {
            if (kind == cudaMemcpyHostToDevice) {
                check(cudaMemcpyAsync(device.get(), host.get(), kCopyBytes, kind, nullptr), "copy");
            } else if (kind == cudaMemcpyDeviceToHost) {
                check(cudaMemcpyAsync(host.get(), device.get(), kCopyBytes, kind, nullptr), "copy");
            } else {
                check(cudaMemcpyAsync(device2.get(), device.get(), kCopyBytes, kind, nullptr),
                      "copy");
            }
        });
        // D2D moves every byte twice (read + write), as bandwidthTest counts it.
        recordRate(state, key, kind == cudaMemcpyDeviceToDevice ? 2.0 * kCopyBytes : kCopyBytes,
                   ms);
    }
    finishRate(state, key);
}

void BM_CopyH2DPinned(benchmark::State& s) {
    copyBench(s, cudaMemcpyHostToDevice, true, "h2d pinned");
}
void BM_CopyD2HPinned(benchmark::State& s) {
    copyBench(s, cudaMemcpyDeviceToHost, true, "d2h pinned");
}
void BM_CopyH2DPageable(benchmark::State& s) {
    copyBench(s, cudaMemcpyHostToDevice, false, "h2d pageable");
}
void BM_CopyD2HPageable(benchmark::State& s) {
    copyBench(s, cudaMemcpyDeviceToHost, false, "d2h pageable");
}
void BM_CopyD2D(benchmark::State& s) {
    copyBench(s, cudaMemcpyDeviceToDevice, false, "d2d");
}

BENCHMARK(BM_CopyH2DPinned)->UseManualTime()->Iterations(10)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CopyD2HPinned)->UseManualTime()->Iterations(10)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CopyH2DPageable)->UseManualTime()->Iterations(5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CopyD2HPageable)->UseManualTime()->Iterations(5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CopyD2D)->UseManualTime()->Iterations(20)->Unit(benchmark::kMillisecond);

// --- kernels --------------------------------------------------------------------------------

void BM_PartialReduce(benchmark::State& state) {
    DeviceArray<float> a;
    DeviceArray<float> partial;
    if (!a.allocate(kReduceElements, "a").ok() ||
        !partial.allocate(kReduceBlocksPerGrid, "p").ok()) {
        state.SkipWithError("allocation failed");
        return;
    }
    check(cudaMemset(a.get(), 0, a.bytes()), "memset");
    check(launchPartialReduce(a.get(), kReduceElements, partial.get(), nullptr), "warm-up");
    for (auto _ : state) {
        const double ms = timeOnGpu(nullptr, [&] {
            check(launchPartialReduce(a.get(), kReduceElements, partial.get(), nullptr), "launch");
        });
        recordRate(state, "partial_reduce", static_cast<double>(a.bytes()), ms);
    }
    finishRate(state, "partial_reduce");
}
BENCHMARK(BM_PartialReduce)->UseManualTime()->Iterations(30)->Unit(benchmark::kMicrosecond);

void BM_DivideBy(benchmark::State& state) {
    DeviceArray<float> a;
    DeviceArray<float> value;
    if (!a.allocate(kReduceElements, "a").ok() || !value.allocate(1, "v").ok()) {
        state.SkipWithError("allocation failed");
        return;
    }
    check(cudaMemset(a.get(), 0, a.bytes()), "memset");
    const float two = 2.0f;
    check(cudaMemcpy(value.get(), &two, sizeof two, cudaMemcpyHostToDevice), "copy");
    for (auto _ : state) {
        const double ms = timeOnGpu(nullptr, [&] {
            check(launchDivideBy(a.get(), kReduceElements, value.get(), nullptr), "launch");
        });
        recordRate(state, "divide_by", 2.0 * static_cast<double>(a.bytes()), ms);
    }
    finishRate(state, "divide_by");
}
BENCHMARK(BM_DivideBy)->UseManualTime()->Iterations(30)->Unit(benchmark::kMicrosecond);

// y = A x at dim 8192: arg 0 = cuBLAS dgemv, 1 = our kernel, 2 = a full plain step (cuBLAS +
// normalize).
void BM_Matvec(benchmark::State& state) {
    const std::int64_t n = kDim;
    DeviceArray<double> a;
    DeviceArray<double> x;
    DeviceArray<double> y;
    DeviceArray<double> scratch;
    if (!a.allocate(n * n, "A").ok() || !x.allocate(n, "x").ok() || !y.allocate(n, "y").ok() ||
        !scratch.allocate(3 * n + 2, "s").ok()) {
        state.SkipWithError("allocation failed");
        return;
    }
    check(buildPowerMatrix(a.get(), n, 0.05, 42, 7, scratch.get(), nullptr), "build");
    check(fillUniform(x.get(), n, 42, nullptr), "x");
    // The cuBLAS the workload opens, not a linked one: the same library as warpline's runs.
    const auto cublas = cublasLibrary();
    if (!cublas.ok()) {
        state.SkipWithError(cublas.error().message.c_str());
        return;
    }
    cublasHandle_t handle = nullptr;
    (*cublas)->create(&handle);
    const double one = 1.0;
    const double zero = 0.0;
    const int dim = static_cast<int>(n);
    auto step = [&] {
        if (state.range(0) == 1) {
            check(launchMatvecRows(a.get(), x.get(), y.get(), n, nullptr), "matvec");
        } else {
            (*cublas)->dgemv(handle, CUBLAS_OP_T, dim, dim, &one, a.get(), dim, x.get(), 1, &zero,
                             y.get(), 1);
        }
        if (state.range(0) == 2) {
            check(launchNormalize(y.get(), x.get(), n, nullptr), "normalize");
        }
    };
    step();
    check(cudaDeviceSynchronize(), "warm-up");
    const std::string key = state.range(0) == 0   ? "matvec cublas"
                            : state.range(0) == 1 ? "matvec own kernel"
                                                  : "power step (cublas + normalize)";
    state.SetLabel(key);
    for (auto _ : state) {
        const double ms = timeOnGpu(nullptr, step);
        recordRate(state, key, 8.0 * n * n, ms);
    }
    finishRate(state, key);
    (*cublas)->destroy(handle);
}
BENCHMARK(BM_Matvec)->Arg(0)->Arg(1)->Arg(2)->UseManualTime()->Iterations(50)->Unit(
    benchmark::kMicrosecond);

// --- whole workloads ------------------------------------------------------------------------

struct RunConfig {
    const char* key;
    Mode mode;
    int streams;
    bool pinned;
    bool shared;
    int repeat;
};

const RunConfig kReduceConfigs[] = {
    {"reduce baseline pageable", Mode::Baseline, 1, false, false, 1},
    {"reduce baseline pinned", Mode::Baseline, 1, true, false, 1},
    {"reduce async 1 stream pinned", Mode::Async, 1, true, false, 1},
    {"reduce async 8 streams pinned", Mode::Async, 8, true, false, 1},
    {"reduce async 8 streams pageable", Mode::Async, 8, false, false, 1},
    {"reduce async 8 streams pinned shared-stream bug", Mode::Async, 8, true, true, 1},
    {"reduce async 8 streams pinned repeat 50", Mode::Async, 8, true, false, 50},
};

void BM_Reduce(benchmark::State& state) {
    const RunConfig& c = kReduceConfigs[state.range(0)];
    state.SetLabel(c.key);
    ReduceWorkload reduce;
    WorkloadParams p;
    p.mode = c.mode;
    p.streams = c.streams;
    p.pinned = c.pinned;
    p.sharedStream = c.shared;
    p.repeat = c.repeat;
    p.size = kReduceElements;
    for (auto _ : state) {
        const auto result = reduce.run(p);
        if (!result.ok() || !result->passed) {
            state.SkipWithError(result.ok() ? result->checkText.c_str()
                                            : result.error().message.c_str());
            return;
        }
        state.SetIterationTime(result->loopMs / 1e3);
        samples()[c.key].push_back(result->loopMs);
    }
    state.counters["loop ms median"] = median(c.key);
}
BENCHMARK(BM_Reduce)->DenseRange(0, 6)->UseManualTime()->Iterations(3)->Unit(
    benchmark::kMillisecond);

const RunConfig kPowerConfigs[] = {
    {"power baseline pageable", Mode::Baseline, 1, false, false, 1},
    {"power baseline pinned", Mode::Baseline, 1, true, false, 1},
    {"power async 1 stream pinned", Mode::Async, 1, true, false, 1},
    {"power async 1 stream pageable", Mode::Async, 1, false, false, 1},
    {"power async 2 streams pinned", Mode::Async, 2, true, false, 1},
    {"power async 2 streams pageable", Mode::Async, 2, false, false, 1},
};

void BM_Power(benchmark::State& state) {
    const RunConfig& c = kPowerConfigs[state.range(0)];
    state.SetLabel(c.key);
    PowerIteration power;
    WorkloadParams p;
    p.mode = c.mode;
    p.streams = c.streams;
    p.pinned = c.pinned;
    p.quiet = true;
    double idle = 0.0;
    int steps = 0;
    for (auto _ : state) {
        const auto result = power.run(p);
        if (!result.ok() || !result->passed) {
            state.SkipWithError(result.ok() ? result->checkText.c_str()
                                            : result.error().message.c_str());
            return;
        }
        state.SetIterationTime(result->loopMs / 1e3);
        samples()[c.key].push_back(result->loopMs);
        samples()[std::string(c.key) + " idle"].push_back(100.0 * result->gpuIdleFraction);
        samples()[std::string(c.key) + " ms/step"].push_back(result->loopMs / result->stepsRun);
        idle = result->gpuIdleFraction;
        steps = result->stepsRun;
    }
    state.counters["loop ms median"] = median(c.key);
    state.counters["GPU idle %"] = 100.0 * idle;
    state.counters["steps run"] = steps;
}
BENCHMARK(BM_Power)->DenseRange(0, 5)->UseManualTime()->Iterations(3)->Unit(
    benchmark::kMillisecond);

void printSummary() {
    const double h2d = best("h2d pinned");
    const double d2h = best("d2h pinned");
    const double d2d = best("d2d");
    std::printf("\n== Ceilings (best of the runs above) ==\n");
    std::printf(
        "pinned H2D %.1f GB/s, pinned D2H %.1f GB/s, pageable H2D %.1f GB/s, pageable D2H "
        "%.1f GB/s, D2D %.1f GB/s (read + write)\n",
        h2d, d2h, best("h2d pageable"), best("d2h pageable"), d2d);
    std::printf("\n== Targets ==\n");
    const double floorMs = kCopyBytes / (h2d * 1e6) + kCopyBytes / (d2h * 1e6);
    const double async8 = median("reduce async 8 streams pinned");
    std::printf(
        "reduce async 8 streams pinned 100M: %.2f ms median vs transfer floor %.2f ms = "
        "%.3fx (target <= 1.10)\n",
        async8, floorMs, async8 / floorMs);
    for (const RunConfig& c : kReduceConfigs) {
        std::printf("  %-50s %8.2f ms median\n", c.key, median(c.key));
    }
    const double pr = median("partial_reduce");
    std::printf("partial_reduce: %.1f GB/s median (%.1f best) = %.1f%% of D2D (target >= 80%%)\n",
                pr, best("partial_reduce"), 100.0 * pr / d2d);
    std::printf("divide_by: %.1f GB/s median (read + write) = %.1f%% of D2D\n", median("divide_by"),
                100.0 * median("divide_by") / d2d);
    for (const char* key :
         {"matvec cublas", "matvec own kernel", "power step (cublas + normalize)"}) {
        std::printf("%s: %.1f GB/s median = %.1f%% of D2D (target >= 85%%)\n", key, median(key),
                    100.0 * median(key) / d2d);
    }
    for (const RunConfig& c : kPowerConfigs) {
        const std::string key = c.key;
        std::printf("  %-40s loop %8.2f ms, %.4f ms/step, GPU idle %5.2f%% of the loop\n", c.key,
                    median(key), median(key + " ms/step"), median(key + " idle"));
    }
}

}  // namespace

int main(int argc, char** argv) {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::printf("no CUDA device: nothing to measure\n");
        return 0;
    }
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, 0);
    std::printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    printSummary();
    benchmark::Shutdown();
    return 0;
}
