#include <gtest/gtest.h>

#include "HandTrace.h"
#include "analysis/Analysis.h"
#include "analysis/DeviceLimits.h"
#include "analysis/Occupancy.h"

namespace wl::analysis {
namespace {

// H100: 132 SMs, 64 warps/SM, 2048 threads/SM, 32 blocks/SM, 65536 registers/SM (4 files of
// 16384), 228 KB shared memory/SM with 1 KB reserved per block, 227 KB per block at most.
struct Case {
    const char* what;
    std::int64_t threads;
    std::int32_t registers;
    std::int64_t shared;
    std::int32_t blocksPerSm;
    double pct;
    OccupancyLimiter limiter;
};

// Printed by name (gtest would otherwise dump the struct's bytes, padding included).
void PrintTo(const Case& c, std::ostream* os) {
    *os << c.what;
}

class H100Occupancy : public ::testing::TestWithParam<Case> {};

TEST_P(H100Occupancy, MatchesTheHandComputation) {
    const Case& c = GetParam();
    const Occupancy o = computeOccupancy(h100Limits(), c.threads, c.registers, c.shared);
    ASSERT_TRUE(o.valid);
    EXPECT_EQ(o.blocksPerSm, c.blocksPerSm) << c.what;
    EXPECT_DOUBLE_EQ(o.theoreticalPct, c.pct) << c.what;
    EXPECT_EQ(o.limiter, c.limiter) << c.what;
}

INSTANTIATE_TEST_SUITE_P(
    HandComputed, H100Occupancy,
    ::testing::Values(
        // 8 warps/block: 64/8 = 8 by warps; 1024 regs/warp -> 16 warps per file -> 64/8 = 8.
        Case{"256 threads, 32 regs", 256, 32, 0, 8, 100.0, OccupancyLimiter::Warps},
        // 2048 regs/warp -> 8 warps per file -> 32 warps -> 8 blocks of 4 warps.
        Case{"128 threads, 64 regs", 128, 64, 0, 8, 50.0, OccupancyLimiter::Registers},
        // 37*32 = 1184 -> 1280 (256 granularity): 16384/1280 = 12 warps per file -> 48 -> 6 blocks.
        Case{"256 threads, 37 regs", 256, 37, 0, 6, 75.0, OccupancyLimiter::Registers},
        // 48 KB + 1 KB reserved = 50176 B: 233472 / 50176 = 4 blocks of 8 warps.
        Case{"256 threads, 48 KB", 256, 32, 48 * 1024, 4, 50.0, OccupancyLimiter::SharedMemory},
        // 100 KB (opt-in) + 1 KB = 103424 B: 2 blocks of 4 warps.
        Case{"128 threads, 100 KB", 128, 32, 100 * 1024, 2, 12.5, OccupancyLimiter::SharedMemory},
        // 100 B + 1 KB = 1124 -> 1152 (128 granularity): 202 by shared memory, 32 by the limit.
        Case{"32 threads, 100 B", 32, 16, 100, 32, 50.0, OccupancyLimiter::Blocks},
        // One thread: one warp per block, 32 blocks at most: 32 of 64 warps.
        Case{"1 thread", 1, 16, 0, 32, 50.0, OccupancyLimiter::Blocks},
        // 96 threads = 3 warps: 64/3 = 21 blocks = 63 warps.
        Case{"96 threads", 96, 32, 0, 21, 100.0 * 63 / 64, OccupancyLimiter::Warps},
        // 1024 threads, 64 regs: 2048 regs/warp, 32 warps -> exactly 65536 per block: 1 block.
        Case{"1024 threads, 64 regs", 1024, 64, 0, 1, 50.0, OccupancyLimiter::Registers},
        // 65 regs -> 2304 per warp * 32 warps = 73728 > 65536 per block: cannot launch.
        Case{"1024 threads, 65 regs", 1024, 65, 0, 0, 0.0, OccupancyLimiter::Registers},
        // 255 regs -> 8160 -> 8192 per warp: 2 warps per file = 8 warps = 1 block of 8.
        Case{"256 threads, 255 regs", 256, 255, 0, 1, 12.5, OccupancyLimiter::Registers},
        // 227 KB is the per-block maximum (+1 KB reserved = 228 KB = the whole SM).
        Case{"64 threads, 227 KB", 64, 32, 227 * 1024, 1, 100.0 * 2 / 64,
             OccupancyLimiter::SharedMemory},
        Case{"64 threads, 228 KB", 64, 32, 228 * 1024, 0, 0.0, OccupancyLimiter::SharedMemory},
        Case{"1025 threads", 1025, 32, 0, 0, 0.0, OccupancyLimiter::Warps}),
    [](const ::testing::TestParamInfo<Case>& p) {
        std::string name = p.param.what;
        for (char& ch : name) {
            if (!std::isalnum(static_cast<unsigned char>(ch))) {
                ch = '_';
            }
        }
        return name;
    });

TEST(Occupancy, AllocationDetails) {
    const Occupancy o = computeOccupancy(h100Limits(), 256, 37, 48 * 1024);
    EXPECT_EQ(o.warpsPerBlock, 8);
    EXPECT_EQ(o.registersPerBlock, 1280 * 8);
    EXPECT_EQ(o.sharedBytesPerBlock, 48 * 1024 + 1024);
    EXPECT_EQ(o.blocksByWarps, 8);
    EXPECT_EQ(o.blocksByRegisters, 6);
    EXPECT_EQ(o.blocksBySharedMemory, 4);
    EXPECT_EQ(o.blocksByLimit, 32);
    EXPECT_EQ(o.activeWarpsPerSm(), 32);
}

TEST(WarpUse, SingleThreadSumIsOneWarpOneLaneOneSm) {
    const WarpUse w = computeWarpUse(h100Limits(), test::launchConfig(1, 1, 16));
    EXPECT_EQ(w.blocks, 1);
    EXPECT_EQ(w.warpsPerBlock, 1);
    EXPECT_EQ(w.activeWarps, 1);
    EXPECT_EQ(w.lanesUsedPerBlock, 1);
    EXPECT_EQ(w.lanesPerBlock, 32);
    EXPECT_DOUBLE_EQ(w.laneUsePct, 100.0 / 32);
    EXPECT_EQ(w.smsUsed, 1);
    EXPECT_EQ(w.smCount, 132);
    EXPECT_EQ(w.maxWarps, 132 * 64);
    EXPECT_DOUBLE_EQ(w.warpFillPct, 100.0 / (132 * 64));
    EXPECT_EQ(w.occupancy.blocksPerSm, 32);
    EXPECT_EQ(w.residentBlocks, 1);
    EXPECT_DOUBLE_EQ(w.gpuFillPct, 100.0 / (132 * 32));  // 1 block of 132 x 32 resident
}

TEST(WarpUse, PartialReduceFillsTheGpu) {
    // The seed's partial_reduce: 32 * 40 blocks of 256 threads with a 1 KB shared array.
    const WarpUse w = computeWarpUse(h100Limits(), test::launchConfig(1280, 256, 32, 1024));
    EXPECT_EQ(w.occupancy.blocksPerSm, 8);  // by warps; shared 2 KB per block allows 114
    EXPECT_EQ(w.residentBlocks, 132 * 8);   // 1056 of 1280 in the first wave
    EXPECT_EQ(w.smsUsed, 132);
    EXPECT_DOUBLE_EQ(w.gpuFillPct, 100.0);
    EXPECT_DOUBLE_EQ(w.warpFillPct, 100.0);
    EXPECT_DOUBLE_EQ(w.laneUsePct, 100.0);
}

TEST(WarpUse, PartialWarpLanes) {
    const WarpUse w = computeWarpUse(h100Limits(), test::launchConfig(2, 48));
    EXPECT_EQ(w.warpsPerBlock, 2);
    EXPECT_DOUBLE_EQ(w.laneUsePct, 75.0);
    EXPECT_EQ(w.activeWarps, 4);
    EXPECT_EQ(w.smsUsed, 2);
}

TEST(DeviceLimits, FromTraceProperties) {
    test::HandTrace t;
    t.addH100();
    t.kernel(1, 0, 10, -1);
    const auto trace = t.finish();
    const DeviceLimits l = deviceLimits(*trace, 0);
    EXPECT_TRUE(l.known);
    EXPECT_EQ(l.source, "trace");
    EXPECT_EQ(l.smCount, 132);
    EXPECT_EQ(l.maxWarpsPerSm(), 64);
    EXPECT_EQ(l.reservedSharedPerBlockBytes, 1024);
    EXPECT_EQ(l.sharedAllocationUnit, 128);
}

TEST(DeviceLimits, FallsBackToTheNameThenToUnknown) {
    model::DeviceProperties named;
    named.name = "NVIDIA H200";
    const DeviceLimits byName = deviceLimits(named);
    EXPECT_TRUE(byName.known);
    EXPECT_EQ(byName.smCount, 132);
    EXPECT_EQ(byName.computeMajor, 9);
    EXPECT_EQ(byName.source, "defaults for NVIDIA H200");

    model::DeviceProperties a100;
    a100.name = "NVIDIA A100-SXM4-80GB";
    EXPECT_EQ(deviceLimits(a100).smCount, 108);
    EXPECT_EQ(deviceLimits(a100).sharedPerSmBytes, 164 * 1024);

    model::TraceBuilder b;
    b.gpuProcess(0, "GPU 0: NVIDIA H100 PCIe");
    b.addKernel(b.gpuStreamTrack(b.gpuProcess(0), 7), 0, 10, "k", 0, test::launchConfig(1, 1));
    const DeviceLimits byRowName = deviceLimits(*b.finalize(), 0);
    EXPECT_TRUE(byRowName.known);
    EXPECT_EQ(byRowName.smCount, 114);

    test::HandTrace t;
    t.kernel(1, 0, 10, -1, "k", test::launchConfig(1, 1));
    const auto trace = t.finish();
    const DeviceLimits none = deviceLimits(*trace, 0);
    EXPECT_FALSE(none.known);
    EXPECT_EQ(none.source, "unknown");
    const AnalysisResult r = analyzeTrace(*trace);
    const model::SliceRef kernel = test::firstSliceOf(*trace, model::SliceKind::Kernel);
    ASSERT_TRUE(kernel.valid());
    EXPECT_FALSE(warpUseOf(*trace, r, kernel).occupancy.valid);
    EXPECT_EQ(warpUseOf(*trace, r, kernel).laneUsePct, 100.0 / 32);
}

}  // namespace
}  // namespace wl::analysis
