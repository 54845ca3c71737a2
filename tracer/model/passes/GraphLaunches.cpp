// The graph-launch tracks (TrackKind::GraphLaunches): each CUDA graph launch on a stream as one
// slice over the nodes it ran there.
#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "model/Derived.h"
#include "model/passes/Passes.h"

namespace wl::model {

void addGraphLaunches(FinalizeState& s) {
    // One launch per (cudaGraphLaunch call, stream its nodes ran on).
    struct Launch {
        std::uint32_t graphId = 0;
        TimeNs callNs = 0;
        TimeNs firstNs = 0;
        TimeNs lastNs = 0;
        std::uint32_t nodes = 0;
        std::uint32_t index = 0;  // 1-based, among the launches of its graph on its GPU
    };
    std::map<std::pair<SliceRef, TrackIndex>, Launch> launches;
    for (const Flow& f : s.flows) {
        if (!isLaunchFlow(s.trace, f))
            continue;
        const Slice& node = s.trace.slice(f.to);
        const GraphNode* g = s.trace.graphNode(node);
        if (g == nullptr || g->graphId == 0)
            continue;
        auto [it, inserted] = launches.try_emplace({f.from, f.to.track});
        Launch& l = it->second;
        if (inserted) {
            l.graphId = g->graphId;
            l.callNs = s.trace.slice(f.from).startNs;
            l.firstNs = node.startNs;
            l.lastNs = node.endNs();
        }
        l.firstNs = std::min(l.firstNs, node.startNs);
        l.lastNs = std::max(l.lastNs, node.endNs());
        ++l.nodes;
    }
    if (launches.empty())
        return;
    // "launch k of n": the launches of one graph on one GPU process, in call order.
    std::map<std::pair<ProcessIndex, std::uint32_t>, std::vector<Launch*>> ofGraph;
    for (auto& [key, l] : launches)
        ofGraph[{s.tracks[key.second].process, l.graphId}].push_back(&l);
    for (auto& [key, list] : ofGraph) {
        std::sort(list.begin(), list.end(),
                  [](const Launch* a, const Launch* b) { return a->callNs < b->callNs; });
        for (std::size_t i = 0; i < list.size(); ++i)
            list[i]->index = static_cast<std::uint32_t>(i + 1);
    }
    // Beyond this many launches of a graph, names leave out the launch number: one string per
    // launch would grow the string table with the trace.
    constexpr std::size_t kNumberedLaunches = 4096;
    std::map<TrackIndex, TrackIndex> trackOf;  // stream track -> its graph-launch track
    for (const auto& [key, l] : launches) {
        const TrackIndex stream = key.second;
        auto [it, inserted] = trackOf.try_emplace(stream, 0);
        if (inserted) {
            const Track& on = s.tracks[stream];
            Track track;
            track.kind = TrackKind::GraphLaunches;
            track.process = on.process;
            track.deviceId = on.deviceId;
            track.streamId = on.streamId;
            track.sortIndex = on.sortIndex;
            track.nameId = s.intern("Graph launches (stream " + std::to_string(on.streamId) + ")");
            it->second = static_cast<TrackIndex>(s.tracks.size());
            s.tracks.push_back(std::move(track));
        }
        const std::size_t count = ofGraph[{s.tracks[stream].process, l.graphId}].size();
        std::string name = "graph " + std::to_string(l.graphId);
        if (count <= kNumberedLaunches)
            name += " · launch " + std::to_string(l.index) + " of " + std::to_string(count);
        name += " · " + std::to_string(l.nodes) + (l.nodes == 1 ? " node" : " nodes");
        Slice slice;
        slice.startNs = l.firstNs;
        slice.durationNs = l.lastNs - l.firstNs;
        slice.nameId = s.intern(name);
        slice.kind = SliceKind::Other;
        s.tracks[it->second].slices.push_back(slice);
    }
    for (const auto& [stream, track] : trackOf) {
        auto& slices = s.tracks[track].slices;
        std::sort(slices.begin(), slices.end(),
                  [](const Slice& a, const Slice& b) { return a.startNs < b.startNs; });
        assignLanes(s.tracks[track], s.diagnostics, s.strings);
    }
}

}  // namespace wl::model
