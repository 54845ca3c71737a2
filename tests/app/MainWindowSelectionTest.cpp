// Parts of a trace in the window: a time selection of all rows or some, summarised row by row,
// and a job's per-rank traces opened together with the Ranks tab.
#include <gtest/gtest.h>
#include <optional>

#include <QAbstractItemModel>
#include <QApplication>
#include <QLabel>
#include <QMouseEvent>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <memory>

#include "WindowTestDeps.h"
#include "analysis/HandTrace.h"  // tests/analysis: hand-built traces
#include "app/gui/DocumentAnalysis.h"
#include "app/gui/MainWindow.h"
#include "app/gui/SampleTraces.h"
#include "support/TestData.h"
#include "ui/analysis/DiagnosticsPanel.h"
#include "ui/analysis/RowStatisticsModel.h"
#include "ui/analysis/StatisticsView.h"
#include "ui/details/DetailsPanel.h"
#include "ui/ranks/CollectiveMap.h"
#include "ui/ranks/RankHeatMap.h"
#include "ui/ranks/RankPanel.h"
#include "ui/timeline/TimeMapper.h"
#include "ui/timeline/TimelineLayout.h"
#include "ui/timeline/TimelineView.h"

namespace wl::app {
namespace {

// The window on a hand-built trace. Stream 1: kernel [0, 100), a 2,000-byte copy [100, 300);
// stream 2: kernels [50, 250) and [400, 500); the host's copy call [90, 95) and launch
// [380, 385).
class MainWindowSelectionTest : public ::testing::Test {
protected:
    void SetUp() override {
        QSettings().clear();
        test::HandTrace t;
        t.kernel(1, 0, 100, -1);
        t.copy(1, 100, 300, model::CopyKind::HostToDevice, 2'000, 90, 95);
        t.kernel(2, 50, 250, -1);
        t.kernel(2, 400, 500, 380);
        m_window = std::make_unique<MainWindow>(windowTestDeps());
        m_window->show();
        m_window->openTrace(t.finish(), "hand-built");
        if (m_window->isBusy()) {
            ASSERT_TRUE(QSignalSpy(m_window.get(), &MainWindow::idle).wait(20000));
        }
    }
    void TearDown() override {
        m_window.reset();
        QSettings().clear();
    }
    // Selects [startNs, endNs) on the timeline, as a drag on the ruler does, and waits for its
    // analysis.
    void selectTime(model::TimeNs startNs, model::TimeNs endNs) {
        analysis::WindowRequest selection;
        selection.kind = analysis::WindowRequest::Kind::Selection;
        selection.time = {startNs, endNs};
        m_window->timeline()->setTimeSelection(selection.time);
        m_window->analyzeWindow(selection);
        if (m_window->isBusy()) {
            ASSERT_TRUE(QSignalSpy(m_window.get(), &MainWindow::idle).wait(20000));
        }
    }
    std::unique_ptr<MainWindow> m_window;
};

TEST_F(MainWindowSelectionTest, ATimeSelectionSummarisesEachRowAndTheTotals) {
    MainWindow& window = *m_window;
    selectTime(80, 420);
    const ui::StatisticsView* stats = window.statistics();
    EXPECT_EQ(stats->rowTotalsLabel()->text(),
              QStringLiteral("GPU: busy 240 ns (70.6% of 340 ns), 4 ops: 3 kernels, 1 copy, "
                             "2.0 KB copied at 10.0 GB/s\n"
                             "Host: in CUDA calls 10 ns (2.9% of the window), 2 calls"));
    // One line per row, named under its process; sorted by busy time, longest first.
    QAbstractItemModel* rows = stats->rowTable()->model();
    ASSERT_EQ(rows->rowCount(), 3);
    stats->rowTable()->sortByColumn(ui::RowStatisticsModel::kBusy, Qt::DescendingOrder);
    const auto cell = [&](int row, int column) {
        return rows->index(row, column).data().toString();
    };
    EXPECT_EQ(cell(0, ui::RowStatisticsModel::kRow), QStringLiteral("GPU 0 · Stream 1"));
    EXPECT_EQ(cell(0, ui::RowStatisticsModel::kOps), QStringLiteral("2"));
    EXPECT_EQ(cell(0, ui::RowStatisticsModel::kBusy), QStringLiteral("220 ns"));
    EXPECT_EQ(cell(0, ui::RowStatisticsModel::kBytes), QStringLiteral("2.0 KB"));
    EXPECT_EQ(cell(0, ui::RowStatisticsModel::kRate), QStringLiteral("10.0 GB/s"));
    EXPECT_EQ(cell(1, ui::RowStatisticsModel::kRow), QStringLiteral("GPU 0 · Stream 2"));
    EXPECT_EQ(cell(1, ui::RowStatisticsModel::kBusy), QStringLiteral("190 ns"));
    EXPECT_EQ(cell(1, ui::RowStatisticsModel::kBusyPct), QStringLiteral("55.9%"));
    EXPECT_TRUE(cell(2, ui::RowStatisticsModel::kRow).contains(QStringLiteral("CUDA API")));
    EXPECT_EQ(cell(2, ui::RowStatisticsModel::kOps), QStringLiteral("2"));
    // Clearing the selection goes back to the default window (first to last GPU op).
    window.analyzeWindow({});
    if (window.isBusy()) {
        ASSERT_TRUE(QSignalSpy(&window, &MainWindow::idle).wait(20000));
    }
    EXPECT_TRUE(stats->rowTotalsLabel()->text().startsWith(
        QStringLiteral("GPU: busy 400 ns (80.0% of 500 ns), 4 ops")))
        << stats->rowTotalsLabel()->text().toStdString();
}

// A line of the selection's summary selects its events on the timeline, inside the selection.
TEST_F(MainWindowSelectionTest, ASummaryLineSelectsItsEvents) {
    MainWindow& window = *m_window;
    selectTime(80, 420);
    const auto analysis = window.currentAnalysis();
    ASSERT_TRUE(analysis);
    const auto& lines = analysis->result->statistics.slices.rows;
    ASSERT_FALSE(lines.empty());
    const analysis::SliceStats& line = lines.front();
    emit window.statistics()->summaryActivated(line.kind, line.nameId);
    const model::SliceRef selected = window.timeline()->selectedSlice();
    ASSERT_TRUE(selected.valid());
    const model::Slice& slice = window.currentDocument()->trace->slice(selected);
    EXPECT_EQ(slice.nameId, line.nameId);
    EXPECT_LT(slice.startNs, 420);
    EXPECT_GT(slice.endNs(), 80);
    EXPECT_EQ(window.details()->slice(), selected);
}

// Shift-drags over stream 2's row from `fromNs` to `toNs` and waits for the analysis; its track.
model::TrackIndex shiftDragOverStream2(MainWindow& window, model::TimeNs fromNs,
                                       model::TimeNs toNs) {
    ui::TimelineView* timeline = window.timeline();
    const model::Trace& trace = *window.currentDocument()->trace;
    int rowY = -1;
    model::TrackIndex stream2 = 0;
    for (const ui::TimelineRow& row : timeline->layout().rows()) {
        if (row.kind == ui::RowKind::Track &&
            trace.track(row.track).kind == model::TrackKind::GpuStream &&
            trace.track(row.track).streamId == 2) {
            rowY = 30 + row.yPx + row.heightPx / 2;  // below the 30 px ruler
            stream2 = row.track;
        }
    }
    EXPECT_GE(rowY, 0);
    const int left = timeline->headerWidthPx();
    const auto xAt = [&](model::TimeNs ns) {
        const ui::TimeMapper map(timeline->visibleStartNs(), timeline->visibleEndNs(),
                                 timeline->layout().rows().empty() ? 1 : timeline->width() - left);
        return left + int(map.xForNs(ns));
    };
    QTest::mousePress(timeline, Qt::LeftButton, Qt::ShiftModifier, QPoint(xAt(fromNs), rowY));
    QMouseEvent move(QEvent::MouseMove, QPointF(xAt(toNs), rowY + 2),
                     timeline->mapToGlobal(QPointF(xAt(toNs), rowY + 2)), Qt::NoButton,
                     Qt::LeftButton, Qt::ShiftModifier);
    QApplication::sendEvent(timeline, &move);
    QTest::mouseRelease(timeline, Qt::LeftButton, Qt::ShiftModifier, QPoint(xAt(toNs), rowY + 2));
    if (window.isBusy()) {
        EXPECT_TRUE(QSignalSpy(&window, &MainWindow::idle).wait(20000));
    }
    return stream2;
}

TEST_F(MainWindowSelectionTest, AShiftDragOverRowsSummarisesOnlyThoseRows) {
    MainWindow& window = *m_window;
    ui::TimelineView* timeline = window.timeline();
    timeline->setVisibleRange(0, 500);
    // Stream 2's row, from its middle, over [100, 450) of its time.
    const model::TrackIndex stream2 = shiftDragOverStream2(window, 100, 450);
    EXPECT_EQ(timeline->selectedTracks(), std::vector<model::TrackIndex>{stream2});
    const auto analysis = window.currentAnalysis();
    ASSERT_TRUE(analysis);
    EXPECT_EQ(analysis->result->window().tracks, std::vector<model::TrackIndex>{stream2});
    // The summary holds stream 2 alone: not stream 1 (busy until 300) nor the host's calls.
    QAbstractItemModel* rows = window.statistics()->rowTable()->model();
    ASSERT_EQ(rows->rowCount(), 1);
    EXPECT_EQ(rows->index(0, ui::RowStatisticsModel::kRow).data().toString(),
              QStringLiteral("GPU 0 · Stream 2"));
    EXPECT_FALSE(window.statistics()->rowTotalsLabel()->text().contains(QStringLiteral("Host")));
    EXPECT_TRUE(analysis->summary.contains(QStringLiteral("1 row")))
        << analysis->summary.toStdString();
}

TEST_F(MainWindowSelectionTest, ARowSelectionSaysWhatItLeavesOutAndGoesWithItsTrace) {
    MainWindow& window = *m_window;
    window.timeline()->setVisibleRange(0, 500);
    // Stream 1 worked in [100, 450) too (its copy until 300): findings about GPU 0 as a whole
    // cannot come from stream 2 alone, and the diagnostics say so.
    shiftDragOverStream2(window, 100, 450);
    const auto analysis = window.currentAnalysis();
    ASSERT_TRUE(analysis);
    EXPECT_EQ(analysis->result->partialDevices.size(), 1u);
    const QString summary = window.diagnostics()->summaryText();
    EXPECT_TRUE(summary.contains(QStringLiteral("1 of the 2 streams that worked on GPU 0")))
        << summary.toStdString();
    // Another trace: the rows selected were the previous trace's.
    test::HandTrace other;
    other.kernel(1, 0, 100, -1);
    window.openTrace(other.finish(), "another");
    EXPECT_TRUE(window.timeline()->selectedTracks().empty());
    EXPECT_FALSE(window.timeline()->timeSelection().has_value());
}

TEST(MainWindowRanks, RankTracesOpenTogetherWithTheRanksTab) {
    QSettings().clear();
    MainWindow window(windowTestDeps());
    window.show();
    QSignalSpy opened(&window, &MainWindow::openFinished);
    window.openRankJob({QString::fromStdString(test::dataPath("ranks/sampled_rank-0.json.gz")),
                        QString::fromStdString(test::dataPath("ranks/sampled_rank-1.json.gz"))});
    ASSERT_TRUE(opened.wait(30000));
    ASSERT_TRUE(opened.front().front().toBool());
    if (window.isBusy()) {
        ASSERT_TRUE(QSignalSpy(&window, &MainWindow::idle).wait(30000));
    }
    ASSERT_EQ(window.documentCount(), 1);
    EXPECT_TRUE(window.currentDocument()->title.startsWith(QStringLiteral("2 ranks")));
    const auto analysis = window.currentAnalysis();
    ASSERT_TRUE(analysis);
    ASSERT_TRUE(analysis->ranks);
    ASSERT_EQ(analysis->ranks->ranks.size(), 2u);
    auto* panel = window.findChild<ui::RankPanel*>();
    ASSERT_NE(panel, nullptr);
    EXPECT_TRUE(panel->isVisible());
    EXPECT_EQ(panel->table()->rowCount(), 2);
    EXPECT_EQ(panel->heatMap()->data().rows(), 2);
    EXPECT_TRUE(panel->summaryLabel()->text().contains(QStringLiteral("wall clock")))
        << panel->summaryLabel()->text().toStdString();
    // A cell of the overview: the timeline goes to that rank at that time.
    const model::ProcessIndex rank1 = analysis->ranks->ranks[1].processes.front();
    emit panel->rankTimeActivated(rank1, 1'000'000, 3'000'000);
    EXPECT_EQ(window.timeline()->visibleStartNs(), 1'000'000);
    EXPECT_EQ(window.timeline()->visibleEndNs(), 3'000'000);
    // A click on rank 1's cells shows rank 1's GPU, whose busy share the cell is, not its host.
    ui::RankHeatMap* map = panel->heatMap();
    std::optional<QPoint> rank1Cell;
    for (int y = 0; y < map->height() && !rank1Cell; ++y) {
        const QPoint pos(map->width() / 2, y);
        if (const auto cell = map->cellAt(pos); cell && cell->first == 1)
            rank1Cell = pos;
    }
    ASSERT_TRUE(rank1Cell) << "rank 1's row is not on screen at " << map->height() << " px";
    QSignalSpy shown(panel, &ui::RankPanel::rankTimeActivated);
    QTest::mouseClick(map, Qt::LeftButton, {}, *rank1Cell);
    ASSERT_EQ(shown.size(), 1);
    const auto process = shown.front().front().value<model::ProcessIndex>();
    const auto& processes = window.currentDocument()->trace->processes();
    ASSERT_LT(process, processes.size());
    EXPECT_EQ(processes[process].deviceId, analysis->ranks->ranks[1].deviceIds.front());
    // One trace again: the tab goes away.
    window.openTrace(syntheticSampleTrace(), "synthetic-reduce-async");
    if (window.isBusy()) {
        ASSERT_TRUE(QSignalSpy(&window, &MainWindow::idle).wait(20000));
    }
    EXPECT_FALSE(panel->isVisible());
}

TEST(MainWindowRanks, AClickOnTheCollectiveMapSelectsThatCollectivesKernels) {
    // A real DDP job's two ranks (tests/data/collectives): rank 1 is last at every all-reduce.
    QSettings().clear();
    MainWindow window(windowTestDeps());
    window.resize(1400, 1000);
    window.show();
    QSignalSpy opened(&window, &MainWindow::openFinished);
    window.openRankJob(
        {QString::fromStdString(test::dataPath("collectives/ddp_kineto_rank-0.json.gz")),
         QString::fromStdString(test::dataPath("collectives/ddp_kineto_rank-1.json.gz"))});
    ASSERT_TRUE(opened.wait(30000));
    ASSERT_TRUE(opened.front().front().toBool());
    if (window.isBusy()) {
        ASSERT_TRUE(QSignalSpy(&window, &MainWindow::idle).wait(30000));
    }
    const auto analysis = window.currentAnalysis();
    ASSERT_TRUE(analysis && analysis->ranks);
    const analysis::CollectiveStats& collectives = analysis->ranks->collectives;
    ASSERT_FALSE(collectives.collectives.empty());
    auto* panel = window.findChild<ui::RankPanel*>();
    ASSERT_NE(panel, nullptr);
    ui::CollectiveMap* map = panel->collectiveMap();
    ASSERT_TRUE(map->isVisible());
    EXPECT_TRUE(panel->collectivesLabel()->text().contains(QStringLiteral("Rank 1 arrived last")))
        << panel->collectivesLabel()->text().toStdString();

    // Rank 0's cell of the costliest collective: it waited there for rank 1.
    const std::size_t costliest = collectives.costliest(1).front();
    const analysis::MatchedCollective& c = collectives.collectives[costliest];
    const auto cell = map->cellCentre(0, costliest);
    ASSERT_TRUE(cell.has_value()) << "the costliest collective's cell is hidden";
    QTest::mouseClick(map, Qt::LeftButton, {}, *cell);
    // The timeline selects rank 0's kernel of it and shows both ranks' kernels of it.
    const model::SliceRef selected = window.timeline()->selectedSlice();
    ASSERT_NE(c.arrivalOf(0), nullptr);
    EXPECT_EQ(selected, c.arrivalOf(0)->kernel);
    EXPECT_LE(window.timeline()->visibleStartNs(), c.firstArrivalNs);
    EXPECT_GE(window.timeline()->visibleEndNs(), c.lastArrival().endNs);
    EXPECT_LT(window.timeline()->visibleEndNs() - window.timeline()->visibleStartNs(),
              10 * (c.lastArrival().endNs - c.firstArrivalNs));
}

}  // namespace
}  // namespace wl::app
