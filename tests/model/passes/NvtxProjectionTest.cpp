#include <gtest/gtest.h>

#include "support/RunPasses.h"

using namespace wl::model;

TEST(NvtxProjectionPass, ARangeBecomesTheSpanOfTheGpuWorkLaunchedInIt) {
    TraceBuilder b;
    const auto host = b.hostProcess(1);
    const auto api = b.hostApiTrack(host, 1);
    const auto nvtx = b.nvtxTrack(host, 1, "app");
    const auto gpu = b.gpuProcess(0);
    b.addNvtx(nvtx, 0, 30, "step", {});
    b.addNvtx(nvtx, 40, 50, "idle", {});  // launches nothing
    b.addNvtx(nvtx, 45, 45, "mark", {});  // a mark launches nothing
    b.addApi(api, 0, 5, "cudaLaunchKernel", 1, {});
    b.addApi(api, 10, 15, "cudaLaunchKernel", 2, {});
    b.addKernel(b.gpuStreamTrack(gpu, 7), 100, 200, "a", 1, {});
    b.addKernel(b.gpuStreamTrack(gpu, 8), 150, 300, "b", 2, {});
    const auto trace =
        wl::test::runPasses(b, {"lane assignment", "launch flows", "NVTX projection"});
    ASSERT_EQ(trace->tracks().size(), 5u);
    const Track& projection = trace->tracks()[4];  // made last
    EXPECT_EQ(projection.kind, TrackKind::NvtxProjection);
    EXPECT_EQ(projection.process, gpu);
    EXPECT_EQ(projection.deviceId, 0);
    EXPECT_EQ(trace->str(projection.nameId), "NVTX app on the GPU (thread 1)");
    ASSERT_EQ(projection.slices.size(), 1u);
    EXPECT_EQ(trace->str(projection.slices[0].nameId), "step");
    EXPECT_EQ(projection.slices[0].startNs, 100);
    EXPECT_EQ(projection.slices[0].endNs(), 300);
    EXPECT_EQ(projection.laneCount(), 1u);
}
