#pragma once

#include <cstdint>
#include <string_view>

#include "model/Slice.h"

// Names shared by ChromeTraceWriter and ChromeTraceReader: Kineto's categories and args keys
// (so Perfetto and Holistic Trace Analysis read our files, and we read PyTorch profiler traces),
// plus the keys of the "warpline" block that makes export -> import -> export exact.
namespace wl::io::format {

// Event categories ("cat").
inline constexpr std::string_view kCatKernel = "kernel";
inline constexpr std::string_view kCatMemcpy = "gpu_memcpy";
inline constexpr std::string_view kCatMemset = "gpu_memset";
// A device memory allocation or release (ours: CUPTI's memory records; Kineto writes none).
inline constexpr std::string_view kCatMemory = "gpu_memory";
inline constexpr std::string_view kCatRuntime = "cuda_runtime";
inline constexpr std::string_view kCatDriver = "cuda_driver";
inline constexpr std::string_view kCatSync = "cuda_sync";
inline constexpr std::string_view kCatUserAnnotation = "user_annotation";
inline constexpr std::string_view kCatGpuUserAnnotation = "gpu_user_annotation";
inline constexpr std::string_view kCatOverhead = "overhead";
inline constexpr std::string_view kCatCpuOp = "cpu_op";
inline constexpr std::string_view kCatInstant = "instant";
inline constexpr std::string_view kCatLaunchFlow = "ac2g";  // API call -> GPU work arrows
inline constexpr std::string_view kCatFlow = "flow";        // any other arrow
// One GPU op waiting for another through a CUDA event (model::Dependency). Derived from the
// cuda_sync events' args, so our own reader skips these arrows and rebuilds them.
inline constexpr std::string_view kCatDependency = "cuda_dependency";
// Older PyTorch profilers' names for the same things (read, never written): 1.8-1.9 name GPU
// rows by tid strings such as "stream 7" and launch arrows have cat "async" (named "launch"),
// later "async_gpu" or "async_cpu_to_gpu".
inline constexpr std::string_view kCatKernelLegacy = "Kernel";
inline constexpr std::string_view kCatMemcpyLegacy = "Memcpy";
inline constexpr std::string_view kCatMemsetLegacy = "Memset";
inline constexpr std::string_view kCatRuntimeLegacy = "Runtime";
inline constexpr std::string_view kCatLaunchFlowLegacy = "async_gpu";
inline constexpr std::string_view kCatLaunchFlowOldest = "async";
inline constexpr std::string_view kCatLaunchFlowCpuToGpu = "async_cpu_to_gpu";  // 2022 builds

// Top-level keys.
inline constexpr std::string_view kTraceEvents = "traceEvents";
inline constexpr std::string_view kDeviceProperties = "deviceProperties";
inline constexpr std::string_view kDistributedInfo = "distributedInfo";
inline constexpr std::string_view kBaseTime = "baseTimeNanoseconds";
inline constexpr std::string_view kMetadata = "warplineMetadata";
inline constexpr std::string_view kWarpline = "warpline";
inline constexpr std::int64_t kWarplineVersion = 1;
// In the "warpline" block of a trace whose events are on their producer's rows (an imported
// trace): the block describes no rows, and a reader reads the events as that producer's.
inline constexpr std::string_view kWarplineRows = "rows";
inline constexpr std::string_view kWarplineProducerRows = "producer";

// FNV-1a, for switching on keys: equal hashes of two case labels fail to compile, and every match
// is confirmed with a string compare.
constexpr std::uint32_t keyHash(std::string_view s) {
    std::uint32_t h = 2166136261u;
    for (char c : s) {
        h ^= static_cast<unsigned char>(c);
        h *= 16777619u;
    }
    return h;
}

// Computed by the writer for a copy or memset with bytes and a duration.
inline constexpr std::string_view kArgBandwidth = "memory bandwidth (GB/s)";

// The args keys the writer writes for a slice of this kind, from the model's fields. An imported
// event's other args are kept with its slice (Trace::extraArgs) and written after these, so
// export loses nothing and never writes a key twice.
constexpr bool writerWritesArg(model::SliceKind kind, std::string_view key) {
    constexpr std::string_view kGpu[] = {"device", "stream", "correlation", "graph id",
                                         "graph node id"};
    constexpr std::string_view kKernel[] = {"grid",
                                            "block",
                                            "registers per thread",
                                            "shared memory",
                                            "static shared memory",
                                            "dynamic shared memory",
                                            "warps per SM",
                                            "est. achieved occupancy %"};
    constexpr std::string_view kMemcpy[] = {
        "bytes",     "memory bandwidth (GB/s)", "copy kind", "src kind", "dst kind", "src device",
        "dst device"};
    constexpr std::string_view kMemset[] = {"bytes", kArgBandwidth, "value", "memory kind"};
    constexpr std::string_view kMemory[] = {"device",      "correlation",  "stream",
                                            "memory op",   "bytes",        "address",
                                            "memory kind", "pool address", "pool reserve"};
    constexpr std::string_view kSync[] = {"device",
                                          "correlation",
                                          "cuda_sync_kind",
                                          "stream",
                                          "wait_on_cuda_event_id",
                                          "wait_on_stream",
                                          "wait_on_cuda_event_record_corr_id"};
    constexpr std::string_view kApi[] = {"correlation", "cbid", "return code"};
    constexpr std::string_view kNvtx[] = {"correlation", "color",         "domain",
                                          "category",    "category name", "payload"};
    auto in = [key](const auto& keys) {
        for (std::string_view k : keys) {
            if (k == key)
                return true;
        }
        return false;
    };
    switch (kind) {
        case model::SliceKind::Kernel:
            return in(kGpu) || in(kKernel);
        case model::SliceKind::Memcpy:
            return in(kGpu) || in(kMemcpy);
        case model::SliceKind::Memset:
            return in(kGpu) || in(kMemset);
        case model::SliceKind::Memory:
            return in(kMemory);
        case model::SliceKind::Sync:
            return in(kSync);
        case model::SliceKind::RuntimeApi:
        case model::SliceKind::DriverApi:
            return in(kApi);
        case model::SliceKind::Nvtx:
            return in(kNvtx);
        default:
            return key == "correlation";
    }
}

}  // namespace wl::io::format
