#include "analysis/Ranks.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <thread>
#include <unordered_map>
#include <utility>

#include "analysis/GpuOps.h"
#include "analysis/KernelNames.h"
#include "analysis/Utilization.h"
#include "model/NameFolding.h"

namespace wl::analysis {

namespace {

double percent(model::TimeNs part, model::TimeNs whole) {
    return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

// The middle of a set of durations: the mean of the middle two for an even count.
double median(std::vector<model::TimeNs> values) {
    if (values.empty())
        return 0.0;
    const std::size_t mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid),
                     values.end());
    const double upper = static_cast<double>(values[mid]);
    if (values.size() % 2 == 1)
        return upper;
    const double lower = static_cast<double>(
        *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid)));
    return (lower + upper) / 2.0;
}

// Per rank (index into `ranks`), the host ranges of each folded name that overlap the window, in
// start order.
using RangesByName = std::map<std::string, std::vector<std::vector<model::SliceRef>>>;

RangesByName hostRanges(const model::Trace& trace, const AnalysisWindow& window,
                        const std::vector<JobRank>& ranks) {
    std::unordered_map<std::int32_t, std::size_t> rankIndex;
    for (std::size_t i = 0; i < ranks.size(); ++i)
        rankIndex.emplace(ranks[i].rank, i);
    std::unordered_map<model::StringId, std::string> folded;
    RangesByName out;
    const auto tracks = trace.tracks();
    for (std::uint32_t t = 0; t < tracks.size(); ++t) {
        const model::Track& track = tracks[t];
        if (track.kind != model::TrackKind::Nvtx && track.kind != model::TrackKind::NvtxAsync)
            continue;
        const model::Process& process = trace.processes()[track.process];
        // The host's ranges: a GPU's annotations repeat them, late by the queue.
        const auto rank = rankIndex.find(process.rank);
        if (process.deviceId >= 0 || rank == rankIndex.end())
            continue;
        for (std::uint32_t i = 0; i < track.slices.size(); ++i) {
            const model::Slice& s = track.slices[i];
            if (s.kind != model::SliceKind::Nvtx || s.durationNs <= 0 ||
                !overlapsParts(window.parts, s.startNs, s.endNs()))
                continue;  // marks have no duration to compare
            auto name = folded.find(s.nameId);
            if (name == folded.end())
                name = folded.emplace(s.nameId, model::foldDigits(trace.str(s.nameId))).first;
            auto& perRank = out[name->second];
            perRank.resize(ranks.size());
            perRank[rank->second].push_back({t, i});
        }
    }
    for (auto& [name, perRank] : out) {
        for (auto& refs : perRank) {
            std::sort(refs.begin(), refs.end(), [&](model::SliceRef a, model::SliceRef b) {
                const model::TimeNs sa = trace.slice(a).startNs;
                const model::TimeNs sb = trace.slice(b).startNs;
                return sa != sb ? sa < sb : a < b;
            });
        }
    }
    return out;
}

std::vector<RangeStragglers> compareRanges(const model::Trace& trace, const AnalysisWindow& window,
                                           const std::vector<JobRank>& ranks,
                                           const RankOptions& options) {
    std::vector<RangeStragglers> out;
    if (ranks.empty())
        return out;
    const std::uint64_t least = std::max<std::uint64_t>(options.minRangeInstances, 1);
    for (auto& [name, perRank] : hostRanges(trace, window, ranks)) {
        std::uint64_t iterations = std::numeric_limits<std::uint64_t>::max();
        for (const auto& refs : perRank)
            iterations = std::min<std::uint64_t>(iterations, refs.size());
        if (iterations < least)
            continue;  // missing on a rank, or not repeated there
        RangeStragglers r;
        r.name = name;
        r.slowestCount.assign(ranks.size(), 0);
        for (const auto& refs : perRank)
            r.instances.push_back(refs.size());
        model::TimeNs spreadSumNs = 0;
        double ratioSum = 0.0;
        for (std::uint64_t k = 0; k < iterations; ++k) {
            RangeIteration it;
            it.instance = static_cast<std::int32_t>(k + 1);
            for (std::size_t ri = 0; ri < ranks.size(); ++ri) {
                const model::SliceRef ref = perRank[ri][k];
                const model::TimeNs d = trace.slice(ref).durationNs;
                it.ranges.push_back(ref);
                it.durationsNs.push_back(d);
                if (ri == 0 || d > it.maxNs) {
                    it.maxNs = d;
                    it.slowest = ri;
                }
                it.minNs = ri == 0 ? d : std::min(it.minNs, d);
                r.totalNs += d;
            }
            it.medianNs = median(it.durationsNs);
            ++r.slowestCount[it.slowest];
            spreadSumNs += it.spreadNs();
            r.maxSpreadNs = std::max(r.maxSpreadNs, it.spreadNs());
            ratioSum += it.maxOverMedian();
            r.iterations.push_back(std::move(it));
        }
        const auto n = static_cast<model::TimeNs>(r.iterations.size());
        r.meanSpreadNs = spreadSumNs / n;
        r.meanMaxOverMedian = ratioSum / static_cast<double>(n);
        r.mostOftenSlowest = static_cast<std::size_t>(
            std::max_element(r.slowestCount.begin(), r.slowestCount.end()) -
            r.slowestCount.begin());
        out.push_back(std::move(r));
    }
    std::sort(out.begin(), out.end(), [](const RangeStragglers& a, const RangeStragglers& b) {
        return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.name < b.name;
    });
    if (out.size() > options.maxRangeNames)
        out.resize(options.maxRangeNames);
    return out;
}

