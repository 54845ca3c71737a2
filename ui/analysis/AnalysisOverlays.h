#pragma once

#include "analysis/Analysis.h"
#include "model/Trace.h"
#include "ui/timeline/Overlays.h"

namespace wl::ui {

// Turns analysis results into what the timeline draws on top of a trace: hatched idle gaps (device
// and stream gaps over the threshold, with duration and cause in the tooltip) and a warp badge
// on every kernel (theoretical occupancy; a low-fill mark on kernels that leave most of the GPU
// empty). Pure function of its inputs; GUI thread or not.
TimelineOverlays makeOverlays(const model::Trace& trace, const analysis::AnalysisResult& result);

// The tooltip text of one gap ("Idle 1.23 ms — host_sync: the host waited in ...").
QString gapTooltip(const model::Trace& trace, const analysis::IdleGap& gap);

}  // namespace wl::ui
