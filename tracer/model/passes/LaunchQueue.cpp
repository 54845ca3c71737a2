// The launch queue counter of each GPU process (model/Derived.h): how far the host runs ahead.
#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "model/Derived.h"
#include "model/passes/DerivedCounter.h"
#include "model/passes/Passes.h"

namespace wl::model {

void addLaunchQueues(FinalizeState& s) {
    // Per GPU process: +1 when the call that launched an op starts, -1 when the op ends.
    std::map<ProcessIndex, std::vector<std::pair<TimeNs, int>>> steps;
    for (const Flow& f : s.flows) {
        const Slice& to = s.trace.slice(f.to);
        const Slice& from = s.trace.slice(f.from);
        if (!isLaunchFlow(s.trace, f) ||
            to.endNs() <= from.startNs)  // the two clocks disagree: no queue to speak of
            continue;
        auto& v = steps[s.tracks[f.to.track].process];
        v.emplace_back(from.startNs, +1);
        v.emplace_back(to.endNs(), -1);
    }
    if (steps.empty())
        return;
    const StringId name = s.intern(kLaunchQueueName);
    const StringId unit = s.intern("ops");
    const StringId description = s.intern(
        "Operations launched and not yet finished on this GPU: from the start of the call that "
        "launched each one to its end. How far the host runs ahead. At 0 nothing is queued: the "
        "GPU idles until the host launches more work.");
    for (auto& [process, v] : steps) {
        std::sort(v.begin(), v.end());  // at one instant, ends before starts
        CounterTrack c =
            derivedCounter(process, s.processes[process].deviceId, name, name, unit, description);
        c.samples.reserve(v.size());
        std::int64_t depth = 0;
        for (const auto& [ns, delta] : v) {
            depth += delta;
            setValueAt(c, ns, double(depth));
        }
        c.samples.shrink_to_fit();
        s.counters.push_back(std::move(c));
    }
}

}  // namespace wl::model
