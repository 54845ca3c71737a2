// Collectives matched across the ranks of a job: arrivals, the last rank, its lateness, the
// others' waits, and what cannot be matched.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "HandJob.h"
#include "analysis/Collectives.h"
#include "analysis/Ranks.h"
#include "io/RankJob.h"
#include "io/TraceFile.h"
#include "support/TestData.h"

namespace wl::analysis {
namespace {

using model::TimeNs;
using test::HandJob;

constexpr std::string_view kAllReduce = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(Storage<4096ul>)";
constexpr std::string_view kBroadcast = "ncclDevKernel_Broadcast_RING_LL(Storage<4096ul>)";

AnalysisWindow everything() {
    AnalysisWindow w;
    w.parts = {{0, 1'000'000'000}};
    return w;
}

const std::vector<std::int32_t> kTwoRanks = {0, 1};
const std::vector<std::int32_t> kThreeRanks = {0, 1, 2};

// The PyTorch profiler's args on a NCCL kernel of process group `group` over ranks `ranks`.
std::string groupArgs(std::string_view collective, std::string_view group, std::string_view ranks) {
    return std::string(R"("Collective name":")") + std::string(collective) +
           R"(","In msg nelems":1051402,"Process Group Name":")" + std::string(group) +
           R"(","Process Group Description":"default_pg","Process Group Ranks":")" +
           std::string(ranks) + R"(")";
}

TEST(Collectives, TheCollectiveANcclKernelNameSays) {
    EXPECT_EQ(collectiveOfKernel(kAllReduce), "AllReduce");
    EXPECT_EQ(collectiveOfKernel("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, ...)"),
              "AllReduce");
    EXPECT_EQ(collectiveOfKernel("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)"),
              "SendRecv");
    EXPECT_EQ(collectiveOfKernel("gemm"), "gemm");
}

TEST(Collectives, TwoRanksTheKthKernelOfEachIsOneCollective) {
    // Rank 1 arrives 200 ns late at the first all-reduce, rank 0 100 ns late at the second; each
    // collective's kernels end together, when the last rank has joined.
    HandJob job;
    job.kernel(0, 0, 7, 50, 90);  // not a collective
    job.kernel(0, 0, 17, 100, 500, kAllReduce);
    job.kernel(1, 0, 17, 300, 500, kAllReduce);
    job.kernel(0, 0, 17, 1000, 1300, kAllReduce);
    job.kernel(1, 0, 17, 900, 1300, kAllReduce);
    const auto trace = job.finish();
    const CollectiveStats s = matchCollectives(*trace, everything(), kTwoRanks);

    ASSERT_EQ(s.communicators.size(), 1u);
    EXPECT_EQ(s.communicators[0].key, CollectiveKey::StreamOrder);
    EXPECT_EQ(s.communicators[0].name, "NCCL stream 17");
    EXPECT_EQ(s.communicators[0].counts, (std::vector<std::uint64_t>{2, 2}));
    EXPECT_TRUE(s.mismatches.empty());
    ASSERT_EQ(s.collectives.size(), 2u);

    const MatchedCollective& first = s.collectives[0];
    EXPECT_EQ(first.sequence, 1u);
    EXPECT_EQ(first.name, "AllReduce");
    ASSERT_EQ(first.arrivals.size(), 2u);
    EXPECT_EQ(first.arrivals[0].arrivalNs, 100);
    EXPECT_EQ(first.arrivals[1].arrivalNs, 300);
    EXPECT_EQ(first.lastArrival().rank, 1u);
    EXPECT_EQ(first.latenessNs, 200);
    EXPECT_EQ(first.arrivals[0].waitNs, 200);
    EXPECT_EQ(first.arrivals[1].waitNs, 0);
    EXPECT_EQ(first.totalWaitNs, 200);
    EXPECT_EQ(first.endSpreadNs, 0);
    EXPECT_EQ(trace->slice(first.arrivals[1].kernel).startNs, 300);

    const MatchedCollective& second = s.collectives[1];
    EXPECT_EQ(second.sequence, 2u);
    EXPECT_EQ(second.lastArrival().rank, 0u);
    EXPECT_EQ(second.latenessNs, 100);
    EXPECT_EQ(second.arrivals[1].waitNs, 100);

    EXPECT_EQ(s.lastCount, (std::vector<std::uint64_t>{1, 1}));
    EXPECT_EQ(s.latenessNs, (std::vector<TimeNs>{100, 200}));
    EXPECT_EQ(s.waitNs, (std::vector<TimeNs>{200, 100}));
    EXPECT_EQ(s.totalWaitNs, 300);
    EXPECT_EQ(s.mostOftenLast(), 0u);  // a tie: the lowest rank
    EXPECT_EQ(s.costliest(5), (std::vector<std::size_t>{0, 1}));
    EXPECT_EQ(s.costliest(1), (std::vector<std::size_t>{0}));
}

TEST(Collectives, ThreeRanksLatenessIsAgainstTheSecondLast) {
    // Arrivals 100, 400 and 250: rank 1 is last, 150 ns after rank 2 (had it been on time, the
    // collective would have waited for rank 2 instead); rank 0 waited the spread, 300 ns.
    HandJob job;
    job.kernel(0, 0, 17, 100, 600, kAllReduce);
    job.kernel(1, 0, 17, 400, 600, kAllReduce);
    job.kernel(2, 0, 17, 250, 605, kAllReduce);
    const auto trace = job.finish();
    const CollectiveStats s = matchCollectives(*trace, everything(), kThreeRanks);
    ASSERT_EQ(s.collectives.size(), 1u);
    const MatchedCollective& c = s.collectives[0];
    EXPECT_EQ(c.lastArrival().rank, 1u);
    EXPECT_EQ(c.latenessNs, 150);
    EXPECT_EQ(c.spreadNs(), 300);
    ASSERT_EQ(c.arrivals.size(), 3u);
    EXPECT_EQ(c.arrivals[0].waitNs, 300);
    EXPECT_EQ(c.arrivals[1].waitNs, 0);
    EXPECT_EQ(c.arrivals[2].waitNs, 150);
    EXPECT_EQ(c.totalWaitNs, 450);
    EXPECT_EQ(c.endSpreadNs, 5);
    EXPECT_EQ(s.lastCount, (std::vector<std::uint64_t>{0, 1, 0}));
    EXPECT_EQ(s.mostOftenLast(), 1u);
    EXPECT_EQ(s.totalWaitNs, 450);
}

TEST(Collectives, ASubgroupsCollectivesHaveOnlyItsMembers) {
    // Process group 1 holds ranks 1 and 2 of three: rank 0 has no part in its collectives.
    const std::string pg1 = groupArgs("allreduce", "1", "[1, 2]");
    HandJob job;
    job.kernel(1, 0, 17, 100, 300, kAllReduce, pg1);
    job.kernel(2, 0, 17, 180, 300, kAllReduce, pg1);
    const auto trace = job.finish();
    const CollectiveStats s = matchCollectives(*trace, everything(), kThreeRanks);
    ASSERT_EQ(s.communicators.size(), 1u);
    EXPECT_EQ(s.communicators[0].members, (std::vector<bool>{false, true, true}));
    EXPECT_EQ(s.communicators[0].counts, (std::vector<std::uint64_t>{0, 1, 1}));
    EXPECT_TRUE(s.mismatches.empty());
    ASSERT_EQ(s.collectives.size(), 1u);
    const MatchedCollective& c = s.collectives[0];
    ASSERT_EQ(c.arrivals.size(), 2u);
    EXPECT_EQ(c.arrivalOf(0), nullptr);
    ASSERT_NE(c.arrivalOf(1), nullptr);
    EXPECT_EQ(c.arrivalOf(1)->waitNs, 80);
    ASSERT_NE(c.arrivalOf(2), nullptr);
    EXPECT_EQ(c.arrivalOf(2)->arrivalNs, 180);
    EXPECT_EQ(s.lastCount, (std::vector<std::uint64_t>{0, 0, 1}));
}

TEST(Collectives, ARankWithFewerAndDifferentNamesAreReported) {
    // Rank 1 lost its third all-reduce; at the second, rank 0 ran a broadcast where rank 1 ran
    // an all-reduce: that one is no match, and the first is.
    HandJob job;
    job.kernel(0, 0, 17, 100, 200, kAllReduce);
    job.kernel(1, 0, 17, 150, 200, kAllReduce);
    job.kernel(0, 0, 17, 300, 400, kBroadcast);
    job.kernel(1, 0, 17, 320, 400, kAllReduce);
    job.kernel(0, 0, 17, 500, 600, kAllReduce);
    const auto trace = job.finish();
    const CollectiveStats s = matchCollectives(*trace, everything(), kTwoRanks);
    ASSERT_EQ(s.collectives.size(), 1u);
    EXPECT_EQ(s.collectives[0].sequence, 1u);
    ASSERT_EQ(s.mismatches.size(), 2u);

    const CollectiveMismatch& fewer = s.mismatches[0];
    EXPECT_EQ(fewer.kind, CollectiveMismatch::Kind::FewerOnRank);
    EXPECT_EQ(fewer.rank, 1u);
    EXPECT_EQ(fewer.sequence, 2u);  // its count
    EXPECT_EQ(fewer.count, 1u);

    const CollectiveMismatch& names = s.mismatches[1];
    EXPECT_EQ(names.kind, CollectiveMismatch::Kind::DifferentNames);
    EXPECT_EQ(names.sequence, 2u);
    EXPECT_EQ(names.count, 1u);
    EXPECT_EQ(names.detail, "Broadcast on rank 0, AllReduce on rank 1");
    EXPECT_EQ(s.describe(fewer),
              "rank 1 ran 2 collectives on NCCL stream 17, 1 fewer than another rank: the later "
              "ones are not compared, and if one was lost in the middle, the ones after it are "
              "matched wrong");
    EXPECT_EQ(s.describe(names),
              "NCCL stream 17: 1 sequence number holds different collectives, not compared (the "
              "first, #2: Broadcast on rank 0, AllReduce on rank 1)");
}

TEST(Collectives, ProcessGroupsAreMatchedByTheirArgsNotByTime) {
    // Two process groups whose collectives interleave differently on the two ranks, on streams
    // whose ids differ: the args say which is which.
    const std::string pg0 = groupArgs("allreduce", "0", "[0, 1]");
    const std::string pg1 = groupArgs("allgather", "1", "[0, 1]");
    HandJob job;
    job.kernel(0, 0, 17, 100, 300, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", pg0);
    job.kernel(0, 0, 21, 150, 350, "ncclDevKernel_AllGather_RING_LL", pg1);
    job.kernel(1, 0, 40, 120, 350, "ncclDevKernel_AllGather_RING_LL", pg1);  // gathers first
    job.kernel(1, 0, 33, 260, 300, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", pg0);
    const auto trace = job.finish();
    const CollectiveStats s = matchCollectives(*trace, everything(), kTwoRanks);
    EXPECT_TRUE(s.mismatches.empty());
    ASSERT_EQ(s.communicators.size(), 2u);
    EXPECT_EQ(s.communicators[0].key, CollectiveKey::ProcessGroup);
    EXPECT_EQ(s.communicators[0].name, "process group 0 (default_pg)");
    ASSERT_EQ(s.collectives.size(), 2u);
    const MatchedCollective& reduce = s.collectives[0];  // the first to start
    EXPECT_EQ(reduce.name, "allreduce");
    EXPECT_EQ(reduce.communicator, 0u);
    EXPECT_EQ(reduce.lastArrival().rank, 1u);
    EXPECT_EQ(reduce.latenessNs, 160);
    const MatchedCollective& gather = s.collectives[1];
    EXPECT_EQ(gather.name, "allgather");
    EXPECT_EQ(s.communicators[gather.communicator].name, "process group 1 (default_pg)");
    EXPECT_EQ(gather.lastArrival().rank, 0u);
    EXPECT_EQ(gather.latenessNs, 30);
}

TEST(Collectives, ARankAProcessGroupListsButThatRanNoneOfItsCollectivesIsReported) {
    const std::string all = groupArgs("allreduce", "0", "[0, 1, 2]");
    HandJob job;
    job.kernel(0, 0, 17, 100, 300, kAllReduce, all);
    job.kernel(1, 0, 17, 150, 300, kAllReduce, all);
    job.kernel(2, 0, 7, 0, 50);  // rank 2 did other work
    const auto trace = job.finish();
    const CollectiveStats s = matchCollectives(*trace, everything(), kThreeRanks);
    ASSERT_EQ(s.communicators.size(), 1u);
    EXPECT_EQ(s.communicators[0].members, (std::vector<bool>{true, true, true}));
    EXPECT_TRUE(s.collectives.empty());  // never complete without rank 2
    ASSERT_EQ(s.mismatches.size(), 1u);
    EXPECT_EQ(s.mismatches[0].kind, CollectiveMismatch::Kind::FewerOnRank);
    EXPECT_EQ(s.mismatches[0].rank, 2u);
    EXPECT_EQ(s.mismatches[0].count, 1u);
}

TEST(Collectives, StreamsArePairedByFirstUseWhateverTheirIds) {
    // Each rank's first NCCL stream is one communicator, its second another.
    HandJob job;
    job.kernel(0, 0, 17, 100, 200, kAllReduce);
    job.kernel(0, 0, 21, 150, 260, kBroadcast);
    job.kernel(1, 1, 23, 120, 200, kAllReduce);
    job.kernel(1, 1, 29, 160, 260, kBroadcast);
    const auto trace = job.finish();
    const CollectiveStats s = matchCollectives(*trace, everything(), kTwoRanks);
    EXPECT_TRUE(s.mismatches.empty());
    ASSERT_EQ(s.communicators.size(), 2u);
    EXPECT_EQ(s.communicators[0].name, "NCCL streams 17, 23");
    EXPECT_EQ(s.communicators[1].name, "NCCL streams 21, 29");
    ASSERT_EQ(s.collectives.size(), 2u);
    EXPECT_EQ(s.collectives[0].name, "AllReduce");
    EXPECT_EQ(s.collectives[0].latenessNs, 20);
    EXPECT_EQ(s.collectives[1].name, "Broadcast");
    EXPECT_EQ(s.collectives[1].latenessNs, 10);
}

TEST(Collectives, PointToPointKernelsAreCountedNotMatched) {
    // A send/receive pairs two ranks, each with its own peer: no all-ranks arrival to compare.
    constexpr std::string_view kSendRecv =
        "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)";
    HandJob job;
    job.kernel(0, 0, 17, 100, 200, kSendRecv);
    job.kernel(1, 0, 17, 400, 500, kSendRecv);
    job.kernel(1, 0, 17, 600, 700, "ncclDevKernel_AllReduce", groupArgs("recv", "0", "[0, 1]"));
    job.kernel(0, 0, 17, 800, 900, kAllReduce);
    job.kernel(1, 0, 17, 850, 900, kAllReduce);
    const auto trace = job.finish();
    const CollectiveStats s = matchCollectives(*trace, everything(), kTwoRanks);
    EXPECT_EQ(s.pointToPoint, (std::vector<std::uint64_t>{1, 2}));
    EXPECT_TRUE(s.mismatches.empty());
    ASSERT_EQ(s.collectives.size(), 1u);
    EXPECT_EQ(s.collectives[0].latenessNs, 50);
    EXPECT_TRUE(isPointToPoint("SendRecv"));
    EXPECT_TRUE(isPointToPoint("recv"));
    EXPECT_FALSE(isPointToPoint("allreduce"));
}

TEST(Collectives, TheWindowKeepsTheCollectivesInItNumberedFromTheTraceStart) {
    HandJob job;
    for (TimeNs t : {0, 1000, 2000}) {
        job.kernel(0, 0, 17, t, t + 500, kAllReduce);
        job.kernel(1, 0, 17, t + 100, t + 500, kAllReduce);
    }
    const auto trace = job.finish();
    AnalysisWindow w;
    w.parts = {{900, 1600}};
    const CollectiveStats s = matchCollectives(*trace, w, kTwoRanks);
    ASSERT_EQ(s.collectives.size(), 1u);
    EXPECT_EQ(s.collectives[0].sequence, 2u);
    EXPECT_EQ(s.collectives[0].firstArrivalNs, 1000);
    EXPECT_EQ(s.totalWaitNs, 100);
}

TEST(Collectives, RankStatsMatchTheJobsCollectives) {
    HandJob job;
    job.kernel(0, 0, 17, 100, 500, kAllReduce);
    job.kernel(1, 0, 17, 300, 500, kAllReduce);
    job.metadata("rank alignment mode", "start");
    const auto trace = job.finish();
    const auto window = resolveWindow(*trace);
    ASSERT_TRUE(window.ok());
    const RankStats stats = computeRankStats(*trace, window.value());
    ASSERT_EQ(stats.collectives.collectives.size(), 1u);
    EXPECT_EQ(stats.collectives.collectives[0].latenessNs, 200);
    EXPECT_EQ(stats.collectives.mostOftenLast(), 1u);
}

TEST(Collectives, OneRankHasNothingToCompare) {
    HandJob job;
    job.kernel(0, 0, 17, 100, 500, kAllReduce);
    const auto trace = job.finish();
    const CollectiveStats s = matchCollectives(*trace, everything(), std::vector<std::int32_t>{0});
    EXPECT_TRUE(s.communicators.empty());
    EXPECT_TRUE(s.collectives.empty());
    EXPECT_FALSE(s.mostOftenLast().has_value());
}

// A real job: two ranks of a PyTorch DDP training run on one host, the second slowed by 20 ms on
// the host every third step (tests/data/collectives/README.md). The expected figures come from
// tests/data/collectives/check_collectives.py, which computes them from the JSON alone (the
// k-th NCCL kernel of each rank per communicator, its "ts" read as an exact decimal):
//   check_collectives.py ddp_kineto_rank-0.json.gz ddp_kineto_rank-1.json.gz
//   check_collectives.py ddp_record.merged.json.gz

RankStats wholeJob(const model::Trace& trace) {
    WindowRequest whole;
    whole.kind = WindowRequest::Kind::WholeTrace;
    const auto window = resolveWindow(trace, whole);
    EXPECT_TRUE(window.ok());
    return computeRankStats(trace, window.value());
}

// (sequence, lateness) of the collectives in which the last rank was more than 10 ms late.
std::vector<std::pair<std::uint64_t, TimeNs>> lateByMoreThan10Ms(const CollectiveStats& s) {
    std::vector<std::pair<std::uint64_t, TimeNs>> out;
    for (const MatchedCollective& c : s.collectives) {
        if (c.latenessNs > 10'000'000)
            out.emplace_back(c.sequence, c.latenessNs);
    }
    return out;
}

TEST(CollectivesOfARealJob, ProfilerTracesMatchByProcessGroup) {
    const auto job = io::loadRankJob({test::dataPath("collectives/ddp_kineto_rank-0.json.gz"),
                                      test::dataPath("collectives/ddp_kineto_rank-1.json.gz")});
    ASSERT_TRUE(job.ok()) << job.error().describe();
    const RankStats stats = wholeJob(*job.value().trace);
    const CollectiveStats& s = stats.collectives;
    ASSERT_EQ(s.communicators.size(), 1u);
    EXPECT_EQ(s.communicators[0].key, CollectiveKey::ProcessGroup);
    EXPECT_EQ(s.communicators[0].name, "process group 0 (default_pg)");
    EXPECT_TRUE(s.mismatches.empty());
    ASSERT_EQ(s.collectives.size(), 60u);
    EXPECT_EQ(s.collectives.front().name, "allreduce");
    // Rank 1 is last at every all-reduce, by 20-odd ms in every third step's first one (and in
    // the first step, the warm-up).
    EXPECT_EQ(s.lastCount, (std::vector<std::uint64_t>{0, 60}));
    EXPECT_EQ(s.latenessNs, (std::vector<TimeNs>{0, 269'226'093}));
    EXPECT_EQ(s.totalWaitNs, 269'226'093);
    EXPECT_EQ(s.mostOftenLast(), 1u);
    const std::vector<std::pair<std::uint64_t, TimeNs>> late = {
        {1, 26'850'315},  {7, 22'370'097},  {13, 22'426'950}, {19, 22'236'758}, {25, 22'497'254},
        {31, 21'956'224}, {37, 22'181'767}, {43, 22'038'013}, {49, 22'500'081}, {55, 22'059'915}};
    EXPECT_EQ(lateByMoreThan10Ms(s), late);
    const std::vector<std::size_t> costliest = s.costliest(3);
    ASSERT_EQ(costliest.size(), 3u);
    EXPECT_EQ(s.collectives[costliest[0]].sequence, 1u);
    EXPECT_EQ(s.collectives[costliest[1]].sequence, 49u);
    EXPECT_EQ(s.collectives[costliest[2]].sequence, 25u);
    // Matched right on one clock: each all-reduce's kernels end within a few microseconds.
    for (const MatchedCollective& c : s.collectives)
        EXPECT_LT(c.endSpreadNs, 5'000) << "all-reduce #" << c.sequence;
}

TEST(CollectivesOfARealJob, ARecordingWithoutArgsMatchesByStreamOrder) {
    const auto trace = io::loadTrace(test::dataPath("collectives/ddp_record.merged.json.gz"));
    ASSERT_TRUE(trace.ok()) << trace.error().describe();
    const RankStats stats = wholeJob(*trace.value());
    const CollectiveStats& s = stats.collectives;
    ASSERT_EQ(s.communicators.size(), 1u);
    EXPECT_EQ(s.communicators[0].key, CollectiveKey::StreamOrder);
    EXPECT_EQ(s.communicators[0].name, "NCCL stream 17");
    EXPECT_TRUE(s.mismatches.empty());
    // DDP's start-up (an all-gather, four broadcasts), then two all-reduces a step.
    ASSERT_EQ(s.collectives.size(), 70u);
    EXPECT_EQ(s.collectives[0].name, "AllGather");
    EXPECT_EQ(s.collectives[1].name, "Broadcast");
    EXPECT_EQ(s.collectives[69].name, "AllReduce");
    EXPECT_EQ(s.lastCount, (std::vector<std::uint64_t>{26, 44}));
    EXPECT_EQ(s.latenessNs, (std::vector<TimeNs>{13'627'593, 247'762'087}));
    EXPECT_EQ(s.totalWaitNs, 261'389'680);
    EXPECT_EQ(s.mostOftenLast(), 1u);
    const std::vector<std::pair<std::uint64_t, TimeNs>> late = {
        {9, 21'879'357},  {11, 21'020'435}, {17, 20'522'845}, {23, 20'448'664},
        {29, 20'544'234}, {35, 21'956'891}, {41, 20'337'643}, {47, 21'067'009},
        {53, 20'620'510}, {59, 20'026'075}, {65, 20'370'672}};
    EXPECT_EQ(lateByMoreThan10Ms(s), late);
    for (const MatchedCollective& c : s.collectives) {
        if (c.latenessNs > 10'000'000) {
            EXPECT_EQ(c.lastArrival().rank, 1u) << "#" << c.sequence;
        }
    }
}

}  // namespace
}  // namespace wl::analysis
