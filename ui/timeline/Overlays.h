#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <QString>

#include "model/Slice.h"
#include "model/Time.h"
#include "model/Trace.h"

namespace wl::ui {

// An idle gap found by analysis, drawn hatched on the timeline. Plain value; times in ns since the
// trace origin.
struct GapOverlay {
    std::int32_t deviceId = 0;
    std::int64_t streamId = -1;  // -1 = the whole device (drawn on the device's idle row)
    model::TimeNs startNs = 0;
    model::TimeNs durationNs = 0;
    QString cause;    // analysis::toString(GapCause): "after_blocking_call" | "host" | "gpu_wait"
    QString tooltip;  // the explanation when known up front; else TimelineOverlays::gapDetails
    // What the explanation is made of, for gapDetails: the blocking call, the launching thread's
    // NVTX range, the call that launched the work that ended the gap (each may be invalid).
    model::SliceRef reason;
    model::SliceRef hostRange;
    model::SliceRef launch;
};

// A warp annotation for one kernel slice: theoretical occupancy shading and a low-fill mark.
struct KernelBadge {
    model::SliceRef slice;
    // Theoretical, 0..100: the analysis' double, so the tooltip rounds it as Details does.
    double occupancyPct = 0.0;
    bool lowFill = false;  // the grid leaves most of the GPU empty: the warning triangle
    QString tooltip;
    bool lowOccupancy = false;  // few warps per SM: said in the tooltip, the gauge shows it
};

// Everything analysis adds on top of a trace. Given to TimelineView::setOverlays() by value.
struct TimelineOverlays {
    std::vector<GapOverlay> gaps;
    // Writes a gap's explanation when its tooltip is shown, so a window with thousands of gaps
    // does not build thousands of texts up front (null: GapOverlay::tooltip is used).
    QString (*gapDetails)(const model::Trace& trace, const GapOverlay& gap) = nullptr;
    // Shared, not copied: the badges cover every kernel whatever the analysis window, so a new
    // window of the same trace keeps them (and the timeline keeps their index). Never null.
    std::shared_ptr<const std::vector<KernelBadge>> kernelBadges =
        std::make_shared<const std::vector<KernelBadge>>();
};

}  // namespace wl::ui