// The bucket edges of a window: B equal parts of [start, end), exact in integer ns.
std::vector<model::TimeRange> bucketsOf(const AnalysisWindow& window, std::int32_t count) {
    const std::int32_t b = std::max(count, 1);
    const model::TimeNs start = window.startNs();
    const model::TimeNs span = window.endNs() - start;
    std::vector<model::TimeRange> out;
    out.reserve(static_cast<std::size_t>(b));
    // span * i / b without the product: (q*b + r) * i / b = q*i + r*i/b, with r*i < b*b.
    const auto edge = [&](std::int32_t i) { return start + span / b * i + span % b * i / b; };
    for (std::int32_t i = 0; i < b; ++i)
        out.push_back({edge(i), edge(i + 1)});
    return out;
}

RankOverview overviewOf(const model::Trace& trace, const std::vector<GpuOps>& rankOps,
                        const AnalysisWindow& window, std::int32_t buckets) {
    RankOverview o;
    o.buckets = bucketsOf(window, buckets);
    // Each bucket's time inside the window's parts.
    const IntervalSet parts = [&] {
        std::vector<Interval> v;
        for (const model::TimeRange& p : window.parts)
            v.push_back({p.startNs, p.endNs});
        return IntervalSet(std::move(v));
    }();
    for (const model::TimeRange& b : o.buckets)
        o.windowNs.push_back(parts.coveredNs(b.startNs, b.endNs));
    CollectiveKernels collectives(trace);
    const auto isCollective = [&](const GpuOp& op) {
        return op.kind == GpuOpKind::Kernel && collectives.contains(trace.slice(op.ref).nameId);
    };
    // Busy share of each bucket over the rank's GPUs (each bucket's window time x its GPUs).
    const auto fractions = [&](const std::vector<IntervalSet>& busy) {
        std::vector<double> row(o.buckets.size(), 0.0);
        for (std::size_t i = 0; i < o.buckets.size() && !busy.empty(); ++i) {
            if (o.windowNs[i] <= 0)
                continue;
            model::TimeNs busyNs = 0;
            for (const IntervalSet& set : busy)
                busyNs += set.coveredNs(o.buckets[i].startNs, o.buckets[i].endNs);
            row[i] = static_cast<double>(busyNs) /
                     (static_cast<double>(o.windowNs[i]) * static_cast<double>(busy.size()));
        }
        return row;
    };
    for (const GpuOps& ops : rankOps) {
        const std::vector<std::int32_t> devices = ops.deviceIds();
        std::vector<IntervalSet> busy;
        std::vector<IntervalSet> work;
        for (std::int32_t d : devices) {
            busy.push_back(ops.busy(d));  // ops are clipped to the window's parts
            std::vector<Interval> w;
            for (const GpuOp& op : ops.all()) {
                if (op.deviceId == d && !isCollective(op))
                    w.push_back({op.startNs, op.endNs});
            }
            work.emplace_back(std::move(w));
        }
        o.busyFraction.push_back(fractions(busy));
        o.workFraction.push_back(fractions(work));
    }
    return o;
}

std::vector<GpuOps> opsByRank(const model::Trace& trace, const AnalysisWindow& window,
                              const std::vector<JobRank>& ranks) {
    std::vector<GpuOps> out;
    out.reserve(ranks.size());
    for (const JobRank& r : ranks)
        out.emplace_back(trace, &window, r.rank);
    return out;
}

}  // namespace

double RankUtilization::busyPct() const {
    return percent(busyNs, windowNs);
}

double RangeIteration::maxOverMedian() const {
    return medianNs > 0.0 ? static_cast<double>(maxNs) / medianNs : 0.0;
}

std::vector<JobRank> jobRanks(const model::Trace& trace) {
    std::map<std::int32_t, JobRank> byRank;
    const auto processes = trace.processes();
    for (std::size_t i = 0; i < processes.size(); ++i) {
        const model::Process& p = processes[i];
        if (p.rank < 0)
            continue;
        JobRank& r = byRank[p.rank];
        r.rank = p.rank;
        r.processes.push_back(static_cast<model::ProcessIndex>(i));
        // A GPU the rank only made a context or allocations on is none of its GPUs.
        if (p.deviceId >= 0 && model::holdsGpuWork(trace, static_cast<model::ProcessIndex>(i)))
            r.deviceIds.push_back(p.deviceId);
    }
    std::vector<JobRank> out;
    for (auto& [rank, r] : byRank) {
        const std::string prefix = "rank " + std::to_string(rank) + ".";
        r.label = trace.metadataValue(prefix + "label", "rank " + std::to_string(rank));
        r.host = trace.metadataValue(prefix + "host", trace.metadataValue("host"));
        std::sort(r.deviceIds.begin(), r.deviceIds.end());
        r.deviceIds.erase(std::unique(r.deviceIds.begin(), r.deviceIds.end()), r.deviceIds.end());
        out.push_back(std::move(r));
    }
    return out;
}

