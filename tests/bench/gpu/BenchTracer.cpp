// Tracer overhead on kernel launches: launch throughput of small kernels untraced, traced, and
// untraced again, in one process. The added cost per launch is the traced minus the untraced time
// per launch (median of the repetitions). Run on a GPU machine:
//   BenchTracer [launches per repetition, default 100000] [repetitions, default 5]
// The kernel is an empty one loaded from PTX text, so this file needs no CUDA compiler.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "cupti/CuptiTracer.h"

namespace {

constexpr const char* kPtx = R"(
.version 7.0
.target sm_75
.address_size 64
.visible .entry wl_bench_empty()
{
    ret;
}
)";

using Clock = std::chrono::steady_clock;

struct Sample {
    double enqueueNsPerLaunch = 0.0;  // host time in the launch loop
    double totalNsPerLaunch = 0.0;    // launch loop plus draining the stream
};

bool check(cudaError_t status, const char* what) {
    if (status != cudaSuccess) {
        std::fprintf(stderr, "BenchTracer: %s: %s\n", what, cudaGetErrorString(status));
        return false;
    }
    return true;
}

// State queries made with each launch in the PyTorch-like series: torch_train.py's recorded trace
// holds about 12 cudaGetDevice, 1.3 cudaGetLastError and 3.6 cuDevicePrimaryCtxGetState per
// kernel; this makes 12 cudaGetDevice, one cudaGetLastError and one cudaStreamIsCapturing.
constexpr int kTorchLikeGetDevices = 12;

