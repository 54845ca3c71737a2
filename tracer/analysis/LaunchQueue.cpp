#include "analysis/LaunchQueue.h"

#include <algorithm>

#include "analysis/CounterValues.h"
#include "model/Derived.h"

namespace wl::analysis {

std::vector<LaunchQueueStats> launchQueueStats(const model::Trace& trace,
                                               const AnalysisWindow& window) {
    std::vector<LaunchQueueStats> out;
    for (const model::CounterTrack& c : trace.counters()) {
        if (!c.derived || trace.str(c.nameId) != model::kLaunchQueueName || c.samples.empty())
            continue;
        LaunchQueueStats s;
        s.deviceId = c.deviceId;
        double weighted = 0.0;
        model::TimeNs empty = 0;
        model::TimeNs total = 0;
        for (const model::TimeRange& part : window.parts) {
            // The value in force at each instant: the last sample at or before it (0 before the
            // first launch).
            auto it = firstSampleAfter(c, part.startNs);
            double value = counterValueAt(c, part.startNs);
            model::TimeNs at = part.startNs;
            for (;; ++it) {
                const model::TimeNs next =
                    it == c.samples.end() ? part.endNs : std::min(it->timestampNs, part.endNs);
                const model::TimeNs span = next - at;
                weighted += value * static_cast<double>(span);
                empty += value <= 0.0 ? span : 0;
                s.maxDepth = std::max(s.maxDepth, span > 0 ? value : 0.0);
                at = next;
                if (it == c.samples.end() || it->timestampNs >= part.endNs)
                    break;
                value = it->value;
            }
            total += part.endNs - part.startNs;
        }
        if (total <= 0)
            continue;
        s.meanDepth = weighted / static_cast<double>(total);
        s.emptyPct = 100.0 * static_cast<double>(empty) / static_cast<double>(total);
        out.push_back(s);
    }
    return out;
}

}  // namespace wl::analysis
