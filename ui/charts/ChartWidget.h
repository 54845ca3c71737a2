#pragma once

#include <QString>
#include <QWidget>

class QChart;
class QChartView;

namespace wl::ui::charts {

// What every chart widget shares: its Qt Charts chart and view, styled (styleChart), and the
// context menu that asks for the chart as PNG or its data as CSV (ExportRequests: the window
// asks where and writes). A subclass fills the chart and says what its data is. GUI thread.
class ChartWidget : public QWidget {
    Q_OBJECT
public:
    QChartView* chartView() const { return m_view; }
    // The name files saved from the context menu start with.
    void setFileBaseName(const QString& name) { m_fileBaseName = name; }
    QString fileBaseName() const { return m_fileBaseName; }
    // The chart's data as CSV, the column names first.
    virtual QString csv() const = 0;

protected:
    explicit ChartWidget(QWidget* parent);
    QChart* chart() const { return m_chart; }

private:
    QChart* m_chart = nullptr;
    QChartView* m_view = nullptr;
    QString m_fileBaseName = QStringLiteral("chart");
};

}  // namespace wl::ui::charts
