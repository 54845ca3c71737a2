#pragma once

#include <QWidget>
#include <memory>
#include <vector>

#include "analysis/Summary.h"
#include "model/Trace.h"

class QLabel;
class QVBoxLayout;

namespace wl::ui::charts {
class LineChart;
}

namespace wl::ui::summary {

// The Summary's memory, as the PyTorch profiler's Memory view gave it: each device's memory in
// use (and reserved, or held in pools) over the window, its peak marked, and what ran at the
// peak. A click on a chart, or the peak's link, asks for what ran then on the timeline. GUI thread.
class MemoryPage : public QWidget {
    Q_OBJECT
public:
    explicit MemoryPage(QWidget* parent = nullptr);

    void setAnalysis(model::TracePtr trace, std::shared_ptr<const analysis::Summary> summary);
    void clear();

    const std::vector<charts::LineChart*>& charts() const { return m_charts; }
    // Per device: "Peak 1.23 GB in use at 412.301 ms: gemm_kernel, aten::mm".
    QStringList peakTexts() const;

    static constexpr std::size_t kMaxPoints = 2000;  // per series drawn

signals:
    void slicesActivated(std::vector<wl::model::SliceRef> refs);
    void rangeActivated(wl::model::TimeRange range);

private:
    model::TracePtr m_trace;
    std::shared_ptr<const analysis::Summary> m_summary;
    QLabel* m_empty = nullptr;
    QVBoxLayout* m_devices = nullptr;
    std::vector<charts::LineChart*> m_charts;
    std::vector<QLabel*> m_peaks;
};

}  // namespace wl::ui::summary
