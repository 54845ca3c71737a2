#include <algorithm>
#include <limits>
#include <map>
#include <tuple>
#include <vector>

#include "analysis/ApiNames.h"
#include "analysis/Window.h"
#include "model/Derived.h"
#include "model/GpuActivity.h"

namespace wl::analysis {

// The iterations of a program that replays a CUDA graph: each launch of its most launched graph
// (torch.cuda.graph's replays, torch.compile's "reduce-overhead" mode, NVIDIA's jacobiCudaGraphs).
//
// A launch is a graph-launch API call (cudaGraphLaunch, cuGraphLaunch) and the GPU ops its launch
// flows reach. Its graph is the ops' graph id where the producer records one (CUPTI, Nsight);
// Kineto writes none, so there a graph is known by what a launch runs: its op count and the name
// of its first op. The launch takes from its call's start to the end of its last op. The window
// spans the launches of the graph launched most often, at least kMinLaunches times, from the
// first kept launch's first op to the last one's last op: the eager warm-up before the capture, the
// capture and instantiation, and the lazy loading of the modules they use are start-up, and the
// GPU work of the replays (with the copies into the graph's inputs between them) is measured.
namespace {

constexpr std::size_t kMinLaunches = 3;

struct Launch {
    model::TimeNs callNs = 0;
    model::TimeNs firstOpNs = std::numeric_limits<model::TimeNs>::max();
    model::TimeNs lastOpEndNs = 0;
    std::uint32_t ops = 0;
    std::uint32_t graphId = 0;
    model::StringId firstOpName = 0;
    model::ProcessIndex process = 0;
};

// What identifies a graph across its launches: (process, graph id) or, without ids,
// (process, op count, first op's name).
using GraphKey = std::tuple<model::ProcessIndex, std::uint32_t, std::uint32_t, model::StringId>;

GraphKey keyOf(const Launch& l) {
    if (l.graphId != 0) {
        return {l.process, l.graphId, 0, 0};
    }
    return {l.process, 0, l.ops, l.firstOpName};
}

std::map<model::SliceRef, Launch> gatherLaunches(const model::Trace& trace) {
    std::map<model::SliceRef, Launch> launches;  // by the launch call
    std::map<model::SliceRef, bool> isGraphCall;
    for (const model::Flow& f : trace.flows()) {
        if (!model::isLaunchFlow(trace, f)) {
            continue;
        }
        auto [known, fresh] = isGraphCall.try_emplace(f.from, false);
        if (fresh) {
            known->second = isGraphLaunchApi(baseApiName(trace.str(trace.slice(f.from).nameId)));
        }
        if (!known->second) {
            continue;
        }
        const model::Slice& op = trace.slice(f.to);
        if (!model::isGpuWork(op.kind)) {
            continue;
        }
        Launch& l = launches[f.from];
        const model::Slice& call = trace.slice(f.from);
        l.callNs = call.startNs;
        l.process = trace.track(f.from.track).process;
        if (op.startNs < l.firstOpNs) {
            l.firstOpNs = op.startNs;
            l.firstOpName = op.nameId;
        }
        l.lastOpEndNs = std::max(l.lastOpEndNs, op.endNs());
        ++l.ops;
        if (const model::GraphNode* node = trace.graphNode(op); node != nullptr) {
            l.graphId = std::max(l.graphId, node->graphId);
        }
    }
    return launches;
}

}  // namespace

std::optional<AnalysisWindow> graphLaunchWindow(const model::Trace& trace) {
    if (ranksShareNoClock(trace)) {
        return std::nullopt;
    }
    std::map<GraphKey, std::vector<Launch>> byGraph;
    for (const auto& [call, launch] : gatherLaunches(trace)) {
        byGraph[keyOf(launch)].push_back(launch);
    }
    const std::vector<Launch>* best = nullptr;
    for (const auto& [key, list] : byGraph) {
        if (list.size() >= kMinLaunches && (best == nullptr || list.size() > best->size())) {
            best = &list;
        }
    }
    if (best == nullptr) {
        return std::nullopt;
    }
    std::vector<Launch> launches = *best;
    std::sort(launches.begin(), launches.end(),
              [](const Launch& a, const Launch& b) { return a.callNs < b.callNs; });
    std::vector<model::TimeNs> durationsNs;
    for (const Launch& l : launches) {
        durationsNs.push_back(l.lastOpEndNs - l.callNs);
    }
    const std::size_t warmUps = leadingWarmUps(durationsNs);
    const std::uint32_t graphId = launches.front().graphId;

    AnalysisWindow w;
    w.source = WindowSource::GraphLaunches;
    w.name = graphId != 0 ? model::graphLaunchName(graphId) : std::string("CUDA graph");
    w.instance = static_cast<std::int32_t>(launches.size() - warmUps);
    model::TimeNs endNs = 0;
    for (std::size_t i = warmUps; i < launches.size(); ++i) {
        endNs = std::max(endNs, launches[i].lastOpEndNs);
    }
    // From the first kept launch's first op: the GPU is not idle before the host launched it.
    w.parts = {{launches[warmUps].firstOpNs, endNs}};
    for (std::size_t i = 0; i < warmUps; ++i) {
        w.leftOut.push_back({LeftOut::Kind::WarmUp,
                             {launches[i].callNs, launches[i].lastOpEndNs},
                             "launch " + std::to_string(i + 1) + " of " + w.name});
    }
    addStartUpAndTearDown(trace, w, "graph launches");
    return w;
}

}  // namespace wl::analysis
