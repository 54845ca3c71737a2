#pragma once

#include <cstdint>
#include <string>

namespace wl::model {

// What analysis needs to know about a GPU, carried with the trace (exported as Kineto's
// "deviceProperties"). Zero means unknown.
struct DeviceProperties {
    std::int32_t id = 0;  // CUDA device ordinal
    std::string name;
    std::int32_t computeMajor = 0;
    std::int32_t computeMinor = 0;
    std::int32_t smCount = 0;
    std::int32_t warpSize = 32;
    std::int32_t maxThreadsPerBlock = 0;
    std::int32_t maxThreadsPerSm = 0;
    std::int32_t maxBlocksPerSm = 0;
    std::int32_t maxWarpsPerSm = 0;  // maxThreadsPerSm / warpSize
    std::int32_t registersPerSm = 0;
    std::int32_t registersPerBlock = 0;
    std::int64_t sharedMemoryPerSmBytes = 0;
    std::int64_t sharedMemoryPerBlockBytes = 0;  // default per-block limit
    std::int64_t sharedMemoryPerBlockOptinBytes = 0;
    std::int64_t totalMemoryBytes = 0;
    std::int64_t l2CacheBytes = 0;
    std::int32_t clockRateKHz = 0;
    std::int32_t memoryClockRateKHz = 0;
    std::int32_t memoryBusWidthBits = 0;
    std::int32_t pcieGeneration = 0;
    std::int32_t pcieLinkWidth = 0;
    double memoryBandwidthGBps = 0.0;  // theoretical peak, GB/s (1e9 bytes/s)
    // Which physical GPU this was, across processes and hosts (ordinals differ between
    // processes with CUDA_VISIBLE_DEVICES): "GPU-8f2c...", "0000:1b:00.0". Empty when unknown.
    std::string uuid;
    std::string pciBusId;
};

}  // namespace wl::model
