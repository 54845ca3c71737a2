#pragma once

#include <QString>
#include <memory>
#include <optional>
#include <utility>

#include "analysis/Analysis.h"
#include "model/Trace.h"
#include "ui/timeline/Overlays.h"

namespace wl::app {

// What the window shows on top of a trace: the analysis result and the timeline overlays made
// from it (idle gaps, warp badges). Computed off the UI thread by analyzeDocument(); immutable
// and shared afterwards.
struct DocumentAnalysis {
    std::shared_ptr<const analysis::AnalysisResult> result;
    ui::TimelineOverlays overlays;
    QString summary;  // one line for the status bar
    // Where the GPU did most of its work (see gpuFocusRange); empty when the whole trace is.
    std::optional<std::pair<model::TimeNs, model::TimeNs>> focus;
};

// The time range that holds the GPU's work, leaving out thin tails (a warm-up kernel, setup and
// teardown on the host): from where a little of the GPU op time has passed to where nearly all has,
// with a small margin (0.5 % and 99.5 %). Empty when that range is most of the trace anyway, or
// there is no GPU work.
std::optional<std::pair<model::TimeNs, model::TimeNs>> gpuFocusRange(const model::Trace& trace);

// Runs the analysis and builds the overlays (ui::makeOverlays). Pure; safe on a worker thread.
std::shared_ptr<const DocumentAnalysis> analyzeDocument(const model::Trace& trace,
                                                        const analysis::AnalysisOptions& options);

// "GPU busy 62.4 % · copy/compute overlap 35.0 % · 3 findings".
QString analysisSummary(const analysis::AnalysisResult& result);

}  // namespace wl::app
