#include "analysis/Statistics.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>

#include "analysis/CounterValues.h"
#include "analysis/KernelNames.h"
#include "analysis/Occupancy.h"
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

// One launch configuration of a kernel name: what its theoretical occupancy depends on.
struct LaunchConfig {
    std::array<std::int32_t, 3> grid{1, 1, 1};
    std::array<std::int32_t, 3> block{1, 1, 1};
    std::int32_t registers = 0;
    std::int32_t sharedBytes = 0;
    std::int32_t device = 0;
    // Field by field (a defaulted comparison calls memcmp on the arrays: the cost of the sort).
    auto fields() const {
        return std::tie(grid[0], grid[1], grid[2], block[0], block[1], block[2], registers,
                        sharedBytes, device);
    }
    bool operator==(const LaunchConfig& o) const { return fields() == o.fields(); }
    bool operator<(const LaunchConfig& o) const { return fields() < o.fields(); }
    // A well-mixed 64-bit digest: what the sort compares first (one compare, not nine).
    std::uint64_t digest() const {
        std::uint64_t h = 0;
        for (const std::int32_t v : {grid[0], grid[1], grid[2], block[0], block[1], block[2],
                                     registers, sharedBytes, device}) {
            h += 0x9e3779b97f4a7c15ull + static_cast<std::uint32_t>(v);  // splitmix64 steps
            h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
            h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
            h ^= h >> 31;
        }
        return h;
    }
};

// What computeStatistics gathers per kernel name.
struct KernelAccumulator {
    KernelStats stats;
    std::vector<model::TimeNs> durationsNs;  // per launch (the pieces of a cut one summed)
    // The launches' configurations as runs of one configuration, in launch order: a name's
    // launches mostly repeat one configuration, so this stays short, and counting them costs a
    // compare per launch; a kernel sized to its input (an elementwise kernel over tensors of many
    // sizes: 400k configurations in the analysis benchmark's trace) costs a sort at the end, no
    // lookup per launch.
    struct Run {
        LaunchConfig config;
        std::uint64_t launches = 0;
        std::size_t first = 0;  // the run's position: the order its configuration was seen in
    };
    std::vector<Run> runs;
    static constexpr std::size_t kFewRuns = 16;

    void countLaunch(const model::KernelDetail& k, std::int32_t device) {
        const LaunchConfig c{k.grid, k.block, k.registersPerThread, k.sharedBytesPerBlock(),
                             device};
        if (!runs.empty() && runs.back().config == c) {
            ++runs.back().launches;
        } else {
            runs.push_back({c, 1, runs.size()});
        }
    }
    // The configuration launched most often, the first seen on a tie; nullopt when none is known.
    std::optional<LaunchConfig> mostUsed() {
        if (runs.empty())
            return std::nullopt;
        if (runs.size() <= kFewRuns) {
            // A few runs (the usual case): count each configuration by its first run.
            const Run* best = nullptr;
            std::uint64_t bestLaunches = 0;
            for (std::size_t i = 0; i < runs.size(); ++i) {
                bool seen = false;
                std::uint64_t launches = 0;
                for (std::size_t j = 0; j < runs.size() && !seen; ++j) {
                    if (runs[j].config == runs[i].config) {
                        seen = j < i;
                        launches += runs[j].launches;
                    }
                }
                if (!seen && (best == nullptr || launches > bestLaunches)) {
                    best = &runs[i];
                    bestLaunches = launches;
                }
            }
            return best->config;
        }
        // Runs of one configuration together (by digest, then the configuration), the first
        // seen first.
        std::vector<std::pair<std::uint64_t, std::uint32_t>> order;  // (digest, run)
        order.reserve(runs.size());
        for (std::size_t i = 0; i < runs.size(); ++i)
            order.emplace_back(runs[i].config.digest(), static_cast<std::uint32_t>(i));
        std::sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
            if (a.first != b.first)
                return a.first < b.first;
            const LaunchConfig& ca = runs[a.second].config;
            const LaunchConfig& cb = runs[b.second].config;
            return ca != cb ? ca < cb : a.second < b.second;
        });
        const Run* best = nullptr;
        std::uint64_t bestLaunches = 0;
        for (std::size_t i = 0; i < order.size();) {
            const Run& first = runs[order[i].second];  // the first seen of its configuration
            std::uint64_t launches = 0;
            std::size_t j = i;
            for (; j < order.size() && runs[order[j].second].config == first.config; ++j)
                launches += runs[order[j].second].launches;
            if (best == nullptr || launches > bestLaunches ||
                (launches == bestLaunches && first.first < best->first)) {
                best = &first;
                bestLaunches = launches;
            }
            i = j;
        }
        return best->config;
    }
};

