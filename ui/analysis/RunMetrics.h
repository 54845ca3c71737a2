#pragma once

#include "analysis/Analysis.h"
#include "model/Trace.h"

namespace wl::ui {

// The figures Compare puts side by side for one run. Plain value.
struct RunMetrics {
    // The analysis window's duration when it is not the whole trace (the timed part); else
    // metadata "wall_time_ms" when the run recorded it; else the trace's span.
    double wallMs = 0.0;
    double gpuBusyPct = 0.0;      // busy / span of the GPU
    double copyComputePct = 0.0;  // share of copy time overlapped by kernels
    double copyGbps = 0.0;        // all copies: bytes / copy time
};

RunMetrics runMetrics(const model::Trace& trace, const analysis::AnalysisResult& result);
// baseline wall / async wall; 0 when either is unknown.
double speedup(const RunMetrics& baseline, const RunMetrics& async);

}  // namespace wl::ui
