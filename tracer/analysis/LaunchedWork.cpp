#include "analysis/LaunchedWork.h"

#include <algorithm>

#include "model/Derived.h"

namespace wl::analysis {

std::vector<LaunchedWork> launchedWork(const model::Trace& trace) {
    std::vector<LaunchedWork> out;
    for (const model::Flow& f : trace.flows()) {
        if (!model::isLaunchFlow(trace, f)) {
            continue;
        }
        const model::Slice& op = trace.slice(f.to);
        out.push_back({f.from, op.startNs, op.endNs(), op.durationNs, 1});
    }
    std::sort(out.begin(), out.end(),
              [](const LaunchedWork& a, const LaunchedWork& b) { return a.call < b.call; });
    // One entry per call: a graph launch's flows reach each node it ran.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (kept > 0 && out[kept - 1].call == out[i].call) {
            LaunchedWork& w = out[kept - 1];
            w.firstStartNs = std::min(w.firstStartNs, out[i].firstStartNs);
            w.lastEndNs = std::max(w.lastEndNs, out[i].lastEndNs);
            w.opNs += out[i].opNs;
            ++w.ops;
        } else {
            out[kept++] = out[i];
        }
    }
    out.resize(kept);
    return out;
}

}  // namespace wl::analysis
