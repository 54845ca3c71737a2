#include <gtest/gtest.h>

#include "HandTrace.h"
#include "analysis/GpuOps.h"
#include "analysis/Intervals.h"
#include "analysis/Overlap.h"

namespace wl::analysis {
namespace {

using model::CopyKind;

TEST(Intervals, UnionCoverageAndIntersection) {
    const IntervalSet a({{50, 60}, {0, 10}, {5, 20}, {30, 30}, {20, 25}});
    ASSERT_EQ(a.intervals().size(), 2u);  // [0,25) and [50,60); touching ones merge
    EXPECT_EQ(a.intervals()[0], (Interval{0, 25}));
    EXPECT_EQ(a.totalNs(), 35);
    EXPECT_EQ(a.coveredNs(10, 55), 20);
    EXPECT_EQ(a.coveredNs(-100, 100), 35);
    EXPECT_EQ(a.coveredNs(25, 50), 0);
    EXPECT_EQ(a.coveredNs(58, 59), 1);
    const IntervalSet b({{20, 52}});
    EXPECT_EQ(a.intersectionNs(b), 7);
    EXPECT_EQ(a.unite(b).totalNs(), 60);
    ASSERT_EQ(a.holes().size(), 1u);
    EXPECT_EQ(a.holes()[0], (Interval{25, 50}));
    EXPECT_EQ(a.holeAt(30), (Interval{25, 50}));
    EXPECT_EQ(a.holeAt(25), (Interval{25, 50}));
    EXPECT_EQ(a.holeAt(24), (Interval{}));  // covered
    EXPECT_EQ(a.holeAt(50), (Interval{}));  // covered
    EXPECT_EQ(a.holeAt(70), (Interval{}));  // after the last interval
    EXPECT_EQ(a.holeAt(-5), (Interval{}));  // before the first
}

TEST(Overlap, CopyUnderComputeShare) {
    test::HandTrace t;
    t.kernel(1, 100, 200, -1);
    t.kernel(1, 250, 350, -1);
    t.copy(2, 300, 400, CopyKind::HostToDevice, 1000, -1, -1);
    const auto trace = t.finish();
    const OverlapStats o = computeOverlap(GpuOps(*trace));
    EXPECT_EQ(o.copyNs, 100);
    EXPECT_EQ(o.kernelNs, 200);
    EXPECT_EQ(o.copyUnderComputeNs, 50);  // [300,350)
    EXPECT_DOUBLE_EQ(o.copyComputePct(), 50.0);
    EXPECT_EQ(o.h2dNs, 100);
    EXPECT_EQ(o.h2dWithD2hNs, 0);
    EXPECT_DOUBLE_EQ(o.h2dD2hPct(), 0.0);
    EXPECT_EQ(o.maxConcurrentKernels, 1);
    EXPECT_DOUBLE_EQ(o.meanConcurrentKernels, 1.0);
}

TEST(Overlap, CopyDirectionsAndKernelConcurrency) {
    test::HandTrace t;
    t.copy(1, 0, 100, CopyKind::HostToDevice, 1000, -1, -1);
    t.copy(2, 50, 200, CopyKind::DeviceToHost, 1000, -1, -1);
    t.kernel(3, 0, 100, -1);
    t.kernel(4, 50, 150, -1);
    t.kernel(5, 60, 70, -1);
    t.kernel(6, 150, 160, -1);  // starts as one ends: not concurrent with it
    const auto trace = t.finish();
    const OverlapStats o = computeOverlap(GpuOps(*trace));
    EXPECT_EQ(o.h2dNs, 100);
    EXPECT_EQ(o.d2hNs, 150);
    EXPECT_EQ(o.h2dWithD2hNs, 50);
    EXPECT_EQ(o.h2dOrD2hNs, 200);
    EXPECT_DOUBLE_EQ(o.h2dD2hPct(), 25.0);
    EXPECT_EQ(o.maxConcurrentKernels, 3);
    // Kernel time 100 + 100 + 10 + 10 = 220 over a union of [0,160) = 160.
    EXPECT_EQ(o.kernelNs, 160);
    EXPECT_DOUBLE_EQ(o.meanConcurrentKernels, 220.0 / 160.0);
    // Copies [0,200) under kernels [0,160): 160 of 200.
    EXPECT_DOUBLE_EQ(o.copyComputePct(), 80.0);
}

}  // namespace
}  // namespace wl::analysis
