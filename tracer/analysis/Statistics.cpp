#include "analysis/Statistics.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

#include "analysis/CounterValues.h"
#include "analysis/KernelNames.h"
#include "model/Derived.h"

namespace wl::analysis {

namespace {
double rate(std::uint64_t bytes, model::TimeNs ns) {
    // bytes per ns is GB/s (1e9 bytes per second).
    return ns > 0 ? static_cast<double>(bytes) / static_cast<double>(ns) : 0.0;
}
std::vector<GraphStats> graphStatistics(const model::Trace& trace, const GpuOps& ops) {
    struct Launch {
        model::TimeNs firstNs = 0;
        model::TimeNs lastNs = 0;
    };
    std::map<std::uint32_t, GraphStats> byGraph;
    std::map<std::pair<std::uint32_t, std::uint64_t>, GraphNodeStats> byNode;
    // A launch is one cudaGraphLaunch: its nodes share the call's correlation id (per process,
    // so keyed by the GPU process too).
    std::map<std::tuple<std::uint32_t, model::ProcessIndex, std::uint64_t>, Launch> launches;
    for (const GpuOp& op : ops.all()) {
        const model::Slice& s = trace.slice(op.ref);
        const model::GraphNode* node = trace.graphNode(s);
        if (node == nullptr || node->graphId == 0)
            continue;
        GraphStats& g = byGraph[node->graphId];
        g.graphId = node->graphId;
        g.gpuNs += op.endNs - op.startNs;
        GraphNodeStats& n = byNode[{node->graphId, node->nodeId}];
        n.totalNs += op.endNs - op.startNs;
        if (op.continuation)
            continue;
        ++g.nodes;
        if (n.runs++ == 0) {
            n.nodeId = node->nodeId;
            const std::string_view name = trace.str(s.nameId);
            n.name = op.kind == GpuOpKind::Kernel ? shortKernelName(name) : std::string(name);
        }
        const auto key =
            std::make_tuple(node->graphId, trace.track(op.ref.track).process, s.correlationId);
        auto [it, inserted] = launches.try_emplace(key, Launch{op.startNs, op.endNs});
        it->second.firstNs = std::min(it->second.firstNs, op.startNs);
        it->second.lastNs = std::max(it->second.lastNs, op.endNs);
    }
    for (const auto& [key, launch] : launches) {
        GraphStats& g = byGraph[std::get<0>(key)];
        ++g.launches;
        g.launchSpanTotalNs += launch.lastNs - launch.firstNs;
    }
    for (auto& [key, n] : byNode)
        byGraph[key.first].nodeStats.push_back(std::move(n));
    std::vector<GraphStats> out;
    for (auto& [id, g] : byGraph) {
        std::sort(g.nodeStats.begin(), g.nodeStats.end(),
                  [](const GraphNodeStats& a, const GraphNodeStats& b) {
                      return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.nodeId < b.nodeId;
                  });
        out.push_back(std::move(g));
    }
    return out;
}

std::vector<MemoryStats> memoryStatistics(const model::Trace& trace, const AnalysisWindow& window) {
    std::map<std::int32_t, MemoryStats> byDevice;
    for (const model::Track& track : trace.tracks()) {
        if (track.kind != model::TrackKind::Memory)
            continue;
        for (const model::Slice& s : track.slices) {
            const model::MemoryDetail* d = trace.memory(s);
            if (d == nullptr || !window.contains(s.startNs))
                continue;
            MemoryStats& m = byDevice[track.deviceId];
            m.deviceId = track.deviceId;
            m.operationsRecorded = true;
            if (d->op == model::MemoryOp::Allocation) {
                ++m.allocations;
                m.allocatedBytes += d->bytes;
            } else {
                ++m.releases;
                m.releasedBytes += d->bytes;
            }
            m.poolOperations += d->fromPool ? 1 : 0;
        }
    }
    for (const model::CounterTrack& c : trace.counters()) {
        if (!c.derived || trace.str(c.nameId) != model::kDeviceMemoryName ||
            trace.str(c.seriesId) != model::kMemoryInUse)
            continue;
        MemoryStats& m = byDevice[c.deviceId];
        m.deviceId = c.deviceId;
        m.inUseAtStartBytes = counterValueAt(c, window.startNs());
        m.inUseAtEndBytes = counterValueAt(c, window.endNs());
        m.peakInUseBytes = std::max(m.inUseAtStartBytes, m.inUseAtEndBytes);
        for (const model::CounterSample& sample : c.samples) {
            if (window.contains(sample.timestampNs))
                m.peakInUseBytes = std::max(m.peakInUseBytes, sample.value);
        }
    }
    std::vector<MemoryStats> out;
    for (auto& [device, m] : byDevice)
        out.push_back(m);
    return out;
}

}  // namespace

double GraphNodeStats::meanNs() const {
    return runs > 0 ? static_cast<double>(totalNs) / static_cast<double>(runs) : 0.0;
}
double GraphStats::nodesPerLaunch() const {
    return launches > 0 ? static_cast<double>(nodes) / static_cast<double>(launches) : 0.0;
}
double GraphStats::meanLaunchSpanNs() const {
    return launches > 0 ? static_cast<double>(launchSpanTotalNs) / static_cast<double>(launches)
                        : 0.0;
}

double CopyStats::gbPerSecond() const {
    return rate(bytes, totalNs);
}
double Statistics::copyGbPerSecond() const {
    return rate(copyBytes, copyTotalNs);
}

Statistics computeStatistics(const model::Trace& trace, const GpuOps& ops,
                             const AnalysisWindow& window) {
    Statistics out;
    out.graphs = graphStatistics(trace, ops);
    out.memory = memoryStatistics(trace, window);
    out.launchQueues = launchQueueStats(trace, window);
    out.devicesAtOnce = deviceConcurrency(ops, window);
    out.rows = rowSummary(trace, ops, window);
    std::unordered_map<model::StringId, KernelStats> byName;
    std::map<model::CopyKind, CopyStats> byKind;
    for (const GpuOp& op : ops.all()) {
        const model::Slice& s = trace.slice(op.ref);
        const model::TimeNs d = op.endNs - op.startNs;
        if (op.kind == GpuOpKind::Kernel) {
            KernelStats& k = byName[s.nameId];
            if (k.count == 0) {
                k.minNs = k.maxNs = d;
            }
            k.count += op.continuation ? 0 : 1;  // an op cut by a window's parts counts once
            k.totalNs += d;
            k.minNs = std::min(k.minNs, d);
            k.maxNs = std::max(k.maxNs, d);
            out.kernelTotalNs += d;
        } else if (op.kind == GpuOpKind::Memcpy) {
            CopyStats& c = byKind[op.copyKind];
            c.kind = op.copyKind;
            c.totalNs += d;
            if (op.continuation) {
                continue;  // counted, with its bytes, by its first piece
            }
            ++c.count;
            if (const model::MemcpyDetail* m = trace.memcpy(s)) {
                c.bytes += m->bytes;
                if (m->srcKind == model::MemoryKind::Pageable ||
                    m->dstKind == model::MemoryKind::Pageable) {
                    ++c.pageableCount;
                }
            }
        }
    }
    out.kernels.reserve(byName.size());
    for (auto& [nameId, k] : byName) {
        k.name = std::string(trace.str(nameId));
        k.nameId = nameId;
        k.meanNs = static_cast<double>(k.totalNs) / static_cast<double>(k.count);
        k.pctOfGpuTime = out.kernelTotalNs > 0 ? 100.0 * static_cast<double>(k.totalNs) /
                                                     static_cast<double>(out.kernelTotalNs)
                                               : 0.0;
        out.kernels.push_back(std::move(k));
    }
    {
        // Once per distinct name, and two kernels with one short name told apart.
        std::vector<std::string_view> fullNames;
        for (const KernelStats& k : out.kernels) {
            fullNames.push_back(k.name);
        }
        std::vector<std::string> shortNames = distinctShortKernelNames(fullNames);
        for (std::size_t i = 0; i < out.kernels.size(); ++i) {
            out.kernels[i].shortName = std::move(shortNames[i]);
        }
    }
    std::sort(out.kernels.begin(), out.kernels.end(),
              [](const KernelStats& a, const KernelStats& b) {
                  return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.name < b.name;
              });
    for (auto& [kind, c] : byKind) {
        out.copyBytes += c.bytes;
        out.copyTotalNs += c.totalNs;
        out.copies.push_back(c);
    }
    return out;
}

std::vector<model::SliceRef> kernelLaunches(const model::Trace& trace, model::StringId nameId,
                                            const std::vector<model::TimeRange>& parts) {
    std::vector<model::SliceRef> out;
    const auto inParts = [&parts](const model::Slice& s) {
        return parts.empty() || overlapsParts(parts, s.startNs, s.endNs());
    };
    const auto tracks = trace.tracks();
    for (std::uint32_t t = 0; t < tracks.size(); ++t) {
        if (tracks[t].kind != model::TrackKind::GpuStream) {
            continue;
        }
        const auto& slices = tracks[t].slices;
        for (std::uint32_t i = 0; i < slices.size(); ++i) {
            const model::Slice& s = slices[i];
            if (s.kind == model::SliceKind::Kernel && s.nameId == nameId && inParts(s)) {
                out.push_back({t, i});
            }
        }
    }
    return out;
}

}  // namespace wl::analysis
