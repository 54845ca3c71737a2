#include <gtest/gtest.h>

#include "support/RunPasses.h"

using namespace wl::model;

TEST(ExplicitFlowsPass, EachEndBindsToTheInnermostSliceOverItsTime) {
    TraceBuilder b;
    const auto host = b.hostProcess(1);
    const auto from = b.hostTrack(host, 1);
    const auto to = b.hostTrack(host, 2);
    b.addSlice(from, 0, 100, "outer", SliceKind::Other);
    b.addSlice(from, 10, 20, "inner", SliceKind::Other);
    b.addSlice(to, 200, 300, "target", SliceKind::Other);
    b.addFlow(4, from, 15, to, 250);
    b.addFlow(5, from, 50, to, 150);  // lands on no slice at 150
    const auto trace = wl::test::runPasses(b, {"lane assignment", "explicit flows"});
    ASSERT_EQ(trace->flows().size(), 1u);
    const Flow& f = trace->flows()[0];
    EXPECT_EQ(f.id, 4u);
    EXPECT_EQ(trace->str(trace->slice(f.from).nameId), "inner");
    EXPECT_EQ(trace->str(trace->slice(f.to).nameId), "target");
    ASSERT_EQ(trace->diagnostics().warnings.size(), 1u);
    EXPECT_EQ(trace->diagnostics().warnings[0],
              "1 flow event(s) did not land on a slice and were dropped");
}

namespace {

// A parent and a child that starts with it, on one track.
TrackIndex addParentAndChild(TraceBuilder& b) {
    const auto track = b.hostTrack(b.hostProcess(1), 1);
    b.addSlice(track, 0, 100, "parent", SliceKind::Other);
    b.addSlice(track, 0, 40, "child", SliceKind::Other);
    return track;
}

}  // namespace

TEST(ExplicitFlowsPass, AFlowAnchorBindsBackToItsSlice) {
    TraceBuilder first;
    addParentAndChild(first);
    const auto laid = wl::test::runPasses(first, {"lane assignment"});
    const Track& t = laid->tracks()[0];
    const auto anchor = TraceBuilder::flowAnchorNs(t, t.lane(0)[0]);
    ASSERT_TRUE(anchor);

    TraceBuilder b;
    const auto track = addParentAndChild(b);
    b.addFlow(1, track, *anchor, track, 10);
    const auto trace = wl::test::runPasses(b, {"lane assignment", "explicit flows"});
    ASSERT_EQ(trace->flows().size(), 1u);
    EXPECT_EQ(trace->str(trace->slice(trace->flows()[0].from).nameId), "parent");
    EXPECT_EQ(trace->str(trace->slice(trace->flows()[0].to).nameId), "child");
}
