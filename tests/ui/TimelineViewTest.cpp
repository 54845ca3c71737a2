// The timeline widget: rows, keys, mouse, selection, fitting, shared time scale and pixels.
#include <QImage>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>

#include <gtest/gtest.h>

#include "TimelineTestTraces.h"
#include "support/TraceFactory.h"
#include "ui/common/TrackTitles.h"
#include "ui/style/Palette.h"
#include "ui/timeline/TimelineView.h"

namespace wl::ui {
namespace {

constexpr int kRulerPx = 30;  // the view's ruler height (top of the rows)

struct ViewFixture : ::testing::Test {
    void SetUp() override {
        small = test::makeSmallTrace();
        view.resize(1240, 600);  // a 1000 px time area next to the 240 px headers
        view.setTrace(small.trace);
    }
    int timeAreaWidth() const { return view.width() - view.headerWidthPx(); }
    // Widget position of the middle of time `t` on lane `depth` of a track's row.
    QPoint pointOf(model::TrackIndex track, std::uint32_t depth, model::TimeNs t) const {
        const TimelineLayout& layout = view.layout();
        const auto y = layout.laneY(layout.rowOfTrack(track), depth);
        EXPECT_TRUE(y.has_value());
        const double x = double(t - view.visibleStartNs()) /
                         double(view.visibleEndNs() - view.visibleStartNs()) * timeAreaWidth();
        return QPoint(view.headerWidthPx() + int(x), kRulerPx + y.value_or(0) + 10);
    }

    test::SmallTrace small;
    TimelineView view;
};

TEST_F(ViewFixture, BuildsRowsInDisplayOrder) {
    const auto& rows = view.layout().rows();
    std::vector<QString> titles;
    for (const TimelineRow& r : rows) {
        titles.push_back(r.title);
    }
    const auto title = [&](model::TrackIndex t) {
        return trackTitle(*small.trace, small.trace->track(t));
    };
    // The GPU first (its rows in view however many host threads a trace has), as Nsight
    // Systems puts a process's CUDA hardware rows above its threads.
    const std::vector<QString> expected = {"GPU 0: Test GPU",
                                           title(small.stream7),
                                           title(small.stream13),
                                           title(small.sync),
                                           "NVTX on the GPU (thread 4243)",
                                           "warp occupancy %",
                                           "Launch queue",
                                           "python (pid 4242)",
                                           title(small.api),
                                           title(small.nvtx)};
    EXPECT_TRUE(title(small.stream7).contains("7"));
    EXPECT_EQ(titles, expected);
    EXPECT_EQ(rows[0].kind, RowKind::Process);
    // Made from the launches: the NVTX ranges' GPU extent and the launch queue.
    EXPECT_EQ(rows[4].kind, RowKind::Track);
    EXPECT_EQ(rows[5].kind, RowKind::Counter);
    EXPECT_EQ(rows[6].kind, RowKind::Counter);
    EXPECT_EQ(rows[9].lanesShown, 2u);  // outer and inner NVTX ranges
    for (std::size_t i = 1; i < rows.size(); ++i) {
        EXPECT_EQ(rows[i].yPx, rows[i - 1].yPx + rows[i - 1].heightPx);
    }
}

TEST_F(ViewFixture, HeaderClickCollapsesAndExpands) {
    const int nvtxRow = view.layout().rowOfTrack(small.nvtx);
    const int y = kRulerPx + view.layout().rows()[nvtxRow].yPx + 5;
    QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(40, y));
    EXPECT_TRUE(view.layout().rows()[nvtxRow].collapsed);
    EXPECT_EQ(view.layout().rows()[nvtxRow].lanesShown, 1u);
    QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(40, y));
    EXPECT_EQ(view.layout().rows()[nvtxRow].lanesShown, 2u);
    // Collapsing the GPU hides its streams.
    const std::size_t before = view.layout().rows().size();
    const int gpuRow = view.layout().rowOfTrack(small.stream7) - 1;
    ASSERT_EQ(view.layout().rows()[gpuRow].kind, RowKind::Process);
    QTest::mouseClick(&view, Qt::LeftButton, {},
                      QPoint(40, kRulerPx + view.layout().rows()[gpuRow].yPx + 5));
    EXPECT_EQ(view.layout().rows().size(), before - 6);  // streams, sync, projection, counters
    EXPECT_EQ(view.layout().rowOfTrack(small.stream7), -1);
    // Selecting a slice in a collapsed group opens it again.
    view.selectSlice({small.stream7, 0});
    EXPECT_GE(view.layout().rowOfTrack(small.stream7), 0);
}

