#include "ui/timeline/TimelinePainter.h"

#include <QPolygon>

#include "ui/style/Palette.h"

namespace wl::ui {

namespace {

void fillBatches(QPainter& painter, const std::vector<DrawBatch>& batches) {
    for (const DrawBatch& batch : batches) {
        const QColor color = QColor::fromRgba(batch.color);
        for (const DrawItem& item : batch.items) {
            painter.fillRect(item.x, item.y, item.w, item.h, color);
        }
    }
}

}  // namespace

void TimelinePainter::paintLowFillMark(QPainter& painter, QPoint at) {
    // A small yellow triangle with a dark edge: visible on any kernel colour.
    const QPolygon triangle({at + QPoint(0, 0), at + QPoint(8, 0), at + QPoint(4, 7)});
    painter.setPen(QColor(0x5a, 0x45, 0x00));
    painter.setBrush(QColor::fromRgb(Palette::kLowFillMark));
    painter.drawPolygon(triangle);
}

void TimelinePainter::paint(QPainter& painter, const DrawList& list) const {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setRenderHint(QPainter::TextAntialiasing, true);

    for (const DrawHatch& hatch : list.hatches) {
        QColor tint = QColor::fromRgb(hatch.color);
        tint.setAlpha(40);
        painter.fillRect(hatch.rect, tint);
        painter.fillRect(hatch.rect, QBrush(QColor::fromRgb(hatch.color), Qt::BDiagPattern));
    }
    fillBatches(painter, list.sliceBatches);
    fillBatches(painter, list.fillBatches);

    if (!list.labels.empty()) {
        painter.setFont(m_font);
        for (const DrawLabel& label : list.labels) {
            painter.setPen(QColor::fromRgb(label.color));
            painter.drawText(label.rect, Qt::AlignVCenter | Qt::AlignLeft | Qt::TextSingleLine,
                             label.text);
        }
    }
    for (const QPoint& at : list.lowFillMarks) {
        paintLowFillMark(painter, at);
    }
    painter.restore();
}

}  // namespace wl::ui
