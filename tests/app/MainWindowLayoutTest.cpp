// The window's layout: a small screen, what persists, the Run dock, the overview strip.
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

#include <QTabBar>
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
#include "ui/details/DetailsPanel.h"
#include "ui/find/FindPanel.h"
#include "ui/timeline/OverviewStrip.h"
#include "ui/timeline/TimelineView.h"

namespace wl::app {
namespace {

TEST_F(MainWindowTest, StaysUsableAt1024By700) {
    MainWindow window(deps(withDevice));
    window.resize(1024, 700);
    window.show();
    window.openTrace(syntheticSampleTrace(), "synthetic-reduce-async");
    if (window.isBusy()) {
        ASSERT_TRUE(QSignalSpy(&window, &MainWindow::idle).wait(20000));
    }
    QApplication::processEvents();
    // Nothing forces the window wider or taller than the screen.
    EXPECT_LE(window.minimumSizeHint().width(), 1024);
    EXPECT_LE(window.width(), 1024);
    EXPECT_LE(window.height(), 700);
    // The run panel's fields keep their height (the panel scrolls instead of squeezing them).
    const auto fields = window.runPanel()->findChildren<QAbstractSpinBox*>();
    ASSERT_FALSE(fields.empty());
    for (const QAbstractSpinBox* field : fields) {
        if (field->isVisible()) {
            EXPECT_GE(field->height(), field->minimumSizeHint().height())
                << field->objectName().toStdString();
        }
    }
    // The timeline keeps a usable time area.
    EXPECT_GE(window.timeline()->width(), 500);
    EXPECT_GE(window.timeline()->height(), 150);
}

TEST_F(MainWindowTest, WindowLayoutPersists) {
    MainWindowDeps d = deps(withDevice);
    d.restoreLayout = true;
    {
        MainWindow window(d);
        window.show();
        window.resize(1200, 800);
        auto* dock = window.findChild<QDockWidget*>("statisticsDock");
        ASSERT_TRUE(dock);
        dock->hide();
        window.close();
    }
    MainWindow again(d);
    again.show();
    auto* dock = again.findChild<QDockWidget*>("statisticsDock");
    ASSERT_TRUE(dock);
    EXPECT_TRUE(dock->isHidden());
    EXPECT_EQ(again.size(), QSize(1200, 800));
    // A fresh start (no saved layout) opens at the default size with every dock shown.
    QSettings().clear();
    MainWindow fresh(d);
    EXPECT_EQ(fresh.size(), QSize(1600, 1000));
    EXPECT_FALSE(fresh.findChild<QDockWidget*>("statisticsDock")->isHidden());
}

TEST_F(MainWindowTest, RunParametersPersist) {
    RunRequest request;
    request.workload = "reduce";
    request.mode = "async";
    request.streams = 12;
    request.pinned = true;
    request.size = 5'000'000;
    request.repeat = 50;
    request.sharedStreamBug = true;
    {
        MainWindow window(deps(withDevice));
        window.setRunRequest(request);
        window.close();
    }
    MainWindow again(deps(withDevice));
    const RunRequest restored = again.runRequest();
    EXPECT_EQ(restored.mode, "async");
    EXPECT_EQ(restored.streams, 12);
    EXPECT_TRUE(restored.pinned);
    EXPECT_EQ(restored.size, 5'000'000);
    EXPECT_EQ(restored.repeat, 50);
    EXPECT_TRUE(restored.sharedStreamBug);
}

// The Run dock is for runs: out of the way for opened traces (it showed Reduce/Baseline settings
// beside a PyTorch trace), back with a run, and as the user left it once they chose in View.
TEST_F(MainWindowTest, TheRunDockFollowsRunsUnlessTheUserChose) {
    MainWindow window(deps(withDevice));
    window.show();
    auto* dock = window.findChild<QDockWidget*>("runDock");
    ASSERT_TRUE(dock);
    EXPECT_FALSE(dock->isHidden());  // a GPU and nothing open: runs are what there is to do
    test::SyntheticTraceSpec spec;
    spec.kernels = 20;
    ASSERT_TRUE(openAndWait(window, writeTrace(test::makeSyntheticTrace(spec), "opened.json")));
    EXPECT_TRUE(dock->isHidden());
    QSignalSpy finished(&window, &MainWindow::runFinished);
    window.startRun();
    ASSERT_TRUE(finished.wait(20000));
    EXPECT_FALSE(dock->isHidden());
    dock->toggleViewAction()->trigger();  // the user hides it
    EXPECT_TRUE(dock->isHidden());
    window.startRun();
    ASSERT_TRUE(finished.wait(20000));
    EXPECT_TRUE(dock->isHidden());
    // Reset Layout forgets the choice and brings every default dock back.
    auto* statistics = window.findChild<QDockWidget*>("statisticsDock");
    statistics->hide();
    window.resetLayout();
    EXPECT_FALSE(statistics->isHidden());
    EXPECT_FALSE(dock->isHidden());  // a run is current
}

// The overview strip shows the whole trace; a click there moves the timeline, keeping its zoom.
TEST_F(MainWindowTest, TheOverviewStripMovesTheTimeline) {
    MainWindow window(deps(withoutDevice));
    window.resize(1400, 900);
    window.show();
    test::SyntheticTraceSpec spec;
    spec.kernels = 200;
    ASSERT_TRUE(openAndWait(window, writeTrace(test::makeSyntheticTrace(spec), "strip.json")));
    if (window.isBusy()) {
        ASSERT_TRUE(QSignalSpy(&window, &MainWindow::idle).wait(20000));
    }
    ui::OverviewStrip* strip = window.overview();
    ASSERT_TRUE(strip->isVisible());
    const model::TimeNs span = window.currentDocument()->trace->spanNs();
    window.timeline()->setVisibleRange(0, span / 10);
    const int x = strip->width() - (strip->width() - window.timeline()->headerWidthPx()) / 4;
    QTest::mouseClick(strip, Qt::LeftButton, {}, QPoint(x, strip->height() / 2));
    const model::TimeNs centre =
        (window.timeline()->visibleStartNs() + window.timeline()->visibleEndNs()) / 2;
    EXPECT_NEAR(double(centre) / double(span), 0.75, 0.01);
    EXPECT_NEAR(double(window.timeline()->visibleEndNs() - window.timeline()->visibleStartNs()),
                double(span / 10), double(span) / 1000);
    EXPECT_TRUE(strip->density().gpu);
}

}  // namespace
}  // namespace wl::app

