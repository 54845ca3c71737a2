// The analysis entry point that work on a worker uses: a cancel flag stops it, and a stopped
// analysis gives nothing, never a partial result.
#include <gtest/gtest.h>

#include <atomic>

#include "analysis/Analysis.h"
#include "analysis/GpuOps.h"
#include "support/TraceFactory.h"

namespace wl::analysis {
namespace {

model::TracePtr manyOps() {
    static const model::TracePtr trace = test::makeSyntheticTrace(test::gpuOpsSpec(20'000));
    return trace;
}

AnalysisWindow wholeTrace(const model::Trace& trace) {
    return resolveWindow(trace, WindowRequest{}).value();
}

TEST(AnalysisCancel, WithoutTheFlagItIsTheAnalysis) {
    const auto& trace = *manyOps();
    const std::atomic<bool> cancel{false};
    const auto result = analyzeTrace(trace, {}, wholeTrace(trace), &cancel);
    ASSERT_TRUE(result.has_value());
    const AnalysisResult plain = analyzeTrace(trace, {}, wholeTrace(trace));
    EXPECT_EQ(result->utilization.busyNs, plain.utilization.busyNs);
    EXPECT_EQ(result->utilization.gaps.size(), plain.utilization.gaps.size());
    EXPECT_EQ(result->diagnostics.size(), plain.diagnostics.size());
}

TEST(AnalysisCancel, ASetFlagGivesNothing) {
    const auto& trace = *manyOps();
    const std::atomic<bool> cancel{true};
    EXPECT_FALSE(analyzeTrace(trace, {}, wholeTrace(trace), &cancel).has_value());
}

TEST(AnalysisCancel, TheGapWalkStopsOnTheFlag) {
    const auto& trace = *manyOps();
    const AnalysisWindow window = wholeTrace(trace);
    const GpuOps ops(trace, &window);
    ASSERT_GT(ops.all().size(), 10'000u);
    const std::atomic<bool> cancel{true};
    const UtilizationResult stopped = computeUtilization(trace, ops, window, {}, &cancel);
    const UtilizationResult full = computeUtilization(trace, ops, window, {});
    ASSERT_FALSE(full.gaps.empty());
    // It stopped within the first few thousand ops: no device was summed up.
    EXPECT_TRUE(stopped.devices.empty());
    EXPECT_LT(stopped.gaps.size(), full.gaps.size());
}

}  // namespace
}  // namespace wl::analysis
