#include "analysis/Diagnostic.h"

#include <array>
#include <utility>

namespace wl::analysis {

namespace {

// Each rule's id, in RuleId's order (checked below and by RuleIds tests).
constexpr std::array<std::pair<RuleId, const char*>, kRuleCount> kRuleIds{{
    {RuleId::PageableMemcpy, "pageable-memcpy"},
    {RuleId::SyncMemcpy, "sync-memcpy"},
    {RuleId::SyncApiInLoop, "sync-api-in-loop"},
    {RuleId::GpuGap, "gpu-gap"},
    {RuleId::LowUtilization, "low-utilization"},
    {RuleId::LowOccupancyKernel, "low-occupancy-kernel"},
    {RuleId::StreamsSerialized, "streams-serialized"},
    {RuleId::MissedCopyOverlap, "missed-copy-overlap"},
    {RuleId::HostRangeStallsGpu, "host-range-stalls-gpu"},
    {RuleId::LaunchBound, "launch-bound"},
    {RuleId::LibraryKernels, "library-kernels"},
    {RuleId::AllocInLoop, "alloc-in-loop"},
    {RuleId::DevicesWait, "devices-wait"},
    {RuleId::CollectiveWait, "collective-wait"},
}};

constexpr bool inRuleOrder() {
    for (std::size_t i = 0; i < kRuleIds.size(); ++i) {
        if (kRuleIds[i].first != static_cast<RuleId>(i) || kRuleIds[i].second == nullptr) {
            return false;
        }
    }
    return true;
}
// A rule added to RuleId without its id leaves the table's last entry empty: this fails then.
static_assert(inRuleOrder(), "kRuleIds must list every RuleId, in order, with its id");

}  // namespace

const char* toString(RuleId rule) {
    const auto index = static_cast<std::size_t>(rule);
    return index < kRuleIds.size() ? kRuleIds[index].second : "unknown";
}

std::optional<RuleId> ruleFromString(std::string_view id) {
    for (const auto& [rule, name] : kRuleIds) {
        if (id == name) {
            return rule;
        }
    }
    return std::nullopt;
}

}  // namespace wl::analysis
