#include "cupti/RecordSettings.h"

#include <charconv>
#include <cstdlib>

namespace wl::cupti {
namespace {

constexpr const char* kCaptureRangeEnv = "WARPLINE_RECORD_CAPTURE_RANGE";
constexpr const char* kCaptureEndEnv = "WARPLINE_RECORD_CAPTURE_END";
constexpr const char* kDelayEnv = "WARPLINE_RECORD_DELAY";
constexpr const char* kDurationEnv = "WARPLINE_RECORD_DURATION";
constexpr const char* kNvtxEnv = "WARPLINE_RECORD_NVTX";
constexpr const char* kCudaApiEnv = "WARPLINE_RECORD_CUDA_API";
constexpr const char* kQueriesEnv = "WARPLINE_RECORD_CUDA_API_QUERIES";
constexpr const char* kBufferEnv = "WARPLINE_RECORD_BUFFER_MIB";
constexpr const char* kForceEnv = "WARPLINE_RECORD_FORCE_OVERWRITE";
constexpr const char* kGpuMetricsEnv = "WARPLINE_RECORD_GPU_METRICS";
constexpr const char* kUmMigrationsEnv = "WARPLINE_RECORD_CUDA_UM_MIGRATIONS";
constexpr const char* kUmCpuFaultsEnv = "WARPLINE_RECORD_CUDA_UM_CPU_PAGE_FAULTS";
constexpr const char* kUmGpuFaultsEnv = "WARPLINE_RECORD_CUDA_UM_GPU_PAGE_FAULTS";
constexpr std::size_t kMaxBufferMiB = 256;

model::Error error(std::string message) {
    return model::Error{std::move(message), {}, -1};
}

std::string env(const char* name) {
    const char* value = std::getenv(name);
    return value == nullptr ? std::string() : std::string(value);
}

}  // namespace

model::Status RecordSettings::check() const {
    if (auto capture = checked(); !capture.ok()) {
        return capture.error();
    }
    return {};
}

model::Result<analysis::CaptureRange> RecordSettings::checked() const {
    auto capture =
        analysis::parseCaptureRange(captureRange, captureEnd, delaySeconds, durationSeconds);
    if (!capture.ok()) {
        return capture.error();
    }
    if (cudaApi != "runtime" && cudaApi != "driver" && cudaApi != "both" && cudaApi != "none") {
        return error("--cuda-api '" + cudaApi + "' is not one of runtime, driver, both, none");
    }
    if (bufferMiB < 1 || bufferMiB > kMaxBufferMiB) {
        return error("--buffer-size must be 1 to " + std::to_string(kMaxBufferMiB) + " MiB");
    }
    return capture;
}

model::Status RecordSettings::setTrace(std::string_view list) {
    bool cuda = false;
    traceNvtx = false;
    while (!list.empty()) {
        const auto comma = list.find(',');
        const std::string_view item = list.substr(0, comma);
        if (item == "cuda") {
            cuda = true;
        } else if (item == "nvtx") {
            traceNvtx = true;
        } else {
            return error("--trace: '" + std::string(item) +
                         "' is not one of cuda, nvtx (comma-separated)");
        }
        list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    }
    if (!cuda) {
        return error("--trace must include cuda (GPU work is always recorded; nvtx is optional)");
    }
    return {};
}

model::Status RecordSettings::setBufferSize(std::string_view mib) {
    std::size_t value = 0;
    const auto [end, ec] = std::from_chars(mib.data(), mib.data() + mib.size(), value);
    if (ec != std::errc() || end != mib.data() + mib.size() || value < 1 || value > kMaxBufferMiB) {
        return error("--buffer-size '" + std::string(mib) + "' is not a size of 1 to " +
                     std::to_string(kMaxBufferMiB) + " MiB");
    }
    bufferMiB = value;
    return {};
}

model::Status RecordSettings::setUnifiedMemory(std::string_view option, std::string_view value) {
    bool* field = option == "--cuda-um-migrations"        ? &unifiedMemory.migrations
                  : option == "--cuda-um-cpu-page-faults" ? &unifiedMemory.cpuPageFaults
                  : option == "--cuda-um-gpu-page-faults" ? &unifiedMemory.gpuPageFaults
                                                          : nullptr;
    if (field == nullptr) {
        return error("'" + std::string(option) + "' is not a unified memory option");
    }
    if (value != "true" && value != "false") {
        return error(std::string(option) + " '" + std::string(value) + "' is not true or false");
    }
    *field = value == "true";
    return {};
}

void RecordSettings::exportToEnvironment() const {
    setenv(kCaptureRangeEnv, captureRange.c_str(), 1);
    setenv(kCaptureEndEnv, captureEnd.c_str(), 1);
    setenv(kDelayEnv, delaySeconds.c_str(), 1);
    setenv(kDurationEnv, durationSeconds.c_str(), 1);
    setenv(kNvtxEnv, traceNvtx ? "1" : "0", 1);
    setenv(kCudaApiEnv, cudaApi.c_str(), 1);
    setenv(kQueriesEnv, cudaApiQueries ? "1" : "0", 1);
    setenv(kBufferEnv, std::to_string(bufferMiB).c_str(), 1);
    setenv(kForceEnv, forceOverwrite ? "1" : "0", 1);
    setenv(kGpuMetricsEnv, gpuMetrics ? "1" : "0", 1);
    setenv(kUmMigrationsEnv, unifiedMemory.migrations ? "1" : "0", 1);
    setenv(kUmCpuFaultsEnv, unifiedMemory.cpuPageFaults ? "1" : "0", 1);
    setenv(kUmGpuFaultsEnv, unifiedMemory.gpuPageFaults ? "1" : "0", 1);
}

RecordSettings RecordSettings::fromEnvironment() {
    RecordSettings s;
    s.captureRange = env(kCaptureRangeEnv);
    s.captureEnd = env(kCaptureEndEnv);
    s.delaySeconds = env(kDelayEnv);
    s.durationSeconds = env(kDurationEnv);
    s.traceNvtx = env(kNvtxEnv) != "0";
    if (const std::string api = env(kCudaApiEnv); !api.empty()) {
        s.cudaApi = api;
    }
    s.cudaApiQueries = env(kQueriesEnv) == "1";
    if (const std::string mib = env(kBufferEnv); !mib.empty()) {
        (void)s.setBufferSize(mib);  // checked by the recorder; a bad value keeps the default
    }
    s.forceOverwrite = env(kForceEnv) == "1";
    s.gpuMetrics = env(kGpuMetricsEnv) == "1";
    // Unset (a hand-made environment): the defaults.
    if (const std::string on = env(kUmMigrationsEnv); !on.empty()) {
        s.unifiedMemory.migrations = on == "1";
    }
    s.unifiedMemory.cpuPageFaults = env(kUmCpuFaultsEnv) == "1";
    s.unifiedMemory.gpuPageFaults = env(kUmGpuFaultsEnv) == "1";
    return s;
}

model::Status RecordSettings::applyTo(TracerOptions& options) const {
    auto capture = checked();
    if (!capture.ok()) {
        return capture.error();
    }
    options.capture = capture.value();
    options.traceNvtx = traceNvtx;
    options.traceApi = cudaApi != "none";
    options.traceRuntimeApi = cudaApi == "runtime" || cudaApi == "both";
    options.traceDriverApi = cudaApi == "driver" || cudaApi == "both";
    options.recordStateQueries = cudaApiQueries;
    options.bufferBytes = bufferMiB << 20;
    options.gpuMetrics = gpuMetrics;
    options.unifiedMemory = unifiedMemory;
    return {};
}

}  // namespace wl::cupti
