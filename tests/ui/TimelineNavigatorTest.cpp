// Where fits and reveals take the timeline, without a widget: the ranges fitted, the zoom that
// makes a thin slice visible and the one kept for a wide slice, the folds and hidings opened for
// a slice or a process, the scroll that brings a lane into view, and the relations followed.
#include <QSignalSpy>

#include <gtest/gtest.h>

#include "TimelineTestTraces.h"
#include "ui/timeline/TimelineNavigator.h"

namespace wl::ui {
namespace {

constexpr int kTimeAreaWidthPx = 1000;

struct NavigatorFixture : ::testing::Test {
    void SetUp() override {
        small = test::makeSmallTrace();
        content.setTrace(small.trace);
        kernel = {small.stream7, 0};
        d2h = {small.stream13, 1};
        memset = {small.stream13, 2};
        // The view lays the rows out again when the headers ask; here the test does.
        QObject::connect(&headers, &TimelineRowHeaders::relayoutNeeded,
                         [this] { content.relayout(); });
        headers.setTrace(small.trace.get());
    }
    model::TimeNs durationNs() const { return viewport.endNs() - viewport.startNs(); }
    bool inView(const model::Slice& slice) const {
        return slice.startNs >= viewport.startNs() && slice.endNs() <= viewport.endNs();
    }
    model::ProcessIndex gpuProcess() const { return small.trace->track(small.stream7).process; }

