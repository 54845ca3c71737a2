#include <gtest/gtest.h>
#include <QTest>

#include "TimelineTestTraces.h"
#include "ui/timeline/OverviewStrip.h"
#include "ui/timeline/TimelineView.h"

namespace wl::ui {
namespace {

// One GPU, two streams: kernels of 100 ns every 100 ns on each (both streams busy all along)
// for the first half of a 2,000 ns trace, nothing after (the trace ends with a host range).
model::TracePtr halfBusyTrace() {
    model::TraceBuilder b;
    const auto gpu = b.gpuProcess(0, "GPU 0");
    const auto host = b.hostProcess(1, "host");
    const auto nvtx = b.nvtxTrack(host, 1);
    model::KernelDetail k;
    for (int s = 0; s < 2; ++s) {
        const auto track = b.gpuStreamTrack(gpu, 7 + s);
        for (int i = 0; i < 10; ++i)
            b.addKernel(track, i * 100, i * 100 + 100, "k", 0, k);
    }
    b.addNvtx(nvtx, 0, 2'000, "all", {});
    return b.finalize();
}

TEST(OverviewStrip, DensityIsTheShareOfGpuTimeBusy) {
    const OverviewDensity d = overviewDensity(*halfBusyTrace(), 4);
    ASSERT_TRUE(d.gpu);
    EXPECT_EQ(d.endNs, 2'000);
    ASSERT_EQ(d.values.size(), 4u);
    // Two streams of one GPU both busy: capped at the GPU's whole share.
    EXPECT_FLOAT_EQ(d.values[0], 1.0f);
    EXPECT_FLOAT_EQ(d.values[1], 1.0f);
    EXPECT_FLOAT_EQ(d.values[2], 0.0f);
    EXPECT_FLOAT_EQ(d.values[3], 0.0f);
}

TEST(OverviewStrip, ASliceAcrossBucketsFillsEachByItsShare) {
    // A 1,000 ns kernel from 250 to 1,250 between two of 10 ns at the trace's ends (times count
    // from the first event): 4 buckets of 500 ns.
    model::TraceBuilder b;
    const auto gpu = b.gpuProcess(0, "GPU 0");
    const auto track = b.gpuStreamTrack(gpu, 7);
    b.addKernel(track, 0, 10, "start", 0, model::KernelDetail{});
    b.addKernel(track, 250, 1'250, "k", 0, model::KernelDetail{});
    b.addKernel(track, 1'990, 2'000, "end", 0, model::KernelDetail{});
    const OverviewDensity d = overviewDensity(*b.finalize(), 4);
    EXPECT_EQ(d.endNs, 2'000);
    EXPECT_FLOAT_EQ(d.values[0], 0.52f);
    EXPECT_FLOAT_EQ(d.values[1], 1.0f);
    EXPECT_FLOAT_EQ(d.values[2], 0.5f);
    EXPECT_FLOAT_EQ(d.values[3], 0.02f);
}

TEST(OverviewStrip, MarksTheVisibleSpanAndAClickMovesTheTimelineThere) {
    TimelineView view;
    view.resize(1000, 400);
    view.setTrace(halfBusyTrace());
    OverviewStrip strip(&view);
    strip.resize(view.headerWidthPx() + 1000, OverviewStrip::kHeightPx);
    view.setVisibleRange(0, 200);
    QImage image(strip.size(), QImage::Format_ARGB32);
    strip.render(&image);  // paints: the density is computed for the view's trace
    const QRect span = strip.visibleSpanRect();
    EXPECT_EQ(span.left(), view.headerWidthPx());
    EXPECT_NEAR(span.width(), 100, 2);  // 200 of 2,000 ns over 1,000 px
    // A click at three quarters of the strip centres the 200 ns view on 1,500 ns.
    QTest::mouseClick(&strip, Qt::LeftButton, {}, QPoint(view.headerWidthPx() + 750, 10));
    EXPECT_EQ(view.visibleStartNs(), 1'400);
    EXPECT_EQ(view.visibleEndNs(), 1'600);
    EXPECT_NEAR(strip.visibleSpanRect().center().x(), view.headerWidthPx() + 750, 2);
    // Near the start the view stops at the trace's start rather than showing time before it.
    QTest::mouseClick(&strip, Qt::LeftButton, {}, QPoint(view.headerWidthPx() + 20, 10));
    EXPECT_EQ(view.visibleStartNs(), 0);
    EXPECT_EQ(view.visibleEndNs(), 200);
    // With the whole trace in view a click moves nothing.
    view.fitAll();
    const model::TimeNs start = view.visibleStartNs();
    const model::TimeNs end = view.visibleEndNs();
    QTest::mouseClick(&strip, Qt::LeftButton, {}, QPoint(view.headerWidthPx() + 100, 10));
    EXPECT_EQ(view.visibleStartNs(), start);
    EXPECT_EQ(view.visibleEndNs(), end);
}

}  // namespace
}  // namespace wl::ui
