#pragma once

#include <cstdint>
#include <string_view>

// Names shared by ChromeTraceWriter and ChromeTraceReader: Kineto's categories and top-level keys
// (so Perfetto and Holistic Trace Analysis read our files, and we read PyTorch profiler traces),
// plus the keys of the "warpline" block that makes export -> import -> export exact. The args
// keys are in one table of their own (ArgKeys.h).
namespace wl::io::format {

// Event categories ("cat").
inline constexpr std::string_view kCatKernel = "kernel";
inline constexpr std::string_view kCatMemcpy = "gpu_memcpy";
inline constexpr std::string_view kCatMemset = "gpu_memset";
// A device memory allocation or release (ours: CUPTI's memory records; Kineto writes none).
inline constexpr std::string_view kCatMemory = "gpu_memory";
// A migration or page fault of managed memory (ours: CUPTI's unified-memory records, an Nsight
// Systems report's; Kineto writes none).
inline constexpr std::string_view kCatUnifiedMemory = "gpu_unified_memory";
inline constexpr std::string_view kCatRuntime = "cuda_runtime";
inline constexpr std::string_view kCatDriver = "cuda_driver";
inline constexpr std::string_view kCatSync = "cuda_sync";
inline constexpr std::string_view kCatUserAnnotation = "user_annotation";
inline constexpr std::string_view kCatGpuUserAnnotation = "gpu_user_annotation";
inline constexpr std::string_view kCatOverhead = "overhead";
inline constexpr std::string_view kCatCpuOp = "cpu_op";
inline constexpr std::string_view kCatInstant = "instant";
// Any other host slice (an OS call, a Python frame whose own category a merge left behind): not
// "cpu_op", which readers such as Holistic Trace Analysis take for an operator.
inline constexpr std::string_view kCatOther = "other";
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
inline constexpr std::string_view kCatCpuOpLegacy = "Operator";
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

}  // namespace wl::io::format
