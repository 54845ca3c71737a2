// runTraced() and friends for builds with CUDA: validate, trace the workload with CUPTI, summarise.
#include "app/RunSession.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/Analysis.h"
#include "app/RunOptions.h"
#include "cupti/CuptiTracer.h"
#include "model/Trace.h"
#include "workloads/Workload.h"

namespace wl::app {
namespace {

model::Result<workloads::WorkloadParams> toParams(const RunRequest& request) {
    auto mode = workloads::parseMode(request.mode);
    if (!mode.ok()) {
        return mode.error();
    }
    workloads::WorkloadParams p;
    p.mode = *mode;
    p.streams = request.streams;
    p.pinned = request.pinned;
    p.size = request.size;
    p.repeat = request.repeat;
    p.sharedStream = request.sharedStreamBug;
    p.maxSteps = request.steps;
    p.graph = request.graph;
    p.devices = request.devices;
    return p;
}

// Negative values would otherwise read as "default" further down (0 is the default).
model::Status checkNotNegative(const RunRequest& request) {
    using workloads::RunOption;
    for (const auto& [id, value] :
         {std::pair<RunOption, std::int64_t>{RunOption::Size, request.size},
          {RunOption::Repeat, request.repeat},
          {RunOption::Steps, request.steps}}) {
        if (value < 0) {
            const workloads::OptionSpec& option = workloads::runOption(id);
            return workloads::checkInRange(option, option.widest(), value);
        }
    }
    return {};
}

// CUPTI allows one subscriber per process: one tracer, one run at a time.
cupti::CuptiTracer& processTracer() {
    static cupti::CuptiTracer tracer;
    return tracer;
}
std::mutex& runMutex() {
    static std::mutex mutex;
    return mutex;
}

// What the summary says about the GPU side of a trace.
struct GpuFigures {
    // Over the timed part (the first range after warm-up and setup to the last end), by the
    // analysis: any GPU busy (the union of kernels, copies and memsets over every stream) and
    // the mean over the GPUs.
    analysis::GpuBusy busy;
    model::TimeNs kernelNs = 0;
    std::uint64_t kernels = 0;
    int streamsWithWork = 0;
    struct Copies {
        std::uint64_t count = 0;
        std::uint64_t bytes = 0;
        model::TimeNs durationNs = 0;
        std::map<std::string, std::uint64_t> byHostMemory;  // "Pinned" -> count
    };
    std::map<std::string, Copies> copies;  // by direction ("HtoD", ...)
    std::uint64_t nvtxRanges = 0;
};

GpuFigures gpuFigures(const model::Trace& trace) {
    GpuFigures f;
    std::vector<std::pair<model::TimeNs, model::TimeNs>> intervals;
    for (const model::Track& track : trace.tracks()) {
        if (track.kind == model::TrackKind::Nvtx || track.kind == model::TrackKind::NvtxAsync) {
            f.nvtxRanges += track.slices.size();
        }
        if (track.kind != model::TrackKind::GpuStream) {
            continue;
        }
        bool any = false;
        for (const model::Slice& s : track.slices) {
            if (s.kind == model::SliceKind::Kernel) {
                ++f.kernels;
                f.kernelNs += s.durationNs;
            } else if (s.kind == model::SliceKind::Memcpy) {
                const model::MemcpyDetail* d = trace.memcpy(s);
                const std::string direction =
                    d != nullptr ? model::toString(d->copyKind) : "Unknown";
                GpuFigures::Copies& c = f.copies[direction];
                ++c.count;
                c.durationNs += s.durationNs;
                if (d != nullptr) {
                    c.bytes += d->bytes;
                    const model::MemoryKind host =
                        d->copyKind == model::CopyKind::DeviceToHost ? d->dstKind : d->srcKind;
                    ++c.byHostMemory[model::toString(host)];
                }
            } else if (s.kind != model::SliceKind::Memset) {
                continue;
            }
            any = true;
            intervals.emplace_back(s.startNs, s.endNs());
        }
        f.streamsWithWork += any ? 1 : 0;
    }
    // The timed part: from the first NVTX range after warm-up and setup to the last GPU work or
    // range end after it (async work outlives the host-side ranges that enqueued it).
    model::TimeNs windowStart = std::numeric_limits<model::TimeNs>::max();
    model::TimeNs windowEnd = std::numeric_limits<model::TimeNs>::min();
    for (const model::Track& track : trace.tracks()) {
        if (track.kind != model::TrackKind::Nvtx) {
            continue;
        }
        for (const model::Slice& s : track.slices) {
            const std::string_view name = trace.str(s.nameId);
            if (s.depth == 0 && name != "Compilation" && name != "Setup") {
                windowStart = std::min(windowStart, s.startNs);
                windowEnd = std::max(windowEnd, s.endNs());
            }
        }
    }
    std::sort(intervals.begin(), intervals.end());
    if (windowStart == std::numeric_limits<model::TimeNs>::max()) {
        windowStart = intervals.empty() ? 0 : intervals.front().first;  // no ranges: everything
    }
    for (const auto& [start, end] : intervals) {
        if (end > windowStart)
            windowEnd = std::max(windowEnd, end);
    }
    if (windowEnd > windowStart) {
        analysis::AnalysisWindow timed;
        timed.source = analysis::WindowSource::Time;
        timed.parts = {{windowStart, windowEnd}};
        f.busy = analysis::analyzeTrace(trace, {}, timed).gpuBusy();
    }
    return f;
}

std::string formatSummary(const RunRequest& request, const workloads::WorkloadParams& p,
                          const workloads::WorkloadResult& result, const model::Trace& trace,
                          double wallMs, const std::string& device) {
    const GpuFigures f = gpuFigures(trace);
    std::string out;
    char line[512];
    auto add = [&](const char* text) { out += text; };
    std::snprintf(line, sizeof line, "%s %s on %s: %d stream%s, %s host memory, size %lld",
                  request.workload.c_str(), request.mode.c_str(), device.c_str(), p.streams,
                  p.streams == 1 ? "" : "s", p.pinned ? "pinned" : "pageable",
                  static_cast<long long>(p.size));
    add(line);
    if (request.workload == workloads::kReduce) {
        std::snprintf(line, sizeof line, ", repeat %d%s%s\n", p.repeat,
                      p.sharedStream ? ", shared-stream bug" : "",
                      p.devices > 1 ? (", on " + std::to_string(p.devices) + " GPUs").c_str() : "");
    } else {
        std::snprintf(line, sizeof line, ", %d steps run%s\n", result.stepsRun,
                      p.graph ? ", batches replayed from CUDA graphs" : "");
    }
    add(line);
    std::snprintf(line, sizeof line, "  wall time    %10.2f ms (setup %.2f ms, %s %.2f ms)\n",
                  wallMs, result.setupMs,
                  request.workload == workloads::kReduce ? "copies+kernels" : "loop",
                  result.loopMs);
    add(line);
    const double busyMs = f.busy.anyBusyNs / 1e6;
    const double spanMs = f.busy.windowNs / 1e6;
    if (f.busy.gpus > 1) {
        // Several GPUs: the time any was busy, and the mean over them, each named.
        std::snprintf(line, sizeof line,
                      "  GPU time     %10.2f ms with %s of the %.2f ms after warm-up and setup "
                      "(%.1f%%; %s %.1f%%)\n",
                      busyMs, analysis::anyGpuBusyLabel(f.busy).c_str(), spanMs, f.busy.anyPct(),
                      analysis::meanOverGpusLabel(f.busy).c_str(), f.busy.meanPct());
    } else {
        std::snprintf(
            line, sizeof line,
            "  GPU time     %10.2f ms busy of the %.2f ms after warm-up and setup (%.1f%%)\n",
            busyMs, spanMs, f.busy.anyPct());
    }
    add(line);
    std::snprintf(line, sizeof line, "  kernels      %10.2f ms in %llu launches on %d stream%s\n",
                  f.kernelNs / 1e6, static_cast<unsigned long long>(f.kernels), f.streamsWithWork,
                  f.streamsWithWork == 1 ? "" : "s");
    add(line);
    for (const auto& [direction, c] : f.copies) {
        std::string memory;
        for (const auto& [kind, count] : c.byHostMemory) {
            if (direction == "DtoD" || direction == "PtoP") {
                break;
            }
            memory += (memory.empty() ? "" : ", ") + std::to_string(count) + " " + kind;
        }
        const double ms = c.durationNs / 1e6;
        std::snprintf(line, sizeof line,
                      "  copies %-5s %10.2f ms, %llu cop%s, %.1f MB, %.1f GB/s%s%s%s\n",
                      direction.c_str(), ms, static_cast<unsigned long long>(c.count),
                      c.count == 1 ? "y" : "ies", c.bytes / 1e6,
                      c.durationNs > 0 ? static_cast<double>(c.bytes) / c.durationNs : 0.0,
                      memory.empty() ? "" : " (", memory.c_str(), memory.empty() ? "" : ")");
        add(line);
    }
    if (result.gpuIdleFraction >= 0.0) {
        std::snprintf(line, sizeof line, "  GPU idle     %10.1f%% of the loop (CUDA events)\n",
                      100.0 * result.gpuIdleFraction);
        add(line);
    }
    const model::Diagnostics& diag = trace.diagnostics();
    std::snprintf(line, sizeof line,
                  "  trace        %llu slices, %llu NVTX ranges, %llu dropped records%s\n",
                  static_cast<unsigned long long>(trace.counts().slices),
                  static_cast<unsigned long long>(f.nvtxRanges),
                  static_cast<unsigned long long>(diag.droppedRecords),
                  diag.lostData() ? " (the trace is incomplete)" : "");
    add(line);
    return out;
}

}  // namespace

model::Status checkRequest(const RunRequest& request) {
    auto workload = workloads::makeWorkload(request.workload);
    if (!workload.ok()) {
        return workload.error();
    }
    auto params = toParams(request);
    if (!params.ok()) {
        return params.error();
    }
    if (model::Status s = checkNotNegative(request); !s.ok()) {
        return s;
    }
    return (*workload)->validate(*params);
}

model::Status validateRun(const RunRequest& request) {
    auto workload = workloads::makeWorkload(request.workload);
    if (!workload.ok()) {
        return workload.error();
    }
    auto params = toParams(request);
    if (!params.ok()) {
        return params.error();
    }
    if (model::Status s = checkNotNegative(request); !s.ok()) {
        return s;
    }
    return workloads::validateOnDevice(**workload, *params);
}

void prepareRuns() {
    cupti::CuptiTracer::ensureNvtxInjection();
}

model::Result<std::string> runDevice() {
    // The app asks for the device before any run, so this is early enough for NVTX.
    prepareRuns();
    int count = 0;
    const cudaError_t code = cudaGetDeviceCount(&count);
    if (code != cudaSuccess) {
        static_cast<void>(cudaGetLastError());
        // Without a driver the runtime reports "driver version is insufficient", which reads as
        // if an update would help; say what the user actually lacks.
        if (code == cudaErrorInsufficientDriver || code == cudaErrorNoDevice) {
            return model::Error{std::string("no NVIDIA GPU with a suitable driver was found (") +
                                cudaGetErrorString(code) + ")"};
        }
        return model::Error{std::string("no CUDA device can run: ") + cudaGetErrorString(code)};
    }
    if (count == 0) {
        return model::Error{"no CUDA device found"};
    }
    int device = 0;
    cudaDeviceProp prop{};
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
        static_cast<void>(cudaGetLastError());
        return model::Error{"cannot read the CUDA device's properties"};
    }
    return std::string(prop.name);
}

