#include "ui/charts/ChartStyle.h"

#include <QApplication>
#include <QChart>
#include <QFontMetrics>
#include <QGraphicsLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace wl::ui::charts {

void styleChart(QChart* chart) {
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
    QFont title = QApplication::font();
    title.setBold(true);
    chart->setTitleFont(title);
    chart->legend()->setFont(QApplication::font());
}

QColor seriesColour(int index) {
    // After the two runs' grey and blue: colours apart from each other in hue and lightness.
    static constexpr std::array<QRgb, 8> kMore = {0xff2e86de, 0xffe67e22, 0xff27ae60, 0xff8e44ad,
                                                  0xffc0392b, 0xff16a085, 0xff7f8c8d, 0xfff1c40f};
    return QColor::fromRgba(kMore[static_cast<std::size_t>(std::max(index, 0)) % kMore.size()]);
}

double niceStep(double maxValue, int maxTicks) {
    if (!(maxValue > 0.0) || !std::isfinite(maxValue)) {
        return 1.0;
    }
    const double rough = maxValue / std::max(1, maxTicks);
    const double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
    for (const double m : {1.0, 2.0, 5.0}) {
        if (m * magnitude >= rough) {
            return m * magnitude;
        }
    }
    return 10.0 * magnitude;
}

void setNiceRange(QValueAxis* axis, double maxValue, double headroom, int maxTicks) {
    const double top = std::max(maxValue * (1.0 + headroom), 0.0);
    const double step = niceStep(top > 0.0 ? top : 1.0, maxTicks);
    const double end = std::max(step, std::ceil(top / step - 1e-9) * step);
    axis->setRange(0.0, end);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0.0);
    axis->setTickInterval(step);
    axis->setLabelFormat(QStringLiteral("%g"));
}

QString elideMiddle(const QString& text, int widthPx, const QFont& font) {
    const QFontMetrics metrics(font);
    return metrics.elidedText(text, Qt::ElideMiddle, std::max(widthPx, 24));
}

}  // namespace wl::ui::charts
