// Every mode of both workloads gives the right answer on a real GPU; device-side failures come
// back as errors and leave the process usable. Skips itself without a device.
#include <gtest/gtest.h>

#include <cmath>
#include <tuple>

#include "GpuTestSupport.h"
#include "workloads/PowerIteration.h"
#include "workloads/ReduceWorkload.h"
#include "workloads/Validation.h"

namespace wl::workloads {
namespace {

WorkloadParams reduceParams(Mode mode, int streams, bool pinned, std::int64_t size) {
    WorkloadParams p;
    p.mode = mode;
    p.streams = streams;
    p.pinned = pinned;
    p.size = size;
    return p;
}

void expectNormalized(const model::Result<WorkloadResult>& result) {
    ASSERT_TRUE(result.ok()) << result.error().describe();
    EXPECT_TRUE(result->passed) << result->checkText;
    EXPECT_NEAR(result->value, 1.0, kReduceTolerance) << result->checkText;
    EXPECT_GT(result->loopMs, 0.0);
}

// (mode, streams, pinned, shared stream, size, repeat)
using ReduceCase = std::tuple<Mode, int, bool, bool, std::int64_t, int>;
class ReduceModes : public ::testing::TestWithParam<ReduceCase> {};

TEST_P(ReduceModes, NormalizedSumIsOne) {
    WL_REQUIRE_GPU();
    const auto [mode, streams, pinned, shared, size, repeat] = GetParam();
    WorkloadParams p = reduceParams(mode, streams, pinned, size);
    p.sharedStream = shared;
    p.repeat = repeat;
    ReduceWorkload reduce;
    ASSERT_TRUE(validateOnDevice(reduce, p).ok());
    expectNormalized(reduce.run(p));
}

INSTANTIATE_TEST_SUITE_P(
    AllModes, ReduceModes,
    ::testing::Values(ReduceCase{Mode::Baseline, 1, false, false, 10'000'000, 1},
                      ReduceCase{Mode::Baseline, 1, true, false, 10'000'000, 1},
                      ReduceCase{Mode::Baseline, 1, true, false, 10'000'000, 5},
                      ReduceCase{Mode::Async, 1, true, false, 10'000'000, 1},
                      ReduceCase{Mode::Async, 8, true, false, 10'000'000, 1},
                      ReduceCase{Mode::Async, 8, false, false, 10'000'000, 1},
                      ReduceCase{Mode::Async, 8, true, true, 10'000'000, 3},
                      ReduceCase{Mode::Async, 64, true, false, 10'000'000, 1},
                      // Chunks that start off 16-byte boundaries, and an odd tail.
                      ReduceCase{Mode::Async, 7, true, false, 1'000'003, 2},
                      // More streams than elements: empty chunks.
                      ReduceCase{Mode::Async, 8, true, false, 5, 1},
                      ReduceCase{Mode::Baseline, 1, false, false, 1, 1}));

TEST(ReduceDefaults, FullSizeAsyncEightStreams) {
    WL_REQUIRE_GPU();
    ReduceWorkload reduce;
    const WorkloadParams p = reduceParams(Mode::Async, 8, true, 0);  // the seed's 100M
    expectNormalized(reduce.run(p));
}

TEST(ReduceFailures, OutOfMemoryIsAnErrorAndTheNextRunWorks) {
    WL_REQUIRE_GPU();
    ReduceWorkload reduce;
    WorkloadParams huge = reduceParams(Mode::Baseline, 1, false, kMaxReduceElements);
    const model::Status validation = validateOnDevice(reduce, huge);
    ASSERT_FALSE(validation.ok());
    EXPECT_NE(validation.error().message.find("free on the device"), std::string::npos)
        << validation.error().message;
    // Skipping validation: the allocation itself fails with CUDA's text.
    const auto failed = reduce.run(huge);
    ASSERT_FALSE(failed.ok());
    EXPECT_NE(failed.error().message.find("out of memory"), std::string::npos)
        << failed.error().message;
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    expectNormalized(reduce.run(reduceParams(Mode::Async, 4, true, 1'000'000)));
}

// (mode, streams, pinned, matvec)
using PowerCase = std::tuple<Mode, int, bool, Matvec>;
class PowerModes : public ::testing::TestWithParam<PowerCase> {};

void expectEigenvalueOne(const model::Result<WorkloadResult>& result, const WorkloadParams& p) {
    ASSERT_TRUE(result.ok()) << result.error().describe();
    EXPECT_TRUE(result->passed) << result->checkText;
    EXPECT_NEAR(result->value, 1.0, kPowerEigenvalueTolerance) << result->checkText;
    EXPECT_LT(result->residual, p.threshold) << result->checkText;
    EXPECT_LT(result->steps, p.maxSteps) << "did not converge: " << result->checkText;
    EXPECT_EQ(result->steps % p.checkEvery, 0);
    if (p.mode == Mode::Async) {
        // Convergence is seen one batch late: the GPU ran one batch more.
        EXPECT_EQ(result->stepsRun, result->steps + p.checkEvery);
    } else {
        EXPECT_EQ(result->stepsRun, result->steps);
    }
    EXPECT_GE(result->gpuIdleFraction, 0.0);
    EXPECT_LT(result->gpuIdleFraction, 1.0);
}

TEST_P(PowerModes, DominantEigenvalueIsOne) {
    WL_REQUIRE_GPU();
    const auto [mode, streams, pinned, matvec] = GetParam();
    WorkloadParams p;
    p.mode = mode;
    p.streams = streams;
    p.pinned = pinned;
    p.size = 2048;
    p.quiet = true;
    PowerIteration power;
    power.setMatvec(matvec);
    p = power.withDefaults(p);
    ASSERT_TRUE(validateOnDevice(power, p).ok());
    expectEigenvalueOne(power.run(p), p);
}

INSTANTIATE_TEST_SUITE_P(AllModes, PowerModes,
                         ::testing::Values(PowerCase{Mode::Baseline, 1, false, Matvec::Cublas},
                                           PowerCase{Mode::Baseline, 1, true, Matvec::Cublas},
                                           PowerCase{Mode::Async, 1, true, Matvec::Cublas},
                                           PowerCase{Mode::Async, 1, false, Matvec::Cublas},
                                           PowerCase{Mode::Async, 2, true, Matvec::Cublas},
                                           PowerCase{Mode::Async, 3, true, Matvec::Cublas},
                                           PowerCase{Mode::Async, 2, false, Matvec::Cublas},
                                           PowerCase{Mode::Baseline, 1, true, Matvec::OwnKernel},
                                           PowerCase{Mode::Async, 2, true, Matvec::OwnKernel}));

TEST(PowerDefaults, NotebookSizeBothModes) {
    WL_REQUIRE_GPU();
    for (Mode mode : {Mode::Baseline, Mode::Async}) {
        WorkloadParams p;
        p.mode = mode;
        p.streams = 2;
        p.pinned = true;
        p.quiet = true;
        PowerIteration power;
        p = power.withDefaults(p);
        expectEigenvalueOne(power.run(p), p);
    }
}

TEST(PowerDefaults, OddDimensionOwnKernel) {
    WL_REQUIRE_GPU();
    WorkloadParams p;
    p.mode = Mode::Async;
    p.streams = 2;
    p.size = 999;  // odd: the own kernel's scalar path
    p.quiet = true;
    PowerIteration power;
    power.setMatvec(Matvec::OwnKernel);
    p = power.withDefaults(p);
    expectEigenvalueOne(power.run(p), p);
}

TEST(PowerDefaults, StepLimitReachedIsAFailedCheckNotAnError) {
    WL_REQUIRE_GPU();
    WorkloadParams p;
    p.mode = Mode::Async;
    p.streams = 2;
    p.size = 1000;
    p.maxSteps = 30;
    p.checkEvery = 7;  // batches end at steps 7, 14, 21, 28, 30
    p.quiet = true;
    PowerIteration power;
    const auto result = power.run(p);
    ASSERT_TRUE(result.ok()) << result.error().describe();
    EXPECT_EQ(result->steps, 30);
    EXPECT_EQ(result->stepsRun, 30);
    EXPECT_GT(result->residual, p.threshold);
    EXPECT_NE(result->checkText.find("step limit reached"), std::string::npos) << result->checkText;
    // 30 steps at ratio 0.95 leave the eigenvalue estimate visibly off 1.
    EXPECT_FALSE(result->passed) << result->checkText;
}

TEST(PowerFailures, MatrixTooLargeIsAnErrorAndTheNextRunWorks) {
    WL_REQUIRE_GPU();
    PowerIteration power;
    WorkloadParams huge;
    huge.size = kMaxPowerDim;
    huge.quiet = true;
    EXPECT_FALSE(validateOnDevice(power, huge).ok());
    const auto failed = power.run(huge);
    ASSERT_FALSE(failed.ok());
    EXPECT_NE(failed.error().message.find("out of memory"), std::string::npos)
        << failed.error().message;
    WorkloadParams small;
    small.size = 512;
    small.quiet = true;
    small = power.withDefaults(small);
    expectEigenvalueOne(power.run(small), small);
}

}  // namespace
}  // namespace wl::workloads
