#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/Slice.h"
#include "model/Time.h"

namespace wl::analysis {

// The rules that explain a trace, by name. Each rule's stable id ("pageable-memcpy": the command
// line's JSON and tests use it) and its check are registered beside the rule, in its *Rules.cpp
// (see Rules.h). A new rule goes before Count; a name with no registered rule reads "unknown".
enum class RuleId : std::uint8_t {
    PageableMemcpy,
    SyncMemcpy,
    SyncApiInLoop,
    GpuGap,
    LowUtilization,
    LowOccupancyKernel,
    StreamsSerialized,
    MissedCopyOverlap,
    HostRangeStallsGpu,
    LaunchBound,
    LibraryKernels,
    AllocInLoop,
    DevicesWait,
    CollectiveWait,
    HostCodeStallsGpu,
    UnifiedMemoryStallsKernel,
    Count,  // not a rule: the end of the names (nothing to bump: it follows the last one)
};
const char* toString(RuleId rule);
std::optional<RuleId> ruleFromString(std::string_view id);

enum class Severity : std::uint8_t { Info, Warning };

// One finding: what happened (one line), how to fix it, how often, and the slices that show it
// (capped; count says how many there were). [startNs, endNs) is where to look on the timeline.
struct Diagnostic {
    RuleId rule = RuleId::GpuGap;
    Severity severity = Severity::Warning;
    std::uint64_t count = 0;
    std::string message;
    std::string fix;
    std::vector<model::SliceRef> evidence;
    model::TimeNs startNs = 0;
    model::TimeNs endNs = 0;
    // The time at stake: at most what fixing it could win back (the GPU's idle time, the copy or
    // kernel time that could be shorter or hidden). Findings are ordered by it.
    model::TimeNs costNs = 0;
    std::int32_t deviceId = -1;
};

}  // namespace wl::analysis
