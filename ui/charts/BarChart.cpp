#include "ui/charts/BarChart.h"

#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QFontMetrics>
#include <QGraphicsSimpleTextItem>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QStackedBarSeries>
#include <QToolTip>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "ui/charts/ChartExport.h"
#include "ui/charts/ChartStyle.h"

namespace wl::ui::charts {

namespace {

constexpr int kBarPx = 14;      // one bar's thickness in a horizontal chart
constexpr int kGroupGapPx = 8;  // between one category's bars and the next
constexpr int kFramePx = 70;    // title, axis and margins of a horizontal chart
constexpr int kLegendPx = 24;
constexpr double kBarWidth = 0.7;  // of a category's band, shared by its bars

QAbstractBarSeries* makeSeries(const BarChartSpec& spec) {
    if (spec.horizontal) {
        return spec.stacked ? static_cast<QAbstractBarSeries*>(new QHorizontalStackedBarSeries)
                            : new QHorizontalBarSeries;
    }
    return spec.stacked ? static_cast<QAbstractBarSeries*>(new QStackedBarSeries) : new QBarSeries;
}

}  // namespace

BarChart::BarChart(QWidget* parent) : ChartWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    connect(chart(), &QChart::plotAreaChanged, this, [this] { placeLabels(); });
}

void BarChart::setSpec(BarChartSpec spec) {
    m_spec = std::move(spec);
    rebuild();
    updateGeometry();
}

int BarChart::specIndex(int shownIndex) const {
    // Qt Charts puts a horizontal chart's first category at the bottom: shown reversed.
    return m_spec.horizontal ? int(m_spec.categories.size()) - 1 - shownIndex : shownIndex;
}

QString BarChart::valueText(double value) const {
    QString text = QString::number(value, 'g', std::max(m_spec.significantDigits, 1));
    if (!m_spec.unit.isEmpty()) {
        text += (m_spec.unit == QLatin1String("%") ? QString() : QStringLiteral(" ")) + m_spec.unit;
    }
    return text;
}

