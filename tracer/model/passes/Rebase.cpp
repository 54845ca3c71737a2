// Times from the earliest event, so they are small and non-negative; originNs keeps where that is
// in the producer's clock.
#include <algorithm>
#include <limits>
#include <vector>

#include "model/passes/Passes.h"

namespace wl::model {

void rebaseTimes(FinalizeState& s) {
    TimeNs earliest = std::numeric_limits<TimeNs>::max();
    for (const auto& track : s.tracks) {
        for (const auto& slice : track.slices)
            earliest = std::min(earliest, slice.startNs);
    }
    for (const auto& c : s.counters) {
        for (const auto& sample : c.samples)
            earliest = std::min(earliest, sample.timestampNs);
    }
    if (earliest == std::numeric_limits<TimeNs>::max() || s.keepTimes)
        earliest = 0;
    s.originNs = s.baseTimeNs + earliest;
    s.producerBaseNs = s.baseTimeNs;

    TimeNs span = 0;
    for (auto& track : s.tracks) {
        for (auto& slice : track.slices) {
            slice.startNs -= earliest;
            span = std::max(span, slice.endNs());
        }
    }
    for (auto& f : s.pendingFlows) {
        f.fromNs -= earliest;
        f.toNs -= earliest;
    }
    for (auto& c : s.counters) {
        for (auto& sample : c.samples)
            sample.timestampNs -= earliest;
        std::stable_sort(c.samples.begin(), c.samples.end(),
                         [](const CounterSample& a, const CounterSample& b) {
                             return a.timestampNs < b.timestampNs;
                         });
        if (!c.samples.empty())
            span = std::max(span, c.samples.back().timestampNs);
    }
    s.spanNs = span;

    // Capture windows sorted, and overlapping ones merged.
    auto& windows = s.captureWindows;
    std::sort(windows.begin(), windows.end(),
              [](const TimeRange& a, const TimeRange& b) { return a.startNs < b.startNs; });
    std::vector<TimeRange> merged;
    for (TimeRange w : windows) {
        w.startNs -= earliest;
        w.endNs -= earliest;
        if (!merged.empty() && w.startNs <= merged.back().endNs)
            merged.back().endNs = std::max(merged.back().endNs, w.endNs);
        else
            merged.push_back(w);
    }
    windows = std::move(merged);
}

}  // namespace wl::model
