#include "analysis/Occupancy.h"

#include <algorithm>
#include <limits>

namespace wl::analysis {

const char* toString(OccupancyLimiter limiter) {
    switch (limiter) {
        case OccupancyLimiter::Warps:
            return "warps";
        case OccupancyLimiter::Registers:
            return "registers";
        case OccupancyLimiter::SharedMemory:
            return "shared memory";
        case OccupancyLimiter::Blocks:
            return "blocks per SM";
        case OccupancyLimiter::None:
            break;
    }
    return "none";
}

namespace {

constexpr std::int32_t kNoLimit = std::numeric_limits<std::int32_t>::max();

std::int64_t divideRoundUp(std::int64_t x, std::int64_t y) {
    return (x + y - 1) / y;
}
std::int64_t roundUp(std::int64_t x, std::int64_t y) {
    return y * divideRoundUp(x, y);
}

std::int32_t clampInt(std::int64_t v) {
    return static_cast<std::int32_t>(std::min<std::int64_t>(v, kNoLimit));
}

// The shared memory carveout sizes an SM can be configured to (Volta and later): the SM gives a
// block the smallest configuration that holds it when the default does not.
std::int64_t alignCarveout(const DeviceLimits& l, std::int64_t bytes) {
    static constexpr std::int64_t kSteps[] = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
    for (std::int64_t kib : kSteps) {
        if (bytes <= kib * 1024 && kib * 1024 <= l.sharedPerSmBytes) {
            return kib * 1024;
        }
    }
    return l.sharedPerSmBytes;
}

std::int32_t blocksBySharedMemory(const DeviceLimits& l, std::int64_t sharedBytes,
                                  std::int64_t& allocated) {
    const std::int64_t unit = std::max(l.sharedAllocationUnit, 1);
    allocated = roundUp(sharedBytes + l.reservedSharedPerBlockBytes, unit);
    // A kernel that needs more than the default per-block limit must have opted in.
    std::int64_t perBlockLimit =
        (sharedBytes > l.sharedPerBlockBytes && l.sharedPerBlockOptinBytes > 0)
            ? l.sharedPerBlockOptinBytes
            : l.sharedPerBlockBytes;
    perBlockLimit += l.reservedSharedPerBlockBytes;
    if (allocated > perBlockLimit) {
        return 0;
    }
    std::int64_t perSm = l.sharedPerSmBytes;
    if (perSm < allocated) {
        perSm = alignCarveout(l, allocated);
    }
    return allocated > 0 ? clampInt(perSm / allocated) : kNoLimit;
}

std::int32_t blocksByRegisters(const DeviceLimits& l, std::int32_t registersPerThread,
                               std::int64_t warpsPerBlock, std::int32_t& allocatedPerBlock) {
    const std::int64_t perWarp = roundUp(std::int64_t{registersPerThread} * l.warpSize,
                                         std::max(l.registerAllocationUnit, 1));
    const std::int32_t subPartitions = std::max(l.subPartitions, 1);
    allocatedPerBlock = clampInt(perWarp * warpsPerBlock);
    // The hardware check assumes registers go to all sub-partitions at once.
    const std::int64_t assumedPerBlock = perWarp * roundUp(warpsPerBlock, subPartitions);
    if (l.registersPerBlock < assumedPerBlock || l.registersPerBlock < perWarp * warpsPerBlock ||
        registersPerThread > l.maxRegistersPerThread) {
        return 0;
    }
    if (perWarp <= 0) {
        return kNoLimit;  // register use unknown (imported traces): not a limit
    }
    // Registers live in per-sub-partition files: whole warps per file.
    const std::int64_t warpsPerSubPartition = (l.registersPerSm / subPartitions) / perWarp;
    return clampInt(warpsPerSubPartition * subPartitions / warpsPerBlock);
}

}  // namespace

Occupancy computeOccupancy(const DeviceLimits& l, std::int64_t threadsPerBlock,
                           std::int32_t registersPerThread, std::int64_t sharedBytesPerBlock) {
    Occupancy o;
    if (!l.known && l.maxThreadsPerSm <= 0) {
        return o;
    }
    if (threadsPerBlock <= 0 || l.warpSize <= 0) {
        return o;
    }
    o.valid = true;
    const std::int64_t warpsPerBlock = divideRoundUp(threadsPerBlock, l.warpSize);
    o.warpsPerBlock = clampInt(warpsPerBlock);
    o.blocksByWarps =
        threadsPerBlock > l.maxThreadsPerBlock ? 0 : clampInt(l.maxWarpsPerSm() / warpsPerBlock);
    o.blocksByLimit = l.maxBlocksPerSm;
    o.blocksByRegisters =
        blocksByRegisters(l, std::max(registersPerThread, 0), warpsPerBlock, o.registersPerBlock);
    o.blocksBySharedMemory = blocksBySharedMemory(l, std::max<std::int64_t>(sharedBytesPerBlock, 0),
                                                  o.sharedBytesPerBlock);

    // The tightest limit wins; on a tie name the one a user can most easily change.
    o.blocksPerSm = o.blocksByLimit;
    o.limiter = OccupancyLimiter::Blocks;
    const std::pair<std::int32_t, OccupancyLimiter> limits[] = {
        {o.blocksByWarps, OccupancyLimiter::Warps},
        {o.blocksByRegisters, OccupancyLimiter::Registers},
        {o.blocksBySharedMemory, OccupancyLimiter::SharedMemory},
    };
    for (const auto& [blocks, limiter] : limits) {
        if (blocks < o.blocksPerSm) {
            o.blocksPerSm = blocks;
            o.limiter = limiter;
        }
    }
    const std::int32_t maxWarps = l.maxWarpsPerSm();
    o.theoreticalPct =
        maxWarps > 0 ? 100.0 * o.activeWarpsPerSm() / static_cast<double>(maxWarps) : 0.0;
    return o;
}

WarpUse computeWarpUse(const DeviceLimits& l, const model::KernelDetail& k) {
    WarpUse w;
    w.threadsPerBlock = k.threadsPerBlock();
    w.blocks = k.blockCount();
    w.occupancy =
        computeOccupancy(l, w.threadsPerBlock, k.registersPerThread, k.sharedBytesPerBlock());
    const std::int64_t warpSize = l.warpSize > 0 ? l.warpSize : 32;
    w.warpsPerBlock = w.threadsPerBlock > 0 ? divideRoundUp(w.threadsPerBlock, warpSize) : 0;
    w.lanesUsedPerBlock = w.threadsPerBlock;
    w.lanesPerBlock = w.warpsPerBlock * warpSize;
    w.laneUsePct = w.lanesPerBlock > 0
                       ? 100.0 * static_cast<double>(w.lanesUsedPerBlock) / w.lanesPerBlock
                       : 0.0;
    w.smCount = l.smCount;
    if (l.smCount > 0 && w.occupancy.valid) {
        const std::int64_t capacity = std::int64_t{l.smCount} * w.occupancy.blocksPerSm;
        w.residentBlocks = std::min(w.blocks, capacity);
        w.smsUsed = std::min<std::int64_t>(w.blocks, l.smCount);
        w.activeWarps = w.residentBlocks * w.warpsPerBlock;
        w.maxWarps = std::int64_t{l.smCount} * l.maxWarpsPerSm();
        w.warpFillPct =
            w.maxWarps > 0 ? 100.0 * static_cast<double>(w.activeWarps) / w.maxWarps : 0.0;
        w.gpuFillPct =
            capacity > 0 ? 100.0 * static_cast<double>(w.residentBlocks) / capacity : 0.0;
    }
    return w;
}

}  // namespace wl::analysis