void BarChart::rebuild() {
    chart()->removeAllSeries();
    for (QAbstractAxis* axis : chart()->axes()) {
        chart()->removeAxis(axis);
        delete axis;
    }
    m_categoryAxis = nullptr;
    m_valueAxis = nullptr;
    for (const auto& labels : m_labels) {
        for (QGraphicsSimpleTextItem* label : labels) {
            delete label;
        }
    }
    m_labels.clear();
    chart()->setTitle(m_spec.title);
    chart()->legend()->setVisible(m_spec.legend && m_spec.sets.size() > 1);
    chart()->legend()->setAlignment(Qt::AlignTop);
    chart()->legend()->setReverseMarkers(m_spec.horizontal && !m_spec.stacked);  // see below

    const int n = int(m_spec.categories.size());
    QAbstractBarSeries* series = makeSeries(m_spec);
    double maxValue = 0.0;
    std::vector<double> stackedTotals(std::size_t(std::max(n, 0)), 0.0);
    for (std::size_t s = 0; s < m_spec.sets.size(); ++s) {
        const BarSet& data = m_spec.sets[s];
        auto* set = new QBarSet(data.name);
        set->setColor(data.colour.isValid() ? data.colour : seriesColour(int(s)));
        set->setBorderColor(set->color());
        set->setLabelColor(palette().color(QPalette::WindowText));
        for (int shown = 0; shown < n; ++shown) {
            const std::size_t i = std::size_t(specIndex(shown));
            const double v = i < data.values.size() ? data.values[i] : 0.0;
            set->append(v);
            maxValue = std::max(maxValue, v);
            stackedTotals[i] += v;
        }
        connect(set, &QBarSet::hovered, this, [this, s](bool on, int shown) {
            if (on) {
                QToolTip::showText(QCursor::pos(), toolTipFor(specIndex(shown), int(s)),
                                   chartView());
            } else {
                QToolTip::hideText();
            }
        });
        connect(set, &QBarSet::clicked, this,
                [this, s](int shown) { emit barClicked(specIndex(shown), int(s)); });
        // A horizontal chart draws its first series at the bottom: added in reverse, the first
        // series is the top bar of each category, as it is first in the legend.
        if (m_spec.horizontal && !m_spec.stacked) {
            series->insert(0, set);
        } else {
            series->append(set);
        }
    }
    if (m_spec.stacked) {
        maxValue = stackedTotals.empty()
                       ? 0.0
                       : *std::max_element(stackedTotals.begin(), stackedTotals.end());
    } else {
        // Every value beside its bar, a zero too: a missing label would read as a missing value.
        for (const BarSet& data : m_spec.sets) {
            std::vector<QGraphicsSimpleTextItem*> labels;
            for (int i = 0; i < n; ++i) {
                const double v =
                    std::size_t(i) < data.values.size() ? data.values[std::size_t(i)] : 0.0;
                auto* label = new QGraphicsSimpleTextItem(valueText(v), chart());
                label->setBrush(palette().color(QPalette::WindowText));
                label->setZValue(10.0);
                labels.push_back(label);
            }
            m_labels.push_back(std::move(labels));
        }
    }
    series->setBarWidth(kBarWidth);
    chart()->addSeries(series);

    m_categoryAxis = new QBarCategoryAxis;
    m_categoryAxis->setTruncateLabels(false);  // elided here, in the middle (relabel)
    auto* valueAxis = new QValueAxis;
    m_valueAxis = valueAxis;
    // Room after the longest bar for its label; a fixed end (a percentage) stays as it is.
    if (m_spec.axisMax > 0.0) {
        // A fixed end (a percentage) with ticks at quarters, and room past it for a label.
        valueAxis->setRange(0.0, m_spec.axisMax * (m_spec.stacked ? 1.0 : 1.2));
        valueAxis->setTickType(QValueAxis::TicksDynamic);
        valueAxis->setTickAnchor(0.0);
        valueAxis->setTickInterval(m_spec.axisMax / 4.0);
        valueAxis->setLabelFormat(QStringLiteral("%g"));
    } else {
        setNiceRange(valueAxis, maxValue, m_spec.stacked ? 0.0 : 0.3);
    }
    m_baseMax = valueAxis->max();
    m_baseStep = valueAxis->tickInterval();
    // Values carry their unit beside the bars; stacked bars have only the axis to say it.
    if (m_spec.stacked) {
        valueAxis->setTitleText(m_spec.unit);
    }
    if (m_spec.horizontal) {
        chart()->addAxis(m_categoryAxis, Qt::AlignLeft);
        chart()->addAxis(valueAxis, Qt::AlignBottom);
    } else {
        chart()->addAxis(m_categoryAxis, Qt::AlignBottom);
        chart()->addAxis(valueAxis, Qt::AlignLeft);
    }
    series->attachAxis(m_categoryAxis);
    series->attachAxis(valueAxis);
    relabel();
    placeLabels();
}

