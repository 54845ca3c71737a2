#include <gtest/gtest.h>

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
