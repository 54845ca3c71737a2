#pragma once

#include <array>
#include <memory>
#include <vector>

#include <QWidget>

#include "analysis/Analysis.h"
#include "model/Trace.h"
#include "ui/analysis/RunMetrics.h"

class QComboBox;
class QLabel;
class QScrollArea;
class QSplitter;

namespace wl::ui {

namespace charts {
class BarChart;
}
class TimelineView;
class TimeScale;

// Baseline against async: both timelines on one shared time scale (zooming one moves the other;
// both show the longer run's length so durations compare by eye), a headline with the speedup, and
// charts of the two runs' wall time, GPU busy %, copy/compute overlap % and copy GB/s (each on its
// own scale), and of the time of the longest kernels in each run under their short names (full
// names in the tooltips). Holds the
// two traces (shared, read-only) and their analyses; GUI thread only.
class CompareView : public QWidget {
    Q_OBJECT
public:
    enum Metric { WallTime, GpuBusy, CopyOverlap, CopyRate, kMetricCount };

    explicit CompareView(QWidget* parent = nullptr);
    ~CompareView() override;

    // Analyses both runs with the default options and shows them; nullptr clears that side.
    void setRuns(model::TracePtr baseline, model::TracePtr async);
    // Same, with analyses already computed (e.g. on a worker thread).
    void setRuns(model::TracePtr baseline,
                 std::shared_ptr<const analysis::AnalysisResult> baseResult, model::TracePtr async,
                 std::shared_ptr<const analysis::AnalysisResult> asyncResult);

    // The runs' measured times, when known: they replace the trace spans, which include setup, in
    // the time bars and the speedup. <= 0 keeps the span. `what` names them in the headline
    // ("wall" for RunOutcome::wallTimeMs, "timed part" for RunOutcome::timedPartMs).
    void setWallTimes(double baselineMs, double asyncMs, const QString& what = QString());
    // What the two sides are called in labels and chart legends ("Baseline" and "Async" unless
    // told: Compare With names the two files).
    void setNames(const QString& first, const QString& second);

    // Where the two timelines are aligned: at each trace's analysis window's start (empty, the
    // default), or at each one's first instance of the NVTX range `rangeName` (a trace without
    // it stays at its window's start, and its label says so). The combo box above the timelines
    // offers the ranges both traces have.
    void alignAt(const QString& rangeName);
    QString alignedAt() const { return m_alignRange; }
    QComboBox* alignmentBox() const { return m_alignBox; }

    TimelineView* baselineView() const { return m_baselineView; }
    TimelineView* asyncView() const { return m_asyncView; }
    const RunMetrics& baselineMetrics() const { return m_baseMetrics; }
    const RunMetrics& asyncMetrics() const { return m_asyncMetrics; }
    double speedup() const;
    QString headline() const;
    charts::BarChart* metricChart(Metric metric) const;
    // The value a bar shows (0 = baseline, 1 = async), as plotted.
    double barValue(Metric metric, int run) const;

    // Kernel time: the kernels (at most kKernelBars, by their longer total of the two runs) under
    // their short names, longest at the top, and the time each run spent in them in ms.
    static constexpr int kKernelBars = 6;
    static constexpr int kMaxAlignmentRanges = 30;  // NVTX ranges offered to align at
    charts::BarChart* kernelChart() const { return m_kernelChart; }
    QStringList kernelChartNames() const;  // top to bottom
    double kernelBarValue(int kernel, int run) const;

protected:
    void showEvent(QShowEvent* event) override;

signals:
    // Clicking a slice in either timeline (the window may show its details).
    void sliceSelected(wl::model::TracePtr trace, wl::model::SliceRef ref);

private:
    void updateCharts();
    void applyAlignment();  // offsets, the shared range and the labels
    void updateRunLabels();
    void fillAlignmentBox();            // the ranges both traces have
    QString legendName(int run) const;  // in the charts' legends
    QString sideTitle(int run) const;   // above each timeline
    void updateKernelChart();
    QString m_timeWhat;  // what the time figures measure ("wall" unless told otherwise)
    QString m_firstName = tr("Baseline");
    QString m_secondName = tr("Async");

    model::TracePtr m_baseline;
    model::TracePtr m_async;
    std::shared_ptr<const analysis::AnalysisResult> m_baseResult;
    std::shared_ptr<const analysis::AnalysisResult> m_asyncResult;
    RunMetrics m_baseMetrics;
    RunMetrics m_asyncMetrics;
    std::shared_ptr<TimeScale> m_scale;
    TimelineView* m_baselineView = nullptr;
    TimelineView* m_asyncView = nullptr;
    QLabel* m_headline = nullptr;
    QLabel* m_baseLabel = nullptr;
    QLabel* m_asyncLabel = nullptr;
    QComboBox* m_alignBox = nullptr;
    QString m_alignRange;                 // empty: the windows' starts
    std::array<QString, 2> m_alignedHow;  // per side: what its offset is, for its label
    QSplitter* m_splitter = nullptr;      // timelines above, bars below
    QScrollArea* m_chartsArea = nullptr;
    bool m_splitSet = false;  // the first show has split the height
    std::array<charts::BarChart*, kMetricCount> m_metricCharts{};  // each on its own scale
    charts::BarChart* m_kernelChart = nullptr;  // the longest kernels on one shared axis
};

}  // namespace wl::ui
