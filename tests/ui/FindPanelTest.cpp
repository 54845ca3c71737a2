// Search on the timeline: the outlines of matches, revealing a slice, and the Find panel (worker
// search, count, Enter / Shift+Enter, the results list).
#include <QCoreApplication>
#include <QImage>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QThreadPool>

#include <gtest/gtest.h>

#include "TimelineTestTraces.h"
#include "support/TraceFactory.h"
#include "ui/find/FindPanel.h"
#include "ui/find/SliceTableModel.h"
#include "ui/style/Palette.h"
#include "ui/timeline/TimelineView.h"

namespace wl::ui {
namespace {

constexpr int kRulerPx = 30;

struct SearchViewFixture : ::testing::Test {
    void SetUp() override {
        small = test::makeSmallTrace();
        view.resize(1240, 600);  // a 1000 px time area next to the 240 px headers
        view.setTrace(small.trace);
        view.setVisibleRange(0, 10'000);
    }
    test::SmallTrace small;
    TimelineView view;
};

TEST_F(SearchViewFixture, MatchesAreOutlinedWhereTheirSlicesAre) {
    EXPECT_TRUE(view.searchMatchRects().empty());
    view.setSearchMatches(SliceSearch::run(*small.trace, {QStringLiteral("memcpy")}));
    const std::vector<QRect> rects = view.searchMatchRects();
    ASSERT_EQ(rects.size(), 2u);
    // 10 ns per px: the H2D copy [500, 1800) is at x 50..180, the D2H one [6500, 8000) at
    // 650..800, both on stream 13's lane.
    EXPECT_EQ(rects[0].left(), 50);
    EXPECT_EQ(rects[0].width(), 130);
    EXPECT_EQ(rects[1].left(), 650);
    const auto y = view.layout().laneY(view.layout().rowOfTrack(small.stream13), 0);
    ASSERT_TRUE(y);
    EXPECT_EQ(rects[0].top(), *y + 1);

    // And drawn: the outline's colour on the copy's left edge, none on the kernel's.
    const QImage image = view.grab().toImage();
    const int x = view.headerWidthPx() + rects[0].left();
    const int rowY = kRulerPx + rects[0].center().y();
    EXPECT_EQ(image.pixel(x, rowY), Palette::kSearchMatch);
    const auto kernelY = view.layout().laneY(view.layout().rowOfTrack(small.stream7), 0);
    EXPECT_NE(image.pixel(view.headerWidthPx() + 200, kRulerPx + *kernelY + 10),
              Palette::kSearchMatch);

    // A new trace drops them (they address the old one).
    view.setTrace(test::makeSmallTrace().trace);
    EXPECT_EQ(view.searchMatches(), nullptr);
}

TEST_F(SearchViewFixture, OutlinesArePixelBounded) {
    // 200k back-to-back kernels of 10 ns in a 1000 px view: one outline per pixel at most.
    const auto dense = test::makeDenseTrace(200'000, 1, 10, 10);
    view.setTrace(dense);
    view.fitAll();
    view.setSearchMatches(SliceSearch::run(*dense, {QStringLiteral("k")}));
    const std::size_t count = view.searchMatchRects().size();
    EXPECT_GT(count, 100u);
    EXPECT_LE(count, 1000u);
}

TEST_F(SearchViewFixture, RevealZoomsInOnATinySliceAndKeepsAVisibleOnesZoom) {
    // The memset [8200, 8600) is 0.4 µs: 40 px in the 10 µs view, 0.4 px in a 1 ms one.
    model::SliceRef memset;
    const auto& slices = small.trace->track(small.stream13).slices;
    for (std::uint32_t i = 0; i < slices.size(); ++i) {
        if (small.trace->str(slices[i].nameId) == "Memset")
            memset = {small.stream13, i};
    }
    ASSERT_TRUE(memset.valid());
    view.revealSlice(memset);
    EXPECT_EQ(view.selectedSlice(), memset);
    EXPECT_EQ(view.visibleStartNs(), 0);  // 40 px wide and in view: nothing moves
    EXPECT_EQ(view.visibleEndNs(), 10'000);

    view.setVisibleRange(-500'000, 500'000);  // 0.4 px
    view.revealSlice(memset);
    const model::TimeNs width = view.visibleEndNs() - view.visibleStartNs();
    const double px = 400.0 / double(width) * 1000.0;
    EXPECT_GE(px, 4.0);
    EXPECT_LE(view.visibleStartNs(), 8'200);
    EXPECT_GE(view.visibleEndNs(), 8'600);

    // Far outside the view at a zoom where it is wide enough: panned, the zoom kept.
    view.setVisibleRange(0, 1'000);
    view.revealSlice(memset);
    EXPECT_EQ(view.visibleEndNs() - view.visibleStartNs(), 1'000);
    EXPECT_LE(view.visibleStartNs(), 8'200);
    EXPECT_GE(view.visibleEndNs(), 8'600);

    // Longer than the view (the 10 µs outer range in a 1 µs view): zoomed out to all of it.
    const model::SliceRef outer{small.nvtx, 0};
    ASSERT_EQ(small.trace->str(small.trace->slice(outer).nameId), "outer");
    view.revealSlice(outer);
    EXPECT_LE(view.visibleStartNs(), 0);
    EXPECT_GE(view.visibleEndNs(), 10'000);
    EXPECT_LE(view.visibleEndNs() - view.visibleStartNs(), 12'000);
}

struct FindPanelFixture : ::testing::Test {
    void SetUp() override {
        small = test::makeSmallTrace();
        panel.resize(500, 300);
        panel.setTrace(small.trace);
    }
    // Sets the query and waits for the worker's answer.
    SearchMatchesPtr search(const SearchQuery& q) {
        QSignalSpy spy(&panel, &FindPanel::matchesChanged);
        panel.setQuery(q);
        if (spy.isEmpty()) {
            EXPECT_TRUE(spy.wait(10'000));
        }
        return panel.matches();
    }
    test::SmallTrace small;
    FindPanel panel;
};

TEST_F(FindPanelFixture, SearchesOnAWorkerAndCountsTheMatches) {
    QSignalSpy spy(&panel, &FindPanel::matchesChanged);
    panel.setQuery({QStringLiteral("memcpy")});
    EXPECT_TRUE(panel.isSearching());
    EXPECT_EQ(panel.statusText(), QStringLiteral("Searching…"));
    ASSERT_TRUE(spy.wait(10'000));
    ASSERT_TRUE(panel.matches());
    EXPECT_EQ(panel.matches()->size(), 2u);
    EXPECT_EQ(panel.statusText(), QStringLiteral("2 matches"));
    EXPECT_EQ(panel.resultsModel()->rowCount(), 2);
    EXPECT_EQ(panel.resultsModel()
                  ->data(panel.resultsModel()->index(0, SliceTableModel::kName))
                  .toString(),
              QStringLiteral("Memcpy HtoD"));
}

TEST_F(FindPanelFixture, EnterAndShiftEnterGoToTheNextAndPreviousMatch) {
    ASSERT_TRUE(search({QStringLiteral("memcpy")}));
    QSignalSpy activated(&panel, &FindPanel::sliceActivated);
    QTest::keyClick(panel.queryField(), Qt::Key_Return);
    ASSERT_EQ(activated.size(), 1);
    const auto first = activated.last().at(0).value<model::SliceRef>();
    EXPECT_EQ(first, panel.matches()->at(0));
    EXPECT_EQ(panel.statusText(), QStringLiteral("1 of 2 matches"));
    EXPECT_EQ(panel.resultsTable()->currentIndex().row(), 0);
    QTest::keyClick(panel.queryField(), Qt::Key_Return);
    EXPECT_EQ(activated.last().at(0).value<model::SliceRef>(), panel.matches()->at(1));
    // Past the last: back to the first; Shift+Enter from the first wraps to the last.
    QTest::keyClick(panel.queryField(), Qt::Key_Return);
    EXPECT_EQ(activated.last().at(0).value<model::SliceRef>(), panel.matches()->at(0));
    QTest::keyClick(panel.queryField(), Qt::Key_Return, Qt::ShiftModifier);
    EXPECT_EQ(activated.last().at(0).value<model::SliceRef>(), panel.matches()->at(1));
    EXPECT_EQ(panel.statusText(), QStringLiteral("2 of 2 matches"));
}

TEST_F(FindPanelFixture, NextGoesOnFromTheSliceSelectedElsewhere) {
    ASSERT_TRUE(search({QStringLiteral("memcpy")}));
    // The kernel [2000, 6000) is selected on the timeline: the next copy is the D2H at 6500.
    panel.setSelectedSlice({small.stream7, 0});
    QSignalSpy activated(&panel, &FindPanel::sliceActivated);
    panel.findNext();
    ASSERT_EQ(activated.size(), 1);
    EXPECT_EQ(small.trace->slice(activated.last().at(0).value<model::SliceRef>()).startNs, 6'500);
    panel.setSelectedSlice({small.stream7, 0});
    panel.findPrevious();
    EXPECT_EQ(small.trace->slice(activated.last().at(0).value<model::SliceRef>()).startNs, 500);
}

TEST_F(FindPanelFixture, ClickingAResultActivatesIt) {
    ASSERT_TRUE(search({QStringLiteral("memcpy")}));
    QSignalSpy activated(&panel, &FindPanel::sliceActivated);
    panel.show();
    QTableView* table = panel.resultsTable();
    const QRect cell = table->visualRect(panel.resultsModel()->index(1, SliceTableModel::kName));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
    ASSERT_EQ(activated.size(), 1);
    EXPECT_EQ(activated.last().at(0).value<model::SliceRef>(), panel.matches()->at(1));
}

TEST_F(FindPanelFixture, EnterWhileTypingSearchesFirstThenGoes) {
    QSignalSpy activated(&panel, &FindPanel::sliceActivated);
    QTest::keyClicks(panel.queryField(), QStringLiteral("memset"));
    QTest::keyClick(panel.queryField(), Qt::Key_Return);  // before the typing pause is over
    ASSERT_TRUE(activated.wait(10'000));
    EXPECT_EQ(small.trace->str(
                  small.trace->slice(activated.last().at(0).value<model::SliceRef>()).nameId),
              "Memset");
}

TEST_F(FindPanelFixture, ANewerQueryWinsOverAStaleOne) {
    QSignalSpy spy(&panel, &FindPanel::matchesChanged);
    panel.setQuery({QStringLiteral("memcpy")});
    panel.setQuery({QStringLiteral("outer")});
    ASSERT_TRUE(spy.wait(10'000));
    // Both searches have run to their end and posted what they post: the first search's answer,
    // had it not been dropped, is delivered here too (in whichever order the two finished).
    QThreadPool::globalInstance()->waitForDone();
    QCoreApplication::sendPostedEvents();
    EXPECT_EQ(spy.size(), 1);
    ASSERT_TRUE(panel.matches());
    EXPECT_EQ(panel.matches()->query().text, QStringLiteral("outer"));
    EXPECT_EQ(panel.matches()->size(), 1u);
    EXPECT_EQ(panel.statusText(), QStringLiteral("1 match"));
}

TEST_F(FindPanelFixture, InvalidRegexSaysWhyAndClearsTheMatches) {
    ASSERT_TRUE(search({QStringLiteral("memcpy")}));
    QSignalSpy spy(&panel, &FindPanel::matchesChanged);
    panel.setQuery({QStringLiteral("memcpy("), true});
    ASSERT_EQ(spy.size(), 1);  // at once: nothing to search
    EXPECT_EQ(spy.last().at(0).value<SearchMatchesPtr>(), nullptr);
    EXPECT_TRUE(panel.statusText().startsWith(QStringLiteral("Invalid regular expression")));
    EXPECT_EQ(panel.resultsModel()->rowCount(), 0);
}

TEST_F(FindPanelFixture, ANewTraceIsSearchedForTheSameQuery) {
    ASSERT_TRUE(search({QStringLiteral("k")}));
    const auto dense = test::makeDenseTrace(1000, 2, 10, 10);
    QSignalSpy spy(&panel, &FindPanel::matchesChanged);
    panel.setTrace(dense);
    ASSERT_TRUE(spy.wait(10'000));
    ASSERT_TRUE(panel.matches());
    EXPECT_EQ(panel.matches()->size(), 2000u);
    EXPECT_EQ(panel.statusText(), QStringLiteral("2,000 matches"));
}

}  // namespace
}  // namespace wl::ui
