#pragma once

#include <QColor>
#include <QString>
#include <array>

class QChart;
class QFont;
class QValueAxis;

namespace wl::ui::charts {

// How every chart of the window looks: no animation (a chart redrawn on each new analysis must
// not lag), small margins (the charts live in docks), the window's font, and the title in bold.
void styleChart(QChart* chart);

// The colours of two runs side by side (the first grey, the second blue), and of a series by
// index beyond them.
inline constexpr std::array<QRgb, 2> kRunColours = {0xff8c8c8c, 0xff2e86de};
QColor seriesColour(int index);

// A value axis from 0 to past `maxValue` (and `headroom` of it beyond, for a label written after
// the longest bar), with ticks at a 1, 2 or 5 step and at most `maxTicks` of them.
void setNiceRange(QValueAxis* axis, double maxValue, double headroom = 0.0, int maxTicks = 5);
// The step setNiceRange uses for `maxValue`.
double niceStep(double maxValue, int maxTicks);

// `text` elided in the middle to `widthPx` in `font` (long kernel names keep their start and
// their end).
QString elideMiddle(const QString& text, int widthPx, const QFont& font);

}  // namespace wl::ui::charts
