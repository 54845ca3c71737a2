#pragma once

#include <cstdint>
#include <string>

#include "model/DeviceProperties.h"
#include "model/Trace.h"

namespace wl::analysis {

// The per-SM resource limits that decide how many blocks of a kernel fit on an SM, with the
// allocation granularities of cudaOccupancyMaxActiveBlocksPerMultiprocessor. Filled from the
// trace's device properties; what a trace leaves out comes from the architecture (by compute
// capability) or from a known device name. Plain value; bytes and counts.
struct DeviceLimits {
    bool known = false;  // false: nothing to go on; occupancy is "unknown"
    std::string source;  // "trace", "trace + sm_90 defaults", "defaults for NVIDIA H100", "unknown"
    std::string name;
    std::int32_t computeMajor = 0;
    std::int32_t computeMinor = 0;
    std::int32_t smCount = 0;
    std::int32_t warpSize = 32;
    std::int32_t maxThreadsPerBlock = 0;
    std::int32_t maxThreadsPerSm = 0;
    std::int32_t maxBlocksPerSm = 0;
    std::int32_t registersPerSm = 0;
    std::int32_t registersPerBlock = 0;
    std::int32_t maxRegistersPerThread = 255;
    std::int32_t registerAllocationUnit = 256;  // registers per warp are rounded up to this
    std::int32_t subPartitions = 4;             // register files per SM (warp rounding)
    std::int64_t sharedPerSmBytes = 0;
    std::int64_t sharedPerBlockBytes = 0;       // default per-block limit
    std::int64_t sharedPerBlockOptinBytes = 0;  // with cudaFuncAttributeMaxDynamicSharedMemorySize
    std::int64_t reservedSharedPerBlockBytes = 0;  // taken by the driver per block (sm_80+: 1 KB)
    std::int32_t sharedAllocationUnit = 256;       // shared memory per block is rounded up to this

    std::int32_t maxWarpsPerSm() const { return warpSize > 0 ? maxThreadsPerSm / warpSize : 0; }
};

// Architecture defaults for a compute capability (known = false for one we do not know).
DeviceLimits architectureLimits(std::int32_t major, std::int32_t minor);
// Limits for a device as the trace describes it, completed from the architecture or the name.
DeviceLimits deviceLimits(const model::DeviceProperties& properties);
// Limits for a device of the trace; when the trace has no properties for it, defaults from the
// name of the only device it mentions, else unknown.
DeviceLimits deviceLimits(const model::Trace& trace, std::int32_t deviceId);
// The H100 SXM (sm_90, 132 SMs): what the bundled samples were recorded on.
DeviceLimits h100Limits();

}  // namespace wl::analysis
