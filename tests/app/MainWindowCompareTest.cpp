// The window's comparisons: baseline then async, any two traces, the bundled pairs.
#include <gtest/gtest.h>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QMouseEvent>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <QTimer>
#include <QUrl>
#include <algorithm>
#include <chrono>
#include <fstream>
#include <thread>

#include <QTabWidget>
#include <QTableView>
#include "MainWindowFixture.h"
#include "app/gui/DocumentAnalysis.h"
#include "app/gui/MainWindow.h"
#include "app/gui/RunPanel.h"
#include "app/gui/SampleTraces.h"
#include "io/TraceFile.h"
#include "support/TestData.h"
#include "support/TraceFactory.h"
#include "ui/analysis/CompareView.h"
#include "ui/analysis/DiagnosticsPanel.h"
#include "ui/analysis/StatisticsModel.h"
#include "ui/analysis/StatisticsView.h"
#include "ui/charts/BarChart.h"
#include "ui/details/DetailsPanel.h"
#include "ui/find/FindPanel.h"
#include "ui/timeline/OverviewStrip.h"
#include "ui/timeline/TimelineView.h"

namespace wl::app {
namespace {

TEST_F(MainWindowTest, CompareRunsBaselineThenAsyncWithTheSameParameters) {
    std::vector<RunRequest> seen;
    std::mutex mutex;
    RunnerFn recording = [&](const RunRequest& r, const ProgressFn& p,
                             const std::atomic<bool>* c) -> model::Result<RunOutcome> {
        {
            std::lock_guard lock(mutex);
            seen.push_back(r);
        }
        return fakeRunner(std::chrono::milliseconds(20))(r, p, c);
    };
    MainWindow window(deps(withDevice, recording));
    RunRequest request;
    request.workload = "power";
    request.mode = "async";
    request.streams = 4;
    request.pinned = true;
    request.repeat = 30;
    window.setRunRequest(request);
    QSignalSpy finished(&window, &MainWindow::runFinished);
    window.startCompare();
    ASSERT_TRUE(finished.wait(10000));
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen[0].mode, "baseline");
    EXPECT_EQ(seen[1].mode, "async");
    for (const RunRequest& r : seen) {
        EXPECT_EQ(r.workload, "power");
        EXPECT_EQ(r.streams, 4);
        EXPECT_TRUE(r.pinned);
        EXPECT_EQ(r.repeat, 30);
    }
    EXPECT_EQ(window.documentCount(), 2);
    EXPECT_EQ(window.historyBox()->count(), 2);
    if (window.isBusy()) {
        ASSERT_TRUE(QSignalSpy(&window, &MainWindow::idle).wait(20000));
    }
    EXPECT_TRUE(window.messageText().contains("Speedup"));
    // Switching back to the baseline run through the history.
    window.setCurrentDocument(0);
    EXPECT_EQ(window.currentDocument()->request->mode, "baseline");
    EXPECT_EQ(window.timeline()->trace(), window.currentDocument()->trace);
}

TEST_F(MainWindowTest, CompareShowsBothRunsSideBySide) {
    MainWindow window(deps(withDevice));
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    window.startCompare();
    ASSERT_TRUE(finished.wait(10000));
    if (window.isBusy()) {
        ASSERT_TRUE(QSignalSpy(&window, &MainWindow::idle).wait(20000));
    }
    ASSERT_TRUE(window.compareView());
    ASSERT_EQ(window.documentCount(), 2);
    EXPECT_EQ(window.tabs()->currentWidget(), window.compareView());
    // The bottom docks make room for the two timelines, and come back with the timeline tab.
    auto* statisticsDock = window.findChild<QDockWidget*>("statisticsDock");
    EXPECT_TRUE(statisticsDock->isHidden());
    // Baseline is the first document of the pair, async the second.
    auto docAt = [&](int i) {
        window.setCurrentDocument(i);
        return window.currentDocument();
    };
    const DocumentPtr async = docAt(1);
    const DocumentPtr baseline = docAt(0);
    EXPECT_EQ(window.compareView()->baselineView()->trace(), baseline->trace);
    EXPECT_EQ(window.compareView()->asyncView()->trace(), async->trace);
    // Switching documents brings the single timeline back.
    EXPECT_EQ(window.tabs()->currentWidget(), window.timeline());
    EXPECT_FALSE(statisticsDock->isHidden());
}

TEST_F(MainWindowTest, CompareWithPutsAnyTwoTracesSideBySideUnderTheirNames) {
    MainWindow window(deps(withDevice));
    window.show();
    ASSERT_TRUE(openAndWait(window, test::samplePath("reduce-baseline-pinned.json.gz")));
    const DocumentPtr first = window.currentDocument();
    QSignalSpy opened(&window, &MainWindow::openFinished);
    window.compareWith(
        QString::fromStdString(test::samplePath("reduce-async-8streams-repeat50.json.gz")));
    ASSERT_TRUE(opened.wait(20000));
    if (window.isBusy()) {
        ASSERT_TRUE(QSignalSpy(&window, &MainWindow::idle).wait(20000));
    }
    ASSERT_TRUE(window.compareView());
    EXPECT_EQ(window.tabs()->currentWidget(), window.compareView());
    EXPECT_EQ(window.compareView()->baselineView()->trace(), first->trace);
    EXPECT_EQ(window.compareView()->asyncView()->trace(), window.currentDocument()->trace);
    // Each side under its file's name, each over its own capture window.
    const auto* headline = window.compareView()->findChild<QLabel*>("compareHeadline");
    ASSERT_TRUE(headline);
    EXPECT_GT(window.compareView()->speedup(), 0.0);
    // Long names: "A: file" above the timelines, "A" and "B" in the bars' legends.
    bool named = false;
    for (const QLabel* label : window.compareView()->findChildren<QLabel*>())
        named |= label->text().startsWith("A: reduce-baseline-pinned.json.gz");
    EXPECT_TRUE(named);
    const ui::charts::BarChart* chart =
        window.compareView()->metricChart(ui::CompareView::WallTime);
    ASSERT_TRUE(chart);
    const QString tip = chart->toolTipFor(0, 0);
    EXPECT_TRUE(tip.contains("\nA: ")) << tip.toStdString();
    EXPECT_TRUE(tip.contains("\nB: ")) << tip.toStdString();

    // A file that cannot be read is an error, and the next open is not taken as a comparison.
    const int documents = window.documentCount();
    QSignalSpy failed(&window, &MainWindow::openFinished);
    window.compareWith("/nonexistent/trace.json");
    ASSERT_TRUE(failed.wait(20000));
    EXPECT_FALSE(failed.front().front().toBool());
    EXPECT_EQ(window.documentCount(), documents);
}

TEST_F(MainWindowTest, BundledPairsOpenSideBySideInCompare) {
    const std::vector<SamplePair> pairs = bundledSamplePairs();
    ASSERT_GE(pairs.size(), 5u);
    const auto graphs = std::find_if(pairs.begin(), pairs.end(), [](const SamplePair& p) {
        return p.second.endsWith("power-graph-2streams-pinned.json.gz");
    });
    ASSERT_NE(graphs, pairs.end());
    EXPECT_TRUE(graphs->first.endsWith("power-async-2streams-pinned.json.gz"));
    MainWindow window(deps(withDevice));
    window.show();
    QSignalSpy opened(&window, &MainWindow::openFinished);
    window.compareSamples(graphs->first, graphs->second);
    ASSERT_TRUE(opened.wait(20000));
    EXPECT_TRUE(opened.front().front().toBool());
    EXPECT_EQ(opened.count(), 1);  // one open for the pair, when both are in
    if (window.isBusy()) {
        ASSERT_TRUE(QSignalSpy(&window, &MainWindow::idle).wait(20000));
    }
    ASSERT_EQ(window.documentCount(), 2);
    ASSERT_TRUE(window.compareView());
    EXPECT_EQ(window.tabs()->currentWidget(), window.compareView());
    EXPECT_EQ(window.compareView()->baselineView()->trace(), window.document(0)->trace);
    EXPECT_EQ(window.compareView()->asyncView()->trace(), window.document(1)->trace);
    EXPECT_EQ(window.document(1)->trace->metadataValue("graph"), "true");
}

}  // namespace
}  // namespace wl::app