void BarChart::placeLabels() {
    const auto setCount = m_labels.size();
    if (setCount == 0 || chart()->series().isEmpty()) {
        return;
    }
    QAbstractSeries* series = chart()->series().front();
    constexpr int kGapPx = 4;
    const QRectF plot = chart()->plotArea();
    double neededMax = 0.0;
    for (std::size_t s = 0; s < setCount; ++s) {
        // Qt Charts lays a category's bars out across kBarWidth of its band, its first series at
        // the band's low end (the bottom of a horizontal chart, the left of a vertical one); a
        // horizontal chart's series were added in reverse (rebuild).
        const double qtSet = m_spec.horizontal ? double(setCount - 1 - s) : double(s);
        for (std::size_t i = 0; i < m_labels[s].size(); ++i) {
            const int shown = specIndex(int(i));
            const double band =
                shown - kBarWidth / 2 + (qtSet + 0.5) * kBarWidth / double(setCount);
            const double v = i < m_spec.sets[s].values.size() ? m_spec.sets[s].values[i] : 0.0;
            QGraphicsSimpleTextItem* label = m_labels[s][i];
            const QRectF box = label->boundingRect();
            if (m_spec.horizontal) {
                const QPointF end = chart()->mapToPosition(QPointF(v, band), series);
                label->setPos(end.x() + kGapPx, end.y() - box.height() / 2);
                // The axis must reach far enough that the label ends inside the chart.
                const double roomPx = chart()->size().width() - kGapPx - box.width() - plot.left();
                if (roomPx > 0.0 && v > 0.0) {
                    neededMax = std::max(neededMax, v * plot.width() / roomPx);
                }
            } else {
                const QPointF end = chart()->mapToPosition(QPointF(band, v), series);
                label->setPos(end.x() - box.width() / 2, end.y() - box.height() - kGapPx / 2);
            }
        }
    }
    // A narrow chart: a longer axis makes room for the labels; back to the data's own range when
    // it is wide again.
    if (m_valueAxis != nullptr && plot.width() > 0.0 && !m_widening) {
        double target = m_baseMax;
        double step = 0.0;
        if (neededMax > m_baseMax * 1.001) {
            step = niceStep(neededMax, 4);
            target = std::ceil(neededMax / step) * step;
        }
        if (std::abs(target - m_valueAxis->max()) > 1e-3 * std::max(target, 1e-12)) {
            m_widening = true;
            m_valueAxis->setRange(0.0, target);
            if (m_spec.axisMax <= 0.0) {
                m_valueAxis->setTickInterval(step > 0.0 ? step : m_baseStep);
            }
            placeLabels();
            m_widening = false;
        }
    }
    // Vertical bars too narrow for their labels (a histogram's many bins): the values on hover
    // only, the unit on the axis.
    if (!m_spec.horizontal && !m_labels.empty()) {
        const double bandPx =
            plot.width() / std::max<double>(double(m_spec.categories.size()), 1.0);
        double widest = 0.0;
        for (const auto& labels : m_labels) {
            for (const QGraphicsSimpleTextItem* label : labels) {
                widest = std::max(widest, label->boundingRect().width());
            }
        }
        const bool fits = widest <= bandPx * kBarWidth / double(m_labels.size()) + 2 * kGapPx;
        for (const auto& labels : m_labels) {
            for (QGraphicsSimpleTextItem* label : labels) {
                label->setVisible(fits);
            }
        }
        if (m_valueAxis != nullptr) {
            m_valueAxis->setTitleText(fits ? QString() : m_spec.unit);
        }
    }
}

std::vector<QStringList> BarChart::valueLabels() const {
    std::vector<QStringList> out;
    for (const auto& labels : m_labels) {
        QStringList texts;
        for (const QGraphicsSimpleTextItem* label : labels) {
            texts << label->text();
        }
        out.push_back(std::move(texts));
    }
    return out;
}

void BarChart::relabel() {
    if (m_categoryAxis == nullptr) {
        return;
    }
    const int n = int(m_spec.categories.size());
    const QFont font = m_categoryAxis->labelsFont();
    // Horizontal: names get up to 40% of the width. Vertical: each its share of the width, or,
    // turned upright when that is too narrow, a third of the height.
    const int shareOfWidthPx = (width() - 60) / std::max(n, 1) - 6;
    const int widthPx = m_spec.horizontal ? std::max(width() * 2 / 5 - 8, 80)
                                          : std::max({shareOfWidthPx, height() / 3, 24});
    m_drawn.clear();
    for (const QString& name : m_spec.categories) {
        QString drawn = elideMiddle(name, widthPx, font);
        // The axis needs names that differ: two long ones may elide alike.
        // (the suffix within the same width, or the axis clips the name's start)
        for (int k = 2; m_drawn.contains(drawn); ++k) {
            const QString suffix = QStringLiteral(" (%1)").arg(k);
            drawn =
                elideMiddle(name, widthPx - QFontMetrics(font).horizontalAdvance(suffix), font) +
                suffix;
        }
        m_drawn << drawn;
    }
    QStringList shown;
    for (int i = 0; i < n; ++i) {
        shown << m_drawn[specIndex(i)];
    }
    m_categoryAxis->clear();
    m_categoryAxis->append(shown);
    // Vertical bars too narrow for their names (a bar per iteration): the names turned upright.
    if (!m_spec.horizontal) {
        const QFontMetrics metrics(font);
        int widest = 0;
        for (const QString& name : m_drawn) {
            widest = std::max(widest, metrics.horizontalAdvance(name));
        }
        m_categoryAxis->setLabelsAngle(widest + 4 > std::max(shareOfWidthPx, 1) ? -90 : 0);
    }
}