    test::SmallTrace small;
    TimelineContent content{QFont()};
    TimeViewport viewport;  // no trace included: no limits on the range
    TimelineRowHeaders headers{content.rows(), content.overlays()};
    int relayouts = 0;
    TimelineNavigator navigator{content, viewport, headers, [this] {
                                    content.relayout();
                                    ++relayouts;
                                }};
    // Set with the trace (2 - 6 µs, 6.5 - 8 µs, 8.2 - 8.6 µs).
    model::SliceRef kernel;
    model::SliceRef d2h;
    model::SliceRef memset;
};

TEST_F(NavigatorFixture, FitAllShowsTheWholeTraceWithOnePercentEachSide) {
    const model::TimeNs span = small.trace->spanNs();
    viewport.setRange(100, 200);
    navigator.fitAll();
    EXPECT_EQ(viewport.startNs(), -span / 100);
    EXPECT_EQ(viewport.endNs(), span + span / 100);
    content.setTrace(nullptr);  // no trace: a millisecond
    navigator.fitAll();
    EXPECT_EQ(viewport.startNs(), -10'000);
    EXPECT_EQ(viewport.endNs(), 1'010'000);
}

TEST_F(NavigatorFixture, FitSliceShowsItWithATenthEachSideOrAllWhenInvalid) {
    navigator.fitSlice(kernel);
    EXPECT_EQ(viewport.startNs(), 1'600);
    EXPECT_EQ(viewport.endNs(), 6'400);
    navigator.fitSlice({});
    EXPECT_LE(viewport.startNs(), 0);
    EXPECT_GE(viewport.endNs(), small.trace->spanNs());
}

TEST_F(NavigatorFixture, SpanOfSeveralSlicesSkipsInvalidOnesAndFitsWithATwentiethEachSide) {
    const std::optional<model::TimeRange> span =
        navigator.spanOf({kernel, model::SliceRef{small.stream7, 99}, d2h});
    ASSERT_TRUE(span.has_value());
    EXPECT_EQ(*span, (model::TimeRange{2'000, 8'000}));
    EXPECT_FALSE(navigator.spanOf({model::SliceRef{small.stream7, 99}}).has_value());
    EXPECT_FALSE(navigator.spanOf({}).has_value());
    navigator.fitSpan(*span);
    EXPECT_EQ(viewport.startNs(), 1'700);
    EXPECT_EQ(viewport.endNs(), 8'300);
}

TEST_F(NavigatorFixture, ANarrowSliceIsZoomedInToBeSeen) {
    viewport.setRange(0, 1'000'000);  // 1000 ns a pixel: the 400 ns memset is under a pixel
    navigator.revealTime(memset, kTimeAreaWidthPx);
    const model::Slice& slice = small.trace->slice(memset);
    EXPECT_TRUE(inView(slice));
    const double widthPx = double(slice.durationNs) * kTimeAreaWidthPx / double(durationNs());
    EXPECT_NEAR(widthPx, TimelineNavigator::kRevealWidthPx, 1.0);
}

TEST_F(NavigatorFixture, AWideSliceKeepsTheZoom) {
    viewport.setRange(0, 20'000);  // the kernel is 200 px wide and in view: nothing moves
    navigator.revealTime(kernel, kTimeAreaWidthPx);
    EXPECT_EQ(viewport.startNs(), 0);
    EXPECT_EQ(viewport.endNs(), 20'000);
    viewport.setRange(100'000, 120'000);  // out of view: centred at the same zoom
    navigator.revealTime(kernel, kTimeAreaWidthPx);
    EXPECT_EQ(durationNs(), 20'000);
    EXPECT_TRUE(inView(small.trace->slice(kernel)));
    EXPECT_EQ(viewport.startNs() + durationNs() / 2, 4'000);
}

TEST_F(NavigatorFixture, ASliceLongerThanTheViewIsZoomedOutToFit) {
    viewport.setRange(3'000, 4'000);
    navigator.revealTime(kernel, kTimeAreaWidthPx);
    EXPECT_TRUE(inView(small.trace->slice(kernel)));
    EXPECT_EQ(durationNs(), 4'400);
}

TEST_F(NavigatorFixture, PanToShowKeepsTheZoom) {
    viewport.setRange(0, 100);
    navigator.panToShow(memset);
    EXPECT_EQ(durationNs(), 100);
    EXPECT_EQ(viewport.startNs(), 8'350);  // the memset's middle centred
}

TEST_F(NavigatorFixture, AFoldedProcessIsOpenedAndItsTitleScrolledToTheTop) {
    content.rows().setAllProcessesFolded(true);
    content.relayout();
    ASSERT_LT(content.layout().rowOfTrack(small.stream7), 0);
    const std::optional<int> titleYPx = navigator.openProcess(gpuProcess());
    ASSERT_TRUE(titleYPx.has_value());
    EXPECT_EQ(relayouts, 1);
    EXPECT_GE(content.layout().rowOfTrack(small.stream7), 0);
    bool found = false;
    for (const TimelineRow& row : content.layout().rows()) {
        if (row.kind == RowKind::Process && row.process == gpuProcess()) {
            EXPECT_EQ(row.yPx, *titleYPx);
            found = true;
        }
    }
    EXPECT_TRUE(found);
    EXPECT_EQ(navigator.openProcess(gpuProcess()), titleYPx);  // open already: no relayout
    EXPECT_EQ(relayouts, 1);
    EXPECT_FALSE(navigator.openProcess(model::ProcessIndex(999)).has_value());
}

TEST_F(NavigatorFixture, OpeningASlicesRowsUnfoldsAndUnhidesIt) {
    content.rows().setAllProcessesFolded(true);
    content.relayout();
    navigator.openRowsOf(kernel);
    EXPECT_EQ(relayouts, 1);
    const int row = content.layout().rowOfTrack(small.stream7);
    ASSERT_GE(row, 0);

    headers.applyRowAction(TimelineRowHeaders::RowAction::Hide, row);  // the user hides it
    ASSERT_LT(content.layout().rowOfTrack(small.stream7), 0);
    QSignalSpy arranged(&headers, &TimelineRowHeaders::arrangementChanged);
    navigator.openRowsOf(kernel);
    EXPECT_GE(content.layout().rowOfTrack(small.stream7), 0);
    EXPECT_EQ(arranged.count(), 1);  // the window keeps the arrangement: it is told
}

TEST_F(NavigatorFixture, ALaneOutOfViewIsScrolledAThirdOfTheWayDown) {
    const TimelineLayout& layout = content.layout();
    const int laneYPx = *layout.laneY(layout.rowOfTrack(small.sync), 0);
    ASSERT_GT(laneYPx, TimelineLayout::kProcessHeightPx);
    // In view: no scroll.
    EXPECT_FALSE(navigator.scrollToShow({small.sync, 0}, 0, 10'000).has_value());
    // Below the view's bottom.
    const int viewHeightPx = laneYPx;
    EXPECT_EQ(navigator.scrollToShow({small.sync, 0}, 0, viewHeightPx),
              std::max(0, laneYPx - viewHeightPx / 3));
    // Scrolled so that the lane is under the band a sticky group title may cover.
    EXPECT_EQ(navigator.scrollToShow({small.sync, 0}, laneYPx - 2, 10'000), 0);
    // Above the view's top.
    EXPECT_EQ(navigator.scrollToShow({small.sync, 0}, laneYPx + 50, 300),
              std::max(0, laneYPx - 100));
    EXPECT_FALSE(navigator.scrollToShow({}, 0, 100).has_value());
}

TEST_F(NavigatorFixture, RelationsLeadAlongTheLaunchArrow) {
    const model::SliceRef call{small.api, 0};
    EXPECT_EQ(navigator.relationTarget(call, TimelineNavigator::Relation::Launch), kernel);
    EXPECT_EQ(navigator.relationTarget(kernel, TimelineNavigator::Relation::Launch), call);
    // No waits through events in this trace, and nothing from no slice.
    EXPECT_FALSE(navigator.relationTarget(kernel, TimelineNavigator::Relation::WaitedFor).valid());
    EXPECT_FALSE(navigator.relationTarget({}, TimelineNavigator::Relation::Launch).valid());
}

}  // namespace
}  // namespace wl::ui
