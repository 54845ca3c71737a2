// Two traces side by side (`warpline diff`): exact figures on hand-built traces.
#include <gtest/gtest.h>

#include <algorithm>

#include "HandTrace.h"
#include "analysis/Analysis.h"
#include "analysis/TraceDiff.h"

namespace wl::analysis {
namespace {

using model::CopyKind;

constexpr model::TimeNs kUs = 1'000;  // gaps under 20 us are not counted as gaps

// "Before": a copy, then "scale" twice with the host between them. "After": the copy and one
// longer "scale", plus "sum"; the NVTX range "Step 1"/"Step 2" folds to one name.
model::TracePtr before() {
    test::HandTrace t;
    t.nvtx("Step 1", 0, 1'000 * kUs);
    t.copy(1, 0, 100 * kUs, CopyKind::HostToDevice, 1'000'000, 0, 5 * kUs);
    t.kernel(1, 100 * kUs, 300 * kUs, 10 * kUs, "scale");
    t.kernel(1, 600 * kUs, 800 * kUs, 500 * kUs, "scale");
    return t.finish();
}

model::TracePtr after() {
    test::HandTrace t;
    t.nvtx("Step 2", 0, 500 * kUs);
    t.copy(1, 0, 100 * kUs, CopyKind::HostToDevice, 1'000'000, 0, 5 * kUs);
    t.kernel(1, 100 * kUs, 350 * kUs, 10 * kUs, "scale");
    t.kernel(1, 350 * kUs, 400 * kUs, 20 * kUs, "sum");
    return t.finish();
}

TEST(TraceDiff, SidesRowsAndFindings) {
    const auto a = before();
    const auto b = after();
    const AnalysisResult ra = analyzeTrace(*a);
    const AnalysisResult rb = analyzeTrace(*b);
    const TraceDiff d = diffTraces(*a, ra, *b, rb);

    // Windows: first to last GPU op, [0,800) and [0,400) us.
    EXPECT_EQ(d.a.windowNs, 800 * kUs);
    EXPECT_EQ(d.b.windowNs, 400 * kUs);
    EXPECT_DOUBLE_EQ(d.speedup(), 2.0);
    EXPECT_EQ(d.a.busyNs, 500 * kUs);
    EXPECT_EQ(d.b.busyNs, 400 * kUs);
    EXPECT_EQ(d.a.idleNs, 300 * kUs);
    EXPECT_EQ(d.b.idleNs, 0);
    EXPECT_EQ(d.a.kernels, 2u);
    EXPECT_EQ(d.b.kernels, 2u);
    EXPECT_EQ(d.a.copyBytes, 1'000'000u);

    // Kernels by the size of the change: "scale" 400 -> 250 (-150), "sum" 0 -> 50 (+50).
    ASSERT_EQ(d.kernels.size(), 2u);
    EXPECT_EQ(d.kernels[0].name, "scale");
    EXPECT_EQ(d.kernels[0].countA, 2u);
    EXPECT_EQ(d.kernels[0].countB, 1u);
    EXPECT_EQ(d.kernels[0].deltaNs(), -150 * kUs);
    EXPECT_DOUBLE_EQ(d.kernels[0].meanA(), 200.0 * kUs);
    EXPECT_EQ(d.kernels[1].name, "sum");
    EXPECT_EQ(d.kernels[1].countA, 0u);
    EXPECT_EQ(d.kernels[1].totalB, 50 * kUs);

    ASSERT_EQ(d.copies.size(), 1u);
    EXPECT_EQ(d.copies[0].name, "HtoD");
    EXPECT_EQ(d.copies[0].bytesA, 1'000'000u);
    EXPECT_EQ(d.copies[0].bytesB, 1'000'000u);

    // "Step 1" and "Step 2" are one name, "Step #".
    ASSERT_EQ(d.ranges.size(), 1u);
    EXPECT_EQ(d.ranges[0].name, "Step #");
    EXPECT_EQ(d.ranges[0].totalA, 1'000 * kUs);
    EXPECT_EQ(d.ranges[0].totalB, 500 * kUs);

    // "Before" idles 300 of 800 us (37.5 %): gpu-gap fires there and not after.
    ASSERT_TRUE(ra.fired(RuleId::GpuGap));
    ASSERT_FALSE(rb.fired(RuleId::GpuGap));
    EXPECT_NE(std::find(d.findingsGone.begin(), d.findingsGone.end(), "gpu-gap"),
              d.findingsGone.end());
    // What fired after and not before is new; each rule is in one list only.
    for (const Diagnostic& diag : rb.diagnostics) {
        const std::string rule = toString(diag.rule);
        const auto& list = ra.fired(diag.rule) ? d.findingsKept : d.findingsNew;
        EXPECT_NE(std::find(list.begin(), list.end(), rule), list.end()) << rule;
    }
}

}  // namespace
}  // namespace wl::analysis
