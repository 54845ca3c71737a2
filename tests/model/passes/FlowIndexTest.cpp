#include <gtest/gtest.h>

#include "support/RunPasses.h"

using namespace wl::model;

namespace {

// A launch (correlation 3) of kernel "k", the producer's flow that repeats it, and a second flow
// into the kernel from another call.
void addLaunchAndFlows(TraceBuilder& b) {
    const auto api = b.hostApiTrack(b.hostProcess(1), 1);
    const auto stream = b.gpuStreamTrack(b.gpuProcess(0), 7);
    b.addApi(api, 0, 10, "launch", 3, {});
    b.addApi(api, 20, 30, "other", 0, {});
    b.addKernel(stream, 40, 50, "k", 3, {});
    b.addFlow(99, api, 5, stream, 45);
    b.addFlow(100, api, 25, stream, 45);
}

}  // namespace

TEST(FlowIndexPass, DropsAFlowThatRepeatsALaunchLinkAndIndexesBothEnds) {
    TraceBuilder before;
    addLaunchAndFlows(before);
    const auto unindexed =
        wl::test::runPasses(before, {"lane assignment", "launch flows", "explicit flows"});
    EXPECT_EQ(unindexed->flows().size(), 3u);

    TraceBuilder b;
    addLaunchAndFlows(b);
    const auto trace =
        wl::test::runPasses(b, {"lane assignment", "launch flows", "explicit flows", "flow index"});
    ASSERT_EQ(trace->flows().size(), 2u);
    const SliceRef launch{0, 0};
    const SliceRef other{0, 1};
    const SliceRef kernel{1, 0};
    ASSERT_NE(trace->flowFrom(launch), nullptr);
    EXPECT_EQ(trace->flowFrom(launch)->id, 3u);  // the launch link stays
    ASSERT_NE(trace->flowFrom(other), nullptr);
    EXPECT_EQ(trace->flowFrom(other)->id, 100u);
    ASSERT_NE(trace->flowTo(kernel), nullptr);
    EXPECT_EQ(trace->flowsFrom(launch).size(), 1u);
}
