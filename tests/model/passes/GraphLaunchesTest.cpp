#include <gtest/gtest.h>

#include "support/RunPasses.h"

using namespace wl::model;

TEST(GraphLaunchesPass, EachLaunchOfAGraphIsOneSliceOverItsNodes) {
    TraceBuilder b;
    const auto api = b.hostApiTrack(b.hostProcess(1), 1);
    const auto stream = b.gpuStreamTrack(b.gpuProcess(0), 7);
    b.setTrackSortIndex(stream, 3);
    b.addApi(api, 0, 10, "cudaGraphLaunch", 10, {});
    b.addApi(api, 20, 30, "cudaGraphLaunch", 20, {});
    b.addApi(api, 40, 50, "cudaLaunchKernel", 30, {});
    KernelDetail node;
    node.graph = {4, 1};
    b.addKernel(stream, 100, 150, "a", 10, node);
    b.addKernel(stream, 300, 350, "a", 20, node);
    node.graph = {4, 2};
    b.addKernel(stream, 160, 200, "b", 10, node);
    b.addKernel(stream, 320, 400, "b", 20, node);
    b.addKernel(stream, 500, 600, "not in a graph", 30, {});
    const auto trace =
        wl::test::runPasses(b, {"lane assignment", "launch flows", "graph launches"});
    ASSERT_EQ(trace->tracks().size(), 3u);
    const Track& launches = trace->tracks()[2];
    EXPECT_EQ(launches.kind, TrackKind::GraphLaunches);
    EXPECT_EQ(launches.process, trace->tracks()[stream].process);
    EXPECT_EQ(launches.streamId, 7);
    EXPECT_EQ(launches.sortIndex, 3);  // its stream's: listed beside it
    EXPECT_EQ(trace->str(launches.nameId), "Graph launches (stream 7)");
    ASSERT_EQ(launches.slices.size(), 2u);
    EXPECT_EQ(trace->str(launches.slices[0].nameId), "graph 4 · launch 1 of 2 · 2 nodes");
    EXPECT_EQ(launches.slices[0].startNs, 100);
    EXPECT_EQ(launches.slices[0].endNs(), 200);
    EXPECT_EQ(trace->str(launches.slices[1].nameId), "graph 4 · launch 2 of 2 · 2 nodes");
    EXPECT_EQ(launches.slices[1].startNs, 300);
    EXPECT_EQ(launches.slices[1].endNs(), 400);
}
