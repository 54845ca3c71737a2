#include <gtest/gtest.h>

#include "support/RunPasses.h"

using namespace wl::model;

TEST(CountsPass, CountsWhatWasRecordedByKindAndLeavesDerivedRowsOut) {
    TraceBuilder b;
    const auto host = b.hostProcess(1);
    const auto api = b.hostApiTrack(host, 1);
    const auto stream = b.gpuStreamTrack(b.gpuProcess(0), 7);
    b.addApi(api, 0, 10, "cudaLaunchKernel", 1, {});
    b.addApi(api, 20, 30, "cudaMemcpyAsync", 2, {});
    b.addKernel(stream, 40, 50, "k", 1, {});
    b.addMemcpy(stream, 60, 70, "copy", 2, {});
    b.addNvtx(b.nvtxTrack(host, 1), 0, 100, "range", {});
    b.addSlice(b.hostTrack(host, 1), 0, 5, "other", SliceKind::Other);
    b.addSlice(b.hostTrack(host, 2), 0, 5, "aten::mm", SliceKind::CpuOp);
    const auto recorded = b.counterTrack(host, "c", "s");
    b.addCounterSample(recorded, 0, 1.0);
    const auto made = b.counterTrack(host, "d", "s");
    b.setCounterDerived(made, "made from the rest");
    b.addCounterSample(made, 0, 1.0);
    const auto trace =
        wl::test::runPasses(b, {"lane assignment", "launch flows", "launch queue", "counts"});
    const TraceCounts& n = trace->counts();
    EXPECT_EQ(n.api, 2u);
    EXPECT_EQ(n.kernel, 1u);
    EXPECT_EQ(n.memcpy, 1u);
    EXPECT_EQ(n.nvtx, 1u);
    EXPECT_EQ(n.cpuOp, 1u);
    EXPECT_EQ(n.other, 1u);
    EXPECT_EQ(n.slices, 7u);
    EXPECT_EQ(n.flows, 2u);
    EXPECT_EQ(n.dependencies, 0u);
    EXPECT_EQ(trace->counters().size(), 3u);  // with the launch queue
    EXPECT_EQ(n.counterSamples, 1u);          // neither derived counter
}

TEST(CountsPass, DerivedTracksAreNotCounted) {
    TraceBuilder b;
    const auto api = b.hostApiTrack(b.hostProcess(1), 1);
    const auto stream = b.gpuStreamTrack(b.gpuProcess(0), 7);
    b.addApi(api, 0, 10, "cudaGraphLaunch", 1, {});
    KernelDetail node;
    node.graph = {2, 1};
    b.addKernel(stream, 20, 30, "node", 1, node);
    const auto trace =
        wl::test::runPasses(b, {"lane assignment", "launch flows", "graph launches", "counts"});
    ASSERT_EQ(trace->tracks().size(), 3u);  // with the graph-launch row
    EXPECT_EQ(trace->counts().slices, 2u);
    EXPECT_EQ(trace->counts().other, 0u);
}
