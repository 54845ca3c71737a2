#include "analysis/TopDown.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

#include "analysis/ApiNames.h"
#include "analysis/WindowSlices.h"

namespace wl::analysis {

namespace {

// The rows of one host thread: its ranges (NVTX, CPU ops) and its CUDA calls.
struct ThreadRows {
    std::vector<model::TrackIndex> ranges;
    std::vector<model::TrackIndex> calls;
};

// The threads of the host processes, by (process, thread id); only those with a selected row of
// ranges.
std::vector<ThreadRows> hostThreads(const model::Trace& trace, const AnalysisWindow& window) {
    std::map<std::pair<model::ProcessIndex, std::int64_t>, ThreadRows> byThread;
    const auto tracks = trace.tracks();
    for (model::TrackIndex t = 0; t < tracks.size(); ++t) {
        const model::Track& track = tracks[t];
        if (trace.processes()[track.process].deviceId >= 0)
            continue;  // a GPU's rows: its annotations repeat the host's ranges
        ThreadRows& rows = byThread[{track.process, track.threadId}];
        if (track.kind == model::TrackKind::HostApi)
            rows.calls.push_back(t);
        else if ((track.kind == model::TrackKind::Nvtx || track.kind == model::TrackKind::Host) &&
                 windowSelects(window, t))
            rows.ranges.push_back(t);
    }
    std::vector<ThreadRows> out;
    for (auto& [key, rows] : byThread) {
        if (!rows.ranges.empty())
            out.push_back(std::move(rows));
    }
    return out;
}

// One instance of a range of a thread in the window.
struct Range {
    model::TimeNs startNs;
    model::TimeNs endNs;
    model::TimeNs insideNs;  // inside the window
    model::StringId nameId;
    SummaryKind kind;
    model::TrackIndex track;
    std::uint32_t depth;
};

// Outer ranges first: by start, the longer first; for one span, an NVTX range holds a CPU op
// (an annotation around the op), and on one row the lower lane holds the higher.
bool outerFirst(const Range& a, const Range& b) {
    return std::tie(a.startNs, b.endNs, a.kind, a.track, a.depth) <
           std::tie(b.startNs, a.endNs, b.kind, b.track, b.depth);
}

// A CUDA call in the window that launched GPU work.
struct Launch {
    model::TimeNs callNs;
    model::TimeNs gpuNs;
    std::uint64_t ops;
};

// The tree while it grows: nodes in creation order (a parent before its children), each found by
// (parent, kind, name).
class TreeBuilder {
public:
    std::uint32_t child(std::uint32_t parent, SummaryKind kind, model::StringId nameId) {
        // parent + 1 < 2^31 nodes, one bit for the kind (NVTX or CPU op), 32 for the name.
        const std::uint64_t key = (static_cast<std::uint64_t>(parent + 1u) << 33) |
                                  (static_cast<std::uint64_t>(kind == SummaryKind::CpuOp) << 32) |
                                  nameId;
        auto [it, fresh] = m_nodeOf.try_emplace(key, static_cast<std::uint32_t>(m_nodes.size()));
        if (fresh) {
            TopDownNode node;
            node.kind = kind;
            node.nameId = nameId;
            node.parent = parent;
            m_nodes.push_back(node);
        }
        return it->second;
    }
    TopDownNode& operator[](std::uint32_t node) { return m_nodes[node]; }
    // Sums the GPU time up the tree and lays siblings out together, longest host time first.
    void finish(TopDown& out);

private:
    std::vector<TopDownNode> m_nodes;
    std::unordered_map<std::uint64_t, std::uint32_t> m_nodeOf;
};

void TreeBuilder::finish(TopDown& out) {
    const std::uint32_t n = static_cast<std::uint32_t>(m_nodes.size());
    // Children after their parent: the reverse order adds each child before its parent passes on.
    for (std::uint32_t i = n; i-- > 0;) {
        const TopDownNode& node = m_nodes[i];
        if (node.parent != kNoTopDownNode) {
            m_nodes[node.parent].gpuNs += node.gpuNs;
            m_nodes[node.parent].gpuOps += node.gpuOps;
        }
    }
    // Each node's children, by host time, then breadth first so siblings are contiguous.
    std::vector<std::uint32_t> roots;
    std::vector<std::vector<std::uint32_t>> children(n);
    for (std::uint32_t i = 0; i < n; ++i)
        (m_nodes[i].parent == kNoTopDownNode ? roots : children[m_nodes[i].parent]).push_back(i);
    const auto longestFirst = [this](std::uint32_t a, std::uint32_t b) {
        return m_nodes[a].hostNs > m_nodes[b].hostNs;
    };
    std::vector<std::uint32_t> order = std::move(roots);
    std::stable_sort(order.begin(), order.end(), longestFirst);
    out.rootCount = static_cast<std::uint32_t>(order.size());
    std::vector<std::uint32_t> newIndex(n);
    out.nodes.reserve(n);
    for (std::size_t k = 0; k < order.size(); ++k) {
        const std::uint32_t old = order[k];
        newIndex[old] = static_cast<std::uint32_t>(k);
        std::vector<std::uint32_t>& kids = children[old];
        std::stable_sort(kids.begin(), kids.end(), longestFirst);
        TopDownNode node = m_nodes[old];
        node.firstChild = static_cast<std::uint32_t>(order.size());
        node.childCount = static_cast<std::uint32_t>(kids.size());
        order.insert(order.end(), kids.begin(), kids.end());
        out.nodes.push_back(node);
    }
    for (TopDownNode& node : out.nodes) {
        if (node.parent != kNoTopDownNode)
            node.parent = newIndex[node.parent];
    }
}

// The GPU work one call launched: the GPU ops its launch flows reach (a graph launch has one
// flow per node it ran; any other call at most one, found without a list).
Launch launchOf(const model::Trace& trace, model::SliceRef call, bool graphLaunch) {
    Launch launch{trace.slice(call).startNs, 0, 0};
    const auto add = [&](const model::Flow* f) {
        if (f == nullptr || !f->to.valid())
            return;
        const model::Slice& op = trace.slice(f->to);
        if (model::isGpuWork(op.kind) &&
            trace.track(f->to.track).kind == model::TrackKind::GpuStream) {
            launch.gpuNs += op.durationNs;
            ++launch.ops;
        }
    };
    if (graphLaunch) {
        for (const model::Flow* f : trace.flowsFrom(call))
            add(f);
    } else {
        add(trace.flowFrom(call));
    }
    return launch;
}

}  // namespace

TopDown topDown(const model::Trace& trace, const AnalysisWindow& window) {
    TopDown out;
    TreeBuilder tree;
    std::vector<Range> ranges;
    std::vector<Launch> launches;
    std::unordered_map<model::StringId, bool> graphLaunchName;  // each call name judged once
    struct Open {
        std::uint32_t node;
        model::TimeNs endNs;
    };
    std::vector<Open> open;  // the ranges enclosing the sweep's time, innermost last
    for (const ThreadRows& thread : hostThreads(trace, window)) {
        ranges.clear();
        for (model::TrackIndex t : thread.ranges) {
            const model::Track& track = trace.track(t);
            forEachSliceInWindow(track, window, [&](std::uint32_t, const model::Slice& s) {
                // A mark or an instant holds no time and launches nothing.
                if (s.durationNs <= 0)
                    return;
                const auto kind = summaryKind(trace, track, s);
                if (kind != SummaryKind::Nvtx && kind != SummaryKind::CpuOp)
                    return;
                ranges.push_back({s.startNs, s.endNs(),
                                  timeInParts(window.parts, s.startNs, s.endNs()), s.nameId, *kind,
                                  t, s.depth});
            });
        }
        std::sort(ranges.begin(), ranges.end(), outerFirst);

        launches.clear();
        for (model::TrackIndex t : thread.calls) {
            forEachSliceInWindow(
                trace.track(t), window, [&](std::uint32_t i, const model::Slice& s) {
                    if (s.correlationId == 0 || !window.contains(s.startNs))
                        return;
                    auto [judged, fresh] = graphLaunchName.try_emplace(s.nameId, false);
                    if (fresh)
                        judged->second = isGraphLaunchApi(trace.str(s.nameId));
                    const Launch l = launchOf(trace, {t, i}, judged->second);
                    if (l.ops > 0)
                        launches.push_back(l);
                });
        }
        std::sort(launches.begin(), launches.end(),
                  [](const Launch& a, const Launch& b) { return a.callNs < b.callNs; });

        // One sweep in time order: each call goes to the innermost range open when it starts.
        open.clear();
        std::size_t next = 0;
        const auto attribute = [&](const Launch& l) {
            while (!open.empty() && open.back().endNs <= l.callNs)
                open.pop_back();
            out.gpuNs += l.gpuNs;
            out.gpuOps += l.ops;
            if (open.empty()) {
                out.outsideGpuNs += l.gpuNs;
                out.outsideGpuOps += l.ops;
            } else {
                tree[open.back().node].gpuNs += l.gpuNs;
                tree[open.back().node].gpuOps += l.ops;
            }
        };
        for (const Range& r : ranges) {
            while (next < launches.size() && launches[next].callNs < r.startNs)
                attribute(launches[next++]);
            // Closed ranges, and one r only overlaps (spilled on its row, or two rows that do
            // not nest): r goes beside it, under the range that holds it.
            while (!open.empty() && (open.back().endNs <= r.startNs || open.back().endNs < r.endNs))
                open.pop_back();
            const std::uint32_t node =
                tree.child(open.empty() ? kNoTopDownNode : open.back().node, r.kind, r.nameId);
            ++tree[node].count;
            tree[node].hostNs += r.insideNs;
            open.push_back({node, r.endNs});
        }
        while (next < launches.size())
            attribute(launches[next++]);
    }
    tree.finish(out);
    return out;
}

}  // namespace wl::analysis
