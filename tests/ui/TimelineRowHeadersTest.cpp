// The row headers' clicks, drags and actions without a widget: a TimelineRows laid out from a
// small trace, a frame with no scroll, and the signals the view would act on.
#include <QSignalSpy>

#include <gtest/gtest.h>

#include "TimelineTestTraces.h"
#include "ui/timeline/TimelineRowHeaders.h"

namespace wl::ui {
namespace {

using timeline_geometry::kHeaderWidthPx;
using timeline_geometry::kRulerHeightPx;

struct RowHeadersFixture : ::testing::Test {
    void SetUp() override {
        small = test::makeSmallTrace();
        rows.setTrace(small.trace.get());
        rows.rebuild({});
        headers.setTrace(small.trace.get());
        // The view lays the rows out again when asked; here the test does.
        QObject::connect(&headers, &TimelineRowHeaders::relayoutNeeded,
                         [this] { rows.rebuild({}); });
    }
    TimelineFrame frame() const {
        TimelineFrame f;
        f.timeArea = QRect(kHeaderWidthPx, kRulerHeightPx, 1000, 2000);
        f.trace = small.trace.get();
        f.layout = &rows.layout();
        return f;
    }
    int rowOf(model::TrackIndex track) const { return rows.layout().rowOfTrack(track); }
    QPoint headerOf(int row) const {
        const TimelineRow& r = rows.layout().rows()[std::size_t(row)];
        return QPoint(60, kRulerHeightPx + r.yPx + r.heightPx / 2);
    }

    test::SmallTrace small;
    TimelineRows rows;
    OverlayIndex overlays;
    TimelineRowHeaders headers{rows, overlays};
};

TEST_F(RowHeadersFixture, OnlyPressesOverTheHeadersAreTheirs) {
    EXPECT_FALSE(headers.press(QPoint(kHeaderWidthPx + 10, 100), frame()));  // the time area
    EXPECT_FALSE(headers.press(QPoint(60, 10), frame()));                    // the ruler
    EXPECT_FALSE(headers.drag(QPoint(60, 200), frame()));                    // nothing pressed
    EXPECT_EQ(headers.headerRowAt(headerOf(rowOf(small.stream7)), 0), rowOf(small.stream7));
}

TEST_F(RowHeadersFixture, AClickFoldsAGroupADragMovesARow) {
    // A click on the GPU's group title folds it.
    const int group = rows.layout().rows()[std::size_t(rowOf(small.stream7))].groupRow;
    ASSERT_GE(group, 0);
    const QPoint title = headerOf(group);
    ASSERT_TRUE(headers.press(title, frame()));
    ASSERT_TRUE(headers.release(title, frame()));
    EXPECT_EQ(rowOf(small.stream7), -1);  // folded away
    headers.setAllGroupsCollapsed(false);
    ASSERT_GE(rowOf(small.stream7), 0);

    // A drag of stream 13's header above stream 7's moves it there, with a drop line on the way.
    QSignalSpy changed(&headers, &TimelineRowHeaders::arrangementChanged);
    ASSERT_LT(rowOf(small.stream7), rowOf(small.stream13));
    const QPoint from = headerOf(rowOf(small.stream13));
    const QPoint to = headerOf(rowOf(small.stream7)) - QPoint(0, 8);
    ASSERT_TRUE(headers.press(from, frame()));
    ASSERT_TRUE(headers.drag(from - QPoint(0, 1), frame()));  // under the threshold
    EXPECT_EQ(headers.dropLineYPx(), -1);
    ASSERT_TRUE(headers.drag(to, frame()));
    EXPECT_GE(headers.dropLineYPx(), 0);
    ASSERT_TRUE(headers.release(to, frame()));
    EXPECT_EQ(headers.dropLineYPx(), -1);
    EXPECT_EQ(changed.count(), 1);
    EXPECT_LT(rowOf(small.stream13), rowOf(small.stream7));
}

TEST_F(RowHeadersFixture, HideAndUnhideARowBySignalledArrangements) {
    QSignalSpy changed(&headers, &TimelineRowHeaders::arrangementChanged);
    headers.applyRowAction(TimelineRowHeaders::RowAction::Hide, rowOf(small.stream7));
    EXPECT_EQ(rowOf(small.stream7), -1);
    ASSERT_EQ(changed.count(), 1);
    EXPECT_EQ(rows.arrangement().hidden.size(), 1);
    EXPECT_TRUE(headers.unhideRowOf(small.stream7));
    EXPECT_GE(rowOf(small.stream7), 0);
    EXPECT_FALSE(headers.unhideRowOf(small.stream7));  // nothing hidden now
    EXPECT_EQ(changed.count(), 2);

    // An arrangement applied from outside is not signalled back.
    RowArrangement pinned;
    pinned.pin(rows.layout().rows()[std::size_t(rowOf(small.api))].identity);
    headers.setArrangement(pinned);
    EXPECT_EQ(rowOf(small.api), 0);
    EXPECT_EQ(changed.count(), 2);
}

}  // namespace
}  // namespace wl::ui
