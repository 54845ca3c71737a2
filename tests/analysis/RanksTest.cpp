#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "HandJob.h"
#include "analysis/Analysis.h"
#include "analysis/Ranks.h"
#include "io/RankJob.h"
#include "io/TraceFile.h"
#include "support/TestData.h"

namespace wl::analysis {
namespace {

using model::TimeNs;
using test::HandJob;

AnalysisWindow timeWindow(std::vector<model::TimeRange> parts) {
    AnalysisWindow w;
    w.source = WindowSource::Time;
    w.parts = std::move(parts);
    return w;
}

// Rank 0: a gemm and an NCCL all-reduce on stream 7 with a 50 ns hole. Rank 1, on the same
// ordinal of another host: two overlapping gemms on streams 7 and 8, then a copy after a hole.
model::TracePtr twoRanks() {
    HandJob job;
    job.kernel(0, 0, 7, 0, 100);
    job.kernel(0, 0, 7, 150, 250, "ncclKernel_AllReduce_RING_LL_Sum_float");
    job.kernel(1, 0, 7, 50, 350);
    job.kernel(1, 0, 8, 100, 200);
    job.copy(1, 0, 7, 400, 450);
    // Aligned by their starts (two hosts, no clock anchors): the whole trace is the window.
    job.metadata("rank alignment mode", "start");
    return job.finish();
}

TEST(Ranks, EachRankHasItsOwnBusyIdleKernelAndCommsTime) {
    const auto trace = twoRanks();
    const auto window = resolveWindow(*trace);
    ASSERT_TRUE(window.ok());
    const RankStats stats = computeRankStats(*trace, window.value());
    ASSERT_EQ(stats.utilization.size(), 2u);

    const RankUtilization& r0 = stats.utilization[0];
    EXPECT_EQ(r0.rank, 0);
    EXPECT_EQ(r0.opCount, 2u);
    EXPECT_EQ(r0.windowNs, 250);  // a whole-trace window: its GPU's first op to its last
    EXPECT_EQ(r0.busyNs, 200);
    EXPECT_EQ(r0.idleNs(), 50);
    EXPECT_DOUBLE_EQ(r0.busyPct(), 80.0);
    EXPECT_EQ(r0.kernelNs, 200);
    EXPECT_EQ(r0.kernelCount, 2u);
    EXPECT_EQ(r0.commsNs, 100);
    EXPECT_EQ(r0.commsCount, 1u);

    const RankUtilization& r1 = stats.utilization[1];
    EXPECT_EQ(r1.rank, 1);
    EXPECT_EQ(r1.opCount, 3u);
    EXPECT_EQ(r1.windowNs, 400);
    EXPECT_EQ(r1.busyNs, 350);
    EXPECT_EQ(r1.idleNs(), 50);
    EXPECT_EQ(r1.kernelNs, 400);  // overlapping kernels count each
    EXPECT_EQ(r1.kernelCount, 2u);
    EXPECT_EQ(r1.commsNs, 0);

    // The usual analysis groups a CUDA ordinal over every rank: device 0 there is both ranks'.
    const AnalysisResult all = analyzeTrace(*trace, {}, window.value());
    ASSERT_EQ(all.utilization.devices.size(), 1u);
    EXPECT_EQ(all.utilization.devices[0].busyNs, 400);
}

TEST(Ranks, ARanksFiguresAreThoseOfItsTraceAlone) {
    // Rank 1's ops as a trace of their own: the busy/idle computation is the same one.
    HandJob alone;
    alone.kernel(1, 0, 7, 50, 350);
    alone.kernel(1, 0, 8, 100, 200);
    alone.copy(1, 0, 7, 400, 450);
    const auto single = alone.finish();
    const auto merged = twoRanks();
    for (const auto& request : {WindowRequest{}, *WindowRequest::timeMs("0.0001:0.0003")}) {
        const auto w1 = resolveWindow(*single, request);
        const auto w2 = resolveWindow(*merged, request);
        ASSERT_TRUE(w1.ok() && w2.ok());
        const AnalysisResult own = analyzeTrace(*single, {}, w1.value());
        const RankStats stats = computeRankStats(*merged, w2.value());
        ASSERT_EQ(own.utilization.devices.size(), 1u);
        EXPECT_EQ(stats.utilization[1].busyNs, own.utilization.devices[0].busyNs);
        EXPECT_EQ(stats.utilization[1].windowNs, own.utilization.devices[0].spanNs());
        EXPECT_EQ(stats.utilization[1].kernelNs, own.statistics.kernelTotalNs);
    }
}

TEST(Ranks, AnExplicitWindowClipsEveryRank) {
    const auto trace = twoRanks();
    const RankStats stats = computeRankStats(*trace, timeWindow({{100, 300}}));
    const RankUtilization& r0 = stats.utilization[0];
    EXPECT_EQ(r0.windowNs, 200);
    EXPECT_EQ(r0.busyNs, 100);  // the all-reduce; the gemm ends where the window starts
    EXPECT_EQ(r0.kernelCount, 1u);
    EXPECT_EQ(r0.commsNs, 100);
    const RankUtilization& r1 = stats.utilization[1];
    EXPECT_EQ(r1.windowNs, 200);
    EXPECT_EQ(r1.busyNs, 200);
    EXPECT_EQ(r1.kernelNs, 200 + 100);
    EXPECT_EQ(r1.opCount, 2u);  // the copy lies outside
}

// Three ranks repeating "ProfilerStep#k" (1..3) and "Loop #" at different speeds.
model::TracePtr stepsOfThreeRanks() {
    HandJob job;
    const std::vector<std::vector<TimeNs>> steps = {
        {100, 100, 100}, {120, 90, 150}, {100, 200, 100}};
    for (std::int32_t r = 0; r < 3; ++r) {
        for (std::size_t k = 0; k < 3; ++k) {
            const TimeNs start = 1000 * static_cast<TimeNs>(k);
            job.range(r, "ProfilerStep#" + std::to_string(k + 1), start, start + steps[r][k]);
        }
        job.kernel(r, r, 7, 0, 10);
        job.range(r, "init", 5000, 5100);  // once per rank: nothing to compare
        job.range(r, "mark", 5200, 5200);  // a mark has no duration
    }
    // "Loop #": three instances on rank 0, two on the others; the first ties on every rank.
    job.range(0, "Loop 1", 6000, 6010);
    job.range(0, "Loop 2", 6100, 6110);
    job.range(0, "Loop 3", 6200, 6210);
    job.range(1, "Loop 1", 6000, 6010);
    job.range(1, "Loop 2", 6100, 6130);
    job.range(2, "Loop 1", 6000, 6010);
    job.range(2, "Loop 2", 6100, 6110);
    // "forward" repeats on two ranks only.
    for (std::int32_t r = 0; r < 2; ++r) {
        job.range(r, "forward", 7000, 7050);
        job.range(r, "forward", 7100, 7150);
    }
    return job.finish();
}

TEST(Ranks, TheSlowestRankOfEachIterationAndTheSpread) {
    const auto trace = stepsOfThreeRanks();
    const RankStats stats = computeRankStats(*trace, timeWindow({{0, 10'000}}));
    ASSERT_EQ(stats.stragglers.size(), 2u);  // "init", "mark" and "forward" are left out

    const RangeStragglers& steps = stats.stragglers[0];
    EXPECT_EQ(steps.name, "ProfilerStep#");
    EXPECT_EQ(steps.instances, (std::vector<std::uint64_t>{3, 3, 3}));
    ASSERT_EQ(steps.iterations.size(), 3u);
    const RangeIteration& first = steps.iterations[0];
    EXPECT_EQ(first.instance, 1);
    EXPECT_EQ(first.durationsNs, (std::vector<TimeNs>{100, 120, 100}));
    EXPECT_EQ(first.slowest, 1u);
    EXPECT_EQ(first.maxNs, 120);
    EXPECT_EQ(first.minNs, 100);
    EXPECT_DOUBLE_EQ(first.medianNs, 100.0);
    EXPECT_EQ(first.spreadNs(), 20);
    EXPECT_DOUBLE_EQ(first.maxOverMedian(), 1.2);
    EXPECT_EQ(trace->str(trace->slice(first.ranges[2]).nameId), "ProfilerStep#1");
    EXPECT_EQ(trace->processes()[trace->track(first.ranges[2].track).process].rank, 2);
    const RangeIteration& second = steps.iterations[1];
    EXPECT_EQ(second.slowest, 2u);
    EXPECT_EQ(second.spreadNs(), 110);
    EXPECT_DOUBLE_EQ(second.maxOverMedian(), 2.0);
    EXPECT_EQ(steps.iterations[2].slowest, 1u);
    EXPECT_EQ(steps.iterations[2].spreadNs(), 50);
    EXPECT_EQ(steps.slowestCount, (std::vector<std::uint64_t>{0, 2, 1}));
    EXPECT_EQ(steps.mostOftenSlowest, 1u);
    EXPECT_EQ(steps.meanSpreadNs, 60);
    EXPECT_EQ(steps.maxSpreadNs, 110);
    EXPECT_DOUBLE_EQ(steps.meanMaxOverMedian, (1.2 + 2.0 + 1.5) / 3.0);
    EXPECT_EQ(steps.totalNs, 300 + 360 + 400);

    const RangeStragglers& loop = stats.stragglers[1];
    EXPECT_EQ(loop.name, "Loop #");
    EXPECT_EQ(loop.instances, (std::vector<std::uint64_t>{3, 2, 2}));
    ASSERT_EQ(loop.iterations.size(), 2u);      // the fewest any rank has
    EXPECT_EQ(loop.iterations[0].slowest, 0u);  // a tie goes to the lowest rank
    EXPECT_EQ(loop.iterations[0].spreadNs(), 0);
    EXPECT_DOUBLE_EQ(loop.iterations[0].maxOverMedian(), 1.0);
    EXPECT_EQ(loop.iterations[1].slowest, 1u);
    EXPECT_DOUBLE_EQ(loop.iterations[1].maxOverMedian(), 3.0);
    EXPECT_EQ(loop.slowestCount, (std::vector<std::uint64_t>{1, 1, 0}));
    EXPECT_EQ(loop.mostOftenSlowest, 0u);
}

TEST(Ranks, StragglersOnlyCountRangesInTheWindowAndRespectTheOptions) {
    const auto trace = stepsOfThreeRanks();
    // Steps 2 and 3 only (the first ends at 120 at the latest).
    RankStats stats = computeRankStats(*trace, timeWindow({{500, 4000}}));
    ASSERT_EQ(stats.stragglers.size(), 1u);
    EXPECT_EQ(stats.stragglers[0].instances, (std::vector<std::uint64_t>{2, 2, 2}));
    EXPECT_EQ(stats.stragglers[0].iterations[0].durationsNs, (std::vector<TimeNs>{100, 90, 200}));

    RankOptions options;
    options.minRangeInstances = 3;
    stats = computeRankStats(*trace, timeWindow({{0, 10'000}}), options);
    ASSERT_EQ(stats.stragglers.size(), 1u);
    EXPECT_EQ(stats.stragglers[0].name, "ProfilerStep#");
    options.minRangeInstances = 1;  // "init" counts now
    options.maxRangeNames = 2;
    stats = computeRankStats(*trace, timeWindow({{0, 10'000}}), options);
    ASSERT_EQ(stats.stragglers.size(), 2u);
    EXPECT_EQ(stats.stragglers[1].name, "init");  // 300 ns in all, more than "Loop #"'s 80
}

TEST(Ranks, TheMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo) {
    HandJob job;
    for (std::int32_t r = 0; r < 2; ++r) {
        job.range(r, "step", 0, r == 0 ? 100 : 300);
        job.range(r, "step", 1000, 1100);
    }
    const auto trace = job.finish();
    const RankStats stats = computeRankStats(*trace, timeWindow({{0, 2000}}));
    ASSERT_EQ(stats.stragglers.size(), 1u);
    EXPECT_DOUBLE_EQ(stats.stragglers[0].iterations[0].medianNs, 200.0);
    EXPECT_DOUBLE_EQ(stats.stragglers[0].iterations[0].maxOverMedian(), 1.5);
}

TEST(Ranks, TheOverviewIsEachRanksBusyShareOfEachBucket) {
    const auto trace = twoRanks();
    RankOptions options;
    options.overviewBuckets = 4;
    const RankStats stats = computeRankStats(*trace, timeWindow({{0, 1000}}), options);
    const RankOverview& o = stats.overview;
    EXPECT_EQ(o.buckets,
              (std::vector<model::TimeRange>{{0, 250}, {250, 500}, {500, 750}, {750, 1000}}));
    EXPECT_EQ(o.windowNs, (std::vector<TimeNs>{250, 250, 250, 250}));
    ASSERT_EQ(o.busyFraction.size(), 2u);
    EXPECT_EQ(o.busyFraction[0], (std::vector<double>{0.8, 0.0, 0.0, 0.0}));
    EXPECT_EQ(o.busyFraction[1], (std::vector<double>{0.8, 0.6, 0.0, 0.0}));
    // Without the collectives: rank 0's all-reduce [150, 250) leaves its first bucket.
    ASSERT_EQ(o.workFraction.size(), 2u);
    EXPECT_EQ(o.workFraction[0], (std::vector<double>{0.4, 0.0, 0.0, 0.0}));

    // Buckets that do not divide the window evenly: edges at whole ns, floor(span * i / B).
    const RankOverview three = computeRankOverview(*trace, timeWindow({{0, 1000}}), 3);
    EXPECT_EQ(three.buckets, (std::vector<model::TimeRange>{{0, 333}, {333, 666}, {666, 1000}}));
    EXPECT_DOUBLE_EQ(three.busyFraction[0][0], 200.0 / 333.0);
    EXPECT_DOUBLE_EQ(three.busyFraction[1][1], (350.0 - 333.0 + 50.0) / 333.0);
    // The same figures as computeRankStats gives.
    EXPECT_EQ(computeRankOverview(*trace, timeWindow({{0, 1000}}), 4).busyFraction, o.busyFraction);
}

TEST(Ranks, TheOverviewOfAWindowOfSeveralPartsAndOfARankWithTwoGpus) {
    HandJob job;
    job.kernel(0, 0, 7, 50, 350);
    job.kernel(0, 0, 8, 100, 200);
    job.kernel(1, 0, 7, 0, 250);  // rank 1 has two GPUs; GPU 1 idles in the first bucket
    job.kernel(1, 1, 7, 500, 600);
    const auto trace = job.finish();
    const RankOverview o = computeRankOverview(*trace, timeWindow({{0, 100}, {600, 1000}}), 4);
    // The bucket between the parts holds no window time: neither busy nor idle.
    EXPECT_EQ(o.windowNs, (std::vector<TimeNs>{100, 0, 150, 250}));
    EXPECT_EQ(o.busyFraction[0], (std::vector<double>{0.5, 0.0, 0.0, 0.0}));
    // Rank 1's GPU 1 has no op inside the parts: only GPU 0 counts.
    EXPECT_EQ(o.busyFraction[1], (std::vector<double>{1.0, 0.0, 0.0, 0.0}));

    const RankOverview whole = computeRankOverview(*trace, timeWindow({{0, 1000}}), 4);
    EXPECT_EQ(whole.busyFraction[1], (std::vector<double>{0.5, 0.0, 0.2, 0.0}));
}

TEST(Ranks, ATraceThatIsNoJobHasNoRanks) {
    HandJob job;
    job.kernel(-1, 0, 7, 0, 100);
    const auto trace = job.finish();
    EXPECT_TRUE(jobRanks(*trace).empty());
    const RankStats stats = computeRankStats(*trace, timeWindow({{0, 100}}));
    EXPECT_TRUE(stats.ranks.empty());
    EXPECT_TRUE(stats.utilization.empty());
    EXPECT_TRUE(stats.stragglers.empty());
    EXPECT_TRUE(stats.overview.busyFraction.empty());
    EXPECT_EQ(rankAlignment(*trace), "");
}

TEST(Ranks, JobRanksComeFromTheProcessesAndTheMetadata) {
    HandJob job;
    job.kernel(3, 1, 7, 0, 100);
    job.kernel(3, 0, 7, 0, 100);
    job.range(3, "step", 0, 10);
    job.kernel(0, 0, 7, 0, 100);
    job.metadata("rank 3.label", "rank 3 · node7 · pid 4242");
    job.metadata("rank 3.host", "node7");
    job.metadata("host", "node1");
    job.metadata("rank alignment", "aligned by host wall clock");
    const auto trace = job.finish();
    const std::vector<JobRank> ranks = jobRanks(*trace);
    ASSERT_EQ(ranks.size(), 2u);
    EXPECT_EQ(ranks[0].rank, 0);
    EXPECT_EQ(ranks[0].label, "rank 0");
    EXPECT_EQ(ranks[0].host, "node1");
    EXPECT_EQ(ranks[0].deviceIds, (std::vector<std::int32_t>{0}));
    EXPECT_EQ(ranks[1].label, "rank 3 · node7 · pid 4242");
    EXPECT_EQ(ranks[1].host, "node7");
    EXPECT_EQ(ranks[1].deviceIds, (std::vector<std::int32_t>{0, 1}));
    EXPECT_EQ(ranks[1].processes.size(), 3u);  // its host and two GPUs
    for (model::ProcessIndex p : ranks[1].processes)
        EXPECT_EQ(trace->processes()[p].rank, 3);
    EXPECT_EQ(rankAlignment(*trace), "aligned by host wall clock");
}

// A DDP job's rank 1 runs on GPU 1 but made a CUDA context, and allocations, on GPU 0 too: GPU 0
// is none of its GPUs, and its figures are GPU 1's alone.
TEST(Ranks, AGpuARankOnlyAllocatedOnIsNoneOfItsGpus) {
    HandJob job;
    job.kernel(0, 0, 7, 0, 100);
    job.kernel(1, 1, 7, 0, 40);
    job.allocation(1, 0, 10);
    job.allocation(1, 0, 90);
    const auto trace = job.finish();
    const RankStats stats = computeRankStats(*trace, timeWindow({{0, 100}}));
    ASSERT_EQ(stats.ranks.size(), 2u);
    EXPECT_EQ(stats.ranks[0].deviceIds, (std::vector<std::int32_t>{0}));
    EXPECT_EQ(stats.ranks[1].deviceIds, (std::vector<std::int32_t>{1}));
    EXPECT_EQ(stats.ranks[1].processes.size(), 2u);  // both of its GPU processes are still its
    EXPECT_EQ(stats.utilization[1].busyNs, 40);
    EXPECT_EQ(stats.utilization[1].windowNs, 100);
}

// The PyTorch profiler traces of two ranks of a real 128-rank job (HolisticTraceAnalysis's test
// data): opened as a job, each rank's GPU work is what the trace gives alone.
TEST(Ranks, TheTwoRanksOfARealJob) {
    const std::vector<std::string> files = {test::dataPath("ranks/sampled_rank-0.json.gz"),
                                            test::dataPath("ranks/sampled_rank-1.json.gz")};
    const auto job = io::loadRankJob(files);
    ASSERT_TRUE(job.ok()) << job.error().describe();
    EXPECT_EQ(job.value().alignment, io::RankAlignment::WallClock);
    EXPECT_EQ(job.value().alignmentText, "aligned by host wall clock");
    EXPECT_TRUE(job.value().warnings.empty());
    const model::Trace& trace = *job.value().trace;
    // Whole traces, so that each rank's GPU counts from its own first op to its last, as the
    // trace alone does (the default, the job's iterations, spans the ranks' steps together).
    WindowRequest whole;
    whole.kind = WindowRequest::Kind::WholeTrace;
    const auto window = resolveWindow(trace, whole);
    ASSERT_TRUE(window.ok());
    const RankStats stats = computeRankStats(trace, window.value());
    ASSERT_EQ(stats.ranks.size(), 2u);
    for (std::size_t i = 0; i < files.size(); ++i) {
        SCOPED_TRACE(files[i]);
        const auto single = io::loadTrace(files[i]);
        ASSERT_TRUE(single.ok());
        const model::Trace& alone = *single.value();
        EXPECT_EQ(stats.ranks[i].rank, static_cast<std::int32_t>(i));
        EXPECT_TRUE(job.value().ranks[i].rankFromTrace);
        // Its GPU group is there, with every kernel of the trace.
        std::uint64_t kernels = 0;
        for (const model::Track& t : trace.tracks()) {
            const model::Process& p = trace.processes()[t.process];
            if (p.rank != stats.ranks[i].rank || p.deviceId < 0)
                continue;
            for (const model::Slice& s : t.slices)
                kernels += s.kind == model::SliceKind::Kernel ? 1 : 0;
        }
        EXPECT_EQ(kernels, alone.counts().kernel);
        EXPECT_GT(kernels, 1000u);
        // The analysis of the trace alone gives the same busy time and kernels.
        const auto ownWindow = resolveWindow(alone, whole);
        ASSERT_TRUE(ownWindow.ok());
        const AnalysisResult own = analyzeTrace(alone, {}, ownWindow.value());
        ASSERT_EQ(own.utilization.devices.size(), 1u);
        EXPECT_EQ(stats.ranks[i].deviceIds,
                  (std::vector<std::int32_t>{own.utilization.devices[0].deviceId}));
        EXPECT_EQ(stats.utilization[i].busyNs, own.utilization.devices[0].busyNs);
        EXPECT_EQ(stats.utilization[i].windowNs, own.utilization.devices[0].spanNs());
        std::uint64_t launches = 0;
        for (const KernelStats& k : own.statistics.kernels)
            launches += k.count;
        EXPECT_EQ(stats.utilization[i].kernelCount, launches);
        EXPECT_EQ(stats.utilization[i].kernelNs, own.statistics.kernelTotalNs);
    }
    EXPECT_EQ(trace.metadataValue("world_size"), "128");
}

TEST(Ranks, TheRankTheOthersWaitForAtCollectivesIsTheOneWithTheLeastNcclTime) {
    RankStats stats;
    stats.window.parts = {{0, 1'000'000}};
    stats.ranks.resize(3);
    stats.utilization.resize(3);
    stats.utilization[0].commsNs = 300'000;
    stats.utilization[1].commsNs = 2'000;  // arrives last: hardly waits
    stats.utilization[2].commsNs = 250'000;
    const auto late = lateRankAtCollectives(stats);
    ASSERT_TRUE(late.has_value());
    EXPECT_EQ(late->index, 1u);
    EXPECT_EQ(late->maxCommsNs, 300'000);
    EXPECT_EQ(late->waitedNs, 298'000 + 248'000);
    // Ranks that spend about as long in their collectives: nobody is late.
    stats.utilization[1].commsNs = 200'000;
    EXPECT_FALSE(lateRankAtCollectives(stats).has_value());
    // A clear ratio but a difference too small to matter in the window.
    stats.utilization = std::vector<RankUtilization>(2);
    stats.utilization[0].commsNs = 4'000;
    stats.utilization[1].commsNs = 100;
    EXPECT_FALSE(lateRankAtCollectives(stats).has_value());
}

}  // namespace
}  // namespace wl::analysis
