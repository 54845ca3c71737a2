// The timeline's press/drag/select state machine without a widget: synthetic points over a frame
// of a 1000 px time area showing 10 ns a pixel.
#include <QSignalSpy>

#include <gtest/gtest.h>

#include <cmath>

#include "TimelineTestTraces.h"
#include "ui/timeline/TimelineInputHandler.h"

namespace wl::ui {
namespace {

using timeline_geometry::kDragThresholdPx;
using timeline_geometry::kHeaderWidthPx;
using timeline_geometry::kRulerHeightPx;

struct InputFixture : ::testing::Test {
    void SetUp() override {
        small = test::makeSmallTrace();
        viewport.includeTrace(small.trace->spanNs());
        viewport.setRange(0, 10'000);
    }
    TimelineFrame frame() const {
        TimelineFrame f;
        f.sizePx = QSize(kHeaderWidthPx + 1000, 600);
        f.timeArea = QRect(kHeaderWidthPx, kRulerHeightPx, 1000, 500);
        f.map = viewport.mapper(1000);
        f.scrollPx = scrollPx;
        f.trace = small.trace.get();
        return f;
    }
    int xOf(model::TimeNs t) const { return kHeaderWidthPx + int(t / 10); }

    test::SmallTrace small;
    TimeViewport viewport;
    TimelineSelection selection;
    int scrollPx = 0;
    TimelineInputHandler input{viewport, selection};
};

TEST_F(InputFixture, AMoveUnderTheDragThresholdIsStillAClick) {
    QSignalSpy clicked(&input, &TimelineInputHandler::clicked);
    const QPoint at(xOf(5'000), 200);
    input.press(at, {}, frame());
    input.move(at + QPoint(kDragThresholdPx - 1, 0), frame());
    EXPECT_FALSE(input.dragging());
    EXPECT_EQ(viewport.startNs(), 0);  // not panned
    EXPECT_TRUE(input.release(at + QPoint(kDragThresholdPx - 1, 0), {}, frame()));
    EXPECT_EQ(clicked.count(), 1);
    EXPECT_FALSE(input.release(at, {}, frame()));  // no press in progress
}

TEST_F(InputFixture, ADragPansTimeWithThePointerAndScrollsTheRows) {
    QSignalSpy scrolled(&input, &TimelineInputHandler::scrollRequested);
    QSignalSpy clicked(&input, &TimelineInputHandler::clicked);
    scrollPx = 40;
    const QPoint at(xOf(5'000), 200);
    input.press(at, {}, frame());
    input.move(at + QPoint(-100, -10), frame());  // 100 px left: 1,000 ns later
    EXPECT_TRUE(input.dragging());
    EXPECT_EQ(viewport.startNs(), 1'000);
    EXPECT_EQ(viewport.endNs(), 11'000);
    ASSERT_GE(scrolled.count(), 1);
    EXPECT_EQ(scrolled.last().at(0).toInt(), 50);  // dragged up 10 px from 40
    input.release(at + QPoint(-100, -10), {}, frame());
    EXPECT_EQ(clicked.count(), 0);  // a drag selects nothing
    EXPECT_FALSE(input.dragging());
}

TEST_F(InputFixture, ADragOnTheRulerSelectsATimeRange) {
    QSignalSpy selected(&input, &TimelineInputHandler::timeRangeSelected);
    input.press(QPoint(xOf(6'000), 10), {}, frame());
    input.move(QPoint(xOf(2'000), 12), frame());
    ASSERT_TRUE(selection.time.has_value());
    EXPECT_EQ(selection.time->startNs, 2'000);
    EXPECT_EQ(selection.time->endNs, 6'000);
    EXPECT_EQ(viewport.startNs(), 0);  // selecting does not pan
    input.release(QPoint(xOf(2'000), 12), {}, frame());
    ASSERT_EQ(selected.count(), 1);
    EXPECT_EQ(selected.last().at(0).value<model::TimeNs>(), 2'000);
    EXPECT_EQ(selected.last().at(1).value<model::TimeNs>(), 6'000);

    // A click on the ruler clears it; with Ctrl it asks for a flag instead.
    QSignalSpy cleared(&input, &TimelineInputHandler::timeSelectionCleared);
    QSignalSpy flag(&input, &TimelineInputHandler::flagDropRequested);
    input.press(QPoint(xOf(3'000), 10), Qt::ControlModifier, frame());
    input.release(QPoint(xOf(3'000), 10), Qt::ControlModifier, frame());
    ASSERT_EQ(flag.count(), 1);
    EXPECT_EQ(flag.last().at(0).value<model::TimeNs>(), 3'000);
    EXPECT_TRUE(selection.time.has_value());
    input.press(QPoint(xOf(3'000), 10), {}, frame());
    input.release(QPoint(xOf(3'000), 10), {}, frame());
    EXPECT_EQ(cleared.count(), 1);
    EXPECT_FALSE(selection.time.has_value());
}

TEST_F(InputFixture, ZoomKeysAnchorAtThePointerAndTheWheelScrollsRows) {
    input.setPointer(QPoint(xOf(2'500), 200));
    ASSERT_TRUE(input.handleZoomPanKey(Qt::Key_W, frame()));
    EXPECT_EQ(viewport.durationNs(), 8'000);
    EXPECT_EQ(viewport.mapper(1000).nsForX(250.0), 2'500);  // still under the pointer
    EXPECT_FALSE(input.handleZoomPanKey(Qt::Key_Q, frame()));
    EXPECT_EQ(input.pointerTimeNs(frame()), std::optional<model::TimeNs>(2'500));
    input.leave();
    EXPECT_EQ(input.pointerTimeNs(frame()), std::nullopt);

    QSignalSpy scrolled(&input, &TimelineInputHandler::scrollRequested);
    scrollPx = 100;
    input.wheel(QPoint(0, -120), {}, xOf(1'000), frame());  // one notch down
    ASSERT_EQ(scrolled.count(), 1);
    EXPECT_EQ(scrolled.last().at(0).toInt(), 100 + 3 * TimelineLayout::kLaneHeightPx);
}

// A held W (auto-repeats) zooms faster and faster; separate presses keep their steady step.
TEST_F(InputFixture, AHeldZoomKeyAccelerates) {
    input.setPointer(QPoint(xOf(2'500), 200));
    const model::TimeNs full = viewport.durationNs();
    for (int i = 0; i < 3; ++i)
        ASSERT_TRUE(input.handleZoomPanKey(Qt::Key_W, frame(), false));
    EXPECT_NEAR(double(viewport.durationNs()), full * 0.8 * 0.8 * 0.8, 2.0);
    viewport.fit(0, 10'000, 0);
    // Held: the first press, then 9 repeats: 1, 1.25, 1.5, ... 3.25 steps, 21.25 in all, more
    // than twice what 10 presses make.
    double steps = 0.0;
    for (int i = 0; i < 10; ++i) {
        ASSERT_TRUE(input.handleZoomPanKey(Qt::Key_W, frame(), i > 0));
        steps += std::min(1.0 + i / 4.0, double(TimelineInputHandler::kMaxKeySteps));
    }
    EXPECT_DOUBLE_EQ(steps, 21.25);
    EXPECT_NEAR(double(viewport.durationNs()), 10'000 * std::pow(0.8, steps), 2.0);
    // Another key starts again at one step.
    const model::TimeNs before = viewport.durationNs();
    input.handleZoomPanKey(Qt::Key_S, frame(), true);
    EXPECT_NEAR(double(viewport.durationNs()), before / 0.8, 2.0);
}

}  // namespace
}  // namespace wl::ui
