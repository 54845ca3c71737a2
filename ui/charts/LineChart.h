#pragma once

#include <QColor>
#include <QPointF>
#include <QString>
#include <vector>

#include "ui/charts/ChartWidget.h"

namespace wl::ui::charts {

// One line: points in x order. A step series holds each value until the next point (a counter
// such as memory in use), and is drawn so.
struct LineSeriesSpec {
    QString name;
    QColor colour;
    std::vector<QPointF> points;
    bool steps = false;
};

struct LineChartSpec {
    QString title;
    QString xTitle;  // "time (ms)"
    QString yTitle;  // "GPU busy (%)", "MB"
    std::vector<LineSeriesSpec> series;
    double yMax = 0.0;  // > 0: the y axis' end (100 for a percentage); 0: from the data
    // Points to mark (a peak), drawn as dots with their own legend name.
    std::vector<QPointF> markers;
    QString markerName;
};

// A Qt Charts line chart over time: the value of every series at the hovered point in the tooltip,
// a click as a signal with its x, and the context menu that saves the chart as PNG and its data as
// CSV. GUI thread.
class LineChart : public ChartWidget {
    Q_OBJECT
public:
    explicit LineChart(QWidget* parent = nullptr);

    void setSpec(LineChartSpec spec);
    const LineChartSpec& spec() const { return m_spec; }
    // The tooltip at x: each series' value there ("memory in use: 1.20 GB" with the y title's
    // unit).
    QString toolTipAt(double x) const;
    // A series' value at x (a step series: the last point at or before x; a line: interpolated).
    static double valueAt(const LineSeriesSpec& series, double x);
    QString csv() const override;  // one row per point of each series: series, x, y

    QSize sizeHint() const override { return {480, 220}; }
    QSize minimumSizeHint() const override { return {240, 140}; }

signals:
    void clicked(double x);

private:
    void rebuild();

    LineChartSpec m_spec;
};

}  // namespace wl::ui::charts
