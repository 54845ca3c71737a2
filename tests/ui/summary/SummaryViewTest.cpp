#include <gtest/gtest.h>

#include <QCheckBox>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>

#include "analysis/Analysis.h"
#include "analysis/HandTrace.h"  // tests/analysis: hand-built traces
#include "analysis/Summary.h"
#include "ui/analysis/StatisticsModel.h"
#include "ui/charts/BarChart.h"
#include "ui/charts/LineChart.h"
#include "ui/summary/KernelsPage.h"
#include "ui/summary/MemoryPage.h"
#include "ui/summary/OperatorTableModel.h"
#include "ui/summary/OperatorsPage.h"
#include "ui/summary/OverviewPage.h"
#include "ui/summary/SummaryCharts.h"
#include "ui/summary/SummaryView.h"

namespace wl::ui::summary {
namespace {

using analysis::StepPart;

// Three steps of a loop: each launches two kernels from inside an NVTX "forward" range in a
// "step N" one.
model::TracePtr threeSteps() {
    test::HandTrace t;
    t.addH100();
    for (int i = 0; i < 3; ++i) {
        const model::TimeNs at = 1'000'000 + i * 1'000'000;
        t.nvtx("step " + std::to_string(i), at, at + 1'000'000);
        t.nvtx("forward", at + 5'000, at + 30'000);  // launches both kernels
        t.kernel(1, at + 100'000, at + 500'000, at + 10'000, "gemm_kernel");
        t.kernel(1, at + 500'000, at + 600'000 + i * 50'000, at + 20'000, "relu_kernel");
    }
    return t.finish();
}

analysis::Summary handSummary() {
    analysis::Summary s;
    s.iterationSource = analysis::IterationSource::NvtxRanges;
    for (int i = 0; i < 2; ++i) {
        analysis::IterationBreakdown it;
        it.name = "step " + std::to_string(i);
        it.range = {i * 10'000'000, (i + 1) * 10'000'000};
        it.partNs[std::size_t(StepPart::Kernel)] = 6'000'000;
        it.partNs[std::size_t(StepPart::CudaApi)] = 1'000'000;
        it.partNs[std::size_t(StepPart::Other)] = 3'000'000;
        s.iterations.push_back(it);
    }
    s.utilization = {0, 5'000'000, {60.0, 40.0, 80.0, 20.0}};
    analysis::MemoryTimeline m;
    m.deviceId = 0;
    m.series.push_back({"memory in use", {{0, 1e6}, {5'000'000, 3e6}, {15'000'000, 2e6}}});
    m.peakInUseBytes = 3e6;
    m.peakNs = 5'000'000;
    s.memory.push_back(m);
    s.ranks.push_back({0, 10'000'000, 6'000'000, 3'000'000, 1'000'000, 2'000'000});
    return s;
}

TEST(SummaryCharts, TheIterationChartStacksEachPartInMs) {
    const analysis::Summary s = handSummary();
    const charts::BarChartSpec spec = iterationChart(s);
    EXPECT_TRUE(spec.stacked);
    ASSERT_EQ(spec.sets.size(), analysis::kStepPartCount);
    EXPECT_EQ(spec.categories, (QStringList{"1", "2"}));
    EXPECT_TRUE(spec.fullNames[1].startsWith("step 1")) << spec.fullNames[1].toStdString();
    EXPECT_DOUBLE_EQ(spec.sets[std::size_t(StepPart::Kernel)].values[0], 6.0);
    EXPECT_DOUBLE_EQ(spec.sets[std::size_t(StepPart::Other)].values[1], 3.0);
    // The parts of each bar add up to its iteration.
    for (std::size_t i = 0; i < 2; ++i) {
        double sum = 0.0;
        for (const charts::BarSet& set : spec.sets)
            sum += set.values[i];
        EXPECT_DOUBLE_EQ(sum, 10.0);
    }
    const QString text = iterationBreakdownText(s);
    EXPECT_TRUE(text.startsWith("Mean of 2 iterations: 10.00 ms")) << text.toStdString();
    EXPECT_TRUE(text.contains("Kernel 60.0%")) << text.toStdString();
}

TEST(SummaryCharts, UtilisationPointsSitInTheMiddleOfTheirBins) {
    const charts::LineChartSpec spec = utilizationChart(handSummary());
    ASSERT_EQ(spec.series.size(), 1u);
    ASSERT_EQ(spec.series[0].points.size(), 4u);
    EXPECT_DOUBLE_EQ(spec.series[0].points[0].x(), 2.5);
    EXPECT_DOUBLE_EQ(spec.series[0].points[3].y(), 20.0);
    EXPECT_DOUBLE_EQ(spec.yMax, 100.0);
}

TEST(SummaryCharts, MemoryIsInMbWithItsPeakMarkedAndKeptWhenThinned) {
    const charts::LineChartSpec spec = memoryChart(handSummary().memory[0], 2000);
    ASSERT_EQ(spec.markers.size(), 1u);
    EXPECT_DOUBLE_EQ(spec.markers[0].y(), 3.0);
    EXPECT_TRUE(spec.series[0].steps);
    std::vector<model::CounterSample> many;
    for (int i = 0; i < 10'000; ++i)
        many.push_back({i, i == 7'777 ? 1e9 : double(i % 10)});
    const auto thin = thinned(many, 100);
    EXPECT_LE(thin.size(), 101u);
    EXPECT_TRUE(
        std::any_of(thin.begin(), thin.end(), [](const auto& s) { return s.value == 1e9; }));
    EXPECT_EQ(thin.front().timestampNs, 0);
    EXPECT_EQ(thin.back().timestampNs, 9'999);
}

TEST(SummaryCharts, RanksStackToTheirWindow) {
    const charts::BarChartSpec spec = rankChart(handSummary().ranks);
    ASSERT_EQ(spec.sets.size(), 4u);
    double sum = 0.0;
    for (const charts::BarSet& set : spec.sets)
        sum += set.values[0];
    EXPECT_DOUBLE_EQ(sum, 10.0);                    // the window
    EXPECT_DOUBLE_EQ(spec.sets[0].values[0], 5.0);  // computation alone: 6 - 1 overlapped
    EXPECT_DOUBLE_EQ(spec.sets[1].values[0], 2.0);  // communication alone: 3 - 1
}

TEST(SummaryView, EveryPageFollowsTheAnalysisAndAsksForTheTimeline) {
    const model::TracePtr trace = threeSteps();
    auto result = std::make_shared<const analysis::AnalysisResult>(analysis::analyzeTrace(*trace));
    auto summary = analysis::computeSummary(*trace, *result);
    ASSERT_TRUE(summary);
    auto figures = std::make_shared<const analysis::Summary>(std::move(*summary));
    SummaryView view;
    view.resize(1000, 600);
    view.setAnalysis(trace, result, figures, nullptr);
    EXPECT_FALSE(view.isTabVisible(4)) << "one process: no Ranks page";

    // Overview: a bar per step, a click asks for its span.
    const charts::BarChartSpec& bars = view.overview()->iterationChart()->spec();
    EXPECT_EQ(bars.categories.size(), qsizetype(figures->iterations.size()));
    ASSERT_FALSE(figures->iterations.empty());
    QSignalSpy ranges(&view, &SummaryView::rangeActivated);
    emit view.overview()->iterationChart()->barClicked(0, 0);
    ASSERT_EQ(ranges.size(), 1);
    EXPECT_EQ(ranges.front().front().value<model::TimeRange>(), figures->iterations[0].range);

    // Kernels: the table has the median and friends, the histogram the first kernel's launches.
    StatisticsModel* kernels = view.kernels()->model();
    ASSERT_EQ(kernels->rowCount(), 2);
    EXPECT_EQ(kernels->data(kernels->index(0, StatisticsModel::kName)).toString(), "gemm_kernel");
    EXPECT_EQ(kernels->data(kernels->index(0, StatisticsModel::kMedian)).toString(), "400.0 µs");
    double launches = 0.0;
    for (const double v : view.kernels()->histogram()->spec().sets.at(0).values)
        launches += v;
    EXPECT_DOUBLE_EQ(launches, 3.0);
    QSignalSpy slices(&view, &SummaryView::slicesActivated);
    emit view.kernels()->topChart()->barClicked(1, 0);
    ASSERT_EQ(slices.size(), 1);
    EXPECT_EQ(slices.front().front().value<std::vector<model::SliceRef>>().size(), 3u);

    // Operators: the trace has no CPU operators, so its NVTX ranges stand for them.
    // (The iterations' own ranges are the Overview's, not operators.)
    OperatorTableModel* ops = view.operators()->model();
    ASSERT_EQ(ops->rowCount(), 1);
    EXPECT_EQ(ops->data(ops->index(0, OperatorTableModel::cName)).toString(), "forward");
    EXPECT_EQ(ops->data(ops->index(0, OperatorTableModel::cCalls)).toString(), "3");
    EXPECT_EQ(ops->headerData(OperatorTableModel::cName, Qt::Horizontal).toString(), "NVTX range");
    EXPECT_FALSE(view.operators()->shapesBox()->isEnabled());

    view.clear();
    EXPECT_EQ(view.kernels()->model()->rowCount(), 0);
}

TEST(SummaryView, MemoryNamesItsPeakAndSaysWhenThereIsNone) {
    auto figures = std::make_shared<const analysis::Summary>(handSummary());
    const model::TracePtr trace = threeSteps();
    MemoryPage page;
    page.setAnalysis(trace, figures);
    ASSERT_EQ(page.charts().size(), 1u);
    ASSERT_EQ(page.peakTexts().size(), 1);
    EXPECT_TRUE(page.peakTexts()[0].contains("3.0 MB")) << page.peakTexts()[0].toStdString();
    page.setAnalysis(trace, std::make_shared<const analysis::Summary>());
    EXPECT_TRUE(page.charts().empty());
}

}  // namespace
}  // namespace wl::ui::summary
