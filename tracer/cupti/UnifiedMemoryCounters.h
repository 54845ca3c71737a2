#pragma once

#include <cupti.h>

#include <string>
#include <vector>

namespace wl::cupti {

class CuptiApi;

// Which of CUPTI's unified-memory counters a run records (`record --cuda-um-*`). Each costs the
// program time only where it uses managed memory: the driver reports every migration or fault
// it handles, and faults are many.
struct UnifiedMemoryOptions {
    // Bytes migrated host to device, device to host and between GPUs; with them the thrashing,
    // throttling and remote maps the GPU reports (they say why migrations repeat).
    bool migrations = false;
    bool cpuPageFaults = false;  // the host touching managed memory that is on a GPU
    bool gpuPageFaults = false;  // kernels touching managed memory that is not on their GPU

    bool any() const { return migrations || cpuPageFaults || gpuPageFaults; }
};

// The trace's metadata key that says which counters were asked for ("migrations, GPU page
// faults"), so that a trace without faults says whether there were none or none were recorded.
inline constexpr const char* kUnifiedMemoryCountersKey = "unified memory counters";
// The value of that key ("" when none were asked for).
std::string unifiedMemoryCountersText(const UnifiedMemoryOptions& options);

// What configuring CUPTI's unified-memory counters gave: whether the activity kind is on, and
// what the user must be told. Nothing asked for is lost without a warning.
struct UnifiedMemorySetup {
    bool enabled = false;  // CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER is on
    // CUPTI answered "not initialised" (the configuration must come after the driver's): the
    // caller tries again once the program's first CUDA context exists.
    bool tooEarly = false;
    std::vector<std::string> warnings;  // what was asked for and is not recorded, and why
    std::vector<std::string> notes;     // what the GPU does not report (thrashing, ...)
};

// Configures the counters `options` ask for and enables their activity kind. Where CUPTI refuses
// the whole set (an old GPU has no GPU page faults, WSL or MPS no unified-memory profiling at
// all), each option is tried alone so that the others are still recorded; the optional counters
// (thrashing, throttling, remote maps, device-to-device migrations) are only noted when refused.
// One configuration call holds everything that is on: CUPTI may replace, not add to, the last.
UnifiedMemorySetup configureUnifiedMemory(CuptiApi& api, const UnifiedMemoryOptions& options);

}  // namespace wl::cupti
