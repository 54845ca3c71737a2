#include "ui/analysis/RunMetrics.h"

#include <cstdlib>
#include <string>

namespace wl::ui {

RunMetrics runMetrics(const model::Trace& trace, const analysis::AnalysisResult& result) {
    RunMetrics m;
    const std::string wall = trace.metadataValue("wall_time_ms");
    m.wallMs = wall.empty() ? static_cast<double>(trace.spanNs()) / 1e6
                            : std::strtod(wall.c_str(), nullptr);
    m.gpuBusyPct = result.gpuBusyPct();
    m.copyComputePct = result.overlap.copyComputePct();
    m.copyGbps = result.statistics.copyGbPerSecond();
    return m;
}

double speedup(const RunMetrics& baseline, const RunMetrics& async) {
    return baseline.wallMs > 0.0 && async.wallMs > 0.0 ? baseline.wallMs / async.wallMs : 0.0;
}

}  // namespace wl::ui
