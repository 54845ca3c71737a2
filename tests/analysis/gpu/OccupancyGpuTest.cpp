#include <gtest/gtest.h>

#include <cstdio>

#include "analysis/DeviceLimits.h"
#include "analysis/Occupancy.h"

// Built without the CUDA toolkit on the include path, the test only says why it cannot run.
#if __has_include(<cuda_runtime.h>)
#include <cuda_runtime.h>

#include "OccupancyKernels.h"

namespace wl::analysis {
namespace {

// The device as the analysis sees it when a trace carries its properties.
model::DeviceProperties toModel(const cudaDeviceProp& p, int id) {
    model::DeviceProperties d;
    d.id = id;
    d.name = p.name;
    d.computeMajor = p.major;
    d.computeMinor = p.minor;
    d.smCount = p.multiProcessorCount;
    d.warpSize = p.warpSize;
    d.maxThreadsPerBlock = p.maxThreadsPerBlock;
    d.maxThreadsPerSm = p.maxThreadsPerMultiProcessor;
    d.maxBlocksPerSm = p.maxBlocksPerMultiProcessor;
    d.maxWarpsPerSm = p.maxThreadsPerMultiProcessor / p.warpSize;
    d.registersPerSm = p.regsPerMultiprocessor;
    d.registersPerBlock = p.regsPerBlock;
    d.sharedMemoryPerSmBytes = static_cast<std::int64_t>(p.sharedMemPerMultiprocessor);
    d.sharedMemoryPerBlockBytes = static_cast<std::int64_t>(p.sharedMemPerBlock);
    d.sharedMemoryPerBlockOptinBytes = static_cast<std::int64_t>(p.sharedMemPerBlockOptin);
    return d;
}

class OccupancyVsRuntime : public ::testing::Test {
protected:
    void SetUp() override {
        int count = 0;
        if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
            GTEST_SKIP() << "no CUDA device";
        }
        ASSERT_EQ(cudaGetDeviceProperties(&m_prop, 0), cudaSuccess);
        m_limits = deviceLimits(toModel(m_prop, 0));
    }

    cudaDeviceProp m_prop{};
    DeviceLimits m_limits;
};

TEST_F(OccupancyVsRuntime, DeviceLimitsMatchTheDevice) {
    EXPECT_TRUE(m_limits.known);
    EXPECT_EQ(m_limits.smCount, m_prop.multiProcessorCount);
    EXPECT_EQ(m_limits.reservedSharedPerBlockBytes,
              static_cast<std::int64_t>(m_prop.reservedSharedMemPerBlock));
    EXPECT_EQ(m_limits.maxBlocksPerSm, m_prop.maxBlocksPerMultiProcessor);
    std::printf("device: %s, sm_%d%d, %d SMs, %zu B shared/SM, %zu B reserved/block\n", m_prop.name,
                m_prop.major, m_prop.minor, m_prop.multiProcessorCount,
                m_prop.sharedMemPerMultiprocessor, m_prop.reservedSharedMemPerBlock);
}

TEST_F(OccupancyVsRuntime, MatchesCudaOccupancyMaxActiveBlocksPerMultiprocessor) {
    const int blockSizes[] = {1, 32, 48, 64, 96, 128, 192, 256, 384, 512, 640, 768, 1024};
    const std::size_t dynamicShared[] = {0, 4 * 1024, 20 * 1024, 48 * 1024, 100 * 1024};
    int checked = 0;
    int mismatches = 0;
    for (const auto& kernel : test::gpu::occupancyKernels()) {
        cudaFuncAttributes attr{};
        ASSERT_EQ(cudaFuncGetAttributes(&attr, kernel.function), cudaSuccess) << kernel.name;
        const bool dynamic = kernel.name == "dynamic_shared";
        if (dynamic) {
            // Opt in to more than the default 48 KB so the 100 KB configurations are legal.
            ASSERT_EQ(cudaFuncSetAttribute(
                          kernel.function, cudaFuncAttributeMaxDynamicSharedMemorySize,
                          static_cast<int>(m_prop.sharedMemPerBlockOptin - attr.sharedSizeBytes)),
                      cudaSuccess);
        }
        for (int block : blockSizes) {
            if (block > attr.maxThreadsPerBlock) {
                continue;
            }
            for (std::size_t dyn : dynamicShared) {
                if (!dynamic && dyn != 0) {
                    continue;
                }
                int expected = -1;
                ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&expected, kernel.function,
                                                                        block, dyn),
                          cudaSuccess)
                    << kernel.name << " block " << block << " dyn " << dyn;
                const Occupancy ours =
                    computeOccupancy(m_limits, block, attr.numRegs,
                                     static_cast<std::int64_t>(attr.sharedSizeBytes + dyn));
                ++checked;
                if (ours.blocksPerSm != expected) {
                    ++mismatches;
                }
                EXPECT_EQ(ours.blocksPerSm, expected)
                    << kernel.name << ": block " << block << ", " << attr.numRegs << " regs, "
                    << attr.sharedSizeBytes << " B static + " << dyn << " B dynamic shared";
                std::printf(
                    "%-18s block %4d regs %3d smem %6zu+%6zu -> runtime %2d ours %2d (%s)\n",
                    kernel.name.c_str(), block, attr.numRegs, attr.sharedSizeBytes, dyn, expected,
                    ours.blocksPerSm, toString(ours.limiter));
            }
        }
    }
    std::printf("checked %d configurations, %d mismatches\n", checked, mismatches);
    EXPECT_GE(checked, 20);
}

}  // namespace
}  // namespace wl::analysis

#else

TEST(OccupancyVsRuntime, NeedsCuda) {
    GTEST_SKIP() << "built without CUDA";
}

#endif
