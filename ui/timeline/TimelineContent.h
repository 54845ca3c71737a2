#pragma once

// What a TimelineView shows, apart from how the user moves about in it: the trace, its rows as
// the user folded and arranged them, and everything built from the two for drawing and hit
// testing (the analysis overlays, the counters' scales, the lane index, the rows' draw lists).
// Each of those is rebuilt when the trace, the overlays or the rows change, and the draw lists
// are keyed on the versions bumped here; keeping them together is what keeps them in step, and a
// test can ask what is drawn or hit at a point without a widget. GUI thread only.

#include <cstdint>
#include <vector>

#include <QFont>
#include <QPoint>
#include <QString>

#include "model/Slice.h"
#include "model/Trace.h"
#include "ui/timeline/CounterSummary.h"
#include "ui/timeline/DrawList.h"
#include "ui/timeline/DrawListCache.h"
#include "ui/timeline/HitTester.h"
#include "ui/timeline/LaneIndex.h"
#include "ui/timeline/OverlayIndex.h"
#include "ui/timeline/Overlays.h"
#include "ui/timeline/TimelineGeometry.h"
#include "ui/timeline/TimelinePainter.h"
#include "ui/timeline/TimelineRows.h"

class QPainter;

namespace wl::ui {

class TimelineContent {
public:
    // `labelFont` writes the slices' names into their rectangles.
    explicit TimelineContent(const QFont& labelFont);

    // A new trace (null: none): its rows folded as it opens and laid out, the overlays cleared
    // (they address the previous trace's slices) and the indexes built.
    void setTrace(model::TracePtr trace);
    const model::TracePtr& trace() const { return m_trace; }
    // A slice of this trace (false for an invalid ref or one of another trace).
    bool isValidRef(model::SliceRef ref) const;

    // The analysis' gaps and badges; the rows are laid out again (devices with gaps get an idle
    // row).
    void setOverlays(TimelineOverlays overlays);
    const OverlayIndex& overlays() const { return m_overlays; }
    const CounterSummary& counters() const { return m_counters; }
    // View > Full Kernel Names; false when it was already so.
    bool setFullKernelNames(bool full);
    // View > Dependencies: every wait through a CUDA event in view gets its arrow (the selected
    // op's own are drawn either way); false when it was already so.
    bool setShowDependencies(bool show);
    bool showDependencies() const { return m_showDependencies; }

    // The rows (folds, arrangement, layout). After changing their folds or arrangement, lay them
    // out again with relayout().
    TimelineRows& rows() { return m_rows; }
    const TimelineRows& rows() const { return m_rows; }
    const TimelineLayout& layout() const { return m_rows.layout(); }
    void relayout();

    // What lies under a widget point of `frame`'s time area (None off it or without a trace).
    HitResult hitAt(const TimelineFrame& frame, QPoint widgetPos) const;
    // The tooltip for a widget point over a row header or the time area (empty: nothing there).
    QString toolTipAt(const TimelineFrame& frame, QPoint widgetPos) const;

    // The visible rows' draw lists of `frame` joined in time-area coordinates (tests, exports).
    DrawList drawList(const TimelineFrame& frame) const;
    // Paints each visible row's list where its row is now, the painter translated to the time
    // area's top left: a vertical scroll moves the kept lists and builds none.
    void paintRows(QPainter& p, const TimelineFrame& frame) const;
    // Rows' draw lists built so far (DrawListCache).
    std::uint64_t drawListBuilds() const { return m_drawLists.buildCount(); }

private:
    // The cache set to `frame`'s inputs: what its lists are drawn from, and the key that says
    // when they are stale.
    DrawListCache& drawListsFor(const TimelineFrame& frame) const;

    model::TracePtr m_trace;
    TimelineRows m_rows;
    OverlayIndex m_overlays;
    CounterSummary m_counters;
    LaneIndex m_lanes;
    std::uint64_t m_overlayVersion = 0;  // bumped with the overlays: part of the draw lists' key
    bool m_showDependencies = false;

    QFont m_labelFont;
    mutable DrawListCache m_drawLists;  // a cache: filled while painting
    TimelinePainter m_rowPainter;
};

}  // namespace wl::ui
