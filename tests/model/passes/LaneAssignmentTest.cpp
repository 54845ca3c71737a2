#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "support/RunPasses.h"

using namespace wl::model;

TEST(LaneAssignmentPass, NestedSlicesStackAndOverlapsSpillBelowThem) {
    TraceBuilder b;
    const auto host = b.hostProcess(1);
    const auto track = b.hostTrack(host, 1);
    b.addSlice(track, 50, 150, "spilled", SliceKind::Other);  // overlaps "outer", does not nest
    b.addSlice(track, 10, 20, "inner", SliceKind::Other);
    b.addSlice(track, 0, 100, "outer", SliceKind::Other);
    const auto trace = wl::test::runPasses(b, {"lane assignment"});
    const Track& t = trace->tracks()[0];
    ASSERT_EQ(t.laneCount(), 3u);
    EXPECT_EQ(trace->str(t.lane(0)[0].nameId), "outer");
    EXPECT_EQ(trace->str(t.lane(1)[0].nameId), "inner");
    EXPECT_EQ(trace->str(t.lane(2)[0].nameId), "spilled");
    EXPECT_TRUE(t.lane(2)[0].flags & kSliceSpilled);
    EXPECT_EQ(t.lane(2)[0].depth, 2u);
    EXPECT_EQ(trace->diagnostics().spilledOverlaps, 1u);
    EXPECT_EQ(trace->diagnostics().warnings.at(0), spilledOverlapWarning(1, "Thread 1"));
}

TEST(LaneAssignmentPass, KindsThatMayOverlapTakeFirstFitLanesWithoutAWarning) {
    TraceBuilder b;
    const auto gpu = b.gpuProcess(0);
    const auto sync = b.syncTrack(gpu);
    b.addSync(sync, 0, 100, "wait 1", 0, {});
    b.addSync(sync, 50, 150, "wait 2", 0, {});
    b.addSync(sync, 120, 130, "wait 3", 0, {});
    const auto trace = wl::test::runPasses(b, {"lane assignment"});
    const Track& t = trace->tracks()[0];
    ASSERT_EQ(t.laneCount(), 2u);
    EXPECT_EQ(t.lane(0).size(), 2u);  // wait 1, wait 3
    EXPECT_EQ(trace->str(t.lane(1)[0].nameId), "wait 2");
    EXPECT_EQ(trace->diagnostics().spilledOverlaps, 0u);
    EXPECT_TRUE(trace->diagnostics().warnings.empty());
}

// The driver migrates and faults in many regions at once: overlaps on a unified-memory row are
// its work, not a producer's mistake.
TEST(LaneAssignmentPass, UnifiedMemoryEventsOverlapWithoutAWarning) {
    TraceBuilder b;
    const auto row = b.unifiedMemoryTrack(b.gpuProcess(0), UnifiedMemoryKind::MigrationHtoD);
    UnifiedMemoryDetail d;
    d.kind = UnifiedMemoryKind::MigrationHtoD;
    b.addUnifiedMemory(row, 0, 100, "Migration HtoD", d);
    b.addUnifiedMemory(row, 50, 150, "Migration HtoD", d);
    const auto trace = wl::test::runPasses(b, {"lane assignment"});
    const Track& t = trace->tracks()[0];
    ASSERT_EQ(t.laneCount(), 2u);
    EXPECT_EQ(t.lane(1)[0].flags & kSliceSpilled, 0);
    EXPECT_EQ(trace->diagnostics().spilledOverlaps, 0u);
    EXPECT_TRUE(trace->diagnostics().warnings.empty());
}

TEST(LaneAssignmentPass, OpsOfOneLaunchOverlapWithoutAWarning) {
    TraceBuilder b;
    const auto stream = b.gpuStreamTrack(b.gpuProcess(0), 7);
    b.addKernel(stream, 0, 100, "a", 5, {});
    b.addKernel(stream, 50, 150, "b", 5, {});  // same launch (a graph's nodes)
    const auto trace = wl::test::runPasses(b, {"lane assignment"});
    const Track& t = trace->tracks()[0];
    ASSERT_EQ(t.laneCount(), 2u);
    EXPECT_TRUE(t.lane(1)[0].flags & kSliceConcurrentInLaunch);
    EXPECT_EQ(trace->diagnostics().spilledOverlaps, 0u);
}

// The lanes first fit gives, the way it was first written (a scan of every lane per slice): what
// the pass must still give, however it finds them.
std::vector<std::uint32_t> naiveFirstFit(const std::vector<std::pair<TimeNs, TimeNs>>& byStart) {
    std::vector<TimeNs> laneEnd;
    std::vector<std::uint32_t> lanes;
    for (const auto& [start, end] : byStart) {
        std::size_t lane = 0;
        while (lane < laneEnd.size() && laneEnd[lane] > start)
            ++lane;
        if (lane == laneEnd.size())
            laneEnd.push_back(end);
        else
            laneEnd[lane] = end;
        lanes.push_back(static_cast<std::uint32_t>(lane));
    }
    return lanes;
}

