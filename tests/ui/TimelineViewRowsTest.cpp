// The timeline's rows as the user arranges them: the header menu, dragging a header, the sticky
// group title.
#include <QImage>
#include <QMenu>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

#include "TimelineTestTraces.h"
#include "ui/style/Palette.h"
#include "ui/timeline/TimelineView.h"

namespace wl::ui {
namespace {

constexpr int kRulerPx = 30;  // the view's ruler height (top of the rows)

struct RowsFixture : ::testing::Test {
    void SetUp() override {
        small = test::makeSmallTrace();
        view.resize(1240, 600);
        view.setTrace(small.trace);
    }
    int rowOf(model::TrackIndex track) const { return view.layout().rowOfTrack(track); }
    // The middle of a row's header, in widget px (no scrolling).
    QPoint headerOf(int row) const {
        const TimelineRow& r = view.layout().rows()[std::size_t(row)];
        return QPoint(60, kRulerPx + r.yPx + r.heightPx / 2);
    }
    // Triggers the item of the row's header menu (or of its submenu) whose text starts so.
    static bool trigger(QMenu* menu, const QString& text) {
        for (QAction* action : menu->actions()) {
            if (action->menu() && trigger(action->menu(), text))
                return true;
            if (action->text().startsWith(text)) {
                action->trigger();
                return true;
            }
        }
        return false;
    }
    bool menuItem(int row, const QString& text) {
        std::unique_ptr<QMenu> menu(view.rowHeaderMenu(row, &view));
        return trigger(menu.get(), text);
    }

