#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/Collectives.h"
#include "analysis/Options.h"
#include "analysis/Window.h"
#include "model/Trace.h"

namespace wl::analysis {

// One rank of a distributed job merged into one trace (io::loadRankJob), as the trace itself says:
// its processes carry the rank (Process::rank) and the metadata the rest.
struct JobRank {
    std::int32_t rank = -1;
    std::string label;  // "rank 3 · node7 · pid 4242" (metadata "rank R.label"), else "rank 3"
    std::string host;   // metadata "rank R.host", else the job's "host"; empty when unknown
    std::vector<model::ProcessIndex> processes;  // its host and GPU processes, in trace order
    // CUDA ordinals of its GPU processes that hold work of its own (model::holdsGpuWork),
    // ascending.
    std::vector<std::int32_t> deviceIds;
};

// The ranks of a merged job, by rank; empty for a trace that is no job.
std::vector<JobRank> jobRanks(const model::Trace& trace);

// How the job's ranks were put on one time axis ("aligned by host wall clock", ...: the merged
// trace's "rank alignment" metadata); empty for a trace that is no job.
std::string rankAlignment(const model::Trace& trace);

// Busy and idle GPU time of one rank over the window, computed as a single trace's devices are
// (computeUtilization over the rank's ops): on a whole-trace window each of its GPUs counts from
// its own first op to its last, on any other the window. Times in ns.
struct RankUtilization {
    std::int32_t rank = -1;
    std::uint64_t opCount = 0;      // kernels, copies and memsets in the window
    model::TimeNs windowNs = 0;     // summed over the rank's GPUs
    model::TimeNs busyNs = 0;       // summed over the rank's GPUs
    model::TimeNs kernelNs = 0;     // summed kernel time (kernels that overlap count twice)
    std::uint64_t kernelCount = 0;  // kernel launches
    // Of the kernels, the collective communication ones (NCCL: analysis::kernelLibrary), which
    // also hold the time a rank waits for the others inside a collective.
    model::TimeNs commsNs = 0;
    std::uint64_t commsCount = 0;
    double busyPct() const;  // busyNs / windowNs, 0..100
    model::TimeNs idleNs() const { return windowNs - busyNs; }
};

// Instance k of a repeated range on every rank: the k-th (1-based, by start) of its instances
// that overlap the window, on each rank's host threads.
struct RangeIteration {
    std::int32_t instance = 0;               // k
    std::vector<model::SliceRef> ranges;     // per rank (RankStats::ranks order)
    std::vector<model::TimeNs> durationsNs;  // per rank
    std::size_t slowest = 0;                 // index of the longest (the lowest rank on a tie)
    model::TimeNs maxNs = 0;
    model::TimeNs minNs = 0;
    double medianNs = 0.0;  // the middle duration; for an even count the mean of the middle two
    model::TimeNs spreadNs() const { return maxNs - minNs; }
    double maxOverMedian() const;  // 1.0 when every rank took as long; 0 when the median is 0
};

// The straggler of a range that repeats on every rank (NVTX or PyTorch user annotations, names
// folded: "ProfilerStep#551" is "ProfilerStep#"; model::foldDigits).
struct RangeStragglers {
    std::string name;                         // folded
    std::vector<std::uint64_t> instances;     // per rank: its instances in the window
    std::vector<RangeIteration> iterations;   // k = 1 .. the fewest instances of any rank
    std::vector<std::uint64_t> slowestCount;  // per rank: iterations in which it was slowest
    std::size_t mostOftenSlowest = 0;         // index of the highest slowestCount (lowest rank)
    model::TimeNs totalNs = 0;                // all compared instances' durations, summed
    model::TimeNs meanSpreadNs = 0;
    model::TimeNs maxSpreadNs = 0;
    double meanMaxOverMedian = 0.0;
};

// Rank × time: how busy each rank's GPUs were in each of B equal buckets of the window (from its
// start to its end). A plain table the window draws as a heat map.
struct RankOverview {
    std::vector<model::TimeRange> buckets;  // B equal parts of [window start, window end)
    // Per bucket, the time of it inside the window's parts (a bucket between two parts of an
    // "every NVTX instance" window has none: show it as outside the window, not as idle).
    std::vector<model::TimeNs> windowNs;
    // [rank index][bucket]: busy time of the rank's GPUs in the bucket's part of the window over
    // that part times the number of its GPUs that worked in the window, 0..1 (0 where windowNs
    // is 0, and for a rank whose GPUs did nothing in the window).
    std::vector<std::vector<double>> busyFraction;
    // The same with the collectives (NCCL kernels) left out: a collective's kernel runs until the
    // last rank joins, so busyFraction shows a rank that waits for the others as busy; this
    // shows it idle, and the late rank's own work as the only dark cells of the step's end.
    std::vector<std::vector<double>> workFraction;
};

struct RankOptions {
    AnalysisOptions analysis;            // the thresholds of the busy/idle computation
    std::int32_t overviewBuckets = 100;  // B of the rank × time overview (at least 1)
    // A range name counts as repeated when every rank has at least this many instances of it.
    std::uint64_t minRangeInstances = 2;
    // At most this many range names are compared, the longest (totalNs) first.
    std::size_t maxRangeNames = 16;
};

// Everything the cross-rank analysis says about one window of a merged job. Plain value; refers
// to slices by SliceRef, so keep it with its trace.
struct RankStats {
    AnalysisWindow window;
    std::vector<JobRank> ranks;                // by rank; every table below follows this order
    std::vector<RankUtilization> utilization;  // per rank
    std::vector<RangeStragglers> stragglers;   // longest total first
    RankOverview overview;
    // Each collective matched across the ranks: who arrived last and what the others waited.
    CollectiveStats collectives;
};

// The cross-rank analysis of a merged job over a window (resolveWindow over the merged trace).
// Pure function of its arguments; thread-safe. Empty tables for a trace that is no job.
RankStats computeRankStats(const model::Trace& trace, const AnalysisWindow& window,
                           const RankOptions& options = {});

// The rank × time overview alone, for another window or bucket count (a heat map zoomed to a
// selection): `buckets` equal parts of the window, the figures computeRankStats gives.
RankOverview computeRankOverview(const model::Trace& trace, const AnalysisWindow& window,
                                 std::int32_t buckets);

// The rank the others wait for at their collectives. A collective's kernel runs until the last
// rank has joined, so the rank that arrives last spends the least time in them and the others'
// NCCL time is mostly waiting for it; their busy share counts that waiting as work. Nullopt
// unless the ranks' NCCL times differ clearly: the most is at least 4 times the least and
// exceeds it by `minShareOfWindowPct` of the window.
struct LateRank {
    std::size_t index = 0;         // into RankStats::ranks
    model::TimeNs waitedNs = 0;    // the others' NCCL time above the late rank's, summed
    model::TimeNs maxCommsNs = 0;  // the most NCCL time of any rank
};
std::optional<LateRank> lateRankAtCollectives(const RankStats& stats,
                                              double minShareOfWindowPct = 5.0);

}  // namespace wl::analysis
