#include "ui/timeline/Arrows.h"

#include <QPainter>
#include <QPainterPath>
#include <QPolygonF>

namespace wl::ui {

void paintArrow(QPainter& p, const QRectF& from, const QRectF& to, QColor color, double widthPx) {
    const bool down = to.top() >= from.bottom();
    const QPointF a(from.left(), down ? from.bottom() : from.top());
    const QPointF b(to.left(), down ? to.top() : to.bottom());
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(color, widthPx));
    QPainterPath path(a);
    const double midY = (a.y() + b.y()) / 2;
    path.cubicTo(QPointF(a.x(), midY), QPointF(b.x(), midY), b);
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
    // The head points into `to`.
    const double dir = down ? -1.0 : 1.0;
    QPolygonF head;
    head << b << QPointF(b.x() - 4, b.y() + dir * 7) << QPointF(b.x() + 4, b.y() + dir * 7);
    p.setBrush(color);
    p.drawPolygon(head);
    p.restore();
}

std::vector<model::Dependency> dependenciesInView(const model::Trace& trace, model::TimeNs startNs,
                                                  model::TimeNs endNs, std::size_t maxCount) {
    std::vector<model::Dependency> out;
    for (const model::Dependency& d : trace.dependencies()) {
        if (out.size() >= maxCount)
            break;
        // The arrow runs from the end of what was waited for to the start of the waiter.
        const model::TimeNs a = trace.slice(d.from).startNs;
        const model::TimeNs b = trace.slice(d.to).startNs;
        if (std::max(a, b) >= startNs && std::min(a, b) <= endNs)
            out.push_back(d);
    }
    return out;
}

}  // namespace wl::ui