namespace wl::app {
namespace {

// The text of the tab in front among the tabified docks that hold `title`.
QString frontTabWith(const QMainWindow& window, const QString& title) {
    for (const QTabBar* bar : window.findChildren<QTabBar*>()) {
        for (int i = 0; i < bar->count(); ++i) {
            if (bar->tabText(i) == title)
                return bar->tabText(bar->currentIndex());
        }
    }
    return {};
}

TEST_F(MainWindowTest, StatisticsIsInFrontOfItsTabsAndRanksForAJobAfterReset) {
    MainWindow window(deps(withDevice));
    window.resize(1600, 1000);
    window.show();
    window.openTrace(syntheticSampleTrace(), "synthetic-reduce-async");
    if (window.isBusy()) {
        ASSERT_TRUE(QSignalSpy(&window, &MainWindow::idle).wait(20000));
    }
    QCoreApplication::processEvents();
    EXPECT_EQ(frontTabWith(window, "Events"), "Statistics");
    window.openRankJob({QString::fromStdString(test::dataPath("ranks/sampled_rank-0.json.gz")),
                        QString::fromStdString(test::dataPath("ranks/sampled_rank-1.json.gz"))});
    for (int i = 0; i < 3 && (window.isBusy() || window.documentCount() < 2); ++i) {
        QSignalSpy(&window, &MainWindow::idle).wait(20000);
    }
    window.resetLayout();
    QCoreApplication::processEvents();
    EXPECT_EQ(frontTabWith(window, "Events"), "Ranks");
}

}  // namespace
}  // namespace wl::app
