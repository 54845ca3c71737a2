#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/DeviceLimits.h"
#include "analysis/Diagnostic.h"
#include "analysis/GpuBusy.h"
#include "analysis/Occupancy.h"
#include "analysis/Options.h"
#include "analysis/Overlap.h"
#include "analysis/Statistics.h"
#include "analysis/Utilization.h"
#include "analysis/Window.h"
#include "model/Trace.h"

namespace wl::analysis {

// Everything the analysis says about one window of a trace. A plain value computed once by
// analyzeTrace();
// safe to share read-only between threads. Refers to the trace's slices by SliceRef, so keep it
// with the trace it came from.
// A device of which a row selection holds only some of the streams that worked in its span.
struct DeviceCoverage {
    std::int32_t deviceId = 0;
    std::size_t streamsSelected = 0;  // of those that worked in the span
    std::size_t streamsWorking = 0;
};

struct AnalysisResult {
    AnalysisOptions options;
    std::map<std::int32_t, DeviceLimits> limits;  // per device that ran GPU work
    UtilizationResult utilization;
    OverlapStats overlap;
    Statistics statistics;
    std::vector<Diagnostic> diagnostics;  // warnings first, then by time at stake (costNs)
    // The devices a selection of rows holds only in part (empty for any other window): their
    // device-wide findings (Rule::deviceWide) are left out, since the rows left out worked too.
    std::vector<DeviceCoverage> partialDevices;

    // How busy the GPUs were: the mean over them and the time any of them was busy (GpuBusy.h).
    GpuBusy gpuBusy() const { return analysis::gpuBusy(utilization, statistics.rows); }
    double gpuBusyPct() const { return gpuBusy().meanPct(); }  // the mean over the GPUs
    // The part of the trace every figure and finding describes.
    const AnalysisWindow& window() const { return utilization.window; }
    // Diagnostics of one rule (empty when it did not fire).
    std::vector<const Diagnostic*> findings(RuleId rule) const;
    bool fired(RuleId rule) const { return !findings(rule).empty(); }
    const DeviceLimits& limitsFor(std::int32_t deviceId) const;
};

// What a selection of rows leaves out of the findings, in one sentence ("The selection holds 1 of
// the 2 streams that worked on GPU 0 in its span: findings about the whole device ... are left
// out."); empty when it leaves out nothing.
std::string describeCoverage(const AnalysisResult& result);

// Runs every analysis and rule over a window of the trace (see Window.h). O(n log n) in the
// number of slices; no threads.
AnalysisResult analyzeTrace(const model::Trace& trace, const AnalysisOptions& options,
                            const AnalysisWindow& window);
// Over the default window: the capture range when the trace has one, else the whole trace.
AnalysisResult analyzeTrace(const model::Trace& trace, const AnalysisOptions& options = {});
// The same over `window`, for work that may be called off (a newer request, a closed window):
// `cancel` (when not null) is looked at between the rules and while the idle gaps are walked;
// once it is set the analysis stops and returns nothing, never a partial result.
std::optional<AnalysisResult> analyzeTrace(const model::Trace& trace,
                                           const AnalysisOptions& options,
                                           const AnalysisWindow& window,
                                           const std::atomic<bool>* cancel);

// The warp use of one kernel slice (invalid occupancy when its device's limits are unknown or the
// slice has no kernel details).
WarpUse warpUseOf(const model::Trace& trace, const AnalysisResult& result, model::SliceRef kernel);

// What is low about a kernel's warp use, against the options' thresholds: the one judgement the
// low-occupancy-kernel rule and the timeline's marks share. All false when occupancy is unknown.
struct WarpFlags {
    bool lowOccupancy = false;  // few warps per SM (theoretical occupancy)
    bool lowFill = false;       // the grid leaves most of the GPU empty
    bool lowLanes = false;      // warps with idle lanes (block size not a multiple of 32)
    bool any() const { return lowOccupancy || lowFill || lowLanes; }
};
WarpFlags judgeWarpUse(const WarpUse& use, const AnalysisOptions& options);

}  // namespace wl::analysis
