// The timeline's rows as the user has them, without a widget (TimelineRows): folds, the
// arrangement, a new version for each layout, a hidden row shown again, a header dropped.
#include <gtest/gtest.h>

#include "TimelineTestTraces.h"
#include "ui/timeline/TimelineRows.h"

namespace wl::ui {
namespace {

using test::identities;

// A host process with an API thread and a plain thread, and GPU 0 with two streams.
model::TracePtr program() {
    model::TraceBuilder b;
    const auto host = b.hostProcess(4242, "python");
    const auto gpu = b.gpuProcess(0, "GPU 0");
    b.addApi(b.hostApiTrack(host, 100), 0, 10, "cudaLaunchKernel", 1, {});
    b.addSlice(b.hostTrack(host, 101), 0, 10, "a", model::SliceKind::Other);
    b.addKernel(b.gpuStreamTrack(gpu, 7), 20, 40, "k", 1, {});
    b.addKernel(b.gpuStreamTrack(gpu, 13), 20, 40, "k", 1, {});
    return b.finalize();
}

int rowOf(const TimelineLayout& layout, const QString& identity) {
    for (std::size_t i = 0; i < layout.rows().size(); ++i) {
        if (layout.rows()[i].identity == identity)
            return int(i);
    }
    return -1;
}

TEST(TimelineRows, FoldsAndUnfoldsAGroupAndCountsLayouts) {
    const auto trace = program();
    TimelineRows rows;
    rows.setTrace(trace.get());
    rows.rebuild({});
    const std::uint64_t first = rows.version();
    const std::size_t all = rows.layout().rows().size();
    const int gpu = rowOf(rows.layout(), QStringLiteral("gpu 0"));
    ASSERT_GE(gpu, 0);
    rows.toggleFolded(rows.layout().rows()[std::size_t(gpu)].key);
    rows.rebuild({});
    EXPECT_GT(rows.version(), first);
    EXPECT_LT(rows.layout().rows().size(), all);  // the streams are under the folded title
    // What a slice on a stream needs to be seen: its group unfolded.
    model::TrackIndex stream = 0;
    for (model::TrackIndex t = 0; t < trace->tracks().size(); ++t) {
        if (trace->track(t).kind == model::TrackKind::GpuStream)
            stream = t;
    }
    EXPECT_TRUE(rows.unfoldFor(stream, 0));
    EXPECT_FALSE(rows.unfoldFor(stream, 0));  // nothing folded any more
    rows.rebuild({});
    EXPECT_EQ(rows.layout().rows().size(), all);
    rows.setAllProcessesFolded(true);
    rows.rebuild({});
    EXPECT_EQ(identities(rows.layout()), "gpu 0|host python");
}

TEST(TimelineRows, AHiddenRowIsShownAgainWhenItsSliceIsAskedFor) {
    const auto trace = program();
    TimelineRows rows;
    rows.setTrace(trace.get());
    RowArrangement hidden;
    hidden.hide(QStringLiteral("gpu 0/Stream 13"));
    rows.setArrangement(hidden);
    rows.rebuild({});
    EXPECT_EQ(rowOf(rows.layout(), QStringLiteral("gpu 0/Stream 13")), -1);
    model::TrackIndex stream13 = 0;
    for (model::TrackIndex t = 0; t < trace->tracks().size(); ++t) {
        if (trace->track(t).streamId == 13)
            stream13 = t;
    }
    const std::optional<RowArrangement> shown = rows.arrangementShowing(stream13, {});
    ASSERT_TRUE(shown);
    EXPECT_TRUE(shown->hidden.isEmpty());
    rows.setArrangement(*shown);
    rows.rebuild({});
    EXPECT_FALSE(rows.arrangementShowing(stream13, {}));  // nothing hides it now
}

TEST(TimelineRows, AHeaderDroppedAboveItsSiblingGoesBeforeIt) {
    const auto trace = program();
    TimelineRows rows;
    rows.setTrace(trace.get());
    rows.rebuild({});
    const int s7 = rowOf(rows.layout(), QStringLiteral("gpu 0/Stream 7"));
    const int s13 = rowOf(rows.layout(), QStringLiteral("gpu 0/Stream 13"));
    ASSERT_LT(s7, s13);
    const TimelineRow& target = rows.layout().rows()[std::size_t(s7)];
    // Stream 13's header dropped on the upper half of stream 7's row: before it.
    const TimelineRows::Drop drop = rows.dropAt(s13, target.yPx + 2);
    EXPECT_EQ(drop.before, QStringLiteral("gpu 0/Stream 7"));
    EXPECT_EQ(drop.lineYPx, target.yPx);
    rows.setArrangement(rows.arrangementAfterMove(s13, target.yPx + 2));
    rows.rebuild({});
    EXPECT_LT(rowOf(rows.layout(), QStringLiteral("gpu 0/Stream 13")),
              rowOf(rows.layout(), QStringLiteral("gpu 0/Stream 7")));
}

}  // namespace
}  // namespace wl::ui
