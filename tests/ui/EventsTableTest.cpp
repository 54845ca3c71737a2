// The events table: which slices (whole trace, visible time, time selection), sorting by every
// column either way (stable: ties stay in time order), and the panel's worker and clicks.
#include <QHeaderView>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <gtest/gtest.h>
#include <QApplication>

#include <algorithm>

#include "TimelineTestTraces.h"
#include "model/TraceBuilder.h"
#include "ui/find/EventsPanel.h"
#include "ui/find/SliceSort.h"
#include "ui/find/SliceTableModel.h"

namespace wl::ui {
namespace {

std::vector<std::string> namesOf(const model::Trace& trace, const SliceList& rows) {
    std::vector<std::string> out;
    for (model::SliceRef r : rows)
        out.emplace_back(trace.str(trace.slice(r).nameId));
    return out;
}

// The small trace's slices, in time order: outer 0, H2D 500, launch 1000 and inner 1000 (a tie:
// by track, the API row was made first), kernel 2000, sync 6000, D2H 6500, memset 8200 (the
// NVTX-on-the-GPU copies of outer and inner left out).
TEST(SliceSort, CollectsEverySliceInTimeOrder) {
    const auto small = test::makeSmallTrace();
    const auto rows = SliceSort::collect(*small.trace, std::nullopt);
    EXPECT_EQ(namesOf(*small.trace, rows),
              (std::vector<std::string>{"outer", "Memcpy HtoD", "cudaLaunchKernel", "inner",
                                        "single_thread_sum", "cudaDeviceSynchronize", "Memcpy DtoH",
                                        "Memset"}));
}

TEST(SliceSort, CollectsTheSlicesThatOverlapAWindow) {
    const auto small = test::makeSmallTrace();
    // [5000, 7000]: outer (0-10000), the kernel (2000-6000), the sync (6000-9000), D2H (6500-).
    const auto rows = SliceSort::collect(*small.trace, model::TimeRange{5'000, 7'000});
    EXPECT_EQ(namesOf(*small.trace, rows),
              (std::vector<std::string>{"outer", "single_thread_sum", "cudaDeviceSynchronize",
                                        "Memcpy DtoH"}));
    EXPECT_TRUE(SliceSort::collect(*small.trace, model::TimeRange{20'000, 30'000}).empty());
}

TEST(SliceSort, SortsByDurationBothWaysKeepingTimeOrderOnTies) {
    model::TraceBuilder b;
    const auto gpu = b.gpuProcess(0, "GPU 0");
    const auto s1 = b.gpuStreamTrack(gpu, 1);
    const auto s2 = b.gpuStreamTrack(gpu, 2);
    b.addKernel(s1, 0, 50, "a", 0, {});           // 50
    b.addKernel(s2, 10, 310, "b", 0, {});         // 300
    b.addKernel(s1, 100, 150, "c", 0, {});        // 50, a tie with a
    b.addKernel(s2, 400, 5'000'400, "d", 0, {});  // 5 ms: a key over 11 bits
    const auto trace = b.finalize();
    const auto rows = SliceSort::collect(*trace, std::nullopt);
    EXPECT_EQ(namesOf(*trace, SliceSort::sorted(*trace, rows, SliceTableModel::kDuration,
                                                Qt::AscendingOrder)),
              (std::vector<std::string>{"a", "c", "b", "d"}));
    EXPECT_EQ(namesOf(*trace, SliceSort::sorted(*trace, rows, SliceTableModel::kDuration,
                                                Qt::DescendingOrder)),
              (std::vector<std::string>{"d", "b", "a", "c"}));
    EXPECT_EQ(namesOf(*trace, SliceSort::sorted(*trace, rows, SliceTableModel::kStart,
                                                Qt::DescendingOrder)),
              (std::vector<std::string>{"d", "c", "b", "a"}));
}

TEST(SliceSort, SortsByRowNameAndBytes) {
    const auto small = test::makeSmallTrace();
    const auto rows = SliceSort::collect(*small.trace, std::nullopt);
    const auto byName =
        SliceSort::sorted(*small.trace, rows, SliceTableModel::kName, Qt::AscendingOrder);
    // Case-insensitive text order.
    EXPECT_EQ(namesOf(*small.trace, byName),
              (std::vector<std::string>{"cudaDeviceSynchronize", "cudaLaunchKernel", "inner",
                                        "Memcpy DtoH", "Memcpy HtoD", "Memset", "outer",
                                        "single_thread_sum"}));
    // The biggest transfers first: the two 1 MiB copies (in time order), then the memset's 0 B
    // and everything without bytes, in time order.
    const auto byBytes =
        SliceSort::sorted(*small.trace, rows, SliceTableModel::kBytes, Qt::DescendingOrder);
    EXPECT_EQ(namesOf(*small.trace, byBytes)[0], "Memcpy HtoD");
    EXPECT_EQ(namesOf(*small.trace, byBytes)[1], "Memcpy DtoH");
    EXPECT_EQ(namesOf(*small.trace, byBytes)[2], "outer");
    // By row title: every slice of one row together, rows in text order.
    const auto byRow =
        SliceSort::sorted(*small.trace, rows, SliceTableModel::kRow, Qt::AscendingOrder);
    ASSERT_EQ(byRow.size(), rows.size());
    for (std::size_t i = 1; i < byRow.size(); ++i) {
        const QString a = SliceTableModel::rowTitle(*small.trace, byRow[i - 1].track);
        const QString b = SliceTableModel::rowTitle(*small.trace, byRow[i].track);
        EXPECT_LE(QString::compare(a, b, Qt::CaseInsensitive), 0) << i;
    }
}

TEST(SliceSort, SortsAMillionRowsExactlyAsAStableComparisonSortWould) {
    // Durations from a small range: many ties, and keys that vary in two radix digits.
    model::TraceBuilder b;
    const auto gpu = b.gpuProcess(0, "GPU 0");
    const auto s1 = b.gpuStreamTrack(gpu, 1);
    const auto s2 = b.gpuStreamTrack(gpu, 2);
    std::uint64_t x = 12345;
    for (int i = 0; i < 500'000; ++i) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        const model::TimeNs d1 = model::TimeNs((x >> 33) % 3000) + 1;
        const model::TimeNs d2 = model::TimeNs((x >> 13) % 3000) + 1;
        b.addKernel(s1, i * 4000ll, i * 4000ll + d1, "k", 0, {});
        b.addKernel(s2, i * 4000ll + 7, i * 4000ll + 7 + d2, "k", 0, {});
    }
    const auto trace = b.finalize();
    const auto rows = SliceSort::collect(*trace, std::nullopt);
    ASSERT_EQ(rows.size(), 1'000'000u);
    auto expected = rows;
    std::stable_sort(expected.begin(), expected.end(), [&](auto a, auto c) {
        return trace->slice(a).durationNs > trace->slice(c).durationNs;
    });
    EXPECT_EQ(SliceSort::sorted(*trace, rows, SliceTableModel::kDuration, Qt::DescendingOrder),
              expected);
}

TEST(SliceSort, ACancelledSortGivesNothing) {
    const auto trace = test::makeDenseTrace(10'000, 2, 10, 10);
    std::atomic<bool> cancel{true};
    const auto rows = SliceSort::collect(*trace, std::nullopt);
    EXPECT_TRUE(SliceSort::collect(*trace, std::nullopt, &cancel).empty());
    EXPECT_TRUE(
        SliceSort::sorted(*trace, rows, SliceTableModel::kDuration, Qt::AscendingOrder, &cancel)
            .empty());
}

TEST(SliceTableModel, ShowsFormattedCellsWithoutCopyingTheSlices) {
    const auto small = test::makeSmallTrace();
    SliceTableModel model;
    auto rows = std::make_shared<const SliceList>(SliceSort::collect(*small.trace, std::nullopt));
    model.setRows(small.trace, rows);
    EXPECT_EQ(model.rows(), rows);  // shared, not copied
    ASSERT_EQ(model.rowCount(), 8);
    EXPECT_EQ(model.columnCount(), SliceTableModel::kColumnCount);
    // Row 1: the H2D copy [500, 1800) of 1 MiB (1.0 MB) on stream 13.
    auto cell = [&](int row, int column) {
        return model.data(model.index(row, column)).toString();
    };
    EXPECT_EQ(cell(1, SliceTableModel::kStart), QStringLiteral("0.000500 ms"));
    EXPECT_EQ(cell(1, SliceTableModel::kDuration), QStringLiteral("1.3 µs"));
    EXPECT_EQ(cell(1, SliceTableModel::kRow), QStringLiteral("Stream 13"));
    EXPECT_EQ(cell(1, SliceTableModel::kName), QStringLiteral("Memcpy HtoD"));
    EXPECT_EQ(cell(1, SliceTableModel::kBytes), QStringLiteral("1.0 MB"));
    EXPECT_EQ(cell(0, SliceTableModel::kBytes), QString());  // an NVTX range has no bytes
    EXPECT_EQ(model.headerData(SliceTableModel::kDuration, Qt::Horizontal).toString(),
              QStringLiteral("Duration"));
    EXPECT_FALSE(model.sliceAt(8).valid());
}

struct EventsPanelFixture : ::testing::Test {
    void SetUp() override {
        small = test::makeSmallTrace();
        panel.resize(700, 300);
        panel.show();
        QSignalSpy spy(&panel, &EventsPanel::rowsChanged);
        panel.setTrace(small.trace);
        ASSERT_TRUE(spy.wait(10'000));
    }
    void waitForRows() {
        QSignalSpy spy(&panel, &EventsPanel::rowsChanged);
        ASSERT_TRUE(spy.wait(10'000));
    }
    std::vector<std::string> shown() const { return namesOf(*small.trace, *panel.model()->rows()); }
    test::SmallTrace small;
    EventsPanel panel;
};

TEST_F(EventsPanelFixture, ListsTheWholeTraceAndSortsWhenAHeaderIsClicked) {
    EXPECT_EQ(panel.model()->rowCount(), 8);
    EXPECT_EQ(panel.statusText(), QStringLiteral("8 slices"));
    QHeaderView* header = panel.table()->horizontalHeader();
    // A click on Duration: the longest first (the 10 µs outer range).
    QSignalSpy spy(&panel, &EventsPanel::rowsChanged);
    const QPoint duration(header->sectionViewportPosition(SliceTableModel::kDuration) + 10,
                          header->height() / 2);
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, duration);
    ASSERT_TRUE(spy.wait(10'000));
    EXPECT_EQ(panel.sortColumn(), SliceTableModel::kDuration);
    EXPECT_EQ(panel.sortOrder(), Qt::DescendingOrder);
    EXPECT_EQ(shown().front(), "outer");
    // Again: the shortest first (the 400 ns memset).
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, duration);
    ASSERT_TRUE(spy.wait(10'000));
    EXPECT_EQ(panel.sortOrder(), Qt::AscendingOrder);
    EXPECT_EQ(shown().front(), "Memset");
}

TEST_F(EventsPanelFixture, VisibleTimeAndTimeSelectionScopes) {
    panel.setVisibleRange(5'000, 7'000);
    panel.setScope(EventsPanel::Scope::VisibleTime);
    waitForRows();
    EXPECT_EQ(panel.model()->rowCount(), 4);
    // Following the view once it settles.
    panel.setVisibleRange(8'300, 8'400);
    waitForRows();
    EXPECT_EQ(shown(), (std::vector<std::string>{"outer", "cudaDeviceSynchronize", "Memset"}));

    panel.setScope(EventsPanel::Scope::TimeSelection);
    waitForRows();
    EXPECT_EQ(panel.model()->rowCount(), 0);
    EXPECT_TRUE(panel.statusText().startsWith(QStringLiteral("No time selection")));
    panel.setTimeSelection(model::TimeRange{400, 600});
    waitForRows();
    EXPECT_EQ(shown(), (std::vector<std::string>{"outer", "Memcpy HtoD"}));
}

TEST_F(EventsPanelFixture, TheViewMovingToARowsSliceDoesNotReloadTheVisibleTime) {
    panel.setVisibleRange(0, 10'000);
    panel.setScope(EventsPanel::Scope::VisibleTime);
    waitForRows();
    const SliceRows before = panel.model()->rows();
    // What the window does when a row is activated: the timeline reveals it, moving the view.
    QObject::connect(&panel, &EventsPanel::sliceActivated, &panel,
                     [&] { panel.setVisibleRange(8'000, 8'800); });
    QSignalSpy rows(&panel, &EventsPanel::rowsChanged);
    const QRect cell = panel.table()->visualRect(panel.model()->index(2, SliceTableModel::kName));
    QTest::mouseClick(panel.table()->viewport(), Qt::LeftButton, {}, cell.center());
    EXPECT_FALSE(rows.wait(600));  // longer than the view's settling time
    EXPECT_EQ(panel.model()->rows(), before);
    // The user's own panning is followed again.
    panel.setVisibleRange(8'300, 8'400);
    EXPECT_TRUE(rows.wait(10'000));
    EXPECT_EQ(panel.model()->rowCount(), 3);
}

TEST_F(EventsPanelFixture, ClickingARowAsksForItsSlice) {
    panel.sortBy(SliceTableModel::kBytes, Qt::DescendingOrder);
    waitForRows();
    QSignalSpy activated(&panel, &EventsPanel::sliceActivated);
    const QRect cell = panel.table()->visualRect(panel.model()->index(1, SliceTableModel::kName));
    QTest::mouseClick(panel.table()->viewport(), Qt::LeftButton, {}, cell.center());
    ASSERT_EQ(activated.size(), 1);
    const auto ref = activated.last().at(0).value<model::SliceRef>();
    EXPECT_EQ(small.trace->str(small.trace->slice(ref).nameId), "Memcpy DtoH");
}

// In a narrow dock (a 1024 px window) the name stays in view, right after the times, instead of
// being the stretched column that got no width at all.
TEST_F(EventsPanelFixture, TheNameStaysInViewInANarrowPanel) {
    panel.resize(330, 300);
    QApplication::processEvents();
    const QRect name = panel.table()->visualRect(panel.model()->index(0, SliceTableModel::kName));
    const QRect viewport = panel.table()->viewport()->rect();
    EXPECT_GE(name.intersected(viewport).width(), 60) << name.x() << " " << name.width();
    EXPECT_LT(name.x(),
              panel.table()->visualRect(panel.model()->index(0, SliceTableModel::kRow)).x());
}

TEST_F(EventsPanelFixture, AHiddenPanelCollectsWhenShown) {
    panel.hide();
    const auto other = test::makeDenseTrace(100, 2, 10, 10);
    panel.setTrace(other);
    EXPECT_FALSE(panel.isBusy());  // nothing collected while hidden
    QSignalSpy spy(&panel, &EventsPanel::rowsChanged);
    panel.show();
    ASSERT_TRUE(spy.wait(10'000));
    EXPECT_EQ(panel.model()->rowCount(), 200);
}

}  // namespace
}  // namespace wl::ui
