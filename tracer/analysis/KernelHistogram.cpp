#include <algorithm>

#include "analysis/Statistics.h"
#include "analysis/Summary.h"

namespace wl::analysis {

// Durations of the launches that overlap the window's parts (kernelLaunches), whole. The bins are
// binNs wide, binNs the range over `bins` rounded up (at least 1 ns), so they reach the longest
// launch, which falls in the last bin; a launch d ns long is in bin (d - minNs) / binNs. Only the
// bins up to the longest launch are given: fewer than `bins` when the range is under `bins` ns,
// one when every launch took as long.
DurationHistogram kernelDurationHistogram(const model::Trace& trace, model::StringId nameId,
                                          const AnalysisWindow& window, std::size_t bins) {
    DurationHistogram out;
    if (window.parts.empty() || bins == 0)
        return out;
    std::vector<model::TimeNs> durations;
    for (const model::SliceRef ref : kernelLaunches(trace, nameId, window.parts))
        durations.push_back(trace.slice(ref).durationNs);
    if (durations.empty())
        return out;
    const auto [shortest, longest] = std::minmax_element(durations.begin(), durations.end());
    out.minNs = *shortest;
    const model::TimeNs rangeNs = *longest - *shortest;
    const auto binCount = static_cast<model::TimeNs>(bins);
    out.binNs = std::max<model::TimeNs>(1, (rangeNs + binCount - 1) / binCount);
    const auto used = static_cast<std::size_t>(std::min(rangeNs / out.binNs + 1, binCount));
    out.counts.assign(used, 0);
    for (const model::TimeNs d : durations) {
        const auto bin = static_cast<std::size_t>((d - out.minNs) / out.binNs);
        ++out.counts[std::min(bin, used - 1)];
    }
    return out;
}

}  // namespace wl::analysis
