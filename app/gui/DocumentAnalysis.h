#pragma once

#include <QString>
#include <atomic>
#include <memory>
#include <optional>
#include <utility>

#include "analysis/Analysis.h"
#include "analysis/Ranks.h"
#include "analysis/Summary.h"
#include "model/Trace.h"
#include "ui/timeline/Overlays.h"

namespace wl::app {

// What the window shows on top of a trace: the analysis result and the timeline overlays made
// from it (idle gaps, warp badges). Computed off the UI thread by analyzeDocument(); immutable
// and shared afterwards.
struct DocumentAnalysis {
    analysis::WindowRequest request;  // what was asked; result->window() is what it resolved to
    std::shared_ptr<const analysis::AnalysisResult> result;
    ui::TimelineOverlays overlays;
    QString summary;  // one line for the status bar
    // A job of several ranks opened together: the cross-rank analysis over the same window
    // (null for a trace of one process or one rank).
    std::shared_ptr<const analysis::RankStats> ranks;
    // The Summary view's figures over the same window (iterations, utilisation over time,
    // operators, memory, ranks).
    std::shared_ptr<const analysis::Summary> figures;
    // Where the GPU did most of its work (see gpuFocusRange); empty when the whole trace is.
    std::optional<std::pair<model::TimeNs, model::TimeNs>> focus;
};

// The time range that holds the GPU's work, leaving out thin tails (a warm-up kernel, setup and
// teardown on the host): from where a little of the GPU op time has passed to where nearly all has,
// with a small margin (0.5 % and 99.5 %). Empty when that range is most of the trace anyway, or
// there is no GPU work.
std::optional<std::pair<model::TimeNs, model::TimeNs>> gpuFocusRange(const model::Trace& trace);

// Runs the analysis over the requested window and builds the overlays (ui::makeOverlays). A request
// the trace cannot satisfy falls back to the default window. `previous`: an earlier analysis of
// the same trace, whose warp badges are kept when only the window changed (they cover every kernel
// whatever the window, and are the costly part of the overlays). Pure; safe on a worker thread.
// `cancel` (when not null) is looked at between the steps and inside the analysis: once it is
// set the result is null, never a partial analysis.
std::shared_ptr<const DocumentAnalysis> analyzeDocument(
    const model::Trace& trace, const analysis::AnalysisOptions& options,
    const analysis::WindowRequest& request = {},
    std::shared_ptr<const DocumentAnalysis> previous = nullptr,
    const std::atomic<bool>* cancel = nullptr);

// "GPU busy 92.7 % in 'Loop' (57.54 ms) · copy/compute overlap 35.0 % · 3 findings": the window
// is always named, so a figure is never read as the whole run's when it is not.
QString analysisSummary(const analysis::AnalysisResult& result);

}  // namespace wl::app
