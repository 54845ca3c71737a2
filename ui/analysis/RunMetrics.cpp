#include "ui/analysis/RunMetrics.h"

#include <cstdlib>
#include <string>

namespace wl::ui {

RunMetrics runMetrics(const model::Trace& trace, const analysis::AnalysisResult& result) {
    RunMetrics m;
    // The part the analysis describes when it is not the whole trace (the timed part marked
    // with cudaProfilerStart/Stop, an NVTX range): start-up must not decide a speedup.
    const analysis::AnalysisWindow& window = result.window();
    // The run catalog's kWallTimeKey (a run writes it; ui may not include the catalog).
    const std::string wall = trace.metadataValue("wall_time_ms");
    if (window.source != analysis::WindowSource::Trace && window.durationNs() > 0) {
        m.wallMs = static_cast<double>(window.durationNs()) / 1e6;
    } else {
        m.wallMs = wall.empty() ? static_cast<double>(trace.spanNs()) / 1e6
                                : std::strtod(wall.c_str(), nullptr);
    }
    m.gpuBusyPct = result.gpuBusyPct();
    m.copyComputePct = result.overlap.copyComputePct();
    m.copyGbps = result.statistics.copyGbPerSecond();
    return m;
}

double speedup(const RunMetrics& baseline, const RunMetrics& async) {
    return baseline.wallMs > 0.0 && async.wallMs > 0.0 ? baseline.wallMs / async.wallMs : 0.0;
}

}  // namespace wl::ui