    test::SmallTrace small;
    TimelineView view;
};

TEST_F(RowsFixture, TheHeaderMenuHidesARowAndShowsItAgain) {
    QSignalSpy changed(&view, &TimelineView::arrangementChanged);
    const QString identity = view.layout().rows()[std::size_t(rowOf(small.stream7))].identity;
    ASSERT_TRUE(menuItem(rowOf(small.stream7), QStringLiteral("Hide Row")));
    EXPECT_EQ(rowOf(small.stream7), -1);
    EXPECT_EQ(view.arrangement().hidden, QStringList{identity});
    ASSERT_EQ(changed.count(), 1);
    // The hidden row is listed under Show Hidden Rows by its group and title.
    ASSERT_TRUE(menuItem(-1, QStringLiteral("Stream 7 \u00b7 GPU 0: Test GPU")));
    EXPECT_GE(rowOf(small.stream7), 0);
    EXPECT_TRUE(view.arrangement().hidden.isEmpty());
    EXPECT_EQ(changed.count(), 2);
}

// Selecting a slice of a hidden row (a search match, the end of a launch arrow) shows the row
// again: what the user asked to see is not left out of view.
TEST_F(RowsFixture, RevealingASliceOfAHiddenRowShowsTheRowAgain) {
    ASSERT_TRUE(menuItem(rowOf(small.stream7), QStringLiteral("Hide Row")));
    ASSERT_TRUE(menuItem(rowOf(small.stream13), QStringLiteral("Hide Group")));
    ASSERT_EQ(rowOf(small.stream7), -1);
    ASSERT_EQ(view.arrangement().hidden.size(), 2);
    QSignalSpy changed(&view, &TimelineView::arrangementChanged);
    view.revealSlice({small.stream7, 0});
    // The group was hidden too: showing it alone would not bring the row back, so both go.
    EXPECT_GE(rowOf(small.stream7), 0);
    EXPECT_EQ(view.selectedSlice(), (model::SliceRef{small.stream7, 0}));
    EXPECT_EQ(changed.count(), 1);
    EXPECT_TRUE(view.arrangement().hidden.isEmpty());
}

TEST_F(RowsFixture, TheHeaderMenuHidesAGroupAndShowAllBringsItBack) {
    const int rows = int(view.layout().rows().size());
    ASSERT_TRUE(menuItem(rowOf(small.api), QStringLiteral("Hide Group")));
    EXPECT_EQ(rowOf(small.api), -1);
    EXPECT_EQ(rowOf(small.nvtx), -1);
    EXPECT_GE(rowOf(small.stream7), 0);
    ASSERT_TRUE(menuItem(0, QStringLiteral("Show All")));
    EXPECT_EQ(int(view.layout().rows().size()), rows);
}

TEST_F(RowsFixture, TheHeaderMenuPinsARowToTheTopAndUnpinsIt) {
    const int before = rowOf(small.api);
    ASSERT_GT(before, 0);
    ASSERT_TRUE(menuItem(before, QStringLiteral("Pin to Top")));
    EXPECT_EQ(rowOf(small.api), 0);
    EXPECT_TRUE(view.layout().rows()[0].pinned);
    ASSERT_TRUE(menuItem(0, QStringLiteral("Unpin")));
    EXPECT_EQ(rowOf(small.api), before);
}

TEST_F(RowsFixture, CollapseAllAndExpandAll) {
    ASSERT_TRUE(menuItem(-1, QStringLiteral("Collapse All")));
    for (const TimelineRow& row : view.layout().rows())
        EXPECT_TRUE(row.kind == RowKind::Process && row.collapsed) << row.title.toStdString();
    ASSERT_TRUE(menuItem(-1, QStringLiteral("Expand All")));
    EXPECT_GE(rowOf(small.stream7), 0);
    EXPECT_GE(rowOf(small.api), 0);
}

TEST_F(RowsFixture, DraggingAHeaderMovesTheRowAmongItsSiblings) {
    QSignalSpy changed(&view, &TimelineView::arrangementChanged);
    ASSERT_LT(rowOf(small.stream7), rowOf(small.stream13));
    const QPoint from = headerOf(rowOf(small.stream13));
    const QPoint to = headerOf(rowOf(small.stream7)) - QPoint(0, 8);  // its upper half
    QTest::mousePress(&view, Qt::LeftButton, {}, from);
    QTest::mouseMove(&view, from - QPoint(0, 6));
    QTest::mouseMove(&view, to);
    QTest::mouseRelease(&view, Qt::LeftButton, {}, to);
    EXPECT_LT(rowOf(small.stream13), rowOf(small.stream7));
    EXPECT_EQ(changed.count(), 1);
    // A group's header drags the group: the host below the GPU goes above it.
    const int gpu = view.layout().rows()[std::size_t(rowOf(small.stream7))].groupRow;
    const int host = view.layout().rows()[std::size_t(rowOf(small.api))].groupRow;
    ASSERT_LT(gpu, host);
    QTest::mousePress(&view, Qt::LeftButton, {}, headerOf(host));
    QTest::mouseMove(&view, headerOf(host) - QPoint(0, 6));
    QTest::mouseMove(&view, headerOf(gpu));
    QTest::mouseRelease(&view, Qt::LeftButton, {}, headerOf(gpu) - QPoint(0, 4));
    EXPECT_LT(view.layout().rows()[std::size_t(rowOf(small.api))].groupRow,
              view.layout().rows()[std::size_t(rowOf(small.stream7))].groupRow);
}

TEST_F(RowsFixture, AClickOnAHeaderStillFoldsItsGroup) {
    const int gpu = view.layout().rows()[std::size_t(rowOf(small.stream7))].groupRow;
    QTest::mouseClick(&view, Qt::LeftButton, {}, headerOf(gpu));
    EXPECT_EQ(rowOf(small.stream7), -1);
}

TEST_F(RowsFixture, TheGroupTitleStaysAtTheTopWhileItsRowsScrollAndFoldsOnAClick) {
    view.resize(1240, 220);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    auto* bar = view.findChild<QScrollBar*>();
    ASSERT_NE(bar, nullptr);
    const int gpu = view.layout().rows()[std::size_t(rowOf(small.stream7))].groupRow;
    EXPECT_EQ(view.stickyGroupRow(), -1) << "nothing held while the title is in place";
    bar->setValue(view.layout().rows()[std::size_t(rowOf(small.stream13))].yPx);
    ASSERT_GT(bar->value(), 0);
    int top = 0;
    ASSERT_EQ(view.stickyGroupRow(&top), gpu);
    EXPECT_EQ(top, kRulerPx);
    // Painted over its rows, the full width.
    const QImage image = view.grab().toImage();
    EXPECT_EQ(image.pixel(view.width() - 40, kRulerPx + 4) & 0xffffff,
              Palette::kProcessBand & 0xffffff);
    // A click on it folds its group, as on the title itself.
    QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(60, kRulerPx + 8));
    EXPECT_TRUE(view.layout().rows()[std::size_t(gpu)].collapsed);
}

TEST_F(RowsFixture, ASelectedSliceIsNotLeftUnderTheGroupTitle) {
    view.resize(1240, 220);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    auto* bar = view.findChild<QScrollBar*>();
    ASSERT_NE(bar, nullptr);
    // The row's first lane at the very top, where the group's title is held over it.
    const int laneY = view.layout().rows()[std::size_t(rowOf(small.stream13))].yPx;
    bar->setValue(laneY);
    ASSERT_EQ(bar->value(), laneY);
    ASSERT_GE(view.stickyGroupRow(), 0);
    view.selectSlice({small.stream13, 0});
    EXPECT_LT(bar->value(), laneY - 12) << "the lane came out from under the title";
}

}  // namespace
}  // namespace wl::ui
