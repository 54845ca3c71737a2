#pragma once

#include <QWidget>
#include <memory>
#include <vector>

#include "analysis/Summary.h"
#include "model/Trace.h"

class QCheckBox;
class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace wl::ui::charts {
class BarChart;
}

namespace wl::ui::summary {

class OperatorTableModel;

// The Summary's operators, as the PyTorch profiler's Operator view gave them: the framework's CPU
// operators (or, in a trace without any, its NVTX ranges) by name, or by name and input shapes,
// with their host and GPU times, and the longest as a chart. Double-clicking a row asks for its
// calls on the timeline. GUI thread.
class OperatorsPage : public QWidget {
    Q_OBJECT
public:
    explicit OperatorsPage(QWidget* parent = nullptr);

    void setAnalysis(model::TracePtr trace, std::shared_ptr<const analysis::Summary> summary,
                     std::vector<model::TimeRange> windowParts);
    void clear();
    void setGroupByShapes(bool byShapes);

    QTableView* table() const { return m_table; }
    OperatorTableModel* model() const { return m_model; }
    charts::BarChart* chart() const { return m_chart; }
    QCheckBox* shapesBox() const { return m_byShapes; }

    static constexpr std::size_t kTopOperators = 10;

signals:
    void slicesActivated(std::vector<wl::model::SliceRef> refs);

private:
    void activate(int modelRow);

    model::TracePtr m_trace;
    std::shared_ptr<const analysis::Summary> m_summary;
    std::vector<model::TimeRange> m_parts;
    QLabel* m_empty = nullptr;
    QCheckBox* m_byShapes = nullptr;
    OperatorTableModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;
    charts::BarChart* m_chart = nullptr;
};

}  // namespace wl::ui::summary
