// The Summary tab: its figures come with each analysis, and a click on a chart goes to the
// timeline.
#include <gtest/gtest.h>

#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <memory>

#include "WindowTestDeps.h"
#include "analysis/HandTrace.h"  // tests/analysis: hand-built traces
#include "app/gui/DocumentAnalysis.h"
#include "app/gui/MainWindow.h"
#include "support/TestData.h"
#include "ui/analysis/StatisticsModel.h"
#include "ui/charts/BarChart.h"
#include "ui/summary/KernelsPage.h"
#include "ui/summary/OverviewPage.h"
#include "ui/summary/RanksPage.h"
#include "ui/summary/SummaryView.h"
#include "ui/timeline/TimelineView.h"

namespace wl::app {
namespace {

void waitIdle(MainWindow& window) {
    if (window.isBusy()) {
        ASSERT_TRUE(QSignalSpy(&window, &MainWindow::idle).wait(20000));
    }
}

// Four steps, each an NVTX "step N" range around two kernels.
model::TracePtr fourSteps() {
    test::HandTrace t;
    for (int i = 0; i < 4; ++i) {
        const model::TimeNs at = 1'000'000 + i * 1'000'000;
        t.nvtx("step " + std::to_string(i), at, at + 1'000'000);
        t.kernel(1, at + 100'000, at + 600'000, at + 10'000, "gemm_kernel");
        t.kernel(1, at + 600'000, at + 700'000, at + 20'000, "relu_kernel");
    }
    return t.finish();
}

TEST(MainWindowSummary, ItFollowsTheAnalysisAndAClickSelectsAnIteration) {
    QSettings().clear();
    MainWindow window(windowTestDeps());
    window.show();
    window.openTrace(fourSteps(), "four-steps");
    waitIdle(window);
    const auto analysis = window.currentAnalysis();
    ASSERT_TRUE(analysis && analysis->figures);
    ASSERT_EQ(analysis->figures->iterations.size(), 4u);
    ui::summary::SummaryView* summary = window.summaryView();
    ASSERT_TRUE(summary);
    EXPECT_EQ(summary->summary(), analysis->figures.get());
    EXPECT_EQ(summary->overview()->iterationChart()->spec().categories.size(), 4);
    EXPECT_EQ(summary->kernels()->model()->rowCount(), 2);

    // The Summary takes the middle of the window; the bottom docks step aside meanwhile.
    window.showSummary(0);
    EXPECT_EQ(window.tabs()->currentWidget(), summary);

    // A click on the third bar: the timeline, its span selected and analysed.
    emit summary->overview()->iterationChart()->barClicked(2, 0);
    waitIdle(window);
    EXPECT_EQ(window.tabs()->currentWidget(), window.timeline());
    const model::TimeRange third = analysis->figures->iterations[2].range;
    EXPECT_EQ(window.timeline()->timeSelection(), third);
    const auto selected = window.currentAnalysis();
    ASSERT_TRUE(selected);
    EXPECT_EQ(selected->result->window().source, analysis::WindowSource::Selection);
    EXPECT_EQ(selected->result->window().startNs(), third.startNs);
    // The Summary now describes the selection.
    EXPECT_EQ(window.summaryView()->summary(), selected->figures.get());
    QSettings().clear();
}

TEST(MainWindowSummary, AJobHasItsRanksPage) {
    QSettings().clear();
    MainWindow window(windowTestDeps());
    window.show();
    window.openRankJob({QString::fromStdString(test::dataPath("ranks/sampled_rank-0.json.gz")),
                        QString::fromStdString(test::dataPath("ranks/sampled_rank-1.json.gz"))});
    for (int i = 0; i < 3 && (window.isBusy() || !window.currentAnalysis()); ++i) {
        QSignalSpy(&window, &MainWindow::idle).wait(20000);
    }
    const auto analysis = window.currentAnalysis();
    ASSERT_TRUE(analysis && analysis->figures);
    EXPECT_EQ(analysis->figures->ranks.size(), 2u);
    ui::summary::SummaryView* summary = window.summaryView();
    EXPECT_TRUE(summary->isTabVisible(4));
    EXPECT_EQ(summary->ranks()->chart()->spec().categories.size(), 2);
    QSettings().clear();
}

}  // namespace
}  // namespace wl::app
