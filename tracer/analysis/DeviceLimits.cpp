#include "analysis/DeviceLimits.h"

#include <array>
#include <string_view>

namespace wl::analysis {

namespace {
constexpr std::int64_t kKiB = 1024;
}

DeviceLimits architectureLimits(std::int32_t major, std::int32_t minor) {
    DeviceLimits l;
    l.computeMajor = major;
    l.computeMinor = minor;
    l.known = true;
    l.source = "sm_" + std::to_string(major) + std::to_string(minor) + " defaults";
    l.warpSize = 32;
    l.maxThreadsPerBlock = 1024;
    l.registersPerSm = 65536;
    l.registersPerBlock = 65536;
    l.registerAllocationUnit = 256;
    l.subPartitions = 4;
    l.maxRegistersPerThread = major >= 7 ? 256 : 255;
    l.sharedAllocationUnit = major >= 8 ? 128 : 256;
    l.reservedSharedPerBlockBytes = major >= 8 ? kKiB : 0;
    l.sharedPerBlockBytes = 48 * kKiB;
    switch (major) {
        case 7:
            if (minor == 5) {  // Turing
                l.maxThreadsPerSm = 1024;
                l.maxBlocksPerSm = 16;
                l.sharedPerSmBytes = 64 * kKiB;
                l.sharedPerBlockOptinBytes = 64 * kKiB;
            } else {  // Volta
                l.maxThreadsPerSm = 2048;
                l.maxBlocksPerSm = 32;
                l.sharedPerSmBytes = 96 * kKiB;
                l.sharedPerBlockOptinBytes = 96 * kKiB;
            }
            break;
        case 8:
            if (minor == 0) {  // A100
                l.maxThreadsPerSm = 2048;
                l.maxBlocksPerSm = 32;
                l.sharedPerSmBytes = 164 * kKiB;
                l.sharedPerBlockOptinBytes = 163 * kKiB;
            } else if (minor == 7) {
                l.maxThreadsPerSm = 2048;
                l.maxBlocksPerSm = 16;
                l.sharedPerSmBytes = 164 * kKiB;
                l.sharedPerBlockOptinBytes = 163 * kKiB;
            } else {  // 8.6, 8.9
                l.maxThreadsPerSm = 1536;
                l.maxBlocksPerSm = minor == 9 ? 24 : 16;
                l.sharedPerSmBytes = 100 * kKiB;
                l.sharedPerBlockOptinBytes = 99 * kKiB;
            }
            break;
        case 9:  // Hopper
            l.maxThreadsPerSm = 2048;
            l.maxBlocksPerSm = 32;
            l.sharedPerSmBytes = 228 * kKiB;
            l.sharedPerBlockOptinBytes = 227 * kKiB;
            break;
        case 10:
        case 11:
        case 12:  // Blackwell: data-centre parts like Hopper, consumer parts smaller
            if (major == 12) {
                l.maxThreadsPerSm = 1536;
                l.maxBlocksPerSm = 24;
                l.sharedPerSmBytes = 100 * kKiB;
                l.sharedPerBlockOptinBytes = 99 * kKiB;
            } else {
                l.maxThreadsPerSm = 2048;
                l.maxBlocksPerSm = 32;
                l.sharedPerSmBytes = 228 * kKiB;
                l.sharedPerBlockOptinBytes = 227 * kKiB;
            }
            break;
        case 6:
            l.maxThreadsPerSm = 2048;
            l.maxBlocksPerSm = 32;
            l.subPartitions = minor == 0 ? 2 : 4;
            l.sharedPerSmBytes = minor == 0 ? 64 * kKiB : 96 * kKiB;
            l.sharedPerBlockOptinBytes = 48 * kKiB;
            break;
        default:
            l = DeviceLimits{};
            l.source = "unknown";
            break;
    }
    return l;
}

namespace {

struct KnownDevice {
    std::string_view needle;  // substring of the device name
    std::int32_t major;
    std::int32_t minor;
    std::int32_t smCount;
};

// Most specific names first.
constexpr std::array<KnownDevice, 14> kKnownDevices = {{
    {"H100 PCIe", 9, 0, 114},
    {"H100", 9, 0, 132},
    {"H200", 9, 0, 132},
    {"GH200", 9, 0, 132},
    {"B200", 10, 0, 148},
    {"A100", 8, 0, 108},
    {"A30", 8, 0, 56},
    {"A10", 8, 6, 72},
    {"L40", 8, 9, 142},
    {"L4", 8, 9, 58},
    {"V100", 7, 0, 80},
    {"T4", 7, 5, 40},
    {"RTX 4090", 8, 9, 128},
    {"RTX 3090", 8, 6, 82},
}};

const KnownDevice* findKnown(std::string_view name) {
    for (const KnownDevice& k : kKnownDevices) {
        if (name.find(k.needle) != std::string_view::npos) {
            return &k;
        }
    }
    return nullptr;
}

template <class T>
void fill(T& field, T value) {
    if (value > 0) {
        field = value;
    }
}

}  // namespace

DeviceLimits deviceLimits(const model::DeviceProperties& p) {
    std::int32_t major = p.computeMajor;
    std::int32_t minor = p.computeMinor;
    std::int32_t smCount = p.smCount;
    const KnownDevice* known = findKnown(p.name);
    if (major <= 0 && known != nullptr) {
        major = known->major;
        minor = known->minor;
    }
    if (smCount <= 0 && known != nullptr) {
        smCount = known->smCount;
    }
    DeviceLimits l = architectureLimits(major, minor);
    if (!l.known) {
        return l;
    }
    const bool fromTrace = p.computeMajor > 0 && p.smCount > 0;
    l.source = fromTrace ? "trace" : "defaults for " + (p.name.empty() ? l.source : p.name);
    l.name = p.name;
    l.smCount = smCount;
    // What the trace says wins over the architecture table.
    fill(l.warpSize, p.warpSize);
    fill(l.maxThreadsPerBlock, p.maxThreadsPerBlock);
    fill(l.maxThreadsPerSm, p.maxThreadsPerSm);
    if (p.maxThreadsPerSm <= 0 && p.maxWarpsPerSm > 0) {
        l.maxThreadsPerSm = p.maxWarpsPerSm * l.warpSize;
    }
    fill(l.maxBlocksPerSm, p.maxBlocksPerSm);
    fill(l.registersPerSm, p.registersPerSm);
    fill(l.registersPerBlock, p.registersPerBlock);
    fill(l.sharedPerSmBytes, p.sharedMemoryPerSmBytes);
    fill(l.sharedPerBlockBytes, p.sharedMemoryPerBlockBytes);
    fill(l.sharedPerBlockOptinBytes, p.sharedMemoryPerBlockOptinBytes);
    if (l.smCount <= 0) {
        l.known = false;  // occupancy per SM works, but fill needs the SM count
        l.source = "unknown";
    }
    return l;
}

DeviceLimits deviceLimits(const model::Trace& trace, std::int32_t deviceId) {
    if (const model::DeviceProperties* p = trace.device(deviceId)) {
        return deviceLimits(*p);
    }
    // Imported traces sometimes carry the GPU's name only as metadata.
    model::DeviceProperties guess;
    guess.id = deviceId;
    guess.name = trace.metadataValue("device", trace.metadataValue("gpu"));
    if (guess.name.empty() && trace.devices().size() == 1) {
        guess = trace.devices().front();
    }
    // Else the GPU's row name ("GPU 0: NVIDIA H100 80GB HBM3") may name it.
    for (const model::Process& p : trace.processes()) {
        if (guess.name.empty() && p.deviceId == deviceId && findKnown(trace.str(p.nameId))) {
            guess.name = std::string(trace.str(p.nameId));
        }
    }
    if (guess.name.empty() && guess.computeMajor == 0) {
        DeviceLimits unknown;
        unknown.source = "unknown";
        return unknown;
    }
    return deviceLimits(guess);
}

DeviceLimits h100Limits() {
    model::DeviceProperties p;
    p.name = "NVIDIA H100 80GB HBM3";
    p.computeMajor = 9;
    p.computeMinor = 0;
    p.smCount = 132;
    DeviceLimits l = deviceLimits(p);
    return l;
}

}  // namespace wl::analysis