TEST_F(ViewFixture, FitAllShowsTheWholeTrace) {
    EXPECT_LE(view.visibleStartNs(), 0);
    EXPECT_GE(view.visibleEndNs(), small.trace->spanNs());
    EXPECT_LT(view.visibleEndNs() - view.visibleStartNs(), small.trace->spanNs() * 11 / 10);
    view.setVisibleRange(100, 200);
    QTest::keyClick(&view, Qt::Key_0);
    EXPECT_LE(view.visibleStartNs(), 0);
    EXPECT_GE(view.visibleEndNs(), small.trace->spanNs());
}

TEST_F(ViewFixture, KeysZoomAndPan) {
    view.setVisibleRange(0, 10'000);
    QSignalSpy spy(&view, &TimelineView::visibleRangeChanged);
    // Without the pointer over the view, W/S zoom at the centre.
    QTest::keyClick(&view, Qt::Key_W);
    EXPECT_EQ(view.visibleEndNs() - view.visibleStartNs(), 8'000);
    EXPECT_EQ(view.visibleStartNs(), 1'000);
    QTest::keyClick(&view, Qt::Key_S);
    EXPECT_EQ(view.visibleStartNs(), 0);
    EXPECT_EQ(view.visibleEndNs(), 10'000);
    QTest::keyClick(&view, Qt::Key_D);
    EXPECT_EQ(view.visibleStartNs(), 1'000);
    EXPECT_EQ(view.visibleEndNs(), 11'000);
    QTest::keyClick(&view, Qt::Key_A);
    QTest::keyClick(&view, Qt::Key_A);
    EXPECT_EQ(view.visibleStartNs(), -1'000);
    EXPECT_EQ(spy.count(), 5);
    EXPECT_EQ(spy.last().at(0).value<model::TimeNs>(), -1'000);
}

TEST_F(ViewFixture, SelectingASliceOutOfViewBringsItIntoTheVisibleTime) {
    // The last slice of the trace, with the view zoomed in on its start.
    model::SliceRef last;
    model::TimeNs lastStart = -1;
    for (std::uint32_t t = 0; t < small.trace->tracks().size(); ++t) {
        const auto& slices = small.trace->tracks()[t].slices;
        for (std::uint32_t i = 0; i < slices.size(); ++i) {
            if (slices[i].startNs > lastStart) {
                lastStart = slices[i].startNs;
                last = {t, i};
            }
        }
    }
    ASSERT_GT(lastStart, 100);
    view.setVisibleRange(0, 100);
    view.selectSlice(last);
    const model::Slice& slice = small.trace->slice(last);
    EXPECT_LE(view.visibleStartNs(), slice.endNs());  // some of it is in view: its middle
    EXPECT_GE(view.visibleEndNs(), slice.startNs);
    EXPECT_EQ(view.visibleEndNs() - view.visibleStartNs(), 100);  // the zoom is kept
}

TEST_F(ViewFixture, ZoomOutAndPanStopNearTheTrace) {
    // Hundreds of zoom-outs once overflowed the 64-bit range; panning went on for ever.
    const model::TimeNs span = small.trace->spanNs();
    const model::TimeNs slack = std::max<model::TimeNs>(span / 10, 1000);
    for (int i = 0; i < 300; ++i) {
        QTest::keyClick(&view, Qt::Key_S);
    }
    EXPECT_GE(view.visibleStartNs(), -slack);
    EXPECT_LE(view.visibleEndNs(), span + slack);
    EXPECT_GE(view.visibleEndNs(), span);  // the whole trace is in view
    for (int i = 0; i < 3; ++i) {
        QTest::keyClick(&view, Qt::Key_W);
    }
    for (int i = 0; i < 300; ++i) {
        QTest::keyClick(&view, Qt::Key_A);
    }
    EXPECT_EQ(view.visibleStartNs(), -slack);
    for (int i = 0; i < 300; ++i) {
        QTest::keyClick(&view, Qt::Key_D);
    }
    EXPECT_EQ(view.visibleEndNs(), span + slack);
}

TEST_F(ViewFixture, ZoomKeepsTheTimeUnderTheCursor) {
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    view.setVisibleRange(0, 10'000);
    // Pointer at 25% of the time area (t = 2,500 ns).
    const QPoint at(view.headerWidthPx() + timeAreaWidth() / 4, 100);
    QTest::mouseMove(&view, at);
    QTest::keyClick(&view, Qt::Key_W);
    const double t =
        view.visibleStartNs() + 0.25 * double(view.visibleEndNs() - view.visibleStartNs());
    EXPECT_NEAR(t, 2'500, 2);
    EXPECT_EQ(view.visibleEndNs() - view.visibleStartNs(), 8'000);
}

TEST_F(ViewFixture, CtrlWheelZoomsAndWheelScrollsRows) {
    view.setVisibleRange(0, 10'000);
    const QPointF pos(view.headerWidthPx() + timeAreaWidth() / 2.0, 100);
    QWheelEvent zoomIn(pos, view.mapToGlobal(pos), QPoint(), QPoint(0, 120), Qt::NoButton,
                       Qt::ControlModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(&view, &zoomIn);
    EXPECT_EQ(view.visibleEndNs() - view.visibleStartNs(), 8'000);
    const model::TimeNs start = view.visibleStartNs();
    QWheelEvent scroll(pos, view.mapToGlobal(pos), QPoint(), QPoint(0, -120), Qt::NoButton,
                       Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(&view, &scroll);
    EXPECT_EQ(view.visibleStartNs(), start);  // plain wheel leaves time alone
}

TEST_F(ViewFixture, ClickSelectsASliceAndEmptySpaceClears) {
    QSignalSpy spy(&view, &TimelineView::sliceSelected);
    QTest::mouseClick(&view, Qt::LeftButton, {}, pointOf(small.stream7, 0, 4'000));
    ASSERT_EQ(spy.count(), 1);
    const auto ref = spy.at(0).at(0).value<model::SliceRef>();
    EXPECT_EQ(ref, (model::SliceRef{small.stream7, 0}));
    EXPECT_EQ(view.selectedSlice(), ref);
    // F fits the selected kernel (2,000..6,000 ns) with a margin.
    QTest::keyClick(&view, Qt::Key_F);
    EXPECT_LT(view.visibleStartNs(), 2'000);
    EXPECT_GT(view.visibleStartNs(), 1'000);
    EXPECT_GT(view.visibleEndNs(), 6'000);
    EXPECT_LT(view.visibleEndNs(), 7'000);
    // Nothing on stream 7 at 1,000 ns.
    view.fitAll();
    QTest::mouseClick(&view, Qt::LeftButton, {}, pointOf(small.stream7, 0, 9'500));
    ASSERT_EQ(spy.count(), 2);
    EXPECT_FALSE(spy.at(1).at(0).value<model::SliceRef>().valid());
}

TEST_F(ViewFixture, DragPans) {
    view.setVisibleRange(0, 10'000);
    const QPoint from(view.headerWidthPx() + 500, 200);
    QTest::mousePress(&view, Qt::LeftButton, {}, from);
    QMouseEvent move(QEvent::MouseMove, QPointF(from + QPoint(100, 0)),
                     view.mapToGlobal(QPointF(from + QPoint(100, 0))), Qt::NoButton, Qt::LeftButton,
                     Qt::NoModifier);
    QApplication::sendEvent(&view, &move);
    QTest::mouseRelease(&view, Qt::LeftButton, {}, from + QPoint(100, 0));
    // 100 px of a 1000 px area showing 10 us: 1 us earlier.
    EXPECT_EQ(view.visibleStartNs(), -1'000);
    EXPECT_FALSE(view.selectedSlice().valid());  // a drag is not a click
}

TEST_F(ViewFixture, ZoomToSlicesSelectsTheFirstAndFitsAll) {
    QSignalSpy spy(&view, &TimelineView::sliceSelected);
    const model::SliceRef kernel{small.stream7, 0};
    const model::SliceRef d2h{small.stream13, 1};
    view.zoomToSlices({kernel, d2h});
    EXPECT_EQ(view.selectedSlice(), kernel);
    EXPECT_EQ(spy.count(), 1);
    EXPECT_LE(view.visibleStartNs(), 2'000);
    EXPECT_GE(view.visibleEndNs(), 8'000);
    EXPECT_LT(view.visibleEndNs() - view.visibleStartNs(), 7'000);
}

TEST_F(ViewFixture, SelectSliceScrollsItIntoView) {
    // A trace taller than the view: the last stream must scroll into view when selected.
    wl::test::SyntheticTraceSpec spec;
    spec.streams = 40;
    spec.kernels = 400;
    const auto trace = wl::test::makeSyntheticTrace(spec);
    view.resize(900, 300);
    view.setTrace(trace);
    model::TrackIndex last = 0;
    int lastRow = -1;
    for (std::size_t t = 0; t < trace->tracks().size(); ++t) {
        const int row = view.layout().rowOfTrack(model::TrackIndex(t));
        if (row > lastRow && !trace->tracks()[t].slices.empty()) {
            lastRow = row;
            last = model::TrackIndex(t);
        }
    }
    ASSERT_GT(view.layout().rows()[lastRow].yPx, 300);
    view.selectSlice({last, 0});
    const QImage image = view.grab().toImage();
    // The selection outline (yellow) is somewhere on screen now.
    bool seen = false;
    for (int y = 0; y < image.height() && !seen; ++y) {
        for (int x = view.headerWidthPx(); x < image.width() && !seen; ++x) {
            seen = image.pixel(x, y) == Palette::kSelection;
        }
    }
    EXPECT_TRUE(seen);
}

TEST_F(ViewFixture, SharedTimeScaleMovesBothViews) {
    TimelineView other;
    other.resize(1240, 600);
    other.setTrace(small.trace);
    auto scale = std::make_shared<TimeScale>();
    view.setTimeScale(scale);
    other.setTimeScale(scale);
    view.setVisibleRange(1'000, 3'000);
    EXPECT_EQ(other.visibleStartNs(), 1'000);
    EXPECT_EQ(other.visibleEndNs(), 3'000);
    QTest::keyClick(&other, Qt::Key_D);
    EXPECT_EQ(view.visibleStartNs(), 1'200);
}

TEST_F(ViewFixture, PixelProbeFindsKernelCopiesAndArrow) {
    view.setVisibleRange(0, 10'000);
    const QImage before = view.grab().toImage();
    // Kernel 2,000..6,000 ns on stream 7; probe near its right end, away from the label.
    const QPoint k = pointOf(small.stream7, 0, 5'500);
    EXPECT_EQ(before.pixel(k),
              Palette::sliceColor(*small.trace, small.trace->slice({small.stream7, 0})));
    EXPECT_EQ(before.pixel(pointOf(small.stream13, 0, 1'700)), Palette::kCopyHtoD);
    EXPECT_EQ(before.pixel(pointOf(small.stream13, 0, 7'900)), Palette::kCopyDtoH);
    EXPECT_EQ(before.pixel(pointOf(small.stream13, 0, 8'500)), Palette::kMemset);
    EXPECT_EQ(before.pixel(pointOf(small.sync, 0, 8'900)), Palette::kSync);
    // Nothing on stream 7 at 9,000 ns: row background.
    EXPECT_NE(before.pixel(pointOf(small.stream7, 0, 9'000)), before.pixel(k));

    // Selecting the kernel draws the launch arrow from cudaLaunchKernel.
    ASSERT_NE(small.trace->flowTo({small.stream7, 0}), nullptr);
    view.selectSlice({small.stream7, 0});
    const QImage after = view.grab().toImage();
    int arrowPixels = 0;
    for (int y = 0; y < after.height(); ++y) {
        for (int x = view.headerWidthPx(); x < after.width(); ++x) {
            arrowPixels += after.pixel(x, y) == Palette::kFlowArrow;
        }
    }
    EXPECT_GT(arrowPixels, 5);
}

TEST_F(ViewFixture, SetTraceNullClears) {
    view.selectSlice({small.stream7, 0});
    QSignalSpy spy(&view, &TimelineView::sliceSelected);
    view.setTrace(nullptr);
    EXPECT_EQ(view.trace(), nullptr);
    EXPECT_TRUE(view.layout().rows().empty());
    EXPECT_EQ(spy.count(), 1);
    EXPECT_FALSE(view.selectedSlice().valid());
    const QImage image = view.grab().toImage();  // paints without a trace
    EXPECT_FALSE(image.isNull());
}

TEST_F(ViewFixture, GapOverlaysAddAnIdleRow) {
    TimelineOverlays overlays;
    overlays.gaps.push_back(GapOverlay{0, -1, 6'000, 3'000, "after_blocking_call", {}});
    view.setOverlays(overlays);
    const int row = view.layout().rowOfDeviceGaps(0);
    ASSERT_GE(row, 0);
    EXPECT_EQ(view.layout().rows()[row].title, QStringLiteral("Idle gaps"));
    EXPECT_EQ(view.overlays().gaps.size(), 1u);
    view.setVisibleRange(0, 10'000);
    const QImage image = view.grab().toImage();
    // The hatch's colour appears on the idle row inside the gap.
    const int y = kRulerPx + view.layout().rows()[row].yPx;
    int hatch = 0;
    for (int dy = 0; dy < view.layout().rows()[row].heightPx; ++dy) {
        for (int x = view.headerWidthPx() + 610; x < view.headerWidthPx() + 890; ++x) {
            hatch += image.pixel(x, y + dy) == Palette::kGapAfterBlocking;
        }
    }
    EXPECT_GT(hatch, 20);
}

}  // namespace
}  // namespace wl::ui

namespace wl::ui {
namespace {

TEST_F(ViewFixture, TimeCursorFollowsThePointer) {
    view.setVisibleRange(0, 10'000);
    const QPoint at(view.headerWidthPx() + 300, 200);
    QMouseEvent move(QEvent::MouseMove, QPointF(at), view.mapToGlobal(QPointF(at)), Qt::NoButton,
                     Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(&view, &move);
    const QImage image = view.grab().toImage();
    // The readout box sits in the ruler just right of the pointer.
    EXPECT_EQ(image.pixel(at.x() + 5, 5), qRgb(0x30, 0x3a, 0x46));
    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(&view, &leave);
    EXPECT_NE(view.grab().toImage().pixel(at.x() + 5, 5), qRgb(0x30, 0x3a, 0x46));
}

int pixelsOf(const QImage& image, QRgb colour) {
    int n = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x)
            n += image.pixel(x, y) == colour;
    }
    return n;
}

TEST(TimelineDependencies, ArrowsShowWaitsThroughEventsAndTheToggleHidesThem) {
    const auto trace = wl::test::makeEventWaitTrace();
    ASSERT_EQ(trace->dependencies().size(), 1u);
    TimelineView view;
    view.resize(1240, 600);
    view.setTrace(trace);
    // Off until asked for (View > Dependencies): every wait in view buried busy traces' rows.
    EXPECT_FALSE(view.showDependencies());
    EXPECT_EQ(pixelsOf(view.grab().toImage(), Palette::kDependencyArrow), 0);
    view.setShowDependencies(true);
    EXPECT_GT(pixelsOf(view.grab().toImage(), Palette::kDependencyArrow), 10);

    view.setShowDependencies(false);
    EXPECT_EQ(pixelsOf(view.grab().toImage(), Palette::kDependencyArrow), 0);
    // The selected op's own wait is drawn even so.
    const auto& stream9 = trace->track(trace->dependencies()[0].to.track);
    ASSERT_EQ(stream9.streamId, 9);
    view.selectSlice(trace->dependencies()[0].to);
    EXPECT_GT(pixelsOf(view.grab().toImage(), Palette::kDependencyArrow), 10);
}

}  // namespace
}  // namespace wl::ui
