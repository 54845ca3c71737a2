// The timeline keeps each row's draw list across vertical scrolls (DrawListCache): a scroll moves
// the rows' lists to where their rows now are, builds none that was built at the same time range
// and width, and paints the picture a fresh build paints there.
#include <QApplication>
#include <QImage>
#include <QWheelEvent>

#include <gtest/gtest.h>

#include "support/TraceFactory.h"
#include "ui/timeline/TimelineView.h"

namespace wl::ui {
namespace {

// Rows taller than the view several times over: 4 GPUs of 8 streams, their host threads, counters.
model::TracePtr manyRowsTrace() {
    test::SyntheticTraceSpec spec;
    spec.devices = 4;
    spec.streams = 8;
    spec.kernels = 2000;
    spec.counterSamples = 200;
    return test::makeSyntheticTrace(spec);
}

// One notch of the wheel over the rows: 3 lanes down (`down`) or up.
void wheelNotch(TimelineView& view, bool down) {
    const QPointF at(view.headerWidthPx() + 100, 100);
    QWheelEvent wheel(at, view.mapToGlobal(at), QPoint(), QPoint(0, down ? -120 : 120),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(&view, &wheel);
}

void openManyRows(TimelineView& view, const model::TracePtr& trace) {
    view.resize(1240, 400);
    view.setTrace(trace);
    view.setAllGroupsCollapsed(false);
}

// What a view that has drawn nothing before paints at this range, `notches` down: every row's
// list built there afresh.
QImage freshPicture(const model::TracePtr& trace, model::TimeNs startNs, model::TimeNs endNs,
                    int notches) {
    TimelineView fresh;
    openManyRows(fresh, trace);
    fresh.setVisibleRange(startNs, endNs);
    for (int i = 0; i < notches; ++i) {
        wheelNotch(fresh, true);
    }
    return fresh.grab().toImage();
}

TEST(TimelineDrawListCache, AVerticalScrollRebuildsNoDrawListAndPaintsTheSamePicture) {
    const model::TracePtr trace = manyRowsTrace();
    TimelineView view;
    openManyRows(view, trace);
    ASSERT_GT(view.layout().totalHeightPx(), 4 * view.height());
    const QImage top = view.grab().toImage();
    const std::uint64_t builtAtTop = view.drawListBuilds();
    ASSERT_GT(builtAtTop, 0u);

    // Down to the bottom a notch at a time: each row coming into view is built once, no more.
    const int notches = view.layout().totalHeightPx() / 60 + 1;
    for (int i = 0; i < notches; ++i) {
        wheelNotch(view, true);
        view.grab();
    }
    const std::uint64_t builtDown = view.drawListBuilds();
    EXPECT_GT(builtDown, builtAtTop);
    EXPECT_LE(builtDown, view.layout().rows().size());

    // Back up: every row has been drawn at this range and width, so nothing is built, and the
    // top looks as it did.
    int notchesThatBuilt = 0;
    for (int i = 0; i < notches; ++i) {
        const std::uint64_t before = view.drawListBuilds();
        wheelNotch(view, false);
        view.grab();
        notchesThatBuilt += view.drawListBuilds() != before ? 1 : 0;
    }
    EXPECT_EQ(notchesThatBuilt, 0);
    EXPECT_EQ(view.grab().toImage(), top);

    // Half-way down again: the kept lists, moved, paint what a view that builds them there
    // afresh paints.
    for (int i = 0; i < notches / 2; ++i) {
        wheelNotch(view, true);
    }
    const QImage halfWay = view.grab().toImage();
    const std::uint64_t builtHalfWay = view.drawListBuilds();
    EXPECT_EQ(builtHalfWay - builtDown, 0u);
    EXPECT_EQ(halfWay,
              freshPicture(trace, view.visibleStartNs(), view.visibleEndNs(), notches / 2));

    // A change of the time range builds the rows in view again (and only those), and draws what
    // a fresh build at that range draws.
    const model::TimeNs shiftNs = (view.visibleEndNs() - view.visibleStartNs()) / 3;
    view.setVisibleRange(view.visibleStartNs() + shiftNs, view.visibleEndNs() + shiftNs);
    const QImage panned = view.grab().toImage();
    EXPECT_GT(view.drawListBuilds(), builtHalfWay);
    EXPECT_LT(view.drawListBuilds() - builtHalfWay, builtDown);
    EXPECT_EQ(panned, freshPicture(trace, view.visibleStartNs(), view.visibleEndNs(), notches / 2));
}

}  // namespace
}  // namespace wl::ui