bool measure(const void* kernel, cudaStream_t stream, int launches, Sample& out,
             bool torchLike = false) {
    const auto begin = Clock::now();
    for (int i = 0; i < launches; ++i) {
        if (torchLike) {
            int device = 0;
            for (int q = 0; q < kTorchLikeGetDevices; ++q) {
                cudaGetDevice(&device);
            }
            cudaStreamCaptureStatus capturing = cudaStreamCaptureStatusNone;
            cudaStreamIsCapturing(stream, &capturing);
            cudaGetLastError();
        }
        if (cudaLaunchKernel(kernel, dim3(1), dim3(1), nullptr, 0, stream) != cudaSuccess) {
            return check(cudaGetLastError(), "cudaLaunchKernel");
        }
    }
    const auto enqueued = Clock::now();
    if (!check(cudaStreamSynchronize(stream), "cudaStreamSynchronize")) {
        return false;
    }
    const auto done = Clock::now();
    out.enqueueNsPerLaunch =
        std::chrono::duration<double, std::nano>(enqueued - begin).count() / launches;
    out.totalNsPerLaunch =
        std::chrono::duration<double, std::nano>(done - begin).count() / launches;
    return true;
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

struct Series {
    std::vector<double> enqueue;
    std::vector<double> total;
};

bool runSeries(const char* label, const void* kernel, cudaStream_t stream, int launches, int reps,
               Series& series, bool torchLike = false) {
    for (int r = 0; r < reps; ++r) {
        Sample sample;
        if (!measure(kernel, stream, launches, sample, torchLike)) {
            return false;
        }
        series.enqueue.push_back(sample.enqueueNsPerLaunch);
        series.total.push_back(sample.totalNsPerLaunch);
        std::printf("%-18s rep %d: %8.1f ns/launch enqueue, %8.1f ns/launch with drain\n", label, r,
                    sample.enqueueNsPerLaunch, sample.totalNsPerLaunch);
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    const int launches = argc > 1 ? std::atoi(argv[1]) : 100'000;
    const int reps = argc > 2 ? std::atoi(argv[2]) : 5;
    wl::cupti::CuptiTracer::ensureNvtxInjection();
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::printf("BenchTracer: no CUDA device; nothing measured\n");
        return 0;
    }
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, 0);
    cudaLibrary_t library = nullptr;
    cudaKernel_t kernelHandle = nullptr;
    if (!check(cudaLibraryLoadData(&library, kPtx, nullptr, nullptr, 0, nullptr, nullptr, 0),
               "cudaLibraryLoadData") ||
        !check(cudaLibraryGetKernel(&kernelHandle, library, "wl_bench_empty"),
               "cudaLibraryGetKernel")) {
        return 1;
    }
    const void* kernel = reinterpret_cast<const void*>(kernelHandle);
    cudaStream_t stream = nullptr;
    if (!check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate")) {
        return 1;
    }
    std::printf("BenchTracer: %s, %d launches x %d repetitions of an empty <<<1,1>>> kernel\n",
                prop.name, launches, reps);

    Sample warm;
    if (!measure(kernel, stream, launches / 5 + 1, warm)) {
        return 1;
    }
    Series untraced;
    if (!runSeries("untraced", kernel, stream, launches, reps, untraced)) {
        return 1;
    }

    // Traced with the default options (what `warpline run` and `record` use), then without driver
    // API records and without any API records, to show where the cost goes.
    // "traced, spilling" is how `warpline record` traces: every buffer also appended to a spill
    // file, and CUPTI asked for its buffers every second.
    struct Variant {
        const char* label;
        bool api;
        bool driver;
        bool spill;
    };
    const Variant variants[] = {{"traced", true, true, false},
                                {"traced, no driver", true, false, false},
                                {"traced, no API", false, false, false},
                                {"traced, spilling", true, true, true}};
    char spillDir[] = "/tmp/warpline-bench-spill-XXXXXX";
    const bool haveSpillDir = mkdtemp(spillDir) != nullptr;
    std::vector<double> tracedMedians;
    bool complete = true;
    wl::cupti::CuptiTracer tracer;
    for (const Variant& v : variants) {
        wl::cupti::TracerOptions options;
        options.traceApi = v.api;
        options.traceDriverApi = v.driver;
        if (v.spill && haveSpillDir) {
            options.spillPath = std::string(spillDir) + "/bench.spill";
            options.flushPeriodMs = 1000;
        }
        const auto startBegin = Clock::now();
        const wl::model::Status started = tracer.start(options);
        const auto startEnd = Clock::now();
        if (!started.ok()) {
            std::fprintf(stderr, "BenchTracer: %s\n", started.error().message.c_str());
            return 1;
        }
        Sample tracedWarm;
        const int warmLaunches = launches / 5 + 1;
        Series traced;
        if (!measure(kernel, stream, warmLaunches, tracedWarm) ||
            !runSeries(v.label, kernel, stream, launches, reps, traced)) {
            return 1;
        }
        const auto stopBegin = Clock::now();
        auto trace = tracer.stop();
        const auto stopEnd = Clock::now();
        if (!trace.ok()) {
            std::fprintf(stderr, "BenchTracer: %s\n", trace.error().message.c_str());
            return 1;
        }
        const auto expected = static_cast<unsigned long long>(launches) * reps + warmLaunches;
        const auto kernels = static_cast<unsigned long long>(trace.value()->counts().kernel);
        const auto dropped =
            static_cast<unsigned long long>(trace.value()->diagnostics().droppedRecords);
        complete = complete && kernels == expected && dropped == 0;
        if (!options.spillPath.empty()) {
            std::error_code ignored;
            std::printf(
                "%-18s spill file %.1f MB\n", v.label,
                static_cast<double>(std::filesystem::file_size(options.spillPath, ignored)) / 1e6);
            tracer.discardSpill();
        }
        tracedMedians.push_back(median(traced.total));
        std::printf(
            "%-18s start %.1f ms, stop %.1f ms (sync, flush, translate), %llu of %llu kernels, "
            "%llu dropped\n",
            v.label, std::chrono::duration<double, std::milli>(startEnd - startBegin).count(),
            std::chrono::duration<double, std::milli>(stopEnd - stopBegin).count(), kernels,
            expected, dropped);
    }
    Series after;
    if (!runSeries("untraced again", kernel, stream, launches, reps, after)) {
        return 1;
    }

    const double base = median(untraced.total);
    const double baseAfter = median(after.total);
    std::printf("\nmedian ns/launch (launch loop + drain): untraced %.1f, untraced again %.1f\n",
                base, baseAfter);
    for (std::size_t i = 0; i < tracedMedians.size(); ++i) {
        std::printf("%-18s %.1f ns/launch: +%.1f ns over untraced, +%.1f ns over untraced again\n",
                    variants[i].label, tracedMedians[i], tracedMedians[i] - base,
                    tracedMedians[i] - baseAfter);
    }
    const double added = tracedMedians[0] - base;
    std::printf("added cost per traced launch (default options): %.1f ns (target <= 1000 ns): %s\n",
                added, added <= 1000.0 ? "PASS" : "OVER");

    // PyTorch-like launches, each with its state queries: traced with the queries recorded
    // (TracerOptions::recordStateQueries, `record --cuda-api-queries`) and without (default).
    // CUPTI's hooks stay loaded after the first trace, so all three series run with them.
    std::printf("\nPyTorch-like launches: %d state queries before each\n",
                kTorchLikeGetDevices + 2);
    Series torchUntraced;
    if (!runSeries("untraced", kernel, stream, launches, reps, torchUntraced, true)) {
        return 1;
    }
    double torchMedians[2] = {0.0, 0.0};
    const char* torchLabels[2] = {"queries recorded", "queries left out"};
    for (int v = 0; v < 2; ++v) {
        wl::cupti::TracerOptions options;
        options.recordStateQueries = v == 0;
        if (const auto started = tracer.start(options); !started.ok()) {
            std::fprintf(stderr, "BenchTracer: %s\n", started.error().message.c_str());
            return 1;
        }
        Series traced;
        if (!runSeries(torchLabels[v], kernel, stream, launches, reps, traced, true)) {
            return 1;
        }
        auto trace = tracer.stop();
        if (!trace.ok()) {
            std::fprintf(stderr, "BenchTracer: %s\n", trace.error().message.c_str());
            return 1;
        }
        const auto& counts = trace.value()->counts();
        std::printf("%-18s %llu kernels, %llu API calls recorded, %llu dropped\n", torchLabels[v],
                    static_cast<unsigned long long>(counts.kernel),
                    static_cast<unsigned long long>(counts.api),
                    static_cast<unsigned long long>(trace.value()->diagnostics().droppedRecords));
        torchMedians[v] = median(traced.total);
    }
    const double torchBase = median(torchUntraced.total);
    std::printf(
        "PyTorch-like median ns/launch: untraced %.1f, queries recorded %.1f (+%.1f), queries "
        "left out %.1f (+%.1f)\n",
        torchBase, torchMedians[0], torchMedians[0] - torchBase, torchMedians[1],
        torchMedians[1] - torchBase);
    cudaStreamDestroy(stream);
    if (haveSpillDir) {
        std::filesystem::remove_all(spillDir);
    }
    cudaLibraryUnload(library);
    return complete ? 0 : 2;
}