model::Result<RunOutcome> runTraced(const RunRequest& request, const ProgressFn& progress,
                                    const std::atomic<bool>* cancel) {
    std::lock_guard<std::mutex> lock(runMutex());
    if (model::Status s = validateRun(request); !s.ok()) {
        return s.error();
    }
    auto device = runDevice();
    if (!device.ok()) {
        return device.error();
    }
    auto workload = workloads::makeWorkload(request.workload);
    auto params = toParams(request);
    const workloads::WorkloadParams p = (*workload)->withDefaults(*params);

    cupti::TracerOptions options;
    options.gpuMetrics = request.gpuMetrics;
    options.metadata = runMetadata(request);  // every option, by the catalog's keys
    cupti::CuptiTracer& tracer = processTracer();
    if (model::Status s = tracer.start(options); !s.ok()) {
        return s.error();
    }
    const auto start = std::chrono::steady_clock::now();
    auto result = (*workload)->run(p, progress, cancel);
    const double wallMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    char wallText[32];
    std::snprintf(wallText, sizeof wallText, "%.3f", wallMs);
    tracer.setMetadata(workloads::kWallTimeKey, wallText);
    // Stop whatever happened: the tracer must be free for the next run.
    auto trace = tracer.stop();
    if (!result.ok()) {
        return result.error();
    }
    if (!trace.ok()) {
        return trace.error();
    }
    RunOutcome outcome;
    outcome.trace = *trace;
    outcome.checkPassed = result->passed;
    outcome.checkText = result->checkText;
    outcome.wallTimeMs = wallMs;
    outcome.timedPartMs = result->loopMs;
    outcome.summaryText = formatSummary(request, p, *result, **trace, wallMs, *device);
    return outcome;
}

}  // namespace wl::app
