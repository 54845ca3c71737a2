#include "ui/ranks/RankHeatMap.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "ui/common/ToolTips.h"
#include "ui/common/Units.h"
#include "ui/timeline/TimeFormat.h"

namespace wl::ui {

namespace {

constexpr int kNameWidthPx = 150;
constexpr int kAxisHeightPx = 18;
constexpr int kMinRowPx = 4;
constexpr int kMaxRowPx = 22;
constexpr int kReadableRowPx = 12;  // a name's height

// Busy is dark, idle is pale: the same blue as kernels, so a busy rank reads as "working".
QColor busyColor(float share) {
    const float s = std::clamp(share, 0.0f, 1.0f);
    const QColor idle(0xf4, 0xf6, 0xf9);
    const QColor busy(0x1f, 0x5f, 0xb4);
    return QColor::fromRgbF(idle.redF() + (busy.redF() - idle.redF()) * s,
                            idle.greenF() + (busy.greenF() - idle.greenF()) * s,
                            idle.blueF() + (busy.blueF() - idle.blueF()) * s);
}

}  // namespace

RankHeatMap::RankHeatMap(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void RankHeatMap::setData(RankHeatMapData data) {
    m_data = std::move(data);
    updateGeometry();
    update();
}

QSize RankHeatMap::sizeHint() const {
    return {800, kAxisHeightPx + std::max(1, m_data.rows()) * 14 + 4};
}

QSize RankHeatMap::minimumSizeHint() const {
    // Up to eight ranks get readable rows; more share the height (a pale streak still shows at
    // kMinRowPx).
    return {kNameWidthPx + 100,
            kAxisHeightPx + std::min(std::max(1, m_data.rows()), 8) * kReadableRowPx};
}

QRect RankHeatMap::cellArea() const {
    const int rows = std::max(1, m_data.rows());
    const int rowPx = std::clamp((height() - kAxisHeightPx) / rows, kMinRowPx, kMaxRowPx);
    return QRect(kNameWidthPx, 0, std::max(1, width() - kNameWidthPx - 4), rowPx * rows);
}

std::optional<std::pair<int, int>> RankHeatMap::cellAt(QPoint pos) const {
    const QRect area = cellArea();
    if (m_data.rows() == 0 || m_data.buckets() == 0 || !area.contains(pos))
        return std::nullopt;
    const int row = (pos.y() - area.top()) * m_data.rows() / area.height();
    const int bucket = (pos.x() - area.left()) * m_data.buckets() / area.width();
    return std::pair{std::clamp(row, 0, m_data.rows() - 1),
                     std::clamp(bucket, 0, m_data.buckets() - 1)};
}

QString RankHeatMap::cellText(int row, int bucket) const {
    const model::TimeNs start = m_data.startNs + bucket * m_data.bucketNs;
    return tr("%1 · %2 to %3 · %4 %5")
        .arg(m_data.rowNames.at(static_cast<std::size_t>(row)), units::duration(start),
             units::duration(start + m_data.bucketNs), m_data.valueName,
             units::percent(
                 100.0 *
                 m_data.values[static_cast<std::size_t>(row)][static_cast<std::size_t>(bucket)]));
}

void RankHeatMap::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    const QRect area = cellArea();
    const int rows = m_data.rows();
    const int buckets = m_data.buckets();
    if (rows == 0 || buckets == 0) {
        p.drawText(rect(), Qt::AlignCenter, tr("No ranks to show"));
        return;
    }
    const int rowPx = area.height() / rows;
    for (int r = 0; r < rows; ++r) {
        const int y = area.top() + r * rowPx;
        p.setPen(palette().color(QPalette::WindowText));
        const QRect nameRect(4, y, kNameWidthPx - 8, rowPx);
        if (rowPx >= 10) {
            p.drawText(nameRect, Qt::AlignVCenter | Qt::AlignLeft,
                       p.fontMetrics().elidedText(m_data.rowNames[std::size_t(r)], Qt::ElideMiddle,
                                                  nameRect.width()));
        }
        // One rectangle per pixel column at most: buckets that share a column show their mean.
        const auto& values = m_data.values[std::size_t(r)];
        const int columns = std::min(buckets, area.width());
        for (int c = 0; c < columns; ++c) {
            const int b0 = c * buckets / columns;
            const int b1 = std::max(b0 + 1, (c + 1) * buckets / columns);
            float sum = 0.0f;
            for (int b = b0; b < b1; ++b)
                sum += values[std::size_t(b)];
            const int x0 = area.left() + c * area.width() / columns;
            const int x1 = area.left() + (c + 1) * area.width() / columns;
            p.fillRect(QRect(x0, y, std::max(1, x1 - x0), std::max(1, rowPx - 1)),
                       busyColor(sum / float(b1 - b0)));
        }
    }
    // The time axis: the first and last times, and the middle.
    p.setPen(palette().color(QPalette::WindowText));
    const int axisY = area.bottom() + 2;
    const model::TimeNs endNs = m_data.startNs + buckets * m_data.bucketNs;
    const QRect axis(area.left(), axisY, area.width(), kAxisHeightPx);
    p.drawText(axis, Qt::AlignLeft | Qt::AlignVCenter, units::duration(m_data.startNs));
    p.drawText(axis, Qt::AlignHCenter | Qt::AlignVCenter,
               units::duration(m_data.startNs + (endNs - m_data.startNs) / 2));
    p.drawText(axis, Qt::AlignRight | Qt::AlignVCenter, units::duration(endNs));
}

void RankHeatMap::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    if (const auto cell = cellAt(event->position().toPoint())) {
        const model::TimeNs start = m_data.startNs + cell->second * m_data.bucketNs;
        emit cellActivated(cell->first, start, start + m_data.bucketNs);
    }
}

bool RankHeatMap::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const auto cell = cellAt(help->pos());
        return showToolTipOrHide(help, cell ? cellText(cell->first, cell->second) : QString(),
                                 this);
    }
    return QWidget::event(event);
}

}  // namespace wl::ui