std::string rankAlignment(const model::Trace& trace) {
    return trace.metadataValue("rank alignment");
}

namespace {

// Runs body(i) for i in [0, count) on up to the hardware's threads: each rank's figures are
// independent (pure functions of the shared, read-only trace), and a job of 64 ranks took 55 s on
// one core of 16 where its traces loaded in 14 s.
template <class Body>
void parallelFor(std::size_t count, const Body& body) {
    const std::size_t threads =
        std::min<std::size_t>(count, std::max(1u, std::thread::hardware_concurrency()));
    if (threads <= 1) {
        for (std::size_t i = 0; i < count; ++i)
            body(i);
        return;
    }
    std::atomic<std::size_t> next{0};
    std::vector<std::thread> workers;
    workers.reserve(threads);
    for (std::size_t t = 0; t < threads; ++t) {
        workers.emplace_back([&] {
            for (std::size_t i = next++; i < count; i = next++)
                body(i);
        });
    }
    for (std::thread& w : workers)
        w.join();
}

}  // namespace

RankStats computeRankStats(const model::Trace& trace, const AnalysisWindow& window,
                           const RankOptions& options) {
    RankStats stats;
    stats.window = window;
    stats.ranks = jobRanks(trace);
    std::vector<std::optional<GpuOps>> rankOps(stats.ranks.size());
    stats.utilization.resize(stats.ranks.size());
    parallelFor(stats.ranks.size(), [&](std::size_t i) {
        const GpuOps& ops = rankOps[i].emplace(trace, &window, stats.ranks[i].rank);
        RankUtilization& u = stats.utilization[i];
        u.rank = stats.ranks[i].rank;
        // The busy/idle figures of a single trace, over this rank's ops only.
        const UtilizationResult busy = computeUtilization(trace, ops, window, options.analysis);
        u.busyNs = busy.busyNs;
        u.windowNs = busy.spanNs;
        CollectiveKernels collectives(trace);
        for (const GpuOp& op : ops.all()) {
            ++u.opCount;
            if (op.kind != GpuOpKind::Kernel)
                continue;
            const model::TimeNs d = op.endNs - op.startNs;
            const std::uint64_t launches = op.continuation ? 0 : 1;  // a cut op counts once
            u.kernelNs += d;
            u.kernelCount += launches;
            if (collectives.contains(trace.slice(op.ref).nameId)) {
                u.commsNs += d;
                u.commsCount += launches;
            }
        }
    });
    stats.stragglers = compareRanges(trace, window, stats.ranks, options);
    std::vector<std::int32_t> rankNumbers;
    for (const JobRank& r : stats.ranks)
        rankNumbers.push_back(r.rank);
    stats.collectives = matchCollectives(trace, window, rankNumbers);
    std::vector<GpuOps> ops;
    ops.reserve(rankOps.size());
    for (auto& o : rankOps)
        ops.push_back(std::move(*o));
    stats.overview = overviewOf(trace, ops, window, options.overviewBuckets);
    return stats;
}

RankOverview computeRankOverview(const model::Trace& trace, const AnalysisWindow& window,
                                 std::int32_t buckets) {
    return overviewOf(trace, opsByRank(trace, window, jobRanks(trace)), window, buckets);
}

std::optional<LateRank> lateRankAtCollectives(const RankStats& stats, double minShareOfWindowPct) {
    const auto& u = stats.utilization;
    if (u.size() < 2)
        return std::nullopt;
    std::size_t least = 0;
    std::size_t most = 0;
    for (std::size_t i = 1; i < u.size(); ++i) {
        if (u[i].commsNs < u[least].commsNs)
            least = i;
        if (u[i].commsNs > u[most].commsNs)
            most = i;
    }
    const model::TimeNs windowNs = stats.window.durationNs();
    const model::TimeNs gap = u[most].commsNs - u[least].commsNs;
    if (u[most].commsNs < 4 * u[least].commsNs || windowNs <= 0 ||
        100.0 * static_cast<double>(gap) / static_cast<double>(windowNs) < minShareOfWindowPct)
        return std::nullopt;
    LateRank late;
    late.index = least;
    late.maxCommsNs = u[most].commsNs;
    for (const RankUtilization& r : u)
        late.waitedNs += r.commsNs - u[least].commsNs;
    return late;
}

}  // namespace wl::analysis
