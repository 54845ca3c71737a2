#include <gtest/gtest.h>
#include <QComboBox>
#include <QLabel>
#include <algorithm>

#include "analysis/Analysis.h"
#include "analysis/HandTrace.h"  // tests/analysis: hand-built traces
#include "ui/analysis/CompareView.h"
#include "ui/analysis/RunMetrics.h"
#include "ui/charts/BarChart.h"
#include "ui/timeline/TimelineView.h"

namespace wl::ui {
namespace {

using model::CopyKind;

// Baseline: H2D 4 ms, kernel 2 ms, D2H 4 ms one after the other, with 1 ms gaps: 12 ms.
model::TracePtr baselineRun() {
    test::HandTrace t;
    t.copy(1, 0, 4'000'000, CopyKind::HostToDevice, 40'000'000, 0, 4'000'000, "cudaMemcpy");
    t.kernel(1, 5'000'000, 7'000'000, 4'900'000);
    t.copy(1, 8'000'000, 12'000'000, CopyKind::DeviceToHost, 40'000'000, 7'900'000, 12'000'000,
           "cudaMemcpy");
    return t.finish();
}

// Async: two chunks on two streams, copies under kernels: 6 ms, no gaps.
model::TracePtr asyncRun() {
    test::HandTrace t;
    t.copy(1, 0, 2'000'000, CopyKind::HostToDevice, 20'000'000, 0, 10);
    t.kernel(1, 2'000'000, 3'000'000, 20);
    t.copy(1, 3'000'000, 5'000'000, CopyKind::DeviceToHost, 20'000'000, 30, 40);
    t.copy(2, 2'000'000, 4'000'000, CopyKind::HostToDevice, 20'000'000, 50, 60);
    t.kernel(2, 4'000'000, 5'000'000, 70);
    t.copy(2, 4'000'000, 6'000'000, CopyKind::DeviceToHost, 20'000'000, 80, 90);
    return t.finish();
}

TEST(RunMetrics, FromAnalysis) {
    const auto base = baselineRun();
    const RunMetrics m = runMetrics(*base, analysis::analyzeTrace(*base));
    EXPECT_DOUBLE_EQ(m.wallMs, 12.0);
    EXPECT_DOUBLE_EQ(m.gpuBusyPct, 100.0 * 10 / 12);
    EXPECT_DOUBLE_EQ(m.copyComputePct, 0.0);
    EXPECT_DOUBLE_EQ(m.copyGbps, 80'000'000.0 / 8'000'000.0);
}

TEST(RunMetrics, TimeIsTheTimedPartWhenTheTraceMarksOne) {
    // A warm-up kernel, then the timed part [10, 14) ms between cudaProfilerStart and Stop.
    test::HandTrace t;
    t.kernel(1, 0, 1'000'000, -1);
    t.api("cudaProfilerStart_v4000", 9'999'000, 10'000'000);
    t.kernel(1, 10'000'200, 13'000'200, 10'000'100);
    t.api("cudaProfilerStop_v4000", 14'000'000, 14'001'000);
    const auto trace = t.finish();
    const RunMetrics m = runMetrics(*trace, analysis::analyzeTrace(*trace));
    EXPECT_DOUBLE_EQ(m.wallMs, 4.0);
    EXPECT_DOUBLE_EQ(m.gpuBusyPct, 75.0);
}

TEST(CompareView, MetricsChartsAndSpeedup) {
    CompareView view;
    view.resize(1200, 800);
    view.setRuns(baselineRun(), asyncRun());
    EXPECT_DOUBLE_EQ(view.baselineMetrics().wallMs, 12.0);
    EXPECT_DOUBLE_EQ(view.asyncMetrics().wallMs, 6.0);
    EXPECT_DOUBLE_EQ(view.speedup(), 2.0);
    EXPECT_TRUE(view.headline().startsWith(QStringLiteral("Speedup 2.00x")))
        << view.headline().toStdString();
    // Async: copies [0,6) ms, kernels [2,3) and [4,5) ms all under copies: 2 of 6 ms.
    EXPECT_DOUBLE_EQ(view.asyncMetrics().copyComputePct, 100.0 * 2 / 6);
    EXPECT_DOUBLE_EQ(view.asyncMetrics().gpuBusyPct, 100.0);

    EXPECT_DOUBLE_EQ(view.barValue(CompareView::WallTime, 0), 12.0);
    EXPECT_DOUBLE_EQ(view.barValue(CompareView::WallTime, 1), 6.0);
    EXPECT_DOUBLE_EQ(view.barValue(CompareView::GpuBusy, 0), 100.0 * 10 / 12);
    EXPECT_DOUBLE_EQ(view.barValue(CompareView::GpuBusy, 1), 100.0);
    EXPECT_DOUBLE_EQ(view.barValue(CompareView::CopyOverlap, 1), 100.0 * 2 / 6);
    EXPECT_DOUBLE_EQ(view.barValue(CompareView::CopyRate, 0), 10.0);
    EXPECT_DOUBLE_EQ(view.barValue(CompareView::CopyRate, 1), 10.0);
    // Each figure is a chart of its own, on its own scale, in its unit; a percentage out of 100.
    for (int m = 0; m < CompareView::kMetricCount; ++m) {
        const charts::BarChart* chart = view.metricChart(CompareView::Metric(m));
        ASSERT_TRUE(chart);
        ASSERT_EQ(chart->spec().sets.size(), 2u);
    }
    EXPECT_EQ(view.metricChart(CompareView::WallTime)->spec().unit, "ms");
    EXPECT_EQ(view.metricChart(CompareView::CopyRate)->spec().unit, "GB/s");
    EXPECT_DOUBLE_EQ(view.metricChart(CompareView::GpuBusy)->spec().axisMax, 100.0);
    EXPECT_EQ(view.metricChart(CompareView::WallTime)->toolTipFor(0, 1),
              "Time (wall)\nBaseline: 12 ms\nAsync: 6 ms\nAsync / Baseline: 0.50×");
}

TEST(CompareView, MeasuredWallTimesReplaceTheSpans) {
    CompareView view;
    view.setRuns(baselineRun(), asyncRun());
    view.setWallTimes(30.0, 10.0);
    EXPECT_DOUBLE_EQ(view.speedup(), 3.0);
    EXPECT_DOUBLE_EQ(view.barValue(CompareView::WallTime, 0), 30.0);
    EXPECT_DOUBLE_EQ(view.barValue(CompareView::WallTime, 1), 10.0);
    EXPECT_TRUE(view.headline().startsWith(QStringLiteral("Speedup 3.00x: wall 30.00 ms")))
        << view.headline().toStdString();
    view.setWallTimes(6.0, 2.0, QStringLiteral("timed part"));
    EXPECT_TRUE(view.headline().startsWith(QStringLiteral("Speedup 3.00x: timed part 6.00 ms")))
        << view.headline().toStdString();
    view.setWallTimes(0.0, 0.0);  // unknown: keep what there is
    EXPECT_DOUBLE_EQ(view.speedup(), 3.0);
}

TEST(CompareView, BothTimelinesShareOneTimeScale) {
    CompareView view;
    view.resize(1200, 800);
    view.show();
    view.setRuns(baselineRun(), asyncRun());
    TimelineView* base = view.baselineView();
    TimelineView* async = view.asyncView();
    ASSERT_TRUE(base->trace() && async->trace());
    // Both show the longer run whole.
    EXPECT_EQ(base->visibleStartNs(), 0);
    EXPECT_EQ(base->visibleEndNs(), 12'000'000);
    EXPECT_EQ(async->visibleStartNs(), 0);
    EXPECT_EQ(async->visibleEndNs(), 12'000'000);
    // Zooming one moves the other.
    async->setVisibleRange(1'000'000, 3'000'000);
    EXPECT_EQ(base->visibleStartNs(), 1'000'000);
    EXPECT_EQ(base->visibleEndNs(), 3'000'000);
    // The gaps of the baseline are on its timeline.
    EXPECT_FALSE(base->overlays().gaps.empty());
    EXPECT_TRUE(async->overlays().gaps.empty() ||
                async->overlays().gaps.size() < base->overlays().gaps.size());
}

TEST(CompareView, AlignsTheTracesAtTheirWindowsStarts) {
    // The same 2 ms kernel, once right away and once after 5 ms of host setup: aligned at their
    // windows' starts (first GPU op) the kernels sit at the same place of the shared scale.
    test::HandTrace late;
    late.api("cudaMalloc", 0, 1'000'000);
    late.kernel(1, 5'000'000, 7'000'000, 4'900'000);
    CompareView view;
    view.resize(1200, 800);
    view.show();
    view.setRuns(baselineRun(), late.finish());
    TimelineView* base = view.baselineView();
    TimelineView* shifted = view.asyncView();
    EXPECT_EQ(base->timeOffsetNs(), 0);
    EXPECT_EQ(shifted->timeOffsetNs(), 5'000'000);
    // The scale shows the longer window (the baseline's 12 ms); each view in its own times.
    EXPECT_EQ(base->visibleStartNs(), 0);
    EXPECT_EQ(base->visibleEndNs(), 12'000'000);
    EXPECT_EQ(shifted->visibleStartNs(), 5'000'000);
    EXPECT_EQ(shifted->visibleEndNs(), 17'000'000);
    // Zooming one moves the other by the same scale times.
    base->setVisibleRange(1'000'000, 2'000'000);
    EXPECT_EQ(shifted->visibleStartNs(), 6'000'000);
    EXPECT_EQ(shifted->visibleEndNs(), 7'000'000);
    // The label says so.
    const auto labels = view.findChildren<QLabel*>();
    const bool said = std::any_of(labels.begin(), labels.end(), [](const QLabel* l) {
        return l->text().contains(QStringLiteral("aligned at its window's start, 5.00 ms"));
    });
    EXPECT_TRUE(said);
}

TEST(CompareView, AlignsAtTheFirstInstanceOfAChosenNvtxRange) {
    // Both run 'step' twice; the first 'step' begins at 2 ms in one and 7 ms in the other.
    test::HandTrace a;
    a.nvtx("setup", 0, 1'000'000);
    a.nvtx("step", 2'000'000, 3'000'000);
    a.nvtx("step", 4'000'000, 5'000'000);
    a.kernel(1, 1'000'000, 6'000'000, 900'000);
    test::HandTrace b;
    b.nvtx("step", 7'000'000, 8'000'000);
    b.nvtx("step", 9'000'000, 10'000'000);
    b.kernel(1, 6'500'000, 11'000'000, 6'400'000);
    CompareView view;
    view.resize(1200, 800);
    view.show();
    view.setRuns(a.finish(), b.finish());
    // Offered: the windows' starts, and the ranges both traces have ('setup' is only in one).
    QComboBox* box = view.alignmentBox();
    ASSERT_EQ(box->count(), 2);
    EXPECT_EQ(box->itemData(1).toString(), QStringLiteral("step"));
    EXPECT_EQ(view.baselineView()->timeOffsetNs(), 1'000'000);  // the first GPU op
    EXPECT_EQ(view.asyncView()->timeOffsetNs(), 6'500'000);

    box->setCurrentIndex(1);  // as a user picks it
    EXPECT_EQ(view.alignedAt(), QStringLiteral("step"));
    EXPECT_EQ(view.baselineView()->timeOffsetNs(), 2'000'000);
    EXPECT_EQ(view.asyncView()->timeOffsetNs(), 7'000'000);
    view.baselineView()->setVisibleRange(2'000'000, 3'000'000);
    EXPECT_EQ(view.asyncView()->visibleStartNs(), 7'000'000);  // the two first steps line up
    EXPECT_EQ(view.asyncView()->visibleEndNs(), 8'000'000);
    const auto labels = view.findChildren<QLabel*>();
    const bool said = std::any_of(labels.begin(), labels.end(), [](const QLabel* l) {
        return l->text().contains(QStringLiteral("aligned at its first 'step', 7.00 ms"));
    });
    EXPECT_TRUE(said);

    view.alignAt(QString());  // back to the windows' starts
    EXPECT_EQ(box->currentIndex(), 0);
    EXPECT_EQ(view.asyncView()->timeOffsetNs(), 6'500'000);
}

TEST(CompareView, OneSideMissing) {
    CompareView view;
    view.setRuns(baselineRun(), nullptr);
    EXPECT_DOUBLE_EQ(view.speedup(), 0.0);
    EXPECT_FALSE(view.asyncView()->trace());
    EXPECT_DOUBLE_EQ(view.barValue(CompareView::WallTime, 1), 0.0);
}

TEST(CompareView, KernelTimeChartUsesShortNames) {
    const std::string_view reduce =
        "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
        "at::native::MeanOps<float, float>, unsigned int, float, 4> >(at::native::ReduceOp<float, "
        "at::native::MeanOps<float, float>, unsigned int, float, 4>)";
    const std::string_view partial =
        "wl::workloads::(anonymous namespace)::partial_reduce(float const*, long, float*)";
    test::HandTrace b;
    b.kernel(1, 0, 3'000'000, -1, reduce);
    b.kernel(1, 3'000'000, 4'000'000, -1, partial);
    test::HandTrace a;
    a.kernel(1, 0, 1'000'000, -1, reduce);
    a.kernel(2, 0, 1'000'000, -1, reduce);
    a.kernel(1, 1'000'000, 1'500'000, -1, partial);
    a.kernel(1, 1'500'000, 1'600'000, -1, "only_in_async");
    CompareView view;
    view.setRuns(b.finish(), a.finish());
    // Longest (in either run) at the top; kernels meet by name across the two traces.
    EXPECT_EQ(view.kernelChartNames(),
              (QStringList{"reduce_kernel", "partial_reduce", "only_in_async"}));
    EXPECT_DOUBLE_EQ(view.kernelBarValue(0, 0), 3.0);
    EXPECT_DOUBLE_EQ(view.kernelBarValue(0, 1), 2.0);
    EXPECT_DOUBLE_EQ(view.kernelBarValue(1, 0), 1.0);
    EXPECT_DOUBLE_EQ(view.kernelBarValue(1, 1), 0.5);
    EXPECT_DOUBLE_EQ(view.kernelBarValue(2, 0), 0.0);
    EXPECT_DOUBLE_EQ(view.kernelBarValue(2, 1), 0.1);
    // The bars are labelled with the short names, the full name is the bar's tooltip; the title
    // counts what is shown.
    const charts::BarChart* chart = view.kernelChart();
    EXPECT_EQ(chart->spec().title, "Kernel time, all 3 kernels");
    ASSERT_EQ(chart->spec().categories.size(), 3);
    EXPECT_EQ(chart->spec().fullNames[0].toStdString(), reduce);
    EXPECT_TRUE(chart->toolTipFor(0, 0).startsWith("void at::native::reduce_kernel"));
    // Absent from the first run: a zero, kept as a value of its own.
    EXPECT_TRUE(chart->toolTipFor(2, 0).contains("Baseline: 0 ms"))
        << chart->toolTipFor(2, 0).toStdString();
}

// At the narrowest width the compare tab gets (1024-pixel window), real kernel names keep their
// readable part instead of becoming "…".
TEST(CompareView, KernelNamesStayReadableWhenNarrow) {
    test::HandTrace b;
    b.kernel(1, 0, 3'000'000, -1,
             "void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x64_16x6_tn_align4>(cutlass_80_"
             "tensorop_s1688gemm_64x64_16x6_tn_align4::Params)");
    b.kernel(1, 3'000'000, 4'000'000, -1,
             "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
             "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, "
             "at::detail::Array<char*, 1>)");
    CompareView view;
    view.setRuns(b.finish(), b.finish());
    view.kernelChart()->resize(400, view.kernelChart()->minimumSizeHint().height());
    for (int row = 0; row < 2; ++row) {
        const QString drawn = view.kernelChart()->drawnCategories().at(row);
        EXPECT_GE(drawn.size(), 12) << drawn.toStdString();
        EXPECT_NE(drawn, QStringLiteral("…"));
    }
}

}  // namespace
}  // namespace wl::ui