// The median, 95th percentile and standard deviation of durations, as numpy computes them:
// np.median (the mean of the middle two for an even count), np.percentile(x, 95) (linear
// interpolation between the closest ranks, at (n - 1) * 0.95, numpy's lerp included) and np.std
// (population, ddof 0, two passes). Reorders `values` (nth_element: linear, no full sort).
struct Spread {
    double median = 0.0;
    double p95 = 0.0;
    double stdDev = 0.0;
};
Spread spreadOf(std::vector<model::TimeNs>& values) {
    Spread out;
    const std::size_t n = values.size();
    if (n == 0)
        return out;
    const auto at = [&values](std::size_t i) {
        std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(i),
                         values.end());
        return static_cast<double>(values[i]);
    };
    // The smallest value after position i, once values[i] is in place.
    const auto nextAfter = [&values](std::size_t i) {
        return static_cast<double>(
            *std::min_element(values.begin() + static_cast<std::ptrdiff_t>(i + 1), values.end()));
    };
    const double virtualIndex = static_cast<double>(n - 1) * (95.0 / 100.0);
    const auto below = static_cast<std::size_t>(virtualIndex);
    const double gamma = virtualIndex - static_cast<double>(below);
    const double a = at(below);
    const double b = below + 1 < n ? nextAfter(below) : a;
    const double diff = b - a;
    out.p95 = gamma >= 0.5 ? b - diff * (1.0 - gamma) : a + diff * gamma;
    const std::size_t mid = n / 2;
    const double upper = at(mid);
    if (n % 2 == 1) {
        out.median = upper;
    } else {
        const double lower = static_cast<double>(
            *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid)));
        out.median = (lower + upper) / 2.0;
    }
    double sum = 0.0;
    for (const model::TimeNs v : values)
        sum += static_cast<double>(v);
    const double mean = sum / static_cast<double>(n);
    double squares = 0.0;
    for (const model::TimeNs v : values) {
        const double dv = static_cast<double>(v) - mean;
        squares += dv * dv;
    }
    out.stdDev = std::sqrt(squares / static_cast<double>(n));
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
                             const AnalysisWindow& window,
                             const std::map<std::int32_t, DeviceLimits>* limits) {
    Statistics out;
    out.graphs = graphStatistics(trace, ops);
    out.memory = memoryStatistics(trace, window);
    out.launchQueues = launchQueueStats(trace, window);
    out.devicesAtOnce = deviceConcurrency(ops, window);
    out.rows = rowSummary(trace, ops, window);
    std::unordered_map<model::StringId, KernelAccumulator> byName;
    // The launches cut by the window's parts whose later pieces are still to come.
    std::map<model::SliceRef, std::pair<KernelAccumulator*, std::size_t>> cut;
    std::map<model::CopyKind, CopyStats> byKind;
    for (const GpuOp& op : ops.all()) {
        const model::Slice& s = trace.slice(op.ref);
        const model::TimeNs d = op.endNs - op.startNs;
        if (op.kind == GpuOpKind::Kernel) {
            KernelAccumulator& acc = byName[s.nameId];
            KernelStats& k = acc.stats;
            if (k.count == 0) {
                k.minNs = k.maxNs = d;
            }
            k.count += op.continuation ? 0 : 1;  // an op cut by a window's parts counts once
            k.totalNs += d;
            k.minNs = std::min(k.minNs, d);
            k.maxNs = std::max(k.maxNs, d);
            out.kernelTotalNs += d;
            if (op.continuation) {
                if (const auto it = cut.find(op.ref); it != cut.end()) {
                    it->second.first->durationsNs[it->second.second] += d;
                    continue;
                }
            } else if (op.endNs < s.endNs()) {
                cut.emplace(op.ref, std::make_pair(&acc, acc.durationsNs.size()));
            }
            acc.durationsNs.push_back(d);
            if (!op.continuation) {
                if (const model::KernelDetail* detail = trace.kernel(s))
                    acc.countLaunch(*detail, op.deviceId);
            }
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
    std::map<std::int32_t, DeviceLimits> ownLimits;
    const auto limitsOf = [&](std::int32_t device) -> const DeviceLimits& {
        if (limits != nullptr) {
            if (const auto it = limits->find(device); it != limits->end())
                return it->second;
        }
        auto it = ownLimits.find(device);
        if (it == ownLimits.end())
            it = ownLimits.emplace(device, deviceLimits(trace, device)).first;
        return it->second;
    };
    out.kernels.reserve(byName.size());
    for (auto& [nameId, acc] : byName) {
        KernelStats& k = acc.stats;
        k.name = std::string(trace.str(nameId));
        k.nameId = nameId;
        k.meanNs = static_cast<double>(k.totalNs) / static_cast<double>(k.count);
        k.pctOfGpuTime = out.kernelTotalNs > 0 ? 100.0 * static_cast<double>(k.totalNs) /
                                                     static_cast<double>(out.kernelTotalNs)
                                               : 0.0;
        const Spread spread = spreadOf(acc.durationsNs);
        k.medianNs = spread.median;
        k.p95Ns = spread.p95;
        k.stdDevNs = spread.stdDev;
        if (const std::optional<LaunchConfig> config = acc.mostUsed()) {
            k.grid = config->grid;
            k.block = config->block;
            k.registersPerThread = config->registers;
            const Occupancy o = computeOccupancy(
                limitsOf(config->device),
                std::int64_t{config->block[0]} * config->block[1] * config->block[2],
                config->registers, config->sharedBytes);
            k.theoreticalOccupancyPct = o.valid ? o.theoreticalPct : -1.0;
        }
        k.tensorCores = usesTensorCores(k.name);
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
