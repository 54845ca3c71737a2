#include "analysis/UtilizationSeries.h"

#include <algorithm>
#include <map>
#include <vector>

#include "analysis/GpuOps.h"
#include "analysis/Intervals.h"
#include "analysis/SummaryScope.h"

namespace wl::analysis {

std::optional<UtilizationSeries> utilizationSeries(const model::Trace& trace,
                                                   const AnalysisWindow& window, std::size_t bins,
                                                   const std::atomic<bool>* cancel) {
    UtilizationSeries out;
    const model::TimeNs spanNs = window.endNs() - window.startNs();
    if (window.parts.empty() || spanNs <= 0 || bins == 0)
        return out;
    out.startNs = window.startNs();
    const auto binCount = static_cast<model::TimeNs>(bins);
    out.binNs = std::max<model::TimeNs>(1, (spanNs + binCount - 1) / binCount);
    const auto used = static_cast<std::size_t>((spanNs + out.binNs - 1) / out.binNs);

    AnalysisWindow everyRow = window;
    everyRow.tracks.clear();
    const GpuOps ops(trace, &everyRow);
    if (cancelled(cancel))
        return std::nullopt;
    // By GPU process, not ordinal: a merged job's ranks each have a GPU 0.
    std::map<model::ProcessIndex, std::vector<Interval>> byDevice;
    for (const GpuOp& op : ops.all())
        byDevice[trace.track(op.ref.track).process].push_back({op.startNs, op.endNs});
    std::vector<IntervalSet> busy;
    for (auto& [device, intervals] : byDevice)
        busy.emplace_back(std::move(intervals));
    // The window's time in each bin (less than the bin between two parts).
    const IntervalSet parts([&window] {
        std::vector<Interval> v;
        for (const model::TimeRange& p : window.parts)
            v.push_back({p.startNs, p.endNs});
        return v;
    }());
    if (cancelled(cancel))
        return std::nullopt;
    out.busyPct.assign(used, 0.0);
    for (std::size_t i = 0; i < used; ++i) {
        const model::TimeNs a = out.startNs + static_cast<model::TimeNs>(i) * out.binNs;
        const model::TimeNs b = std::min(a + out.binNs, window.endNs());
        const model::TimeNs inWindowNs = parts.coveredNs(a, b);
        if (inWindowNs <= 0 || busy.empty())
            continue;
        double sum = 0.0;
        for (const IntervalSet& device : busy)
            sum += static_cast<double>(device.coveredNs(a, b)) / static_cast<double>(inWindowNs);
        out.busyPct[i] = 100.0 * sum / static_cast<double>(busy.size());
    }
    return out;
}

}  // namespace wl::analysis
