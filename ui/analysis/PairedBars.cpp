#include "ui/analysis/PairedBars.h"
#include "ui/common/ToolTips.h"

#include <QEvent>
#include <QFontMetrics>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace wl::ui {

namespace {

constexpr int kPad = 4;      // around the widget's content
constexpr int kRowGap = 8;   // between one row's pair and the next
constexpr int kTextGap = 4;  // between a bar's end and its value
constexpr int kMinTickSpacingPx = 70;

QString tickText(double value) {
    return QString::number(value, 'g', 6);
}

}  // namespace

PairedBars::PairedBars(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void PairedBars::setTitle(const QString& title) {
    m_title = title;
    updateGeometry();
    update();
}

void PairedBars::setRunNames(const QString& first, const QString& second) {
    m_runNames = {first, second};
    updateGeometry();
    update();
}

void PairedBars::setRows(std::vector<PairedBarRow> rows) {
    m_rows = std::move(rows);
    updateGeometry();
    update();
}

std::vector<double> PairedBars::axisTicks(double maxValue, int maxTicks) {
    if (!(maxValue > 0.0) || !std::isfinite(maxValue)) {
        return {0.0, 1.0};
    }
    const double rough = maxValue / std::max(1, maxTicks);
    const double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
    double step = 10.0 * magnitude;
    for (const double m : {1.0, 2.0, 5.0}) {
        if (m * magnitude >= rough) {
            step = m * magnitude;
            break;
        }
    }
    std::vector<double> ticks{0.0};
    // Multiples of the step (not a running sum, which drifts) until one reaches the maximum.
    for (int k = 1; ticks.back() < maxValue; ++k) {
        ticks.push_back(k * step);
    }
    return ticks;
}

int PairedBars::barHeight() const {
    return fontMetrics().ascent() + 1;
}

int PairedBars::rowHeight() const {
    return std::max(2 * barHeight() + 2, fontMetrics().height()) + kRowGap;
}

bool PairedBars::hasSharedAxis() const {
    return std::any_of(m_rows.begin(), m_rows.end(),
                       [](const PairedBarRow& r) { return r.scaleMax <= 0.0; });
}

double PairedBars::sharedMax() const {
    double most = 0.0;
    for (const PairedBarRow& r : m_rows) {
        if (r.scaleMax <= 0.0) {
            most = std::max({most, r.values[0], r.values[1]});
        }
    }
    return most;
}

PairedBars::Geometry PairedBars::geometry() const {
    const QFontMetrics fm = fontMetrics();
    Geometry g;
    g.titleHeight = m_title.isEmpty() ? 0 : fm.height() + kPad;
    g.legendHeight = m_runNames[0].isEmpty() ? 0 : fm.height() + kPad;
    int labels = 0;
    int texts = 0;
    for (const PairedBarRow& r : m_rows) {
        labels = std::max(labels, fm.horizontalAdvance(r.label));
        texts =
            std::max({texts, fm.horizontalAdvance(r.texts[0]), fm.horizontalAdvance(r.texts[1])});
    }
    const int inner = width() - 2 * kPad;
    // Labels take what they need up to 45 % of the width; past that they are elided in the
    // middle (a kernel's template arguments go, its name and last parameters stay).
    g.labelWidth = std::min(labels + 3 * kPad, inner * 45 / 100);
    g.barLeft = kPad + g.labelWidth;
    g.barWidth = std::max(10, inner - g.labelWidth - texts - kTextGap);
    g.rowsTop = kPad + g.titleHeight + g.legendHeight;
    g.axisHeight = hasSharedAxis() && !m_rows.empty() ? fm.height() + kPad : 0;
    return g;
}

QSize PairedBars::minimumSizeHint() const {
    const Geometry g = geometry();
    const int height = g.rowsTop + int(m_rows.size()) * rowHeight() + g.axisHeight + kPad;
    return {220, height};
}

QSize PairedBars::sizeHint() const {
    return {420, minimumSizeHint().height()};
}

int PairedBars::rowAt(int y) const {
    const Geometry g = geometry();
    if (y < g.rowsTop) {
        return -1;
    }
    const int row = (y - g.rowsTop) / rowHeight();
    return row < int(m_rows.size()) ? row : -1;
}

QRect PairedBars::rowRect(int row) const {
    const Geometry g = geometry();
    return {0, g.rowsTop + row * rowHeight(), width(), rowHeight()};
}

QString PairedBars::drawnLabel(int row) const {
    if (row < 0 || row >= int(m_rows.size())) {
        return {};
    }
    return elided(m_rows[std::size_t(row)].label, geometry());
}

QString PairedBars::elided(const QString& label, const Geometry& g) const {
    return fontMetrics().elidedText(label, Qt::ElideMiddle, g.labelWidth - 2 * kPad);
}

QString PairedBars::toolTipAt(QPoint pos) const {
    const int row = rowAt(pos.y());
    if (row < 0) {
        return {};
    }
    const PairedBarRow& r = m_rows[std::size_t(row)];
    QString text = r.fullLabel.isEmpty() ? r.label : r.fullLabel;
    for (int run = 0; run < 2; ++run) {
        const QString name = m_runNames[std::size_t(run)].isEmpty()
                                 ? (run == 0 ? QStringLiteral("A") : QStringLiteral("B"))
                                 : m_runNames[std::size_t(run)];
        text += QStringLiteral("\n%1: %2").arg(name, r.texts[std::size_t(run)]);
    }
    if (r.values[0] > 0.0 && r.values[1] > 0.0) {
        text += tr("\nsecond / first: %1×").arg(r.values[1] / r.values[0], 0, 'f', 2);
    }
    return text;
}

bool PairedBars::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        return showToolTipOrHide(help, toolTipAt(help->pos()), this);
    }
    return QWidget::event(event);
}