QStringList BarChart::drawnCategories() const {
    return m_drawn;
}

QString BarChart::toolTipFor(int category, int set) const {
    Q_UNUSED(set);
    if (category < 0 || category >= m_spec.categories.size()) {
        return {};
    }
    const auto c = std::size_t(category);
    QStringList lines{category < m_spec.fullNames.size() ? m_spec.fullNames[category]
                                                         : m_spec.categories[category]};
    double total = 0.0;
    for (const BarSet& s : m_spec.sets) {
        const double v = c < s.values.size() ? s.values[c] : 0.0;
        total += v;
        lines << QStringLiteral("%1: %2").arg(s.name, valueText(v));
    }
    if (m_spec.stacked && m_spec.sets.size() > 1) {
        lines << tr("Total: %1").arg(valueText(total));
    }
    if (!m_spec.stacked && m_spec.sets.size() == 2) {
        const double a = c < m_spec.sets[0].values.size() ? m_spec.sets[0].values[c] : 0.0;
        const double b = c < m_spec.sets[1].values.size() ? m_spec.sets[1].values[c] : 0.0;
        if (a > 0.0) {
            lines << QStringLiteral("%1 / %2: %3×")
                         .arg(m_spec.sets[1].name, m_spec.sets[0].name)
                         .arg(b / a, 0, 'f', 2);
        }
    }
    return lines.join(QLatin1Char('\n'));
}

QString BarChart::csv() const {
    QStringList header{tr("name")};
    for (const BarSet& s : m_spec.sets) {
        header << (m_spec.unit.isEmpty() ? s.name
                                         : QStringLiteral("%1 (%2)").arg(s.name, m_spec.unit));
    }
    std::vector<QStringList> rows;
    for (qsizetype i = 0; i < m_spec.categories.size(); ++i) {
        QStringList row{m_spec.categories[i]};
        for (const BarSet& s : m_spec.sets) {
            const double v = std::size_t(i) < s.values.size() ? s.values[std::size_t(i)] : 0.0;
            row << QString::number(v, 'g', 15);
        }
        rows.push_back(std::move(row));
    }
    return csvText(header, rows);
}

int BarChart::neededHeight() const {
    const int n = std::max(int(m_spec.categories.size()), 1);
    if (!m_spec.horizontal) {
        return 220;
    }
    const int perCategory =
        (m_spec.stacked ? kBarPx : kBarPx * std::max(int(m_spec.sets.size()), 1)) + kGroupGapPx;
    const int legend = chart()->legend()->isVisible() ? kLegendPx : 0;
    const int title = m_spec.title.isEmpty() ? 0 : QFontMetrics(chart()->titleFont()).height() + 8;
    return kFramePx + legend + title + n * perCategory;
}

QSize BarChart::sizeHint() const {
    return {480, neededHeight()};
}

QSize BarChart::minimumSizeHint() const {
    // Horizontal bars keep the height their rows need (the caller scrolls); vertical ones shrink.
    return {240, m_spec.horizontal ? neededHeight() : 160};
}

void BarChart::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    relabel();
}

}  // namespace wl::ui::charts
