#pragma once

// Inside TimelineView: its constants, state and geometry, shared by the files that implement it:
// TimelineView.cpp (state), TimelineViewInput.cpp (keys, mouse, tooltips), TimelineViewPaint.cpp
// (painting), TimelineViewRows.cpp (row arrangement), TimelineViewFlags.cpp (flags). Private to
// those files.

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <optional>
#include <unordered_set>
#include <utility>
#include "ui/common/Units.h"
#include "ui/style/Palette.h"
#include "ui/timeline/Arrows.h"
#include "ui/timeline/CounterSummary.h"
#include "ui/timeline/DenseSpan.h"
#include "ui/timeline/DrawListBuilder.h"
#include "ui/timeline/DrawListCache.h"
#include "ui/timeline/Flags.h"
#include "ui/timeline/FlowNavigation.h"
#include "ui/timeline/HitTester.h"
#include "ui/timeline/LaneIndex.h"
#include "ui/timeline/OverlayIndex.h"
#include "ui/timeline/RulerTicks.h"
#include "ui/timeline/SliceText.h"
#include "ui/timeline/TimeFormat.h"
#include "ui/timeline/TimelineFlagsController.h"
#include "ui/timeline/TimelineGeometry.h"
#include "ui/timeline/TimelineInputHandler.h"
#include "ui/timeline/TimelineLayout.h"
#include "ui/timeline/TimelinePainter.h"
#include "ui/timeline/TimelineRows.h"
#include "ui/timeline/TimelineSelection.h"

namespace wl::ui::timeline_view {

using timeline_geometry::kDragThresholdPx;
using timeline_geometry::kHeaderWidthPx;
using timeline_geometry::kLegendLineHeightPx;
using timeline_geometry::kLegendPadPx;
using timeline_geometry::kRulerHeightPx;
using timeline_geometry::LegendItem;
// revealSlice: a slice narrower than this is zoomed to kRevealWidthPx, so it can be seen and
// clicked; a wider one keeps the user's zoom.
constexpr double kMinRevealPx = 4.0;
constexpr double kRevealWidthPx = 60.0;

inline QFont legendFont(const QWidget* w) {
    return timeline_geometry::legendFont(w->font());
}
inline std::vector<LegendItem> legendItems(const QWidget* w) {
    return timeline_geometry::legendItems(w->font(), w->width());
}
inline int legendHeightPx(const QWidget* w) {
    return timeline_geometry::legendHeightPx(w->font(), w->width());
}

inline QRect timeAreaOf(const QWidget* w, const QScrollBar* bar) {
    const int barW = bar->isHidden() ? 0 : bar->width();
    return QRect(kHeaderWidthPx, kRulerHeightPx, std::max(1, w->width() - kHeaderWidthPx - barW),
                 std::max(1, w->height() - kRulerHeightPx - legendHeightPx(w)));
}

}  // namespace wl::ui::timeline_view

namespace wl::ui {

struct TimelineView::State {
    explicit State(const QFont& base) : labelFont(base), drawLists(labelFont), painter(labelFont) {}

    model::TracePtr trace;
    OverlayIndex overlays;
    CounterSummary counters;
    LaneIndex lanes;
    TimelineRows rows;  // folded, arranged, laid out
    std::uint64_t overlayVersion = 0;

    TimeViewport viewport;
    QMetaObject::Connection scaleConnection;
    TimelineSelection selection;
    QScrollBar* vbar = nullptr;

    QFont labelFont;
    DrawListCache drawLists;  // per row: a vertical scroll rebuilds none
    TimelinePainter painter;

    bool showDependencies = false;  // View > Dependencies: the selection's own either way
    std::unique_ptr<TimelineInputHandler> input;

    // A row header pressed (layout row, -1: none) and maybe being dragged to the drop line
    // (content y).
    int headerPressRow = -1;
    QPoint headerPressPos;
    bool headerDragging = false;
    int rowDropYPx = -1;

    std::unique_ptr<TimelineFlagsController> flags;
};

}  // namespace wl::ui
