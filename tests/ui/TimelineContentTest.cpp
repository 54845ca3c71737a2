// What the timeline shows, without a widget: a small trace's rows, the overlays' idle row, what
// is hit and told at a point, and the rows' draw lists kept across a scroll but not across a
// change of labels.
#include <QImage>
#include <QPainter>

#include <gtest/gtest.h>

#include "TimelineTestTraces.h"
#include "ui/timeline/TimelineContent.h"

namespace wl::ui {
namespace {

using timeline_geometry::kHeaderWidthPx;
using timeline_geometry::kRulerHeightPx;

constexpr int kTimeAreaWidthPx = 1000;
constexpr int kTimeAreaHeightPx = 400;

struct ContentFixture : ::testing::Test {
    void SetUp() override {
        small = test::makeSmallTrace();
        content.setTrace(small.trace);
    }
    // The trace's first 10 µs over a 1000 px time area: 10 ns a pixel.
    TimelineFrame frame(int scrollPx = 0) const {
        TimelineFrame f;
        f.sizePx = QSize(kHeaderWidthPx + kTimeAreaWidthPx, kRulerHeightPx + kTimeAreaHeightPx);
        f.timeArea = QRect(kHeaderWidthPx, kRulerHeightPx, kTimeAreaWidthPx, kTimeAreaHeightPx);
        f.map = TimeMapper(0, 10'000, kTimeAreaWidthPx);
        f.scrollPx = scrollPx;
        f.trace = content.trace().get();
        f.layout = &content.layout();
        return f;
    }
    // Widget point over time `t` on lane `depth` of a track's row.
    QPoint pointOf(model::TrackIndex track, std::uint32_t depth, model::TimeNs t) const {
        const auto y = content.layout().laneY(content.layout().rowOfTrack(track), depth);
        EXPECT_TRUE(y.has_value());
        return QPoint(kHeaderWidthPx + int(t / 10), kRulerHeightPx + y.value_or(0) + 5);
    }

    test::SmallTrace small;
    TimelineContent content{QFont()};
};

TEST_F(ContentFixture, ANewTraceIsLaidOutAndOnlyItsSlicesAreValid) {
    EXPECT_GE(content.layout().rowOfTrack(small.stream7), 0);
    EXPECT_TRUE(content.isValidRef({small.stream7, 0}));
    EXPECT_FALSE(content.isValidRef({small.stream7, 5}));  // the stream has one kernel
    EXPECT_FALSE(content.isValidRef({}));
    content.setTrace(nullptr);
    EXPECT_TRUE(content.layout().rows().empty());
    EXPECT_FALSE(content.isValidRef({small.stream7, 0}));
}

TEST_F(ContentFixture, OverlaysLayTheRowsOutAgainAndGoWithTheTrace) {
    const std::uint64_t before = content.rows().version();
    TimelineOverlays overlays;
    overlays.gaps.push_back(GapOverlay{0, -1, 6'000, 3'000, "after_blocking_call", {}});
    content.setOverlays(overlays);
    EXPECT_GT(content.rows().version(), before);
    EXPECT_GE(content.layout().rowOfDeviceGaps(0), 0);  // the device's idle row
    content.setTrace(small.trace);  // they addressed the previous trace's slices
    EXPECT_TRUE(content.overlays().overlays().gaps.empty());
    EXPECT_LT(content.layout().rowOfDeviceGaps(0), 0);
}

TEST_F(ContentFixture, HitsAndTellsTheSliceAtAPoint) {
    const QPoint kernel = pointOf(small.stream7, 0, 4'000);  // single_thread_sum: 2-6 µs
    const HitResult hit = content.hitAt(frame(), kernel);
    ASSERT_EQ(hit.kind, HitResult::Kind::Slice);
    EXPECT_EQ(hit.slice, (model::SliceRef{small.stream7, 0}));
    EXPECT_TRUE(content.toolTipAt(frame(), kernel).contains("single_thread_sum"));
    // Off the time area nothing is hit; over a header its row's title is told.
    EXPECT_EQ(content.hitAt(frame(), QPoint(10, kernel.y())).kind, HitResult::Kind::None);
    const int row = content.layout().rowOfTrack(small.stream7);
    const QString title = content.layout().rows()[std::size_t(row)].title;
    EXPECT_TRUE(content.toolTipAt(frame(), QPoint(10, kernel.y())).contains(title.toHtmlEscaped()));
    content.setTrace(nullptr);
    EXPECT_EQ(content.hitAt(frame(), kernel).kind, HitResult::Kind::None);
    EXPECT_TRUE(content.toolTipAt(frame(), kernel).isEmpty());
}

TEST_F(ContentFixture, AScrollBuildsNoDrawListAndNewLabelsRebuildThem) {
    QImage image(kHeaderWidthPx + kTimeAreaWidthPx, kRulerHeightPx + kTimeAreaHeightPx,
                 QImage::Format_RGB32);
    QPainter p(&image);
    content.paintRows(p, frame());
    const std::uint64_t built = content.drawListBuilds();
    ASSERT_GT(built, 0u);
    EXPECT_FALSE(content.drawList(frame()).empty());
    content.paintRows(p, frame(20));  // the same rows, moved
    EXPECT_EQ(content.drawListBuilds(), built);

    EXPECT_FALSE(content.setFullKernelNames(false));  // already short: nothing to redo
    content.paintRows(p, frame());
    EXPECT_EQ(content.drawListBuilds(), built);
    EXPECT_TRUE(content.setFullKernelNames(true));
    EXPECT_TRUE(content.overlays().fullKernelNames());
    content.paintRows(p, frame());
    EXPECT_GT(content.drawListBuilds(), built);
}

TEST_F(ContentFixture, ShowDependenciesSaysWhetherItChanged) {
    EXPECT_FALSE(content.showDependencies());
    EXPECT_TRUE(content.setShowDependencies(true));
    EXPECT_TRUE(content.showDependencies());
    EXPECT_FALSE(content.setShowDependencies(true));
}

}  // namespace
}  // namespace wl::ui
