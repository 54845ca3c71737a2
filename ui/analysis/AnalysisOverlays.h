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
// The two halves of makeOverlays. Gaps depend on the analysis window; warp badges do not (every
// kernel of the trace gets one), so a new window of the same trace can keep the badges it had.
std::vector<GapOverlay> makeGapOverlays(const model::Trace& trace,
                                        const analysis::AnalysisResult& result);
std::vector<KernelBadge> makeKernelBadges(const model::Trace& trace,
                                          const analysis::AnalysisResult& result);

// One line saying what a gap cause means, for tooltips and the legend.
QString gapCauseText(analysis::GapCause cause);
// The lines under a gap's tooltip heading: where, what the cause means, the blocking call, the
// launching thread's NVTX range, the call that launched the work that ended the gap. Built when
// the tooltip is shown (TimelineOverlays::gapDetails).
QString gapTooltip(const model::Trace& trace, const GapOverlay& gap);

}  // namespace wl::ui
