#pragma once

#include <QFont>
#include <QPainter>

#include "ui/timeline/DrawList.h"

namespace wl::ui {

// Paints a DrawList with QPainter: antialiasing off, one fillRect run per colour batch, gap
// hatches under the slices, occupancy gauges and counters over them, then labels and low-fill
// marks. The caller sets the painter's translation/clip to the time area. Stateless apart from
// the label font; works on any QPaintDevice (widget or offscreen QImage).
class TimelinePainter {
public:
    explicit TimelinePainter(const QFont& labelFont) : m_font(labelFont) {}

    void paint(QPainter& painter, const DrawList& list) const;

    // A warning triangle with its top-left corner at `at` (also used by the legend).
    static void paintLowFillMark(QPainter& painter, QPoint at);

private:
    QFont m_font;
};

}  // namespace wl::ui
