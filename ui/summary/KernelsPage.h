#pragma once

#include <QWidget>
#include <vector>

#include "analysis/Analysis.h"
#include "model/Trace.h"

class QSortFilterProxyModel;
class QTableView;

namespace wl::ui {
class StatisticsModel;
}

namespace wl::ui::charts {
class BarChart;
}

namespace wl::ui::summary {

// The Summary's kernels, as `nsys stats` cuda_gpu_kern_sum and the PyTorch profiler's GPU Kernel
// view give them: the longest kernels as a chart, every kernel name in a sortable table (calls,
// total, mean, median, p95, std-dev, min, max, launch configuration, registers, theoretical
// occupancy, tensor cores), and the durations of the selected one as a histogram. Double-clicking
// a row or clicking a bar asks for that kernel's launches on the timeline. GUI thread.
class KernelsPage : public QWidget {
    Q_OBJECT
public:
    explicit KernelsPage(QWidget* parent = nullptr);

    void setAnalysis(model::TracePtr trace, std::shared_ptr<const analysis::AnalysisResult> result);
    void clear();
    // Shows the histogram of the kernel in row `row` of the model (by total, longest first).
    void selectKernel(int row);

    QTableView* table() const { return m_table; }
    StatisticsModel* model() const { return m_model; }
    charts::BarChart* topChart() const { return m_top; }
    charts::BarChart* histogram() const { return m_histogram; }

    static constexpr std::size_t kTopKernels = 10;
    static constexpr std::size_t kHistogramBins = 24;

signals:
    void slicesActivated(std::vector<wl::model::SliceRef> refs);

private:
    void showHistogram(int modelRow);
    void activate(int modelRow);

    model::TracePtr m_trace;
    std::shared_ptr<const analysis::AnalysisResult> m_result;
    StatisticsModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;
    charts::BarChart* m_top = nullptr;
    charts::BarChart* m_histogram = nullptr;
};

}  // namespace wl::ui::summary
