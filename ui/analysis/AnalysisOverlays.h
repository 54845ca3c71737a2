#pragma once

#include "analysis/Analysis.h"
#include "model/Trace.h"
#include "ui/timeline/Overlays.h"

namespace wl::ui {

// Turns analysis results into what the timeline draws on top of a trace: hatched idle gaps (device
// and stream gaps over the threshold, with duration and cause in the tooltip) and a warp badge
// on every kernel (theoretical occupancy; a low-fill mark on kernels that leave most of the GPU
// empty). Pure function of its inputs; GUI thread or not.
// `badges`: badges made earlier for this trace with the same thresholds (another window of it):
// shared instead of built again, since they cover every kernel whatever the window.
TimelineOverlays makeOverlays(const model::Trace& trace, const analysis::AnalysisResult& result,
                              std::shared_ptr<const std::vector<KernelBadge>> badges = nullptr);

// One line saying what a gap cause means, for a gap's tooltip.
QString gapCauseText(analysis::GapCause cause);
// The lines under a gap's tooltip heading: where, what the cause means, the blocking call, the
// launching thread's NVTX range, the call that launched the work that ended the gap. Built when
// the tooltip is shown (TimelineOverlays::gapDetails).
QString gapTooltip(const model::Trace& trace, const GapOverlay& gap);

}  // namespace wl::ui
