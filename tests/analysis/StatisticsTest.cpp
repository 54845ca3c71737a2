#include <gtest/gtest.h>

#include "HandTrace.h"
#include "analysis/ApiNames.h"
#include "analysis/GpuOps.h"
#include "analysis/Statistics.h"

namespace wl::analysis {
namespace {

using model::CopyKind;

TEST(Statistics, PerKernelName) {
    test::HandTrace t;
    t.kernel(1, 0, 100, -1, "k1");
    t.kernel(1, 200, 500, -1, "k1");
    t.kernel(2, 100, 150, -1, "k2");
    const auto trace = t.finish();
    const Statistics s = computeStatistics(*trace, GpuOps(*trace));
    EXPECT_EQ(s.kernelTotalNs, 450);
    ASSERT_EQ(s.kernels.size(), 2u);
    const KernelStats& k1 = s.kernels[0];  // longest total first
    EXPECT_EQ(k1.name, "k1");
    EXPECT_EQ(k1.count, 2u);
    EXPECT_EQ(k1.totalNs, 400);
    EXPECT_DOUBLE_EQ(k1.meanNs, 200.0);
    EXPECT_EQ(k1.minNs, 100);
    EXPECT_EQ(k1.maxNs, 300);
    EXPECT_DOUBLE_EQ(k1.pctOfGpuTime, 100.0 * 400 / 450);
    EXPECT_EQ(s.kernels[1].name, "k2");
    EXPECT_EQ(s.kernels[1].count, 1u);
    EXPECT_DOUBLE_EQ(s.kernels[1].pctOfGpuTime, 100.0 * 50 / 450);
}

TEST(Statistics, PerCopyKind) {
    test::HandTrace t;
    t.copy(1, 0, 100, CopyKind::HostToDevice, 1000, -1, -1);
    t.copy(1, 200, 600, CopyKind::HostToDevice, 1000, -1, -1, "cudaMemcpy",
           model::MemoryKind::Pageable);
    t.copy(1, 700, 800, CopyKind::DeviceToHost, 5000, -1, -1);
    const auto trace = t.finish();
    const Statistics s = computeStatistics(*trace, GpuOps(*trace));
    ASSERT_EQ(s.copies.size(), 2u);
    EXPECT_EQ(s.copies[0].kind, CopyKind::HostToDevice);
    EXPECT_EQ(s.copies[0].count, 2u);
    EXPECT_EQ(s.copies[0].bytes, 2000u);
    EXPECT_EQ(s.copies[0].totalNs, 500);
    EXPECT_EQ(s.copies[0].pageableCount, 1u);
    EXPECT_DOUBLE_EQ(s.copies[0].gbPerSecond(), 4.0);  // 2000 B / 500 ns
    EXPECT_EQ(s.copies[1].kind, CopyKind::DeviceToHost);
    EXPECT_DOUBLE_EQ(s.copies[1].gbPerSecond(), 50.0);
    EXPECT_EQ(s.copyBytes, 7000u);
    EXPECT_DOUBLE_EQ(s.copyGbPerSecond(), 7000.0 / 600.0);
}

TEST(ApiNames, Classification) {
    EXPECT_EQ(baseApiName("cudaMemcpy_v3020"), "cudaMemcpy");
    EXPECT_EQ(baseApiName("cuMemcpyDtoH_v2"), "cuMemcpyDtoH");
    EXPECT_EQ(baseApiName("cudaStreamSynchronize_ptsz"), "cudaStreamSynchronize");
    EXPECT_EQ(baseApiName("my_value"), "my_value");
    EXPECT_TRUE(isExplicitSyncApi("cudaDeviceSynchronize_v3020"));
    EXPECT_TRUE(isExplicitSyncApi("cuEventSynchronize"));
    EXPECT_FALSE(isExplicitSyncApi("cudaEventRecord_v3020"));
    EXPECT_TRUE(isBlockingCopyApi("cudaMemcpy_v3020"));
    EXPECT_TRUE(isBlockingCopyApi("cuMemcpyDtoH_v2"));
    EXPECT_FALSE(isBlockingCopyApi("cudaMemcpyAsync_v3020"));
    EXPECT_FALSE(isBlockingCopyApi("cuMemcpyHtoDAsync_v2"));
    EXPECT_FALSE(isSynchronizingApi("cudaLaunchKernel_v7000"));
}

}  // namespace
}  // namespace wl::analysis
