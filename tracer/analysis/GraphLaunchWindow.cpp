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
// spans the launches of the graph launched most often, at least kMinLaunches times, and of any
// graph launched at least half as often, from the first kept launch's first op to the last one's
// last op: the eager warm-up before the capture, the
// capture and instantiation, and the lazy loading of the modules they use are start-up, and the
// GPU work of the replays (with the copies into the graph's inputs between them) is measured.
namespace {

// A replay loop replays many times (PyTorch's: hundreds; jacobiCudaGraphs: thousands). Samples
// that launch each of several graphs a few times to show it can be done (simpleCudaGraphs: 4
// graphs x 3) have no loop of graphs, and are better measured whole.
constexpr std::size_t kMinLaunches = 10;

struct Launch {
    model::SliceRef call;
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
        l.call = f.from;
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

// The loop's graphs: the one launched most often (at least kMinLaunches times) and any launched
// about as often (a compiled model's forward and backward graphs, one launch each per step).
struct Loop {
    std::map<GraphKey, std::vector<Launch>> byGraph;
    const std::vector<Launch>* best = nullptr;
    std::vector<const std::vector<Launch>*> graphs;  // in key order
    std::vector<std::uint32_t> graphIds;             // of `graphs`
};

std::optional<Loop> findLoop(const model::Trace& trace) {
    if (ranksShareNoClock(trace)) {
        return std::nullopt;
    }
    Loop loop;
    for (const auto& [call, launch] : gatherLaunches(trace)) {
        loop.byGraph[keyOf(launch)].push_back(launch);
    }
    std::size_t most = 0;
    for (const auto& [key, list] : loop.byGraph) {
        if (list.size() > most) {
            most = list.size();
            loop.best = &list;
        }
    }
    if (loop.best == nullptr || most < kMinLaunches) {
        return std::nullopt;
    }
    for (const auto& [key, list] : loop.byGraph) {
        if (2 * list.size() >= most) {
            loop.graphs.push_back(&list);
            loop.graphIds.push_back(std::get<1>(key));
        }
    }
    return loop;
}

}  // namespace

std::vector<GraphLaunch> loopGraphLaunches(const model::Trace& trace) {
    const std::optional<Loop> loop = findLoop(trace);
    std::vector<GraphLaunch> out;
    if (!loop) {
        return out;
    }
    for (std::size_t g = 0; g < loop->graphs.size(); ++g) {
        std::vector<Launch> launches = *loop->graphs[g];
        std::sort(launches.begin(), launches.end(),
                  [](const Launch& a, const Launch& b) { return a.callNs < b.callNs; });
        for (std::size_t i = 0; i < launches.size(); ++i) {
            const Launch& l = launches[i];
            out.push_back({l.call, l.process, l.callNs, l.firstOpNs, l.lastOpEndNs, l.ops,
                           l.graphId, static_cast<std::uint32_t>(g),
                           static_cast<std::uint32_t>(i + 1)});
        }
    }
    std::sort(out.begin(), out.end(), [](const GraphLaunch& a, const GraphLaunch& b) {
        return a.callNs != b.callNs ? a.callNs < b.callNs : a.call < b.call;
    });
    return out;
}

std::optional<AnalysisWindow> graphLaunchWindow(const model::Trace& trace) {
    const std::optional<Loop> found = findLoop(trace);
    if (!found) {
        return std::nullopt;
    }
    const std::vector<Launch>* best = found->best;
    const std::vector<const std::vector<Launch>*>& loop = found->graphs;
    std::vector<std::uint32_t> graphIds = found->graphIds;
    std::vector<Launch> launches = *best;
    const auto byCall = [](const Launch& a, const Launch& b) { return a.callNs < b.callNs; };
    std::sort(launches.begin(), launches.end(), byCall);
    std::vector<model::TimeNs> durationsNs;
    for (const Launch& l : launches) {
        durationsNs.push_back(l.lastOpEndNs - l.callNs);
    }
    const std::size_t warmUps = leadingWarmUps(durationsNs);

    AnalysisWindow w;
    w.source = WindowSource::GraphLaunches;
    std::sort(graphIds.begin(), graphIds.end());
    if (graphIds.front() == 0) {
        w.name = loop.size() == 1 ? "CUDA graph" : std::to_string(loop.size()) + " CUDA graphs";
    } else if (loop.size() == 1) {
        w.name = model::graphLaunchName(graphIds.front());
    } else {
        w.name = "CUDA graphs";
        for (std::size_t i = 0; i < graphIds.size(); ++i) {
            w.name += (i == 0 ? " " : ", ") + std::to_string(graphIds[i]);
        }
    }
    w.instance = static_cast<std::int32_t>(launches.size() - warmUps);
    // From the first op of the first launch after the warm-up (of any of the loop's graphs: the
    // GPU is not idle before the host launched it) to the last op of the last launch.
    const model::TimeNs fromCallNs = launches[warmUps].callNs;
    model::TimeNs startNs = launches[warmUps].firstOpNs;
    model::TimeNs endNs = 0;
    for (const std::vector<Launch>* list : loop) {
        for (const Launch& l : *list) {
            if (l.callNs >= fromCallNs || warmUps == 0) {
                startNs = std::min(startNs, l.firstOpNs);
            }
            endNs = std::max(endNs, l.lastOpEndNs);
        }
    }
    w.parts = {{startNs, endNs}};
    for (std::size_t i = 0; i < warmUps; ++i) {
        w.leftOut.push_back({LeftOut::Kind::WarmUp,
                             {launches[i].callNs, launches[i].lastOpEndNs},
                             "launch " + std::to_string(i + 1) + " of " + w.name});
    }
    addStartUpAndTearDown(trace, w, "graph launches");
    return w;
}

}  // namespace wl::analysis
