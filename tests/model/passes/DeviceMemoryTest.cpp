#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "model/Derived.h"
#include "support/RunPasses.h"

using namespace wl::model;

namespace {

MemoryDetail op(MemoryOp what, std::uint64_t address, std::uint64_t bytes) {
    MemoryDetail d;
    d.op = what;
    d.memoryKind = MemoryKind::Device;
    d.address = address;
    d.bytes = bytes;
    return d;
}

std::vector<std::pair<TimeNs, double>> steps(const CounterTrack& c) {
    std::vector<std::pair<TimeNs, double>> out;
    for (const auto& s : c.samples)
        out.emplace_back(s.timestampNs, s.value);
    return out;
}

}  // namespace

TEST(DeviceMemoryPass, MemoryInUseFollowsAllocationsAndReleasesRecorded) {
    TraceBuilder b;
    const auto memory = b.memoryTrack(b.gpuProcess(0));
    b.addMemory(memory, 30, "free", 0, op(MemoryOp::Release, 0x1000, 256));
    b.addMemory(memory, 10, "malloc", 0, op(MemoryOp::Allocation, 0x1000, 256));
    b.addMemory(memory, 20, "malloc", 0, op(MemoryOp::Allocation, 0x2000, 64));
    b.addMemory(memory, 40, "free", 0, op(MemoryOp::Release, 0x9000, 8));  // allocated before
    const auto trace = wl::test::runPasses(b, {"device memory"});
    ASSERT_EQ(trace->counters().size(), 1u);  // no pool: no pool series
    const CounterTrack& used = trace->counters()[0];
    EXPECT_TRUE(used.derived);
    EXPECT_EQ(trace->str(used.nameId), kDeviceMemoryName);
    EXPECT_EQ(trace->str(used.seriesId), kMemoryInUse);
    EXPECT_EQ(used.deviceId, 0);
    EXPECT_EQ(steps(used),
              (std::vector<std::pair<TimeNs, double>>{{10, 256}, {20, 320}, {30, 64}}));
}

TEST(DeviceMemoryPass, PoolsGetASeriesOfTheirOwn) {
    TraceBuilder b;
    const auto memory = b.memoryTrack(b.gpuProcess(0));
    MemoryDetail d = op(MemoryOp::Allocation, 0x1000, 100);
    d.fromPool = true;
    d.poolAddress = 0x50;
    d.poolReservedBytes = 4096;
    b.addMemory(memory, 10, "mallocAsync", 0, d);
    const auto trace = wl::test::runPasses(b, {"device memory"});
    ASSERT_EQ(trace->counters().size(), 2u);
    EXPECT_EQ(trace->str(trace->counters()[1].seriesId), kMemoryInPools);
    EXPECT_EQ(steps(trace->counters()[1]), (std::vector<std::pair<TimeNs, double>>{{10, 4096}}));
}
