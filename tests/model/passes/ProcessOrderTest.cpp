#include <gtest/gtest.h>

#include "support/RunPasses.h"

using namespace wl::model;

TEST(ProcessOrderPass, HostsByRankAndPidThenGpusByRankOrdinalAndOwner) {
    TraceBuilder b;
    const auto gpu1 = b.gpuProcess(1);
    const auto gpu0b = b.gpuProcess(0, {}, 20);
    const auto gpu0a = b.gpuProcess(0, {}, 10);
    const auto host9 = b.hostProcess(9);
    const auto rank1 = b.hostProcess(3, {}, 1);
    const auto host4 = b.hostProcess(4);
    b.gpuStreamTrack(gpu1, 7);
    b.hostTrack(host4, 4);
    b.counterTrack(gpu0a, "c", "s");
    DeviceProperties d1;
    d1.id = 1;
    DeviceProperties d0;
    d0.id = 0;
    b.addDevice(d1);
    b.addDevice(d0);
    (void)gpu0b;
    (void)host9;
    (void)rank1;
    const auto trace = wl::test::runPasses(b, {"process order"});
    const auto p = trace->processes();
    ASSERT_EQ(p.size(), 6u);
    EXPECT_EQ(p[0].pid, 4);  // rank -1 before rank 1
    EXPECT_EQ(p[1].pid, 9);
    EXPECT_EQ(p[2].pid, 3);
    EXPECT_EQ(p[2].rank, 1);
    EXPECT_EQ(p[3].deviceId, 0);
    EXPECT_EQ(p[3].ownerPid, 10);
    EXPECT_EQ(p[4].ownerPid, 20);
    EXPECT_EQ(p[5].deviceId, 1);
    // Tracks and counters follow their process.
    ASSERT_EQ(trace->tracks().size(), 2u);
    EXPECT_EQ(trace->tracks()[0].process, 5u);
    EXPECT_EQ(trace->tracks()[1].process, 0u);
    EXPECT_EQ(trace->counters()[0].process, 3u);
    // Devices by id.
    ASSERT_EQ(trace->devices().size(), 2u);
    EXPECT_EQ(trace->devices()[0].id, 0);
    EXPECT_EQ(trace->devices()[1].id, 1);
}
