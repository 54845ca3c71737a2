// The zoom, pan and fit arithmetic of a timeline view, without a widget.
#include <gtest/gtest.h>

#include "ui/timeline/TimeViewport.h"

namespace wl::ui {
namespace {

// A 1 ms trace in a 1,000 px time area: 1 us a pixel when fitted exactly.
constexpr model::TimeNs kSpanNs = 1'000'000;
constexpr int kWidthPx = 1000;

TimeViewport fitted() {
    TimeViewport v;
    v.includeTrace(kSpanNs);
    v.setRange(0, kSpanNs);
    return v;
}

TEST(TimeViewport, ZoomKeepsTheTimeUnderTheCursor) {
    TimeViewport v = fitted();
    v.zoomAt(250.0, kWidthPx, 0.5);  // the time at x = 250 px is 250 us
    EXPECT_EQ(v.durationNs(), 500'000);
    EXPECT_EQ(v.startNs(), 125'000);  // 250 us is still a quarter of the way across
    EXPECT_EQ(v.mapper(kWidthPx).nsForX(250.0), 250'000);
}

TEST(TimeViewport, ZoomStopsAtTheNarrowestAndWidestRanges) {
    TimeViewport v = fitted();
    for (int i = 0; i < 200; ++i)
        v.zoomAt(500.0, kWidthPx, 0.5);
    EXPECT_EQ(v.durationNs(), TimeViewport::kMinVisibleNs);
    for (int i = 0; i < 200; ++i)
        v.zoomAt(500.0, kWidthPx, 2.0);
    // The trace and a tenth of it on each side, never more (200 doublings would overflow).
    EXPECT_EQ(v.durationNs(), kSpanNs + 2 * (kSpanNs / 10));
    EXPECT_EQ(v.startNs(), -kSpanNs / 10);
}

TEST(TimeViewport, PanStopsPastTheEnds) {
    TimeViewport v = fitted();
    v.setRange(0, 100'000);
    v.panBy(0.5);
    EXPECT_EQ(v.startNs(), 50'000);
    for (int i = 0; i < 100; ++i)
        v.panBy(-1.0);
    EXPECT_EQ(v.startNs(), -kSpanNs / 10);
    EXPECT_EQ(v.durationNs(), 100'000);
}

TEST(TimeViewport, PanToShowKeepsTheZoomAndMovesOnlyWhenOutOfView) {
    TimeViewport v = fitted();
    v.setRange(0, 100'000);
    v.panToShow(90'000, 150'000);  // partly in view: stays
    EXPECT_EQ(v.startNs(), 0);
    v.panToShow(500'000, 520'000);  // out of view: centred, same width
    EXPECT_EQ(v.startNs(), 460'000);
    EXPECT_EQ(v.durationNs(), 100'000);
}

TEST(TimeViewport, RevealZoomsToATinyRangeAndOutToALongOne) {
    TimeViewport v = fitted();
    // 100 ns at 1 us a pixel is 0.1 px: zoomed until it is 60 px wide, centred on it.
    v.reveal(300'000, 300'100, kWidthPx, 4.0, 60.0);
    EXPECT_EQ(v.durationNs(), 1'667);
    EXPECT_EQ(v.startNs() + v.durationNs() / 2, 300'050);
    // Longer than the view: all of it and a tenth more.
    v.reveal(100'000, 700'000, kWidthPx, 4.0, 60.0);
    EXPECT_EQ(v.durationNs(), 660'000);
    // Already wholly visible at a zoom that shows it: nothing moves.
    const model::TimeNs start = v.startNs();
    v.reveal(200'000, 300'000, kWidthPx, 4.0, 60.0);
    EXPECT_EQ(v.startNs(), start);
}

TEST(TimeViewport, AnOffsetShowsTraceTimesOfTheSharedScale) {
    auto scale = std::make_shared<TimeScale>();
    TimeViewport first;
    TimeViewport second;
    first.setScale(scale);
    second.setScale(scale);
    second.setOffsetNs(400'000);  // its window starts 400 us into its trace
    first.includeTrace(kSpanNs);
    second.includeTrace(kSpanNs);
    first.setRange(0, 200'000);
    EXPECT_EQ(second.startNs(), 400'000);
    EXPECT_EQ(second.endNs(), 600'000);
    second.setRange(500'000, 600'000);
    EXPECT_EQ(first.startNs(), 100'000);
    // The limits take in both traces: the second's start is 400 us before the scale's 0.
    first.setRange(-10 * kSpanNs, 10 * kSpanNs);
    EXPECT_EQ(second.startNs(), 0 - kSpanNs * 14 / 100);
    EXPECT_EQ(first.endNs(), kSpanNs + kSpanNs * 14 / 100);
}

TEST(TimeViewport, ANullScaleGivesAScaleOfItsOwn) {
    TimeViewport v;
    v.setScale(nullptr);
    ASSERT_TRUE(v.scale());
    v.setRange(10, 10);  // empty: widened about its middle
    EXPECT_EQ(v.durationNs(), TimeViewport::kMinVisibleNs);
    EXPECT_EQ(v.startNs(), 0);
}

}  // namespace
}  // namespace wl::ui
