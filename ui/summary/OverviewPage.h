#pragma once

#include <QWidget>

#include "analysis/Analysis.h"
#include "analysis/Summary.h"

class QLabel;
class QScrollArea;

namespace wl::ui::charts {
class BarChart;
class LineChart;
}  // namespace wl::ui::charts

namespace wl::ui::summary {

// The Summary's first page, as the PyTorch profiler's Overview was: the window's iterations as
// stacked bars of what their time went to, the mean breakdown in a line, GPU utilisation over the
// window, and the top findings with their fixes. A click on an iteration's bar or a point of the
// utilisation line asks for that span on the timeline. GUI thread.
class OverviewPage : public QWidget {
    Q_OBJECT
public:
    explicit OverviewPage(QWidget* parent = nullptr);

    void setAnalysis(const analysis::AnalysisResult& result, const analysis::Summary& summary);
    void clear();

    charts::BarChart* iterationChart() const { return m_iterations; }
    charts::LineChart* utilizationChart() const { return m_utilization; }
    QString breakdownText() const;  // the breakdown line, as plain text
    QString findingsText() const;

    static constexpr int kFindings = 3;  // the top findings shown
    static constexpr int kBarPx = 12;    // an iteration's bar and gap, when they need scrolling

signals:
    void rangeActivated(wl::model::TimeRange range);

private:
    QLabel* m_breakdown = nullptr;
    QString m_plainBreakdown;  // the breakdown line without its colour key
    QScrollArea* m_iterationsArea = nullptr;
    charts::BarChart* m_iterations = nullptr;
    charts::LineChart* m_utilization = nullptr;
    QLabel* m_findings = nullptr;
    std::vector<model::TimeRange> m_ranges;  // per iteration
    model::TimeNs m_binNs = 0;
};

}  // namespace wl::ui::summary
