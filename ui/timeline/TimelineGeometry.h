#pragma once

// Where things are in TimelineView, shared by the classes that make it up (the view, its input
// handler, flags controller, row headers and frame painter): the fixed bands around the rows, the
// legend's lines, and TimelineFrame, one moment's time area, time mapping and scroll. Kept apart
// from the widget so that each of those classes can be driven in a test with a frame of its own.

#include <QFont>
#include <QRect>
#include <QSize>
#include <vector>

#include "model/Time.h"
#include "model/Trace.h"
#include "ui/style/Palette.h"
#include "ui/timeline/TimeMapper.h"
#include "ui/timeline/TimelineLayout.h"

namespace wl::ui::timeline_geometry {

constexpr int kHeaderWidthPx = 240;  // the row headers, left of the time area
constexpr int kRulerHeightPx = 30;   // the ruler, above the rows
constexpr int kLegendLineHeightPx = 20;
constexpr int kLegendPadPx = 4;
// A press moves this far (manhattan px) before it is a drag rather than a click.
constexpr int kDragThresholdPx = 3;

// The legend's font: the view's, smaller.
QFont legendFont(const QFont& viewFont);

// One legend entry placed: its left edge and its line.
struct LegendItem {
    const Palette::LegendEntry* entry;
    int x;
    int line;
};

// The legend in as many lines as `widthPx` needs, so that a narrow window (1024 px with the
// docks) cuts no entry off.
std::vector<LegendItem> legendItems(const QFont& viewFont, int widthPx);
int legendHeightPx(const QFont& viewFont, int widthPx);

}  // namespace wl::ui::timeline_geometry

namespace wl::ui {

// One moment of the view's geometry: what the input handler, the flags and the painters need to
// turn widget pixels into times and rows and back. A value, built by the view for each event and
// frame (or by a test by hand).
struct TimelineFrame {
    QSize sizePx;      // the whole widget
    QRect timeArea;    // where the rows' slices are, in widget px
    TimeMapper map;    // time <-> x in the time area
    int scrollPx = 0;  // the rows' vertical scroll (content y at the time area's top)
    QFont font;        // the view's font
    const model::Trace* trace = nullptr;
    const TimelineLayout* layout = nullptr;

    // The time at widget x, clamped to the time area and to the trace's span.
    model::TimeNs timeAtX(int widgetX) const {
        const double x = std::clamp(double(widgetX - timeline_geometry::kHeaderWidthPx), 0.0,
                                    double(map.widthPx()));
        return std::clamp<model::TimeNs>(map.nsForX(x), 0, trace ? trace->spanNs() : 0);
    }
    // The rows' content y at widget y.
    int contentYAt(int widgetY) const {
        return widgetY - timeline_geometry::kRulerHeightPx + scrollPx;
    }
};

}  // namespace wl::ui