TEST(LaneAssignmentPass, FirstFitLanesAreThoseOfAScanOfEveryLane) {
    std::vector<std::pair<TimeNs, TimeNs>> intervals;
    std::uint64_t seed = 12345;
    const auto next = [&seed](std::uint64_t below) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<TimeNs>((seed >> 33) % below);
    };
    for (int i = 0; i < 5000; ++i) {
        const TimeNs start = next(100'000);
        intervals.emplace_back(start, start + next(i % 3 == 0 ? 5'000 : 50));
    }
    TraceBuilder b;
    const auto sync = b.syncTrack(b.gpuProcess(0));
    for (const auto& [start, end] : intervals)
        b.addSync(sync, start, end, "wait", 0, {});
    const auto trace = wl::test::runPasses(b, {"lane assignment"});
    std::stable_sort(intervals.begin(), intervals.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : a.second - a.first > b.second - b.first;
    });
    const std::vector<std::uint32_t> expected = naiveFirstFit(intervals);
    std::vector<std::uint32_t> expectedSorted = expected;
    std::vector<std::uint32_t> got;
    const Track& t = trace->tracks()[0];
    for (std::uint32_t lane = 0; lane < t.laneCount(); ++lane) {
        for (const Slice& s : t.lane(lane)) {
            EXPECT_EQ(s.depth, lane);
            got.push_back(s.depth);
        }
    }
    std::sort(expectedSorted.begin(), expectedSorted.end());
    EXPECT_EQ(got, expectedSorted);  // as many slices in each lane
    EXPECT_EQ(t.laneCount(), *std::max_element(expected.begin(), expected.end()) + 1u);
    // And each slice in its lane: the lane's slices are those the scan put there, by start.
    for (std::uint32_t lane = 0; lane < t.laneCount(); ++lane) {
        std::vector<std::pair<TimeNs, TimeNs>> want;
        for (std::size_t i = 0; i < intervals.size(); ++i) {
            if (expected[i] == lane)
                want.push_back(intervals[i]);
        }
        std::vector<std::pair<TimeNs, TimeNs>> have;
        for (const Slice& s : t.lane(lane))
            have.emplace_back(s.startNs, s.endNs());  // (only this pass ran: times as given)
        std::sort(want.begin(), want.end());
        std::sort(have.begin(), have.end());
        ASSERT_EQ(have, want) << "lane " << lane;
    }
}

// Beyond 16 bits of depth, in O(n log n): a scan of every lane per slice would take seconds here.
TEST(LaneAssignmentPass, LanesAreExactPastSixtyFiveThousandAndQuick) {
    constexpr std::uint32_t kSlices = 100'000;
    {  // all open at once on a row whose slices may overlap: one lane each
        TraceBuilder b;
        const auto sync = b.syncTrack(b.gpuProcess(0));
        for (std::uint32_t i = 0; i < kSlices; ++i)
            b.addSync(sync, i, 10'000'000, "wait", 0, {});
        const auto trace = wl::test::runPasses(b, {"lane assignment"});
        const Track& t = trace->tracks()[0];
        ASSERT_EQ(t.laneCount(), kSlices);
        for (std::uint32_t lane : {65'535u, 65'536u, kSlices - 1})
            EXPECT_EQ(t.lane(lane)[0].depth, lane);
    }
    {  // nested: each slice inside the one before
        TraceBuilder b;
        const auto track = b.hostTrack(b.hostProcess(1), 1);
        for (std::uint32_t i = 0; i < kSlices; ++i)
            b.addSlice(track, i, 2 * TimeNs{kSlices} - i, "frame", SliceKind::Other);
        const auto trace = wl::test::runPasses(b, {"lane assignment"});
        const Track& t = trace->tracks()[0];
        ASSERT_EQ(t.laneCount(), kSlices);
        EXPECT_EQ(t.lane(70'000)[0].depth, 70'000u);
        EXPECT_EQ(t.lane(70'000)[0].startNs, 70'000);
    }
    {  // a staircase: each starts inside the one before and ends after it, so all but the
       // first spill, each to a lane of its own
        TraceBuilder b;
        const auto track = b.hostTrack(b.hostProcess(1), 1);
        for (std::uint32_t i = 0; i < kSlices; ++i)
            b.addSlice(track, i, TimeNs{kSlices} + i, "step", SliceKind::Other);
        const auto trace = wl::test::runPasses(b, {"lane assignment"});
        const Track& t = trace->tracks()[0];
        ASSERT_EQ(t.laneCount(), kSlices);
        EXPECT_EQ(t.lane(kSlices - 1)[0].depth, kSlices - 1);
        EXPECT_TRUE(t.lane(kSlices - 1)[0].flags & kSliceSpilled);
        EXPECT_EQ(trace->diagnostics().spilledOverlaps, kSlices - 1);
    }
}
