#include "ui/charts/LineChart.h"

#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QLineSeries>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>
#include <algorithm>

#include "ui/charts/ChartExport.h"
#include "ui/charts/ChartStyle.h"

namespace wl::ui::charts {

LineChart::LineChart(QWidget* parent) : ChartWidget(parent) {}

void LineChart::setSpec(LineChartSpec spec) {
    m_spec = std::move(spec);
    rebuild();
}

double LineChart::valueAt(const LineSeriesSpec& series, double x) {
    const auto& p = series.points;
    if (p.empty()) {
        return 0.0;
    }
    const auto after = std::upper_bound(p.begin(), p.end(), x,
                                        [](double v, const QPointF& q) { return v < q.x(); });
    if (after == p.begin()) {
        return p.front().y();
    }
    const QPointF& a = *(after - 1);
    if (series.steps || after == p.end() || after->x() == a.x()) {
        return a.y();
    }
    const double t = (x - a.x()) / (after->x() - a.x());
    return a.y() + t * (after->y() - a.y());
}

QString LineChart::toolTipAt(double x) const {
    QStringList lines{QStringLiteral("%1: %2").arg(m_spec.xTitle).arg(x, 0, 'f', 3)};
    for (const LineSeriesSpec& s : m_spec.series) {
        lines << QStringLiteral("%1: %2 %3")
                     .arg(s.name)
                     .arg(valueAt(s, x), 0, 'g', 4)
                     .arg(m_spec.yTitle);
    }
    return lines.join(QLatin1Char('\n'));
}

QString LineChart::csv() const {
    std::vector<QStringList> rows;
    for (const LineSeriesSpec& s : m_spec.series) {
        for (const QPointF& p : s.points) {
            rows.push_back(
                {s.name, QString::number(p.x(), 'g', 15), QString::number(p.y(), 'g', 15)});
        }
    }
    return csvText({tr("series"), m_spec.xTitle, m_spec.yTitle}, rows);
}

void LineChart::rebuild() {
    chart()->removeAllSeries();
    for (QAbstractAxis* axis : chart()->axes()) {
        chart()->removeAxis(axis);
        delete axis;
    }
    chart()->setTitle(m_spec.title);
    auto* x = new QValueAxis;
    auto* y = new QValueAxis;
    x->setTitleText(m_spec.xTitle);
    y->setTitleText(m_spec.yTitle);
    x->setLabelFormat(QStringLiteral("%g"));
    chart()->addAxis(x, Qt::AlignBottom);
    chart()->addAxis(y, Qt::AlignLeft);
    double minX = 0.0;
    double maxX = 0.0;
    double maxY = 0.0;
    bool any = false;
    int index = 0;
    for (const LineSeriesSpec& s : m_spec.series) {
        auto* line = new QLineSeries;
        line->setName(s.name);
        QPen pen(s.colour.isValid() ? s.colour : seriesColour(index));
        pen.setWidthF(1.5);
        line->setPen(pen);
        QList<QPointF> points;
        points.reserve(qsizetype(s.points.size() * (s.steps ? 2 : 1)));
        for (std::size_t i = 0; i < s.points.size(); ++i) {
            const QPointF& p = s.points[i];
            if (s.steps && i > 0) {
                points.append(QPointF(p.x(), s.points[i - 1].y()));  // held until this point
            }
            points.append(p);
            minX = any ? std::min(minX, p.x()) : p.x();
            maxX = any ? std::max(maxX, p.x()) : p.x();
            maxY = std::max(maxY, p.y());
            any = true;
        }
        line->replace(points);
        connect(line, &QLineSeries::hovered, this, [this](const QPointF& p, bool on) {
            if (on) {
                QToolTip::showText(QCursor::pos(), toolTipAt(p.x()), chartView());
            } else {
                QToolTip::hideText();
            }
        });
        connect(line, &QLineSeries::clicked, this,
                [this](const QPointF& p) { emit clicked(p.x()); });
        chart()->addSeries(line);
        line->attachAxis(x);
        line->attachAxis(y);
        ++index;
    }
    if (!m_spec.markers.empty()) {
        auto* dots = new QScatterSeries;
        dots->setName(m_spec.markerName);
        dots->setMarkerSize(9.0);
        dots->setColor(QColor(0xc0, 0x39, 0x2b));
        for (const QPointF& p : m_spec.markers) {
            dots->append(p);
        }
        connect(dots, &QScatterSeries::clicked, this,
                [this](const QPointF& p) { emit clicked(p.x()); });
        chart()->addSeries(dots);
        dots->attachAxis(x);
        dots->attachAxis(y);
    }
    x->setRange(minX, maxX > minX ? maxX : minX + 1.0);
    x->applyNiceNumbers();
    if (m_spec.yMax > 0.0) {
        y->setRange(0.0, m_spec.yMax);
        y->setLabelFormat(QStringLiteral("%g"));
    } else {
        setNiceRange(y, maxY);
    }
    chart()->legend()->setVisible(m_spec.series.size() + (m_spec.markers.empty() ? 0 : 1) > 1);
    chart()->legend()->setAlignment(Qt::AlignTop);
}

}  // namespace wl::ui::charts
