#pragma once

#include <cstdint>

#include "analysis/DeviceLimits.h"
#include "model/Details.h"

namespace wl::analysis {

enum class OccupancyLimiter : std::uint8_t { None, Warps, Registers, SharedMemory, Blocks };
const char* toString(OccupancyLimiter limiter);  // "warps", "registers", "shared memory", ...

// Theoretical occupancy of one launch configuration on one SM, computed the way
// cudaOccupancyMaxActiveBlocksPerMultiprocessor does (default carveout, no clusters).
struct Occupancy {
    bool valid = false;  // false when the device limits are unknown
    std::int32_t warpsPerBlock = 0;
    std::int32_t blocksPerSm = 0;  // resident blocks per SM: the minimum of the limits below
    std::int32_t blocksByWarps = 0;
    std::int32_t blocksByRegisters = 0;
    std::int32_t blocksBySharedMemory = 0;
    std::int32_t blocksByLimit = 0;        // the device's max blocks per SM
    std::int32_t registersPerBlock = 0;    // as allocated
    std::int64_t sharedBytesPerBlock = 0;  // as allocated, with the per-block reserve
    OccupancyLimiter limiter = OccupancyLimiter::None;
    std::int32_t activeWarpsPerSm() const { return blocksPerSm * warpsPerBlock; }
    double theoreticalPct = 0.0;  // active warps / max warps per SM
};

Occupancy computeOccupancy(const DeviceLimits& limits, std::int64_t threadsPerBlock,
                           std::int32_t registersPerThread, std::int64_t sharedBytesPerBlock);

// How one kernel launch uses the GPU's warps: theoretical occupancy per SM, lanes used in its
// warps and how much of the whole GPU its grid can fill. single_thread_sum<<<1, 1>>> is
// one warp, 1 lane of 32, 1 SM of 132 on an H100.
struct WarpUse {
    Occupancy occupancy;
    std::int64_t threadsPerBlock = 0;
    std::int64_t blocks = 0;
    std::int64_t warpsPerBlock = 0;
    std::int64_t lanesUsedPerBlock = 0;  // = threads per block
    std::int64_t lanesPerBlock = 0;      // warps per block * warp size
    double laneUsePct = 0.0;
    std::int32_t smCount = 0;
    std::int64_t smsUsed = 0;         // SMs that get at least one block in the first wave
    std::int64_t residentBlocks = 0;  // blocks running at once: min(blocks, SMs * blocks/SM)
    std::int64_t activeWarps = 0;     // warps running at once on the whole GPU
    std::int64_t maxWarps = 0;        // SMs * warps per SM
    double warpFillPct = 0.0;         // activeWarps / maxWarps
    double gpuFillPct = 0.0;          // residentBlocks / (SMs * resident blocks per SM)
};

WarpUse computeWarpUse(const DeviceLimits& limits, const model::KernelDetail& kernel);

}  // namespace wl::analysis