void PairedBars::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const QFontMetrics fm = fontMetrics();
    const Geometry g = geometry();
    const QColor text = palette().color(QPalette::WindowText);
    const QColor grid = palette().color(QPalette::Mid);

    if (!m_title.isEmpty()) {
        QFont bold = font();
        bold.setBold(true);
        p.setFont(bold);
        p.setPen(text);
        p.drawText(QRect(kPad, kPad, width() - 2 * kPad, fm.height()),
                   Qt::AlignLeft | Qt::AlignVCenter,
                   QFontMetrics(bold).elidedText(m_title, Qt::ElideRight, width() - 2 * kPad));
        p.setFont(font());
    }
    if (g.legendHeight > 0) {
        int x = kPad;
        const int y = kPad + g.titleHeight;
        for (int run = 0; run < 2; ++run) {
            const int box = fm.ascent() - 2;
            p.fillRect(QRect(x, y + (fm.height() - box) / 2, box, box),
                       QColor(kRunColours[std::size_t(run)]));
            x += box + kTextGap;
            p.setPen(text);
            p.drawText(QPoint(x, y + fm.ascent()), m_runNames[std::size_t(run)]);
            x += fm.horizontalAdvance(m_runNames[std::size_t(run)]) + 3 * kPad;
        }
    }

    // The shared axis: grid lines through the rows that share it, tick values under them.
    double sharedScale = 1.0;
    if (g.axisHeight > 0) {
        const std::vector<double> ticks =
            axisTicks(sharedMax(), std::max(1, g.barWidth / kMinTickSpacingPx));
        sharedScale = ticks.back();
        const int axisTop = g.rowsTop + int(m_rows.size()) * rowHeight();
        for (const double tick : ticks) {
            const int x = g.barLeft + int(std::lround(tick / sharedScale * g.barWidth));
            p.setPen(grid);
            p.drawLine(x, g.rowsTop, x, axisTop);
            p.setPen(text);
            const QString label = tickText(tick);
            const int w = fm.horizontalAdvance(label);
            const int left = std::clamp(x - w / 2, g.barLeft - kPad, width() - kPad - w);
            p.drawText(QPoint(left, axisTop + fm.ascent() + 2), label);
        }
    }

    const int bar = barHeight();
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const PairedBarRow& r = m_rows[i];
        const int top = g.rowsTop + int(i) * rowHeight() + kRowGap / 2;
        p.setPen(text);
        p.drawText(QRect(kPad, top, g.labelWidth - kPad, 2 * bar + 2),
                   Qt::AlignLeft | Qt::AlignVCenter, elided(r.label, g));
        const double scale = r.scaleMax > 0.0 ? r.scaleMax : sharedScale;
        for (std::size_t run = 0; run < 2; ++run) {
            const int y = top + int(run) * (bar + 1);
            const double share = scale > 0.0 ? std::clamp(r.values[run] / scale, 0.0, 1.0) : 0.0;
            // A value above zero gets at least a pixel; zero gets a hairline, so it reads as 0,
            // not as missing.
            const int w =
                r.values[run] > 0.0 ? std::max(1, int(std::lround(share * g.barWidth))) : 0;
            const QColor colour(kRunColours[run]);
            if (w > 0) {
                p.fillRect(QRect(g.barLeft, y, w, bar), colour);
            } else {
                p.setPen(colour);
                p.drawLine(g.barLeft, y, g.barLeft, y + bar - 1);
            }
            p.setPen(text);
            p.drawText(QPoint(g.barLeft + w + kTextGap, y + (bar + fm.ascent() - fm.descent()) / 2),
                       r.texts[run]);
        }
    }
}

}  // namespace wl::ui
