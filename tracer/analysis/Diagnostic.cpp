#include "analysis/Diagnostic.h"

namespace wl::analysis {

const char* toString(RuleId rule) {
    switch (rule) {
        case RuleId::PageableMemcpy:
            return "pageable-memcpy";
        case RuleId::SyncMemcpy:
            return "sync-memcpy";
        case RuleId::SyncApiInLoop:
            return "sync-api-in-loop";
        case RuleId::GpuGap:
            return "gpu-gap";
        case RuleId::LowUtilization:
            return "low-utilization";
        case RuleId::LowOccupancyKernel:
            return "low-occupancy-kernel";
        case RuleId::StreamsSerialized:
            return "streams-serialized";
        case RuleId::MissedCopyOverlap:
            return "missed-copy-overlap";
        case RuleId::HostRangeStallsGpu:
            return "host-range-stalls-gpu";
        case RuleId::LaunchBound:
            return "launch-bound";
        case RuleId::LibraryKernels:
            return "library-kernels";
        case RuleId::AllocInLoop:
            return "alloc-in-loop";
        case RuleId::DevicesWait:
            return "devices-wait";
        case RuleId::CollectiveWait:
            return "collective-wait";
    }
    return "unknown";
}

std::optional<RuleId> ruleFromString(std::string_view id) {
    for (int i = 0; i < kRuleCount; ++i) {
        const auto rule = static_cast<RuleId>(i);
        if (id == toString(rule)) {
            return rule;
        }
    }
    return std::nullopt;
}

}  // namespace wl::analysis
