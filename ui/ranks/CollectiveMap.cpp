#include "ui/ranks/CollectiveMap.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <algorithm>

#include "ui/common/ToolTips.h"
#include "ui/common/Units.h"

namespace wl::ui {

namespace {

constexpr int kNameWidthPx = 150;  // as the rank × time overview's, so the two line up
constexpr int kAxisHeightPx = 18;
constexpr int kMinRowPx = 4;
constexpr int kMaxRowPx = 22;
constexpr int kReadableRowPx = 12;

QColor blend(const QColor& from, const QColor& to, double share) {
    const double s = std::clamp(share, 0.0, 1.0);
    return QColor::fromRgbF(static_cast<float>(from.redF() + (to.redF() - from.redF()) * s),
                            static_cast<float>(from.greenF() + (to.greenF() - from.greenF()) * s),
                            static_cast<float>(from.blueF() + (to.blueF() - from.blueF()) * s));
}

// Pale for nothing; amber for waiting, red for arriving late: the culprit stands out in its row.
const QColor kNone(0xf4, 0xf6, 0xf9);
const QColor kWaited(0xc2, 0x7a, 0x00);
const QColor kLate(0xc6, 0x28, 0x28);

}  // namespace

CollectiveMap::CollectiveMap(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void CollectiveMap::setStats(std::shared_ptr<const analysis::RankStats> stats) {
    m_stats = std::move(stats);
    m_scaleNs = 1;
    for (std::size_t c = 0; c < static_cast<std::size_t>(columns()); ++c) {
        const analysis::MatchedCollective& m = m_stats->collectives.collectives[c];
        m_scaleNs = std::max({m_scaleNs, m.latenessNs, m.spreadNs()});
    }
    updateGeometry();
    update();
}

int CollectiveMap::rows() const {
    return m_stats ? static_cast<int>(m_stats->ranks.size()) : 0;
}

int CollectiveMap::columns() const {
    return m_stats ? static_cast<int>(m_stats->collectives.collectives.size()) : 0;
}

std::optional<CollectiveMap::CellValue> CollectiveMap::valueOf(int rank,
                                                               std::size_t collective) const {
    const analysis::MatchedCollective& c = m_stats->collectives.collectives[collective];
    const analysis::CollectiveArrival* a = c.arrivalOf(static_cast<std::size_t>(rank));
    if (a == nullptr)
        return std::nullopt;
    if (a == &c.lastArrival() && c.latenessNs > 0)
        return CellValue{c.latenessNs, true};
    return CellValue{a->waitNs, false};
}

QSize CollectiveMap::sizeHint() const {
    return {800, kAxisHeightPx + std::max(1, rows()) * 14 + 4};
}

QSize CollectiveMap::minimumSizeHint() const {
    return {kNameWidthPx + 100, kAxisHeightPx + std::min(std::max(1, rows()), 8) * kReadableRowPx};
}

QRect CollectiveMap::cellArea() const {
    const int n = std::max(1, rows());
    const int rowPx = std::clamp((height() - kAxisHeightPx) / n, kMinRowPx, kMaxRowPx);
    return QRect(kNameWidthPx, 0, std::max(1, width() - kNameWidthPx - 4), rowPx * n);
}

int CollectiveMap::drawnColumns() const {
    return std::min(columns(), cellArea().width());
}

std::pair<std::size_t, std::size_t> CollectiveMap::collectivesOf(int drawn) const {
    const auto n = static_cast<std::size_t>(columns());
    const auto d = static_cast<std::size_t>(drawnColumns());
    const std::size_t first = static_cast<std::size_t>(drawn) * n / d;
    return {first, std::max(first + 1, (static_cast<std::size_t>(drawn) + 1) * n / d)};
}

std::pair<int, int> CollectiveMap::pixelsOf(int drawn) const {
    const QRect area = cellArea();
    const int d = drawnColumns();
    return {area.left() + drawn * area.width() / d, area.left() + (drawn + 1) * area.width() / d};
}

std::optional<std::size_t> CollectiveMap::shownIn(int rank, int drawn) const {
    const auto [first, last] = collectivesOf(drawn);
    std::optional<std::size_t> shown;
    model::TimeNs best = -1;
    for (std::size_t c = first; c < last; ++c) {
        const auto v = valueOf(rank, c);
        if (v && v->ns > best) {
            best = v->ns;
            shown = c;
        }
    }
    return shown;
}

std::optional<std::pair<int, std::size_t>> CollectiveMap::cellAt(QPoint pos) const {
    const QRect area = cellArea();
    if (rows() == 0 || columns() == 0 || !area.contains(pos))
        return std::nullopt;
    const int rank = std::clamp((pos.y() - area.top()) * rows() / area.height(), 0, rows() - 1);
    const int drawn =
        std::clamp((pos.x() - area.left()) * drawnColumns() / area.width(), 0, drawnColumns() - 1);
    const auto shown = shownIn(rank, drawn);
    if (!shown)
        return std::nullopt;
    return std::pair{rank, *shown};
}

std::optional<QPoint> CollectiveMap::cellCentre(int rank, std::size_t collective) const {
    if (rank < 0 || rank >= rows() || collective >= static_cast<std::size_t>(columns()))
        return std::nullopt;
    const QRect area = cellArea();
    const int rowPx = area.height() / rows();
    for (int d = 0; d < drawnColumns(); ++d) {
        const auto [first, last] = collectivesOf(d);
        if (collective < first || collective >= last)
            continue;
        if (shownIn(rank, d) != collective)
            return std::nullopt;
        const auto [x0, x1] = pixelsOf(d);
        return QPoint((x0 + x1) / 2, area.top() + rank * rowPx + rowPx / 2);
    }
    return std::nullopt;
}

QString CollectiveMap::cellText(int rank, std::size_t collective) const {
    if (rank < 0 || rank >= rows() || collective >= static_cast<std::size_t>(columns()))
        return {};
    const analysis::CollectiveStats& s = m_stats->collectives;
    const analysis::MatchedCollective& c = s.collectives[collective];
    const QString rankName = QString::fromStdString(m_stats->ranks[std::size_t(rank)].label);
    const QString head = tr("%1 · %2 #%3 · %4")
                             .arg(rankName, QString::fromStdString(c.name))
                             .arg(c.sequence)
                             .arg(QString::fromStdString(s.communicators[c.communicator].name));
    const auto value = valueOf(rank, collective);
    if (!value)
        return tr("%1\nnot a member of it").arg(head);
    const auto rankNumber = [&](std::size_t index) { return m_stats->ranks[index].rank; };
    if (value->late) {
        // The one it was late after: the latest of the others.
        std::size_t secondLast = c.last == 0 ? 1 : 0;
        for (std::size_t i = 0; i < c.arrivals.size(); ++i) {
            if (i != c.last && c.arrivals[i].arrivalNs > c.arrivals[secondLast].arrivalNs)
                secondLast = i;
        }
        return tr("%1\narrived last, %2 after rank %3; the others waited %4 in all")
            .arg(head, units::duration(c.latenessNs))
            .arg(rankNumber(c.arrivals[secondLast].rank))
            .arg(units::duration(c.totalWaitNs));
    }
    if (value->ns == 0)
        return tr("%1\narrived with the last (no wait)").arg(head);
    return tr("%1\nwaited %2 for rank %3, the last to arrive")
        .arg(head, units::duration(value->ns))
        .arg(rankNumber(c.lastArrival().rank));
}

void CollectiveMap::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    const int n = rows();
    if (n == 0 || columns() == 0) {
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(rect(), Qt::AlignCenter, tr("No collectives matched across the ranks"));
        return;
    }
    const QRect area = cellArea();
    const int rowPx = area.height() / n;
    const int drawn = drawnColumns();
    for (int r = 0; r < n; ++r) {
        const int y = area.top() + r * rowPx;
        p.setPen(palette().color(QPalette::WindowText));
        const QRect nameRect(4, y, kNameWidthPx - 8, rowPx);
        if (rowPx >= 10) {
            p.drawText(nameRect, Qt::AlignVCenter | Qt::AlignLeft,
                       p.fontMetrics().elidedText(
                           QString::fromStdString(m_stats->ranks[std::size_t(r)].label),
                           Qt::ElideMiddle, nameRect.width()));
        }
        for (int d = 0; d < drawn; ++d) {
            const auto [x0, x1] = pixelsOf(d);
            const QRect cell(x0, y, std::max(1, x1 - x0 - (x1 - x0 >= 4 ? 1 : 0)),
                             std::max(1, rowPx - 1));
            const auto shown = shownIn(r, d);
            if (!shown)
                continue;  // no member of any collective here: the window's colour
            const auto v = valueOf(r, *shown);
            const double share = static_cast<double>(v->ns) / static_cast<double>(m_scaleNs);
            p.fillRect(cell, blend(kNone, v->late ? kLate : kWaited, share));
        }
    }
    // The axis: "#k" under as many columns as their labels fit, first and last always.
    p.setPen(palette().color(QPalette::WindowText));
    const int axisY = area.bottom() + 2;
    const QFontMetrics fm = p.fontMetrics();
    p.drawText(QRect(4, axisY, kNameWidthPx - 8, kAxisHeightPx), Qt::AlignLeft | Qt::AlignVCenter,
               tr("collective #"));
    const auto label = [&](int d) {
        return QStringLiteral("#%1").arg(
            m_stats->collectives.collectives[collectivesOf(d).first].sequence);
    };
    int nextFreeX = area.left();
    const int lastLabelWidth = fm.horizontalAdvance(label(drawn - 1)) + 8;
    for (int d = 0; d < drawn; ++d) {
        const auto [x0, x1] = pixelsOf(d);
        const QString text = label(d);
        const int w = fm.horizontalAdvance(text) + 8;
        const int centre = (x0 + x1) / 2;
        const int left = std::clamp(centre - w / 2, area.left(), area.right() - w);
        const bool isLast = d == drawn - 1;
        if (left < nextFreeX || (!isLast && left + w > area.right() - lastLabelWidth))
            continue;
        p.drawText(QRect(left, axisY, w, kAxisHeightPx), Qt::AlignCenter, text);
        nextFreeX = left + w;
    }
}

void CollectiveMap::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    if (const auto cell = cellAt(event->position().toPoint()))
        emit cellActivated(cell->first, static_cast<int>(cell->second));
}

bool CollectiveMap::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const auto cell = cellAt(help->pos());
        return showToolTipOrHide(help, cell ? cellText(cell->first, cell->second) : QString(),
                                 this);
    }
    return QWidget::event(event);
}

}  // namespace wl::ui
