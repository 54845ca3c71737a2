#pragma once

#include <cstdint>
#include <vector>

#include "analysis/Window.h"
#include "model/Trace.h"

namespace wl::analysis {

// How far the host ran ahead of one GPU inside the window, from the trace's launch queue counter
// (ops launched and not yet finished; TraceBuilder makes it from the launches): the deepest and
// the time-weighted mean queue, and the share of the window it was empty (nothing queued: the
// GPU idles until the host launches more).
struct LaunchQueueStats {
    std::int32_t deviceId = 0;
    double maxDepth = 0.0;
    double meanDepth = 0.0;
    double emptyPct = 0.0;  // 0..100 of the window
};

// One entry per GPU process that has a launch queue (none for a trace without launch links).
std::vector<LaunchQueueStats> launchQueueStats(const model::Trace& trace,
                                               const AnalysisWindow& window);

}  // namespace wl::analysis
