#pragma once

#include <QCoreApplication>
#include <QFont>
#include <QFontMetrics>
#include <QPoint>
#include <QRect>
#include <QRectF>
#include <optional>
#include <vector>

#include "model/Slice.h"
#include "ui/timeline/CounterSummary.h"
#include "ui/timeline/RulerTicks.h"
#include "ui/timeline/TimeFormat.h"
#include "ui/timeline/TimelineGeometry.h"
#include "ui/timeline/TimelineSelection.h"

class QPainter;

namespace wl::ui {

// Paints a frame of the timeline around and over the rows' draw lists (which TimelinePainter
// paints): the row backgrounds and grid, the row headers with the sticky group title, pinned band
// and drop line, the ruler, the legend, the search matches, the selected slice with its arrows,
// the dependency arrows, the time selection and analysis window, and the time cursor. Reads a
// TimelineFrame, the selection and the counters' scales and changes nothing, so a test can paint
// into an image without a widget. TimelineView::paintEvent says in which order the layers go.
class TimelineFramePainter {
    Q_DECLARE_TR_FUNCTIONS(TimelineFramePainter)
public:
    TimelineFramePainter(const TimelineSelection& selection, const CounterSummary& counters);

    // Under the rows: the alternating stripes and group bands, and faint lines at the ticks.
    void paintRowBackgrounds(QPainter& p, const TimelineFrame& frame,
                             const RulerTicks& ticks) const;
    // Rectangles of the search matches in view, in time-area px (at most one per pixel).
    std::vector<QRect> searchMatchRects(const TimelineFrame& frame) const;
    // Over the rows' lists, with the painter translated to the time area's top left: the search
    // matches, the dependency arrows (all in view with `allDependencies`, else the selected op's
    // own) and the selected slice with its launch arrow.
    void paintOverRows(QPainter& p, const TimelineFrame& frame, bool allDependencies) const;
    void paintHeaders(QPainter& p, const TimelineFrame& frame) const;
    // The pinned band's line, the sticky group title (`stickyRow` at widget y `stickyTopPx`, -1:
    // none) and a dragged header's drop line (content y, -1: none).
    void paintRowArrangement(QPainter& p, const TimelineFrame& frame, int stickyRow,
                             int stickyTopPx, int dropLineYPx) const;
    void paintRuler(QPainter& p, const TimelineFrame& frame, const RulerTicks& ticks,
                    const RulerOrigin& origin) const;
    // The analysis window along the ruler's foot and the time selection over the rows.
    void paintTimeRanges(QPainter& p, const TimelineFrame& frame) const;
    // A line at the pointer (widget px) and its time on the ruler, when over the time area.
    void paintTimeCursor(QPainter& p, const TimelineFrame& frame, QPoint pointerPx) const;
    void paintLegend(QPainter& p, const TimelineFrame& frame) const;
    void paintNoTrace(QPainter& p, const TimelineFrame& frame) const;

private:
    // The header fonts of one paint: built once per paint, not once per row.
    struct HeaderFonts {
        QFont normal;
        QFont bold;
        QFontMetrics normalMetrics;
        QFontMetrics boldMetrics;
    };
    static HeaderFonts headerFonts(const QFont& font);
    void paintRowHeader(QPainter& p, const TimelineFrame& frame, const TimelineRow& row, int y,
                        const HeaderFonts& fonts) const;
    // Where a slice is drawn, in time-area px (nullopt when its lane is hidden).
    static std::optional<QRectF> sliceRect(const TimelineFrame& frame, model::SliceRef ref);
    void paintDependencies(QPainter& p, const TimelineFrame& frame, bool all) const;
    void paintSelection(QPainter& p, const TimelineFrame& frame) const;

    const TimelineSelection& m_selection;
    const CounterSummary& m_counters;
};

}  // namespace wl::ui
