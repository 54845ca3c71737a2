#include "ui/timeline/TimelineGeometry.h"

#include <QFontMetrics>

namespace wl::ui::timeline_geometry {

QFont legendFont(const QFont& viewFont) {
    QFont small = viewFont;
    small.setPointSizeF(8.0);
    return small;
}

std::vector<LegendItem> legendItems(const QFont& viewFont, int widthPx) {
    static const std::vector<Palette::LegendEntry> entries = Palette::legend();
    const QFontMetrics fm(legendFont(viewFont));
    std::vector<LegendItem> out;
    int x = 8;
    int line = 0;
    for (const Palette::LegendEntry& e : entries) {
        const int itemW = 16 + fm.horizontalAdvance(e.label);
        if (x > 8 && x + itemW > widthPx - 4) {
            x = 8;
            ++line;
        }
        out.push_back({&e, x, line});
        x += itemW + 14;
    }
    return out;
}

int legendHeightPx(const QFont& viewFont, int widthPx) {
    const std::vector<LegendItem> items = legendItems(viewFont, widthPx);
    const int lines = items.empty() ? 1 : items.back().line + 1;
    return lines * kLegendLineHeightPx + kLegendPadPx;
}

}  // namespace wl::ui::timeline_geometry
